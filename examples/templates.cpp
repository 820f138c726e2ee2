// Template instantiations that compile to identical code: what mergefn folds.
#include <cstdint>
#include <cstdio>

template <typename T> struct Stack {
  T items[16];
  int size = 0;
  void push(T v) { if (size < 16) items[size++] = v; }
  T pop() { return size > 0 ? items[--size] : T(); }
  T sum() const { T s = T(); for (int i = 0; i < size; i++) s += items[i]; return s; }
};

template <typename T> __attribute__((noinline)) T run(int n) {
  Stack<T> s;
  for (int i = 0; i < n; i++) s.push(T(i * 3));
  T total = s.sum();
  s.pop();
  return total + s.pop();
}

int main(int argc, char **) {
  long a = run<long>(argc + 5);
  unsigned long b = run<unsigned long>(argc + 6);
  int64_t c = run<int64_t>(argc + 7);
  int d = run<int>(argc + 8);
  unsigned e = run<unsigned>(argc + 9);
  std::printf("%ld %lu %ld %d %u\n", a, b, (long)c, d, e);
  return 0;
}
