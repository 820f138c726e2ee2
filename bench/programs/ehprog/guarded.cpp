// Exception handling as each target lowers it (Windows' funclet pads, WebAssembly's, the
// Itanium landing pads of MinGW): template instances that throw and catch, twice alike.
struct E { int v; };
template <typename T> struct Box { T v; ~Box(); };
template <typename T> Box<T>::~Box() { v = T(); }
void may_throw(int x);
template <typename T> T guarded(T x) {
  Box<T> b{x};
  try { may_throw((int)x); } catch (E &e) { return (T)e.v; } catch (...) { throw; }
  return b.v;
}
template <typename T> T guarded2(T x) {
  Box<T> b{x};
  try { may_throw((int)x); } catch (E &e) { return (T)e.v; } catch (...) { throw; }
  return b.v;
}
int use() { return guarded<int>(1) + guarded<unsigned>(2) + guarded2<int>(3) + (int)guarded<long>(4); }
