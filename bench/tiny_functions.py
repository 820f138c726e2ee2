#!/usr/bin/env python3
"""Write a module of many tiny functions, the shape of generated code: N internal functions of
three blocks each, in CLASSES classes of equal bodies (they differ by one constant), and a
`main` that calls every one of them. Real modules have 1.6 KB of text or more per function
(stlprog-O0); these have about 350 bytes, so what mergefn spends per function (its model of the
header, the results of reading its body, a fold) weighs most here. Not part of the corpus: a
measure of that cost, used in BENCHMARKS.md.

Usage: bench/tiny_functions.py [N [CLASSES]] > tiny.ll   (defaults: 40000 and 200)
"""
import sys


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40000
    classes = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    out = sys.stdout
    out.write('target triple = "x86_64-pc-linux-gnu"\n\n')
    for i in range(count):
        out.write(
            f"define internal i32 @f{i}(i32 %x, ptr %p) {{\n"
            f"entry:\n"
            f"  %a = add nsw i32 %x, {i % classes}\n"
            f"  %b = load i32, ptr %p, align 4\n"
            f"  %c = mul i32 %a, %b\n"
            f"  %cmp = icmp sgt i32 %c, 10\n"
            f"  br i1 %cmp, label %t, label %e\n"
            f"t:\n"
            f"  store i32 %c, ptr %p, align 4\n"
            f"  br label %e\n"
            f"e:\n"
            f"  %r = phi i32 [ %c, %t ], [ %a, %entry ]\n"
            f"  ret i32 %r\n"
            f"}}\n\n"
        )
    out.write("define i32 @main(i32 %n, ptr %p) {\nentry:\n")
    previous = "%n"
    for i in range(count):
        out.write(f"  %v{i} = call i32 @f{i}(i32 {previous}, ptr %p)\n")
        previous = f"%v{i}"
    out.write(f"  ret i32 {previous}\n}}\n")


if __name__ == "__main__":
    main()
