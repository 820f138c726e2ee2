// C++20 coroutines: the same generator instantiated for several types, and twice alike.
#include <coroutine>
#include <cstdio>
#include <exception>
template <typename T> struct gen {
  struct promise_type {
    T value;
    gen get_return_object() { return gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) { value = v; return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  ~gen() { if (h) h.destroy(); }
  bool next() { h.resume(); return !h.done(); }
  T get() { return h.promise().value; }
};
template <typename T> gen<T> count(T n) { for (T i = 0; i < n; ++i) co_yield i; }
template <typename T> gen<T> count2(T n) { for (T i = 0; i < n; ++i) co_yield i; }
int main() {
  long s = 0;
  for (auto g = count<int>(10); g.next();) s += g.get();
  for (auto g = count<unsigned>(10); g.next();) s += g.get();
  for (auto g = count2<int>(5); g.next();) s += g.get();
  for (auto g = count<long>(7); g.next();) s += g.get();
  printf("%ld\n", s);
}
