/* Exercises mimalloc (bundled in the libmimalloc-sys crate, its one-file build): allocations of
   many sizes and alignments, reallocation, heaps, zeroed memory, and threads whose blocks the
   main thread frees; prints only what is the same from run to run (bench/c-libraries.sh). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mimalloc.h"

#define SLOTS 4096

static void *slots[SLOTS];

static void *worker(void *arg) {
  uintptr_t id = (uintptr_t)arg;
  unsigned long sum = 0;
  for (int round = 0; round < 20; round++) {
    for (int i = (int)id; i < SLOTS; i += 4) {
      if (slots[i]) {
        sum += ((unsigned char *)slots[i])[0];
        mi_free(slots[i]);
      }
      size_t size = (size_t)((i * 37 + round * 11) % 3000) + 1;
      slots[i] = mi_malloc(size);
      memset(slots[i], (int)(size & 0xff), size);
    }
  }
  return (void *)(uintptr_t)sum;
}

int main(void) {
  unsigned long total = 0;
  for (size_t size = 1; size < (1u << 20); size = size * 3 + 1) {
    unsigned char *p = mi_malloc(size);
    memset(p, 7, size);
    p = mi_realloc(p, size * 2 + 5);
    total += p[size - 1] + mi_usable_size(p) >= size * 2 + 5;
    mi_free(p);
  }
  printf("realloc %lu\n", total);

  int aligned = 0;
  for (size_t align = 8; align <= 65536; align *= 2) {
    void *p = mi_malloc_aligned(align * 3, align);
    aligned += ((uintptr_t)p % align) == 0;
    mi_free(p);
  }
  printf("aligned %d\n", aligned);

  unsigned char *z = mi_zalloc(100000);
  int zero = 1;
  for (int i = 0; i < 100000; i++) zero &= z[i] == 0;
  mi_free(z);
  printf("zeroed %d\n", zero);

  mi_heap_t *heap = mi_heap_new();
  unsigned long heap_sum = 0;
  for (int i = 0; i < 10000; i++) {
    int *v = mi_heap_malloc(heap, sizeof(int) * (size_t)(i % 50 + 1));
    v[0] = i;
    heap_sum += (unsigned long)v[0];
  }
  mi_heap_destroy(heap);
  printf("heap %lu\n", heap_sum);

  char *s = mi_strdup("merged functions");
  char *t = mi_strndup(s, 6);
  printf("strings %s|%s\n", s, t);
  mi_free(s);
  mi_free(t);

  pthread_t threads[4];
  unsigned long freed = 0;
  for (uintptr_t i = 0; i < 4; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(threads[i], &r);
    freed += (uintptr_t)r;
  }
  printf("threads freed checksum %lu\n", freed);
  for (int i = 0; i < SLOTS; i++) mi_free(slots[i]);
  return 0;
}
