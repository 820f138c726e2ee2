// C blocks (`-fblocks`): block literals, their descriptors and invoke functions.
#include <stdio.h>
typedef int (^IntOp)(int);
static int apply(IntOp f, int x) { return f(x); }
static int apply2(IntOp f, int x) { return f(x); }
int main(void) {
  int k = 3;
  IntOp a = ^(int x) { return x * k; };
  IntOp b = ^(int x) { return x * k; };
  printf("%d %d\n", apply(a, 2), apply2(b, 5));
  return 0;
}
