#!/usr/bin/env bash
# Our C and C++ programs built for targets other than the machine's, as an outside corpus (not
# part of CI: minutes of building, and Debian's cross headers): SQLite, stlprog and jsonprog
# at -O0 and -O2 for 32-bit x86, 32-bit ARM, 64-bit ARM (also with SVE2's scalable vectors),
# big-endian s390x, 64-bit POWER (little-endian) and 64-bit RISC-V with its vector extension.
# The DataLayout decides rules of the spec (ptr equals the pointer-sized integer, §4: i32 on a
# 32-bit target; the offsets by which getelementptr compare, §5), so
#   - the differential test of tests/merge.rs runs on them: every merged module must verify,
#     and every difference from opt-22 must be explained by a rule of the spec;
#   - the 32-bit x86 builds, which this machine runs, and the s390x ones, which it runs under
#     qemu-user, are built again from merged IR and must print what the unmerged builds print.
# Usage: bench/cross-targets.sh   (as root when the cross headers are missing: it installs them;
# SQLite's source comes from the corpus, built by bench/corpus.sh when missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/target/corpus
source "$root/bench/outside-corpus.sh"

headers=(libc6-dev-i386 lib32stdc++-12-dev libc6-dev-armhf-cross libstdc++-12-dev-armhf-cross
  libc6-dev-arm64-cross libstdc++-12-dev-arm64-cross libc6-dev-s390x-cross
  libstdc++-12-dev-s390x-cross libc6-dev-ppc64el-cross libstdc++-12-dev-ppc64el-cross
  libc6-dev-riscv64-cross libstdc++-12-dev-riscv64-cross nlohmann-json3-dev
  # What links and runs the s390x programs.
  binutils-s390x-linux-gnu libgcc-12-dev-s390x-cross qemu-user-static)
if ! dpkg -s "${headers[@]}" >/dev/null 2>&1; then
  apt-get install -y -q "${headers[@]}" >&2
fi
[ -s "$corpus/sqlite3.c" ] || bash "$root/bench/corpus.sh"
build_mergefn

# The flags of each target: the C++ headers of Debian's cross packages, and the machine's
# /usr/include last, for nlohmann-json (header-only, the same for every target).
cross() {
  local triple=$1 dir=$2
  echo "--target=$triple --sysroot=/usr/$dir -isystem /usr/$dir/include/c++/12" \
    "-isystem /usr/$dir/include/c++/12/$dir -idirafter /usr/include"
}
declare -A flags=(
  [i686]="-m32"
  [armv7]="$(cross armv7a-linux-gnueabihf arm-linux-gnueabihf)"
  [aarch64]="$(cross aarch64-linux-gnu aarch64-linux-gnu)"
  [aarch64-sve2]="$(cross aarch64-linux-gnu aarch64-linux-gnu) -march=armv9-a+sve2"
  [s390x]="$(cross s390x-linux-gnu s390x-linux-gnu)"
  [ppc64le]="$(cross powerpc64le-linux-gnu powerpc64le-linux-gnu)"
  [riscv64-v]="$(cross riscv64-linux-gnu riscv64-linux-gnu) -march=rv64gcv"
)

rm -rf "$out" && mkdir -p "$out/modules" "$out/run"
for target in i686 armv7 aarch64 aarch64-sve2 s390x ppc64le riscv64-v; do
  read -r -a target_flags <<<"${flags[$target]}"
  for level in O0 O2; do
    log "$target -$level"
    clang-22 -"$level" "${target_flags[@]}" -S -emit-llvm -DSQLITE_THREADSAFE=0 \
      -DSQLITE_OMIT_LOAD_EXTENSION "$corpus/sqlite3.c" -o "$out/modules/sqlite3-$target-$level.ll"
    for program in stlprog jsonprog; do
      link_program "$program" "$target-$level" -"$level" "${target_flags[@]}"
    done
  done
done

# The 32-bit x86 programs, built from their IR as it is and merged: the same output.
clang-22 -m32 -O1 -c -I"$corpus" "$root/bench/programs/sqlite-driver/driver.c" \
  -o "$out/run/sqlite-driver.o"
build_i686() {
  case $(basename "$1") in
    sqlite3-*) clang-22 -m32 -O0 "$1" "$out/run/sqlite-driver.o" -lm -o "$2" ;;
    *) clang++-22 -m32 -O0 -w "$1" -o "$2" ;;
  esac
}
for ll in "$out"/modules/*-i686-*.ll; do
  prints_the_same_merged "$ll" build_i686
done

# The big-endian s390x programs, the same way, run under qemu-user (the cross linker finds the
# target's libraries without a sysroot; qemu finds its loader in the folder of the cross libc).
clang-22 --target=s390x-linux-gnu -O1 -c -I"$corpus" \
  "$root/bench/programs/sqlite-driver/driver.c" -o "$out/run/sqlite-driver-s390x.o"
build_s390x() {
  local exe=$2.s390x
  case $(basename "$1") in
    sqlite3-*) clang-22 --target=s390x-linux-gnu -O0 "$1" "$out/run/sqlite-driver-s390x.o" \
      -lm -o "$exe" ;;
    *) clang++-22 --target=s390x-linux-gnu -O0 -w "$1" -o "$exe" ;;
  esac
  printf '#!/bin/sh\nexec qemu-s390x-static -L /usr/s390x-linux-gnu "%s" "$@"\n' "$exe" >"$2"
  chmod +x "$2"
}
for ll in "$out"/modules/*-s390x-*.ll; do
  prints_the_same_merged "$ll" build_s390x
done
differential_on_modules
