#!/usr/bin/env python3
"""Write modules of the shapes where an algorithm's cost grows faster than the text (long
chains, wide fan-in, deep nesting, many of one entity), for bench/compare.py to run side by
side with opt-22:

    python3 bench/shapes.py [DIR]        # default target/shapes
    python3 bench/compare.py --mode merge --runs 3 target/shapes/*.ll

Each shape is one a compiler or a code generator can write, pushed far. Each of the first
five took mergefn seconds to minutes once (a cubic or quadratic step, since made near
linear); see BENCHMARKS.md. Sizes are kept where opt-22, itself quadratic on some of them
(aliases, named types), takes seconds, not minutes. Every module passes `opt-22 -passes=verify`.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def type_chain(f, n=15000):
    """Named types each holding the one before by value (the check for a type that holds
    itself walked the whole chain at each definition)."""
    for i in range(n):
        before = f"%T{i - 1}, " if i else ""
        f.write(f"%T{i} = type {{ i32, {before}ptr, [4 x i8] }}\n")
    for i in range(0, n, 10):
        f.write(f"@g{i} = global %T{i} zeroinitializer\n")


def block_fan_in(f, n=50000):
    """A chain of blocks that all branch to one, whose phi has an entry for each (dominators
    by Cooper, Harvey and Kennedy's iteration were quadratic in it)."""
    for k in range(2):
        f.write(f"define i32 @g{k}(i32 %x) {{\nentry:\n  br label %b0\n")
        for i in range(n):
            value, block = ("%x", "entry") if i == 0 else (f"%v{i - 1}", f"b{i - 1}")
            f.write(f"b{i}:\n  %v{i} = phi i32 [ {value}, %{block} ]\n"
                    f"  %c{i} = icmp eq i32 %v{i}, {i}\n"
                    f"  br i1 %c{i}, label %b{i + 1}, label %out\n")
        entries = ", ".join(f"[ {i}, %b{i} ]" for i in range(n))
        f.write(f"b{n}:\n  ret i32 0\nout:\n  %r = phi i32 {entries}\n  ret i32 %r\n}}\n")


def two_chains(f, n, link, bottom_g=1, linkage="", params="i32 %x", after=""):
    """@f0 and @g0, adding 1 and `bottom_g`, then for each i below `n` @f{i} and @g{i}, each
    naming the one before in `link` (`{callee}` in it), then multiplying by 3."""
    for p, add in (("f", 1), ("g", bottom_g)):
        f.write(f"define {linkage}i32 @{p}0(i32 %x){after} {{\n  %r = add i32 %x, {add}\n"
                f"  ret i32 %r\n}}\n")
    for i in range(1, n):
        for p in "fg":
            body = link.format(callee=f"{p}{i - 1}")
            f.write(f"define {linkage}i32 @{p}{i}({params}){after} {{\n  {body}\n  ret i32 %s\n}}\n")


def call_chains(f, n=20000):
    """Two chains of functions each calling the one before, alike but at the bottom
    (partition refinement sorted the whole class again at each split)."""
    two_chains(f, n, "%r = call i32 @{callee}(i32 %x)\n  %s = mul i32 %r, 3", bottom_g=2)


def address_chains(f, n=3000):
    """Two chains of functions each storing the address of the one before, equal: one link
    folds a round (each round encoded the whole group again)."""
    two_chains(f, n, "store ptr @{callee}, ptr %p\n  %s = mul i32 %x, 3",
               linkage="internal ", params="ptr %p, i32 %x", after=" unnamed_addr")
    f.write(f"define i32 @main(ptr %p, i32 %x) {{\n  %a = call i32 @f{n - 1}(ptr %p, i32 %x)\n"
            f"  %b = call i32 @g{n - 1}(ptr %p, i32 %x)\n  %c = add i32 %a, %b\n  ret i32 %c\n}}\n")


def alias_chain(f, n=20000):
    """Aliases each naming the one before (the aliasee walk went down the whole chain from
    each alias, and kept the aliases met in a list)."""
    f.write("@a0 = global i32 0\n")
    for i in range(1, n):
        f.write(f"@a{i} = alias i32, ptr @a{i - 1}\n")


def attribute_groups(f, n=50000):
    """A group for each function, seven distinct (the groups' encodings were copied for each
    share of the headers a thread took)."""
    for i in range(n):
        f.write(f"define i32 @f{i}(i32 %x) #{i} {{\n  %r = add i32 %x, 1\n  ret i32 %r\n}}\n")
    for i in range(n):
        f.write(f'attributes #{i} = {{ nounwind "k{i % 7}"="v" }}\n')


def one_block(f, n=200000):
    """Two equal functions of one block of many instructions (no cut between blocks: each is
    read on one thread)."""
    for k in range(2):
        f.write(f"define i32 @h{k}(i32 %x) {{\n  %v0 = add i32 %x, 1\n")
        for i in range(1, n):
            f.write(f"  %v{i} = add i32 %v{i - 1}, {i % 7}\n")
        f.write(f"  ret i32 %v{n - 1}\n}}\n")


def wide_phis(f, n=1000):
    """A switch to a thousand blocks that join in a block of a thousand phis."""
    f.write("define i32 @p(i32 %x) {\nentry:\n  switch i32 %x, label %join [\n")
    for i in range(n):
        f.write(f"    i32 {i}, label %c{i}\n")
    f.write("  ]\n")
    for i in range(n):
        f.write(f"c{i}:\n  br label %join\n")
    f.write("join:\n")
    for j in range(n):
        entries = ", ".join(f"[ {(i * j) % 97}, %c{i} ]" for i in range(n))
        f.write(f"  %p{j} = phi i32 [ {j}, %entry ], {entries}\n")
    f.write(f"  ret i32 %p{n - 1}\n}}\n")


def many_declarations(f, n=100000):
    """Declarations and calls of each, a function to every 5,000."""
    for i in range(n):
        f.write(f"declare void @d{i}(i32)\n")
    for k in range(n // 5000):
        f.write(f"define void @caller{k}(i32 %x) {{\n")
        for i in range(k * 5000, (k + 1) * 5000):
            f.write(f"  call void @d{i}(i32 %x)\n")
        f.write("  ret void\n}\n")


def mutual_rings(f, n=5000):
    """Rings of four functions calling each other, all alike (folded by refinement; LLVM
    folds none)."""
    for r in range(n):
        for k in range(4):
            f.write(f"define internal i32 @r{r}_{k}(i32 %x) {{\n  %c = icmp eq i32 %x, 0\n"
                    f"  br i1 %c, label %z, label %n\nz:\n  ret i32 0\nn:\n  %y = sub i32 %x, 1\n"
                    f"  %v = call i32 @r{r}_{(k + 1) % 4}(i32 %y)\n  ret i32 %v\n}}\n")
    f.write("define i32 @main(i32 %x) {\n")
    for r in range(n):
        f.write(f"  %a{r} = call i32 @r{r}_0(i32 %x)\n")
    f.write("  ret i32 %a0\n}\n")


def metadata_chain(f, n=20000):
    """Metadata nodes each naming the next (opt-22 overflows its stack at 200,000)."""
    for name in "fg":
        f.write(f"define void @{name}(ptr %p) {{\n  store i32 0, ptr %p, !foo !0\n  ret void\n}}\n")
    for i in range(n - 1):
        f.write(f"!{i} = !{{!{i + 1}}}\n")
    f.write(f"!{n - 1} = !{{}}\n")


SHAPES = {
    "type-chain": type_chain,
    "block-fan-in": block_fan_in,
    "call-chains": call_chains,
    "address-chains": address_chains,
    "alias-chain": alias_chain,
    "attribute-groups": attribute_groups,
    "one-block": one_block,
    "wide-phis": wide_phis,
    "many-declarations": many_declarations,
    "mutual-rings": mutual_rings,
    "metadata-chain": metadata_chain,
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "shapes")
    os.makedirs(out, exist_ok=True)
    for name, write in SHAPES.items():
        path = os.path.join(out, f"{name}.ll")
        with open(path, "w") as f:
            write(f)
        print(path)


if __name__ == "__main__":
    main()
