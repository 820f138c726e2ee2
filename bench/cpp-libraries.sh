#!/usr/bin/env bash
# C++ libraries bundled in crates.io crates, as an outside corpus of clang's IR for C++ (not part
# of CI: about 20 minutes of building and running): LevelDB (leveldb-sys, with our driver) and
# glslang with its command-line validator (glslang-sys), each file compiled at -O0 and at -O2 and
# joined by llvm-link.
#   - the differential test of tests/merge.rs runs on them: every merged module must verify,
#     and every difference from opt-22 must be explained by a rule of the spec;
#   - every program is built again from merged IR and must print what the unmerged build prints
#     (LevelDB runs bench/programs/leveldb-driver; glslang compiles each of its own 1,690 test
#     shaders to SPIR-V, printing the syntax tree and the SPIR-V, or the errors).
# Usage: bench/cpp-libraries.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
programs=$root/bench/programs
source "$root/bench/outside-corpus.sh"

build_mergefn
rm -rf "$out/modules" "$out/run" && mkdir -p "$out/modules" "$out/run" \
  "$out/generated/glslang"

fetch_crates \
  'leveldb-sys = "=2.0.9"' \
  'glslang-sys = "=0.9.2"'

# A C++ module (`link_sources` in bench/outside-corpus.sh).
link_cpp() { link_sources "clang++-22 -std=c++17" "$@"; }

log "building"
leveldb=$(source_of leveldb-sys)/deps/leveldb-1.22
glslang=$(source_of glslang-sys)/native
# What LevelDB's CMake build writes into port/port_config.h, given as definitions.
leveldb_flags=(-DLEVELDB_PLATFORM_POSIX -DHAVE_FDATASYNC=1 -DHAVE_FULLFSYNC=0 -DHAVE_CRC32C=0
  -DHAVE_SNAPPY=0 -DLEVELDB_IS_BIG_ENDIAN=0 "-I$leveldb" "-I$leveldb/include")
mapfile -t leveldb_sources < <(ls "$leveldb"/{db,table,util,helpers/memenv}/*.cc |
  grep -v -E '_test\.cc|_bench\.cc|env_windows|leveldbutil|testutil|testharness')
# The header glslang's CMake build generates for its validator.
python3 "$glslang/glslang/gen_extension_headers.py" -i "$glslang/glslang/glslang/ExtensionHeaders" \
  -o "$out/generated/glslang/glsl_intrinsic_header.h"
glslang_flags=(-DENABLE_SPIRV=1 -DENABLE_HLSL=1 -DENABLE_OPT=0 "-I$glslang/glslang"
  "-I$glslang/build_info" "-I$out/generated")
mapfile -t glslang_sources < <(
  cd "$glslang/glslang" &&
    find "$PWD"/glslang/{CInterface,GenericCodeGen,HLSL,MachineIndependent,OSDependent/Unix,ResourceLimits} \
      "$PWD"/SPIRV "$PWD"/StandAlone -name '*.cpp' | sort
)
for level in O0 O2; do
  link_cpp leveldb "$level" "${leveldb_flags[@]}" -- "${leveldb_sources[@]}" \
    "$programs/leveldb-driver/driver.cc"
  link_cpp glslang "$level" "${glslang_flags[@]}" -- "${glslang_sources[@]}"
done

build_cpp() { clang++-22 -O1 -w "$1" -o "$2" -lpthread; }
# What glslang's validator $1 prints for each of glslang's test shaders, compiled to SPIR-V
# (as many at once as there are cores), with its exit status, in the shaders' order.
compile_shaders() {
  local exe=$PWD/$1 printed shader i=0 j
  printed=$(mktemp -d)
  for shader in $(cd "$glslang/glslang/Test" && ls |
    grep -E '\.(vert|tesc|tese|geom|frag|comp|mesh|task|rgen|rint|rahit|rchit|rmiss|rcall)$'); do
    i=$((i + 1))
    (cd "$glslang/glslang/Test" && echo "== $shader" && status=0 &&
      { timeout 20 "$exe" -V -H -i --target-env vulkan1.3 -o "$printed/$i.spv" "$shader" ||
        status=$?; } &&
      echo "exit $status") >"$printed/$i.txt" 2>&1 &
    while [ "$(jobs -r | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  done
  wait
  for ((j = 1; j <= i; j++)); do cat "$printed/$j.txt"; done
  rm -r "$printed"
}
for level in O0 O2; do
  prints_the_same_merged "$out/modules/leveldb-$level.ll" build_cpp leveldb-driver.db
  prints_the_same_merged_by compile_shaders "$out/modules/glslang-$level.ll" build_cpp
  log "glslang-$level: $(grep -c '^exit ' "$out/run/glslang-$level.out") shaders," \
    "$(grep -c '^exit 0$' "$out/run/glslang-$level.out") of them compiled"
done

differential_on_modules
