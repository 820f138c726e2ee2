// A workload for LevelDB (bench/cpp-libraries.sh): three rounds of batched writes and deletes
// into a fresh database, each compacted, then a scan hashing every entry and point reads. What
// it prints depends only on the data, not on timing or the machine.
#include <cstdio>
#include <string>

#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"

int main(int argc, char** argv) {
  std::string path = argc > 1 ? argv[1] : "leveldb-driver.db";
  leveldb::DestroyDB(path, leveldb::Options());
  leveldb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;  // Small: many files, many compactions.
  options.block_cache = leveldb::NewLRUCache(1 << 20);
  options.filter_policy = leveldb::NewBloomFilterPolicy(10);
  leveldb::DB* db;
  leveldb::Status status = leveldb::DB::Open(options, path, &db);
  if (!status.ok()) {
    std::printf("open: %s\n", status.ToString().c_str());
    return 1;
  }
  for (int round = 0; round < 3; round++) {
    leveldb::WriteBatch batch;
    for (int i = 0; i < 20000; i++) {
      char key[32], value[64];
      std::snprintf(key, sizeof key, "key%07d", (i * 7919 + round) % 30000);
      std::snprintf(value, sizeof value, "value-%d-%d-%x", round, i, i * 2654435761u);
      batch.Put(key, value);
      if (i % 500 == 499) {
        db->Write(leveldb::WriteOptions(), &batch);
        batch.Clear();
      }
    }
    db->Write(leveldb::WriteOptions(), &batch);
    for (int i = 0; i < 30000; i += 97) {
      char key[32];
      std::snprintf(key, sizeof key, "key%07d", i);
      db->Delete(leveldb::WriteOptions(), key);
    }
    db->CompactRange(nullptr, nullptr);
  }
  // FNV-1a over every key and value, in order.
  unsigned long hash = 1469598103934665603ul;
  int entries = 0;
  leveldb::Iterator* it = db->NewIterator(leveldb::ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    entries++;
    for (char c : it->key().ToString() + it->value().ToString()) {
      hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ul;
    }
  }
  std::printf("entries %d hash %lx\n", entries, hash);
  for (int i = 0; i < 30000; i += 1234) {
    char key[32];
    std::snprintf(key, sizeof key, "key%07d", i);
    std::string value;
    status = db->Get(leveldb::ReadOptions(), key, &value);
    std::printf("%s -> %s\n", key, status.ok() ? value.c_str() : status.ToString().c_str());
  }
  std::string files;
  db->GetProperty("leveldb.num-files-at-level0", &files);
  std::printf("files at level 0: %s\n", files.c_str());
  delete it;
  delete db;
  delete options.filter_policy;
  delete options.block_cache;
  leveldb::DestroyDB(path, leveldb::Options());
  return 0;
}
