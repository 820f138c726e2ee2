#!/usr/bin/env bash
# mergefn's own library as an outside corpus of rustc's IR (not part of CI: about five minutes of
# building): the program `cargo test --lib` runs (the library, its unit tests and the generic
# code of its dependencies that it instantiates: rayon, hashbrown, serde_json, clap...), emitted
# by rustc in one code generation unit, at opt-level 0 with debug information (as `cargo test`
# builds it: about 200 MB of IR) and at opt-level 3 without.
#   - the differential test of tests/merge.rs runs on both modules: every merged module must
#     verify, and every difference from opt-22 must be explained by a rule of the spec;
#   - the test program is built again from merged IR, linked as rustc linked it
#     (bench/programs/rustprog/keep-link.sh keeps the link), and its tests must give the same
#     results as the unmerged build's: every one passes;
#   - `compare.py --mode merge` prints mergefn's time and memory against opt-22's on both.
# Usage: bench/self-hosted.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/outside-corpus.sh"

build_mergefn
rm -rf "$out/modules" "$out/run" && mkdir -p "$out/modules" "$out/run"

# The library's test program at opt-level $1 ($2: with debug information or not) as one
# module, $out/modules/mergefn-tests-O$1.ll, and its link, kept in $out/link-O$1. Without
# incremental compilation, as rustc names the unit keep-link.sh looks for; an empty RUSTFLAGS
# takes the place of the repository's (a static C library), and no PGO profile.
emit_test_program() {
  local level=$1 debug=$2 target=$out/target-O$1
  log "emitting the test program at opt-level $level"
  rm -rf "$out/link-O$level"
  rm -f "$target"/debug/deps/mergefn-*.ll
  (cd "$root" &&
    CARGO_INCREMENTAL=0 MERGEFN_PGO=off RUSTFLAGS= CARGO_TARGET_DIR="$target" \
      KEEP_LINK_DIR="$out/link-O$level" \
      cargo rustc -q --lib --profile test --config "profile.test.opt-level=$level" \
      --config "profile.test.debug=$debug" -- --emit=llvm-ir,link -C codegen-units=1 \
      -C linker="$root/bench/programs/rustprog/keep-link.sh")
  mv "$(ls -t "$target"/debug/deps/mergefn-*.ll | head -1)" \
    "$out/modules/mergefn-tests-O$level.ll"
}
emit_test_program 0 true
emit_test_program 3 false

# Build module $1 into the executable $2: compiled by clang-22 at -$cc_level, then linked as
# rustc linked the test program (the link kept in $link).
link_as_rustc() {
  local arg args=()
  clang-22 "-$cc_level" -c -Wno-override-module "$1" -o "$2.o"
  while IFS= read -r arg; do
    case "$arg" in
      @OUT@) args+=("$2") ;;
      @MAIN@) args+=("$2.o") ;;
      *) args+=("$arg") ;;
    esac
  done <"$link/args"
  cc "${args[@]}"
}
# Run the test program $1: each test's result, sorted (the tests run on every core, in no
# set order), and the count, without the time they took.
test_results() {
  "$1" --test-threads="$(nproc)" | grep -E '^test ' | sed 's/; finished in .*//' | sort
}

for level in 0 3; do
  link=$out/link-O$level
  # The module of opt-level 0 compiled at -O0 (it is 200 MB), the other at -O2.
  cc_level=O$((level == 0 ? 0 : 2))
  log "mergefn-tests-O$level: $("$mergefn" merge "$out/modules/mergefn-tests-O$level.ll" \
    -o /dev/null --stats 2>&1)"
  prints_the_same_merged_by test_results "$out/modules/mergefn-tests-O$level.ll" link_as_rustc
  log "mergefn-tests-O$level: $(grep '^test result' "$out/run/mergefn-tests-O$level.out")"
done

python3 "$root/bench/compare.py" --mode merge --runs 3 "$out"/modules/*.ll
differential_on_modules
