/* A deterministic SQL workload over the SQLite amalgamation: its output is compared between
   the unmerged and the merged build. */
#include <stdio.h>
#include <stdlib.h>
#include "sqlite3.h"

static int print_row(void *tag, int n, char **values, char **names) {
  printf("%s:", (const char *)tag);
  for (int i = 0; i < n; i++) printf(" %s=%s", names[i], values[i] ? values[i] : "NULL");
  printf("\n");
  return 0;
}

static void run(sqlite3 *db, const char *tag, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, print_row, (void *)tag, &err) != SQLITE_OK) {
    printf("%s: error: %s\n", tag, err);
    sqlite3_free(err);
  }
}

int main(void) {
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;
  run(db, "schema",
      "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL, qty INT);"
      "CREATE TABLE tag(item INT, label TEXT);"
      "CREATE INDEX tag_item ON tag(item);");
  run(db, "fill",
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<5000)"
      " INSERT INTO item SELECT i, printf('item-%05d', i), (i*37%1000)/10.0, i%17 FROM n;"
      "INSERT INTO tag SELECT id, CASE id%3 WHEN 0 THEN 'red' WHEN 1 THEN 'green' ELSE 'blue' END"
      " FROM item;"
      "INSERT INTO tag SELECT id, 'sale' FROM item WHERE qty > 12;");
  run(db, "agg",
      "SELECT label, count(*) AS n, round(sum(price*qty),2) AS total, min(name) AS first"
      " FROM item JOIN tag ON tag.item=item.id GROUP BY label ORDER BY label;");
  run(db, "window",
      "SELECT id, name, rank() OVER (PARTITION BY qty ORDER BY price DESC, id) AS r"
      " FROM item WHERE id % 499 = 0 ORDER BY id;");
  run(db, "text",
      "SELECT upper(substr(name,1,6)) AS u, length(group_concat(name,'|')) AS len, hex(qty) AS h"
      " FROM item WHERE id < 40 GROUP BY qty ORDER BY qty LIMIT 8;");
  run(db, "json",
      "SELECT json_object('id',id,'tags',(SELECT json_group_array(label) FROM tag WHERE item=id))"
      " AS j FROM item WHERE id IN (3,4,5,1000);");
  run(db, "update",
      "UPDATE item SET price = price * 1.1 WHERE qty = 3; DELETE FROM tag WHERE label='blue' AND item%2=0;"
      "SELECT count(*) AS tags, (SELECT round(avg(price),4) FROM item) AS avgprice FROM tag;");
  run(db, "like",
      "SELECT count(*) AS c FROM item WHERE name LIKE '%7%' AND name GLOB '*3*';");
  sqlite3_close(db);
  return 0;
}
