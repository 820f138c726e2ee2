#!/usr/bin/env bash
# Build the benchmark and differential-test corpus into target/corpus (never committed):
#   sqlite3-O0.ll sqlite3-O2.ll        the SQLite amalgamation bundled in the libsqlite3-sys crate
#   jsonprog-O0.ll jsonprog-O2.ll      our C++ program using nlohmann-json, files linked by llvm-link
#   jsonprog-O2-g.ll                   the same at -O2 with debug information
#   jsonprog-asan.ll                   the same at -O1 instrumented by AddressSanitizer and
#                                      UndefinedBehaviorSanitizer
#   jsonprog-cfi.ll                    the same at -O2 as full LTO compiles it for control-flow
#                                      integrity (type metadata, type tests)
#   stlprog-O0.ll stlprog-O2.ll        our C++ program using the standard library (regex,
#                                      containers, variant...), files linked by llvm-link
#   eigenprog-O0.ll eigenprog-O2.ll    our C++ program using Eigen's matrices and Boost's graphs,
#                                      formatting and containers, files linked by llvm-link
#   cfeatures-O0.ll cfeatures-O2.ll    our C file of twins and near twins using computed goto, asm
#                                      goto, inline assembly, _BitInt, atomics, VLAs, setjmp...
#   rustprog-O0.ll rustprog-O3.ll      our Rust program using serde, serde_json, smallvec, itoa
#   zstd-O0.ll zstd-O2.ll              zstd's library (bundled in the zstd-sys crate) with our
#                                      driver, every file joined with llvm-link
#   harfbuzz-O0.ll harfbuzz-O2.ll      HarfBuzz's C++ (bundled in the harfbuzz-sys crate, one
#                                      file) with our driver, joined with llvm-link
#   spvc-O0.ll spvc-O2.ll              SPIRV-Cross's C++ (bundled in the spirv_cross crate), every
#                                      file, with our driver of its C API, joined with llvm-link
#   rocksdb-O0.ll rocksdb-O2.ll        RocksDB's C++ (bundled in the librocksdb-sys crate): its
#                                      database implementation and block-based tables, joined
#   rustprog-cgu16/                    the Rust program at opt-level 0 in 16 code generation
#                                      units, each unit's IR with the link (no corpus module)
#   stress-<size>-<seed>.ll            llvm-stress-22 modules
# Usage: bench/corpus.sh [--small]   (--small: skip the slow large inputs; for quick checks)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${CORPUS_DIR:-$root/target/corpus}
small=${1:-}
mkdir -p "$out"
log() { printf 'corpus: %s\n' "$*" >&2; }

# The source folder of crate $2 from crates.io ($3: its dependency entry), fetched by a
# throwaway package in $out/$1.
crate_source() {
  local fetch="$out/$1"
  mkdir -p "$fetch/src"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n[workspace]\n[dependencies]\n%s = %s\n' \
    "$1" "$2" "$3" > "$fetch/Cargo.toml"
  echo 'fn main() {}' > "$fetch/src/main.rs"
  (cd "$fetch" && cargo fetch -q >&2)
  (cd "$fetch" && cargo metadata --format-version 1 -q) | python3 -c '
import json, os, sys
m = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == sys.argv[1]))' "$2"
}

# Compile the C++ files named on stdin (NUL-separated) two at a time, as C++17 with the flags
# given, into $1/<file name without its extension>.ll: the longest steps of the corpus
# otherwise.
compile_two_at_a_time() {
  local parts=$1
  shift
  PARTS=$parts xargs -0 -P 2 -I{} sh -c 'f=$(basename "$0"); clang++-22 -std=c++17 -w "$@" \
    -S -emit-llvm "$0" -o "$PARTS/${f%.*}.ll"' {} "$@"
}

# --- SQLite: the amalgamation shipped inside the libsqlite3-sys crate ---
if [ ! -s "$out/sqlite3-O2.ll" ] && [ "$small" != --small ]; then
  dir=$(crate_source fetch-sqlite libsqlite3-sys '{ version = "=0.35.0", features = ["bundled"] }')
  cp "$dir/sqlite3/sqlite3.c" "$dir/sqlite3/sqlite3.h" "$out/"
  for o in O0 O2; do
    log "sqlite3-$o.ll"
    clang-22 -$o -S -emit-llvm -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION "$out/sqlite3.c" -o "$out/sqlite3-$o.ll"
  done
fi

# --- zstd: the library shipped inside the zstd-sys crate, with our driver, at -O0 and -O2 ---
# Its files share many small static functions (joined, they fold), and its long block
# compressors share shapes but not bodies.
if [ ! -s "$out/zstd-O2.ll" ] && [ "$small" != --small ]; then
  dir=$(crate_source fetch-zstd zstd-sys '{ version = "=2.1.3", default-features = false }')
  lib="$dir/zstd/lib"
  for o in O0 O2; do
    log "zstd-$o.ll"
    parts=()
    for f in "$lib"/common/*.c "$lib"/compress/*.c "$lib"/decompress/*.c \
      "$root/bench/programs/zstd-driver/driver.c"; do
      p="$out/zstd-$o-$(basename "$(dirname "$f")")-$(basename "$f" .c).ll"
      clang-22 -"$o" -w -DZSTD_DISABLE_ASM -I"$lib" -S -emit-llvm "$f" -o "$p"
      parts+=("$p")
    done
    llvm-link-22 -S "${parts[@]}" -o "$out/zstd-$o.ll"
    rm -f "${parts[@]}"
  done
fi

# --- HarfBuzz: the C++ library shipped inside the harfbuzz-sys crate, with our driver ---
# A large template-heavy C++ module (13,000 definitions at -O0, a third of them duplicates),
# compiled as HarfBuzz's own build does: without exceptions or RTTI; single-threaded, so the
# program needs no thread library.
if [ ! -s "$out/harfbuzz-O2.ll" ] && [ "$small" != --small ]; then
  dir=$(crate_source fetch-harfbuzz harfbuzz-sys '{ version = "=0.6.1", features = ["bundled"] }')
  src="$dir/harfbuzz/src"
  for o in O0 O2; do
    log "harfbuzz-$o.ll"
    clang++-22 -"$o" -w -fno-exceptions -fno-rtti -DHB_NO_MT -S -emit-llvm "$src/harfbuzz.cc" \
      -o "$out/harfbuzz-$o-lib.ll"
    clang-22 -"$o" -I"$src" -S -emit-llvm "$root/bench/programs/harfbuzz-driver/driver.c" \
      -o "$out/harfbuzz-$o-driver.ll"
    llvm-link-22 -S "$out/harfbuzz-$o-lib.ll" "$out/harfbuzz-$o-driver.ll" -o "$out/harfbuzz-$o.ll"
    rm -f "$out/harfbuzz-$o-lib.ll" "$out/harfbuzz-$o-driver.ll"
  done
fi

# --- SPIRV-Cross: the C++ shader translator shipped inside the spirv_cross crate, with our
# driver of its C API (bench/programs/spvc-driver). Exceptions, std::function, lambdas and
# many template instantiations: at -O0 nearly half its definitions are duplicates. ---
if [ ! -s "$out/spvc-O2.ll" ] && [ "$small" != --small ]; then
  dir=$(crate_source fetch-spvc spirv_cross '{ version = "=0.23.1", features = ["glsl", "hlsl", "msl"] }')
  src="$dir/src/vendor/SPIRV-Cross"
  api=(-DSPIRV_CROSS_C_API_GLSL=1 -DSPIRV_CROSS_C_API_HLSL=1 -DSPIRV_CROSS_C_API_MSL=1
    -DSPIRV_CROSS_C_API_CPP=1 -DSPIRV_CROSS_C_API_REFLECT=1)
  for o in O0 O2; do
    log "spvc-$o.ll"
    parts="$out/spvc-$o-parts"
    rm -rf "$parts" && mkdir -p "$parts"
    for f in "$src"/*.cpp; do
      [ "$(basename "$f")" = main.cpp ] || printf '%s\0' "$f"
    done | compile_two_at_a_time "$parts" -"$o" "${api[@]}"
    clang-22 -"$o" -I"$src" -S -emit-llvm "$root/bench/programs/spvc-driver/driver.c" \
      -o "$parts/driver.ll"
    llvm-link-22 -S "$parts"/*.ll -o "$out/spvc-$o.ll"
    rm -rf "$parts"
  done
fi

# --- RocksDB: the storage engine's C++ shipped inside the librocksdb-sys crate, its database
# implementation and block-based tables (db/db_impl, table/block_based; no tests), joined with
# llvm-link. Containers, std::function, atomics and threads: at -O0 two thirds of its 16,640
# definitions fold (no program: it is read, merged and compared with opt-22). ---
if [ ! -s "$out/rocksdb-O2.ll" ] && [ "$small" != --small ]; then
  dir=$(crate_source fetch-rocksdb librocksdb-sys '{ version = "=6.20.3", default-features = false }')
  src="$dir/rocksdb"
  for o in O0 O2; do
    log "rocksdb-$o.ll"
    parts="$out/rocksdb-$o-parts"
    rm -rf "$parts" && mkdir -p "$parts"
    # No two of these files share a name.
    for f in "$src"/db/db_impl/*.cc "$src"/table/block_based/*.cc; do
      case $(basename "$f") in *test*|*bench*) ;; *) printf '%s\0' "$f" ;; esac
    done | compile_two_at_a_time "$parts" -"$o" -I"$src" -I"$src/include" \
      -DROCKSDB_PLATFORM_POSIX -DOS_LINUX -DROCKSDB_LIB_IO_POSIX
    llvm-link-22 -S "$parts"/*.ll -o "$out/rocksdb-$o.ll"
    rm -rf "$parts"
  done
fi

# --- C++ program with nlohmann-json: every file at -O0, -O2, -O2 -g, sanitized and for CFI,
# joined with llvm-link ---
for o in O0 O2 O2-g asan cfi; do
  if [ ! -s "$out/jsonprog-$o.ll" ]; then
    log "jsonprog-$o.ll"
    case $o in
      asan) flags=(-O1 -fsanitize=address,undefined) ;;
      cfi) flags=(-O2 -flto -fvisibility=hidden -fsanitize=cfi -fno-sanitize-trap=cfi) ;;
      *) flags=(-"${o%-g}") ;;
    esac
    [ "$o" = O2-g ] && flags+=(-g)
    parts=()
    for f in "$root"/bench/programs/jsonprog/*.cpp; do
      p="$out/jsonprog-$o-$(basename "$f" .cpp).ll"
      clang++-22 -std=c++17 "${flags[@]}" -S -emit-llvm "$f" -o "$p"
      parts+=("$p")
    done
    llvm-link-22 -S "${parts[@]}" -o "$out/jsonprog-$o.ll"
    rm -f "${parts[@]}"
  fi
done

# --- C++ program using the standard library: every file at -O0 and -O2, joined ---
for o in O0 O2; do
  if [ ! -s "$out/stlprog-$o.ll" ]; then
    log "stlprog-$o.ll"
    parts=()
    for f in "$root"/bench/programs/stlprog/*.cpp; do
      p="$out/stlprog-$o-$(basename "$f" .cpp).ll"
      clang++-22 -std=c++17 -"$o" -S -emit-llvm "$f" -o "$p"
      parts+=("$p")
    done
    llvm-link-22 -S "${parts[@]}" -o "$out/stlprog-$o.ll"
    rm -f "${parts[@]}"
  fi
done

# --- C++ program using Eigen and Boost (header-only, from Debian): numeric templates, many of
# them alike ---
for o in O0 O2; do
  if [ ! -s "$out/eigenprog-$o.ll" ]; then
    log "eigenprog-$o.ll"
    parts="$out/eigenprog-$o-parts"
    rm -rf "$parts" && mkdir -p "$parts"
    printf '%s\0' "$root"/bench/programs/eigenprog/*.cpp |
      compile_two_at_a_time "$parts" -"$o" -I/usr/include/eigen3
    llvm-link-22 -S "$parts"/*.ll -o "$out/eigenprog-$o.ll"
    rm -rf "$parts"
  fi
done

# --- C features whose instructions merging compares, one file at -O0 and -O2 ---
for o in O0 O2; do
  f="$out/cfeatures-$o.ll"
  [ -s "$f" ] || clang-22 -"$o" -w -S -emit-llvm "$root/bench/programs/cfeatures/features.c" -o "$f"
done

# --- Rust program: rustc's own LLVM IR at opt-level 0 and 3 ---
# Linked in the same run, by bench/programs/rustprog/keep-link.sh, which keeps the link
# (rustprog-O<level>.link/) so that tests/runtime.rs can build the program from merged IR.
for level in 0 3; do
  if [ ! -s "$out/rustprog-O$level.ll" ] || [ ! -s "$out/rustprog-O$level.link/args" ]; then
    log "rustprog-O$level.ll"
    target="$out/rust-target"
    rm -rf "$out/rustprog-O$level.link"
    # An empty RUSTFLAGS takes the place of the repository's .cargo/config.toml, which links
    # statically, as rustc cannot for the procedural macros this program uses (serde_derive).
    (cd "$root/bench/programs/rustprog" &&
      RUSTFLAGS= CARGO_TARGET_DIR="$target" KEEP_LINK_DIR="$out/rustprog-O$level.link" \
        cargo rustc -q --release --config "profile.release.opt-level=$level" -- \
        --emit=llvm-ir,link -C linker="$root/bench/programs/rustprog/keep-link.sh")
    ll=$(ls -t "$target"/release/deps/rustprog-*.ll | head -1)
    cp "$ll" "$out/rustprog-O$level.ll"
  fi
done

# --- The Rust program in 16 code generation units, as rustc splits a crate by default ---
# Each unit's IR in rustprog-cgu16/ (cgu.<n>.ll; a folder, so the units are no corpus modules
# of their own) with the link beside it, for the runtime test that merges each unit alone.
if [ ! -s "$out/rustprog-cgu16/link/args" ]; then
  log "rustprog-cgu16/"
  target="$out/rust-target"
  rm -rf "$out/rustprog-cgu16"
  mkdir -p "$out/rustprog-cgu16"
  touch "$out/rustprog-cgu16/.start"
  (cd "$root/bench/programs/rustprog" &&
    RUSTFLAGS= CARGO_TARGET_DIR="$target" KEEP_LINK_DIR="$out/rustprog-cgu16/link" \
      cargo rustc -q --release --config "profile.release.opt-level=0" \
      --config "profile.release.codegen-units=16" -- \
      --emit=llvm-ir,link -C linker="$root/bench/programs/rustprog/keep-link.sh")
  find "$target/release/deps" -name 'rustprog-*-cgu.*.rcgu.ll' -newer "$out/rustprog-cgu16/.start" |
    while read -r ll; do
      n=${ll##*-cgu.}
      cp "$ll" "$out/rustprog-cgu16/cgu.${n%.rcgu.ll}.ll"
    done
  rm "$out/rustprog-cgu16/.start"
fi

# --- llvm-stress modules of several sizes and seeds ---
for size in 100 1000 10000; do
  for seed in 1 2 3; do
    f="$out/stress-$size-$seed.ll"
    [ -s "$f" ] || llvm-stress-22 -size=$size -seed=$seed -o "$f"
  done
done
log "done: $(ls "$out"/*.ll | wc -l) modules in $out"
