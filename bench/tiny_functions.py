#!/usr/bin/env python3
"""Write a module of many tiny functions, the shape of generated code: N internal functions of
three blocks each, in CLASSES classes of equal bodies (they differ by one constant), and a
`main` that calls every one of them. Real modules have 1.6 KB of text or more per function
(stlprog-O0); these have about 350 bytes, so what mergefn spends per function (its model of the
header, the results of reading its body, a fold) weighs most here. Not part of the corpus: a
measure of that cost, used in BENCHMARKS.md.

With `--comdat`, the functions have the shape of C++ inline functions instead: `linkonce_odr`,
each in its own comdat (what most of a C++ module's functions at -O0 are).

Usage: bench/tiny_functions.py [--comdat] [N [CLASSES]] > tiny.ll   (defaults: 40000 and 200)
"""
import sys


def main():
    args = sys.argv[1:]
    comdat = "--comdat" in args
    args = [a for a in args if a != "--comdat"]
    count = int(args[0]) if len(args) > 0 else 40000
    classes = int(args[1]) if len(args) > 1 else 200
    out = sys.stdout
    out.write('target triple = "x86_64-pc-linux-gnu"\n\n')
    if comdat:
        out.write("".join(f"$f{i} = comdat any\n" for i in range(count)) + "\n")
    linkage, after = ("linkonce_odr", " comdat") if comdat else ("internal", "")
    for i in range(count):
        out.write(
            f"define {linkage} i32 @f{i}(i32 %x, ptr %p){after} {{\n"
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
