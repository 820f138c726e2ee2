/* Compresses generated data with zlib (bundled in the libz-sys crate) at every level and
   strategy, in one call and in small steps, and through a gzip file; inflates it back and
   prints sizes and checksums (bench/c-libraries.sh builds it merged and not). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zlib.h"

static unsigned char *make_data(size_t n) {
  unsigned char *data = malloc(n);
  unsigned long x = 2463534242UL;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x &= 0xffffffffUL;
    /* Text-like runs with some noise: compressible, not trivially. */
    data[i] = (x % 7 == 0) ? (unsigned char)(x >> 8) : (unsigned char)"abcdefgh "[i % 9];
  }
  return data;
}

/* Deflate `in` with the given parameters, feeding and draining `step` bytes at a time. */
static size_t deflate_stepwise(const unsigned char *in, size_t n, unsigned char *out, size_t cap,
                               int level, int strategy, size_t step) {
  z_stream s;
  memset(&s, 0, sizeof s);
  if (deflateInit2(&s, level, Z_DEFLATED, 15, 8, strategy) != Z_OK) return 0;
  size_t fed = 0;
  int ret;
  do {
    size_t chunk = n - fed < step ? n - fed : step;
    s.next_in = (unsigned char *)in + fed;
    s.avail_in = (uInt)chunk;
    fed += chunk;
    int flush = fed == n ? Z_FINISH : Z_NO_FLUSH;
    do {
      size_t room = cap - s.total_out < step ? cap - s.total_out : step;
      s.next_out = out + s.total_out;
      s.avail_out = (uInt)room;
      ret = deflate(&s, flush);
    } while (s.avail_out == 0 && ret != Z_STREAM_END);
  } while (fed < n);
  size_t total = s.total_out;
  deflateEnd(&s);
  return ret == Z_STREAM_END ? total : 0;
}

static int inflate_all(const unsigned char *in, size_t n, unsigned char *out, size_t cap,
                       size_t *got) {
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit(&s) != Z_OK) return -1;
  s.next_in = (unsigned char *)in;
  s.avail_in = (uInt)n;
  s.next_out = out;
  s.avail_out = (uInt)cap;
  int ret = inflate(&s, Z_FINISH);
  *got = s.total_out;
  inflateEnd(&s);
  return ret;
}

int main(int argc, char **argv) {
  const char *gz_path = argc > 1 ? argv[1] : "zlib-driver.gz";
  size_t n = 1 << 18;
  unsigned char *data = make_data(n);
  size_t cap = compressBound(n) + 1024;
  unsigned char *packed = malloc(cap), *back = malloc(n + 16);
  printf("data crc32 %08lx adler32 %08lx\n", crc32(0, data, (uInt)n), adler32(1, data, (uInt)n));

  uLongf packed_len = cap;
  compress2(packed, &packed_len, data, n, 9);
  uLongf back_len = n + 16;
  int ret = uncompress(back, &back_len, packed, packed_len);
  printf("compress2 %lu uncompress %d %lu same %d\n", (unsigned long)packed_len, ret,
         (unsigned long)back_len, back_len == n && memcmp(back, data, n) == 0);

  const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
  for (int level = 0; level <= 9; level++) {
    for (int k = 0; k < 5; k++) {
      size_t step = level % 2 ? 4096 : 777;
      size_t len = deflate_stepwise(data, n, packed, cap, level, strategies[k], step);
      size_t got = 0;
      ret = inflate_all(packed, len, back, n + 16, &got);
      printf("level %d strategy %d: %zu bytes crc %08lx, inflate %d same %d\n", level, k, len,
             crc32(0, packed, (uInt)len), ret, got == n && memcmp(back, data, n) == 0);
    }
  }

  gzFile gz = gzopen(gz_path, "wb6");
  for (size_t i = 0; i < n; i += 10000) gzwrite(gz, data + i, (unsigned)(n - i < 10000 ? n - i : 10000));
  gzprintf(gz, "tail %d\n", 42);
  gzclose(gz);
  gz = gzopen(gz_path, "rb");
  memset(back, 0, n + 16);
  int read = gzread(gz, back, (unsigned)(n + 16));
  gzclose(gz);
  printf("gzip read %d same %d tail %.8s\n", read, memcmp(back, data, n) == 0, (char *)back + n);
  remove(gz_path);
  free(data);
  free(packed);
  free(back);
  return 0;
}
