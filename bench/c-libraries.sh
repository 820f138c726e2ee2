#!/usr/bin/env bash
# C libraries bundled in crates.io crates, as an outside corpus of clang's IR for C (not part of
# CI: about a minute of building): the Lua interpreters 5.1, 5.2, 5.3 and 5.4 (lua-src, with our
# driver), bzip2 with its command-line program (bzip2-sys), zlib (libz-sys, with our driver),
# mimalloc (libmimalloc-sys, its one-file build, with our driver) and tree-sitter's runtime
# (tree-sitter, a library alone), each file compiled at -O0 and at -O2 and joined by llvm-link.
#   - the differential test of tests/merge.rs runs on them: every merged module must verify,
#     and every difference from opt-22 must be explained by a rule of the spec;
#   - every program is built again from merged IR and must print what the unmerged build prints
#     (Lua runs bench/programs/lua-driver/workload.lua; bzip2 compresses SQLite's source, and
#     each build decompresses what the other compressed).
# Usage: bench/c-libraries.sh   (SQLite's source comes from the corpus, built by
# bench/corpus.sh when missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/target/corpus
programs=$root/bench/programs
source "$root/bench/outside-corpus.sh"

[ -s "$corpus/sqlite3.c" ] || bash "$root/bench/corpus.sh"
build_mergefn
rm -rf "$out/modules" "$out/run" && mkdir -p "$out/modules" "$out/run"

fetch_crates \
  'lua-src = "=548.1.2"' \
  'bzip2-sys = "=0.1.13"' \
  'libz-sys = { version = "=1.1.33", features = ["static"] }' \
  'libmimalloc-sys = "=0.1.49"' \
  'tree-sitter = "=0.25.10"'

# A C module (`link_sources` in bench/outside-corpus.sh).
link_c() { link_sources clang-22 "$@"; }

log "building"
lua=$(source_of lua-src)
bzip2=$(source_of bzip2-sys)/bzip2-1.0.8
zlib=$(source_of libz-sys)/src/zlib
mimalloc=$(source_of libmimalloc-sys)/c_src/mimalloc/v2
tree_sitter=$(source_of tree-sitter)
for level in O0 O2; do
  for version in 5.1.5 5.2.4 5.3.6 5.4.8; do
    link_c "lua-$version" "$level" -DLUA_USE_LINUX "-I$lua/lua-$version" -- \
      "$lua/lua-$version"/*.c "$programs/lua-driver/driver.c"
  done
  link_c bzip2 "$level" -- "$bzip2"/{blocksort,huffman,crctable,randtable,compress,decompress,bzlib,bzip2}.c
  link_c zlib "$level" "-I$zlib" -DHAVE_UNISTD_H -D_LARGEFILE64_SOURCE -- \
    "$zlib"/*.c "$programs/zlib-driver/driver.c"
  link_c mimalloc "$level" "-I$mimalloc/include" -DMI_BUILD_RELEASE -DNDEBUG \
    -ftls-model=initial-exec -- "$mimalloc/src/static.c" "$programs/mimalloc-driver/driver.c"
  link_c tree-sitter "$level" "-I$tree_sitter/src" "-I$tree_sitter/include" \
    -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -- "$tree_sitter/src/lib.c"
done

build_c() { clang-22 -O0 -w "$1" -o "$2" -lm -lpthread; }
head -c 3000000 "$corpus/sqlite3.c" >"$out/run/input.txt"
for level in O0 O2; do
  for version in 5.1.5 5.2.4 5.3.6 5.4.8; do
    prints_the_same_merged "$out/modules/lua-$version-$level.ll" build_c \
      "$programs/lua-driver/workload.lua"
  done
  for program in zlib mimalloc; do
    prints_the_same_merged "$out/modules/$program-$level.ll" build_c
  done
  # What each build compresses is the same; each decompresses the other's back to the input.
  prints_the_same_merged "$out/modules/bzip2-$level.ll" build_c -c -9 input.txt
  (cd "$out/run" &&
    "./bzip2-$level.exe" -dc <"bzip2-$level.merged.out" | cmp - input.txt &&
    "./bzip2-$level.merged.exe" -dc <"bzip2-$level.out" | cmp - input.txt)
  log "bzip2-$level: each build decompresses what the other compressed"
done

differential_on_modules
