#!/usr/bin/env bash
# Our programs built with the compiler flags a build pipeline uses, as an outside corpus (not
# part of CI: a few minutes of building): instrumentation (coverage, IR profiles), sanitizers
# (thread, memory, undefined, safe stack), hardening (stack protector, CET), -Oz, debug
# information (DWARF 5 at -O0, split DWARF at -O2), C++20 coroutines (split by the -O0
# pipeline, and before any pass: `presplitcoroutine` bodies), and the exception handling of
# other targets (Windows' funclet pads for x86 and x86-64, MinGW, WebAssembly).
#   - the differential test of tests/merge.rs runs on them: every merged module must verify,
#     and every difference from opt-22 must be explained by a rule of the spec;
#   - the programs this machine runs without a sanitizer's runtime are built again from merged
#     IR and must print what the unmerged builds print.
# Usage: bench/flags.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/target/flags
programs=$root/bench/programs
log() { printf 'flags: %s\n' "$*" >&2; }
source "$root/bench/outside-corpus.sh"

dpkg -s nlohmann-json3-dev >/dev/null 2>&1 || apt-get install -y -q nlohmann-json3-dev >&2
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
mergefn=$root/target/release/mergefn

rm -rf "$out" && mkdir -p "$out/modules" "$out/run"
# stlprog and jsonprog, each one module, built with the given flags.
build() {
  for program in stlprog jsonprog; do
    link_program "$program" "$@"
  done
}
log "building"
build coverage -O2 -fprofile-instr-generate -fcoverage-mapping
build irprofile -O2 -fprofile-generate
build tsan -O1 -fsanitize=thread
build msan -O1 -fsanitize=memory
build ubsan -O2 -fsanitize=undefined
build safestack -O2 -fsanitize=safe-stack
build hardened -O2 -fstack-protector-strong -fcf-protection=full
build Oz -Oz
build g5-O0 -O0 -g -gdwarf-5 -gcolumn-info
build gsplit-O2 -O2 -g -gsplit-dwarf
coro=$programs/coroprog/main.cpp
clang++-22 -std=c++20 -O0 -S -emit-llvm "$coro" -o "$out/modules/coroprog-O0.ll"
clang++-22 -std=c++20 -O2 -S -emit-llvm "$coro" -o "$out/modules/coroprog-O2.ll"
clang++-22 -std=c++20 -O1 -Xclang -disable-llvm-passes -S -emit-llvm "$coro" \
  -o "$out/modules/coroprog-presplit.ll"
for target in x86_64-pc-windows-msvc i686-pc-windows-msvc x86_64-w64-windows-gnu \
  wasm32-unknown-unknown; do
  extra=()
  [ "$target" = wasm32-unknown-unknown ] && extra=(-fwasm-exceptions)
  for level in O0 O2; do
    clang++-22 --target="$target" -fexceptions -fcxx-exceptions "${extra[@]}" -"$level" -S \
      -emit-llvm "$programs/ehprog/guarded.cpp" -o "$out/modules/ehprog-$target-$level.ll"
  done
done

# The programs this machine runs as they are: built from their IR as it is and merged, the
# same output.
build_here() { clang++-22 -O0 -w "$1" -o "$2"; }
for ll in "$out"/modules/*-{hardened,Oz,g5-O0,gsplit-O2}.ll "$out"/modules/coroprog-*.ll; do
  prints_the_same_merged "$ll" build_here
done
differential_on_modules
