// OpenMP: outlined parallel regions of template instances (`__kmpc_fork_call`).
#include <cstdio>
template <typename T> T sum(const T *a, int n) {
  T s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
template <typename T> void scale(T *a, int n, T k) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] *= k;
}
struct A { int x; }; struct B { int y; };
template <typename T> int getx(const T &t) { return *(const int *)&t; }
int main() {
  int ai[100]; long al[100]; unsigned au[100]; float af[100];
  for (int i = 0; i < 100; i++) { ai[i] = i; al[i] = i; au[i] = i; af[i] = i; }
  scale(ai, 100, 2); scale(au, 100, 2u); scale(al, 100, 2l); scale(af, 100, 2.f);
  printf("%d %ld %u %f\n", sum(ai, 100), sum(al, 100), sum(au, 100), sum(af, 100));
  A a{3}; B b{4};
  printf("%d %d\n", getx(a), getx(b));
  return 0;
}
