/* A driver for zstd's library (the corpus's zstd-O0.ll and zstd-O2.ll hold both): compress
 * text it makes itself at several levels, decompress it again, and print the sizes, whether
 * the round trip held and a hash of every compressed byte, so that a build from merged IR
 * must compress exactly as the build from the input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zstd.h"

static const char *words[] = {"select", "from", "where", "merge", "function", "module",
                              "thunk", "alias", "survivor", "class", "partition", "hash",
                              "0", "1", "42", "\n", ", ", "; ", "(", ")"};

int main(void) {
    size_t n = 1 << 18;
    char *text = malloc(n);
    unsigned state = 12345;
    size_t at = 0;
    while (at < n) {
        state = state * 1103515245u + 12345u;
        const char *w = words[(state >> 16) % (sizeof words / sizeof *words)];
        size_t len = strlen(w);
        for (size_t i = 0; i < len && at < n; i++) text[at++] = w[i];
        if (at < n) text[at++] = ' ';
    }
    size_t cap = ZSTD_compressBound(n);
    char *packed = malloc(cap), *back = malloc(n);
    unsigned long long hash = 1469598103934665603ull;
    int levels[] = {1, 3, 7, 12, 19};
    for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
        size_t c = ZSTD_compress(packed, cap, text, n, levels[l]);
        if (ZSTD_isError(c)) {
            printf("level %d: %s\n", levels[l], ZSTD_getErrorName(c));
            return 1;
        }
        size_t d = ZSTD_decompress(back, n, packed, c);
        int same = !ZSTD_isError(d) && d == n && memcmp(back, text, n) == 0;
        for (size_t i = 0; i < c; i++) hash = (hash ^ (unsigned char)packed[i]) * 1099511628211ull;
        printf("level %d: %zu -> %zu bytes, round trip %s\n", levels[l], n, c, same ? "ok" : "FAILED");
    }
    printf("hash of the compressed bytes: %016llx\n", hash);
    free(text);
    free(packed);
    free(back);
    return 0;
}
