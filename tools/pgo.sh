#!/usr/bin/env bash
# Makes pgo/mergefn.profdata, the profile that release builds are optimized with
# (tools/pgo-rustc): builds mergefn instrumented, runs it on modules of the corpus (read,
# merge and opt; C, C++ and Rust, -O0 to -O2, with debug information, sanitized, generated),
# and merges the counts the runs wrote. Run it again after changing the code much: a function
# whose code changed since the profile was made is compiled as without a profile.
# Needs the corpus (bench/corpus.sh) and llvm-profdata-22 (Debian's llvm-22).
# Usage: tools/pgo.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/target/pgo
rm -rf "$work"
mkdir -p "$work"
cd "$root"
# RUSTFLAGS replaces the configuration's flags: the same C library and relocation model.
MERGEFN_PGO=off CARGO_TARGET_DIR="$work/build" \
    RUSTFLAGS="-C target-feature=+crt-static -C relocation-model=static -C profile-generate=$work/raw" \
    cargo build --release --quiet --locked
bin=$work/build/release/mergefn
for m in sqlite3-O0 sqlite3-O2 stlprog-O0 stlprog-O2 jsonprog-O0 jsonprog-O2-g jsonprog-asan \
    rustprog-O0 rustprog-O3 harfbuzz-O2 stress-10000-1 stress-1000-1 cfeatures-O0 cfeatures-O2; do
    "$bin" read "target/corpus/$m.ll" -o "$work/out.ll"
    "$bin" merge "target/corpus/$m.ll" -o "$work/out.ll"
done
"$bin" opt -S -passes=mergefunc target/corpus/stlprog-O2.ll -o "$work/out.ll"
"$bin" explain target/corpus/stlprog-O2.ll @main @main > /dev/null
llvm-profdata-22 merge -o pgo/mergefn.profdata "$work"/raw/*.profraw
echo "pgo/mergefn.profdata: $(stat -c %s pgo/mergefn.profdata) bytes"
