# Sourced by the scripts that build an outside corpus (bench/cross-targets.sh, bench/flags.sh,
# bench/c-libraries.sh, bench/cpp-libraries.sh, bench/self-hosted.sh), once they have set
# `root`. Each script's corpus is in target/<its name>, `out` (modules in $out/modules, builds
# in $out/run), and `log` says what it does, after its name.
corpus_name=$(basename "$0" .sh)
out=$root/target/$corpus_name
log() { printf '%s: %s\n' "$corpus_name" "$*" >&2; }

# Build mergefn (release) and set `mergefn` to it.
build_mergefn() {
  cargo build --release --quiet --manifest-path "$root/Cargo.toml"
  mergefn=$root/target/release/mergefn
}

# Fetch the crates named by the dependency lines given (`name = "=version"`) through a
# throwaway package in $out/fetch; then `source_of NAME` is a fetched crate's folder.
fetch_crates() {
  mkdir -p "$out/fetch/src"
  {
    printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n' \
      "$(basename "$out")"
    printf '[workspace]\n[dependencies]\n'
    printf '%s\n' "$@"
  } >"$out/fetch/Cargo.toml"
  echo 'fn main() {}' >"$out/fetch/src/main.rs"
  (cd "$out/fetch" && cargo fetch -q >&2)
  crates_metadata=$(cd "$out/fetch" && cargo metadata --format-version 1 -q)
}
source_of() {
  python3 -c '
import json, os, sys
m = json.loads(sys.stdin.read())
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == sys.argv[1]))' \
    "$1" <<<"$crates_metadata"
}

# Module $out/modules/$2-$3.ll: the files after the flags, each compiled by the compiler $1
# (`clang-22`, or `clang++-22 -std=c++17`) at -$3 with the flags given before `--`, as many at
# once as there are cores, joined.
link_sources() {
  local compiler=() name=$2 level=$3 flags=() parts=() f part i=0
  read -r -a compiler <<<"$1"
  shift 3
  while [ "$1" != -- ]; do
    flags+=("$1")
    shift
  done
  shift
  for f in "$@"; do
    i=$((i + 1))
    # Numbered: two files of one name in different folders stay two parts.
    part=$out/run/$name-$level-$i-$(basename "${f%.*}").ll
    "${compiler[@]}" "-$level" -w "${flags[@]}" -S -emit-llvm "$f" -o "$part" &
    parts+=("$part")
    while [ "$(jobs -r | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  done
  # A file that did not compile left no part, which llvm-link reports.
  wait
  llvm-link-22 -S "${parts[@]}" -o "$out/modules/$name-$level.ll"
  rm -f "${parts[@]}"
}

# One module of our C++ program $1 (its files compiled with the flags after $2, joined) in
# $out/modules/$1-$2.ll.
link_program() {
  local program=$1 name=$2 parts=() f part
  shift 2
  for f in "$root/bench/programs/$program"/*.cpp; do
    part=$out/run/$program-$name-$(basename "$f" .cpp).ll
    clang++-22 -std=c++17 "$@" -S -emit-llvm "$f" -o "$part"
    parts+=("$part")
  done
  llvm-link-22 -S "${parts[@]}" -o "$out/modules/$program-$name.ll"
  rm -f "${parts[@]}"
}

# Merge module $1; build it as it is and merged with the command $2 (given the module and the
# executable to write) and run both, with the arguments after $2: they must print the same.
prints_the_same_merged() { prints_the_same_merged_by run_as_it_is "$@"; }
run_as_it_is() { "$@"; }

# `prints_the_same_merged` where the command $1 runs each build: it is given the executable
# (in the build folder, its working directory) and the arguments after $3.
prints_the_same_merged_by() {
  local run=$1 ll=$2 build=$3 name
  shift 3
  name=$(basename "$ll" .ll)
  "$mergefn" merge "$ll" -o "$out/run/$name.merged.ll"
  # Both executables in the build folder: the modules' folder holds modules only.
  "$build" "$ll" "$out/run/$name.exe"
  "$build" "$out/run/$name.merged.ll" "$out/run/$name.merged.exe"
  (cd "$out/run" && "$run" "./$name.exe" "$@" >"$name.out" 2>&1 &&
    "$run" "./$name.merged.exe" "$@" >"$name.merged.out" 2>&1)
  cmp "$out/run/$name.out" "$out/run/$name.merged.out"
  log "$name: merged build prints the same $(wc -l <"$out/run/$name.out") lines"
}

# The differential test of tests/merge.rs on every module of $out/modules.
differential_on_modules() {
  log "$(ls "$out/modules"/*.ll | wc -l) modules in $out/modules"
  cd "$root"
  MERGEFN_CORPUS="$out/modules" MERGEFN_REQUIRE_LLVM=1 \
    cargo test --release --quiet --test merge differential_against_opt -- --nocapture
}
