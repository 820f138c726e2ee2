// C features whose instructions merging compares: each function has a twin that must merge
// with it, and a near twin that differs in one detail and must not.
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Computed goto: blockaddress and indirectbr. A function whose blocks' addresses a global holds
// merges with no other, for opt-22 as for mergefn.
#define DISPATCH(name) \
  __attribute__((noinline)) int name(const unsigned char *ops, int n) { \
    static const void *table[] = {&&add, &&sub, &&done}; \
    int acc = 0, i = 0; \
    goto *table[ops[i]]; \
  add: acc += 3; if (++i < n) goto *table[ops[i]]; return acc; \
  sub: acc -= 1; if (++i < n) goto *table[ops[i]]; return acc; \
  done: return acc; \
  }
DISPATCH(dispatch_a)
DISPATCH(dispatch_b)

// asm goto: callbr.
#define ASMGOTO(name, k) \
  __attribute__((noinline)) int name(int x) { \
    asm goto("testl %0, %0; jz %l1" : : "r"(x) : "cc" : zero); \
    return x * k; \
  zero: return -1; \
  }
ASMGOTO(asm_goto_a, 2)
ASMGOTO(asm_goto_b, 2)
ASMGOTO(asm_goto_c, 3)

// Inline assembly: the same text and constraints merge; another text does not.
__attribute__((noinline)) int rotl_a(int x) { int r; asm("roll $3, %0" : "=r"(r) : "0"(x)); return r; }
__attribute__((noinline)) int rotl_b(int x) { int r; asm("roll $3, %0" : "=r"(r) : "0"(x)); return r; }
__attribute__((noinline)) int rotl_c(int x) { int r; asm("roll $5, %0" : "=r"(r) : "0"(x)); return r; }

// _BitInt: odd integer widths.
__attribute__((noinline)) _BitInt(37) wide_a(_BitInt(37) x, _BitInt(37) y) { return x * y + 5; }
__attribute__((noinline)) _BitInt(37) wide_b(_BitInt(37) x, _BitInt(37) y) { return x * y + 5; }
__attribute__((noinline)) _BitInt(39) wide_c(_BitInt(39) x, _BitInt(39) y) { return x * y + 5; }
__attribute__((noinline)) unsigned __int128 mul128_a(unsigned __int128 x) { return x * x + 1; }
__attribute__((noinline)) unsigned __int128 mul128_b(unsigned __int128 x) { return x * x + 1; }

// Atomics: orderings tell apart.
__attribute__((noinline)) int bump_a(_Atomic int *p) { return atomic_fetch_add_explicit(p, 2, memory_order_relaxed); }
__attribute__((noinline)) int bump_b(_Atomic int *p) { return atomic_fetch_add_explicit(p, 2, memory_order_relaxed); }
__attribute__((noinline)) int bump_c(_Atomic int *p) { return atomic_fetch_add_explicit(p, 2, memory_order_seq_cst); }
__attribute__((noinline)) int swap_a(_Atomic int *p, int o, int n) { atomic_compare_exchange_strong(p, &o, n); return o; }
__attribute__((noinline)) int swap_b(_Atomic int *p, int o, int n) { atomic_compare_exchange_strong(p, &o, n); return o; }
__attribute__((noinline)) int swap_c(_Atomic int *p, int o, int n) { atomic_compare_exchange_weak(p, &o, n); return o; }
__attribute__((noinline)) void fence_a(void) { atomic_thread_fence(memory_order_acquire); }
__attribute__((noinline)) void fence_b(void) { atomic_thread_fence(memory_order_acquire); }
__attribute__((noinline)) void fence_c(void) { atomic_signal_fence(memory_order_acquire); }

// Volatile tells apart.
__attribute__((noinline)) int peek_a(int *p) { return *(volatile int *)p + 1; }
__attribute__((noinline)) int peek_b(int *p) { return *(volatile int *)p + 1; }
__attribute__((noinline)) int peek_c(int *p) { return *p + 1; }

// Variable-length arrays: stacksave and stackrestore, dynamic allocas.
__attribute__((noinline)) int vla_a(int n) { int v[n]; for (int i = 0; i < n; i++) v[i] = i * i; return v[n / 2]; }
__attribute__((noinline)) int vla_b(int n) { int v[n]; for (int i = 0; i < n; i++) v[i] = i * i; return v[n / 2]; }

// setjmp: returns_twice.
static jmp_buf env;
__attribute__((noinline)) void jump(int v) { longjmp(env, v); }
__attribute__((noinline)) int catch_a(int v) { int r = setjmp(env); if (r == 0) jump(v); return r; }
__attribute__((noinline)) int catch_b(int v) { int r = setjmp(env); if (r == 0) jump(v); return r; }

// cleanup attribute, complex numbers, _Float16, vectors.
static void release(char **p) { free(*p); }
__attribute__((noinline)) size_t dup_a(const char *s) { __attribute__((cleanup(release))) char *c = strdup(s); return strlen(c); }
__attribute__((noinline)) size_t dup_b(const char *s) { __attribute__((cleanup(release))) char *c = strdup(s); return strlen(c); }
__attribute__((noinline)) double _Complex cmul_a(double _Complex x, double _Complex y) { return x * y; }
__attribute__((noinline)) double _Complex cmul_b(double _Complex x, double _Complex y) { return x * y; }
__attribute__((noinline)) _Float16 half_a(_Float16 x, _Float16 y) { return x * y + (_Float16)1.5; }
__attribute__((noinline)) _Float16 half_b(_Float16 x, _Float16 y) { return x * y + (_Float16)1.5; }
typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
__attribute__((noinline)) v4si vadd_a(v4si x, v4si y) { return __builtin_shufflevector(x + y, x, 3, 2, 1, 0); }
__attribute__((noinline)) v4si vadd_b(v4si x, v4si y) { return __builtin_shufflevector(x + y, x, 3, 2, 1, 0); }
__attribute__((noinline)) v4si vadd_c(v4si x, v4si y) { return __builtin_shufflevector(x + y, x, 0, 1, 2, 3); }
__attribute__((noinline)) v4sf vfl_a(v4sf x) { return x * 2.0f; }
__attribute__((noinline)) v4sf vfl_b(v4sf x) { return x * 2.0f; }

// Builtins: expect, assume, unreachable, overflow checks, bit counting.
__attribute__((noinline)) int builtins_a(int x, int y) {
  int s;
  if (__builtin_expect(__builtin_add_overflow(x, y, &s), 0)) return -1;
  __builtin_assume(s != 7);
  return __builtin_popcount(s) + __builtin_clz(s | 1) + __builtin_ctz(s | 16);
}
__attribute__((noinline)) int builtins_b(int x, int y) {
  int s;
  if (__builtin_expect(__builtin_add_overflow(x, y, &s), 0)) return -1;
  __builtin_assume(s != 7);
  return __builtin_popcount(s) + __builtin_clz(s | 1) + __builtin_ctz(s | 16);
}
__attribute__((noinline)) int sw_a(int x) { switch (x) { case 1: return 10; case 5: return 7; case 9: return 3; default: __builtin_unreachable(); } }
__attribute__((noinline)) int sw_b(int x) { switch (x) { case 1: return 10; case 5: return 7; case 9: return 3; default: __builtin_unreachable(); } }
__attribute__((noinline)) int sw_c(int x) { switch (x) { case 1: return 10; case 6: return 7; case 9: return 3; default: __builtin_unreachable(); } }

// Struct copies (memcpy), unions, bit-fields.
struct big { long a[8]; int tag : 3; int rest : 29; };
__attribute__((noinline)) struct big copy_a(const struct big *b) { struct big c = *b; c.tag = 2; return c; }
__attribute__((noinline)) struct big copy_b(const struct big *b) { struct big c = *b; c.tag = 2; return c; }
__attribute__((noinline)) struct big copy_c(const struct big *b) { struct big c = *b; c.rest = 2; return c; }

// Function pointers: the same callee merges, another does not.
static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }
__attribute__((noinline)) int apply_a(int (*f)(int), int x) { return f(f(x)); }
__attribute__((noinline)) int apply_b(int (*f)(int), int x) { return f(f(x)); }
__attribute__((noinline)) int twice_inc_a(int x) { return apply_a(inc, x); }
__attribute__((noinline)) int twice_inc_b(int x) { return apply_b(inc, x); }
__attribute__((noinline)) int twice_dec(int x) { return apply_a(dec, x); }

int main(void) {
  unsigned char ops[] = {0, 0, 1, 0, 2};
  _Atomic int at = 5;
  int plain = 4;
  struct big b = {{1, 2, 3, 4, 5, 6, 7, 8}, 1, 9};
  struct big c1 = copy_a(&b), c2 = copy_b(&b), c3 = copy_c(&b);
  v4si x = {1, 2, 3, 4}, y = {10, 20, 30, 40};
  v4si s1 = vadd_a(x, y), s2 = vadd_b(x, y), s3 = vadd_c(x, y);
  v4sf f = {1.5f, 2.5f, 3.5f, 4.5f};
  v4sf g1 = vfl_a(f), g2 = vfl_b(f);
  double _Complex z1 = cmul_a(1.0 + 2.0 * 1.0i, 3.0 - 1.0i), z2 = cmul_b(2.0, 1.0i);
  printf("%d %d\n", dispatch_a(ops, 5), dispatch_b(ops, 4));
  printf("%d %d %d %d\n", asm_goto_a(4), asm_goto_b(0), asm_goto_c(4), asm_goto_c(0));
  printf("%d %d %d\n", rotl_a(1), rotl_b(2), rotl_c(1));
  printf("%lld %lld %lld\n", (long long)wide_a(1000, 1000), (long long)wide_b(3, 4), (long long)wide_c(1000000, 1000));
  printf("%llu %llu\n", (unsigned long long)mul128_a(1ull << 40), (unsigned long long)(mul128_b(1ull << 40) >> 64));
  printf("%d %d %d %d\n", bump_a(&at), bump_b(&at), bump_c(&at), at);
  printf("%d %d %d %d\n", swap_a(&at, 11, 1), swap_b(&at, 1, 2), swap_c(&at, 9, 3), at);
  fence_a(); fence_b(); fence_c();
  printf("%d %d %d\n", peek_a(&plain), peek_b(&plain), peek_c(&plain));
  printf("%d %d\n", vla_a(9), vla_b(5));
  printf("%d %d\n", catch_a(3), catch_b(4));
  printf("%zu %zu\n", dup_a("merge"), dup_b("functions"));
  printf("%g %g %g %g\n", __real__ z1, __imag__ z1, __real__ z2, __imag__ z2);
  printf("%g %g\n", (double)half_a(1.5, 2.0), (double)half_b(0.5, 0.25));
  printf("%d %d %d %d %d %d\n", s1[0], s1[3], s2[1], s2[2], s3[0], s3[3]);
  printf("%g %g\n", g1[0], g2[3]);
  printf("%d %d\n", builtins_a(3, 4), builtins_b(100, 28));
  printf("%d %d %d\n", sw_a(5), sw_b(9), sw_c(6));
  printf("%ld %d %d %d %d %d\n", c1.a[7], c1.tag, c2.tag, c3.tag, c1.rest, c3.rest);
  printf("%d %d %d\n", twice_inc_a(1), twice_inc_b(2), twice_dec(10));
  return 0;
}
