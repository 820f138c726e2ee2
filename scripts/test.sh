#!/usr/bin/env bash
# Run every test of mergefn. Installs what the tests need when missing (LLVM 22 and the
# headers of nlohmann-json, Eigen and Boost from Debian), builds the corpus (bench/corpus.sh),
# then runs cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
# Some machines come with /dev/null replaced by a regular file (this project's CI and
# development machines did): what a command "discards" piles up in it, and a program that
# reads /dev/null as empty input reads that back. Cargo's rustc probe (`rustc -`, stdin
# /dev/null) then fails on a build script's error message. Put the device back.
if [ ! -c /dev/null ]; then
  echo "test.sh: /dev/null is not a device; recreating it" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  if $sudo mknod -m 666 /dev/null.mergefn c 1 3; then
    $sudo mv -f /dev/null.mergefn /dev/null
  else
    echo "test.sh: cannot recreate /dev/null; emptying it instead" >&2
    : >/dev/null
  fi
fi
# Nothing here reads stdin.
exec </dev/null
# Cargo caches the probe's result, failures included, in the target directory's
# .rustc_info.json, so a spoiled probe would fail every later run sharing the directory.
# Always probe afresh (it costs ~50 ms).
export CARGO_CACHE_RUSTC_INFO=0

missing=0
for tool in opt-22 clang-22 clang++-22 llvm-link-22 llvm-extract-22 llvm-stress-22 FileCheck-22; do
  command -v "$tool" >/dev/null 2>&1 || missing=1
done
[ -f /usr/include/nlohmann/json.hpp ] || missing=1
[ -f /usr/include/eigen3/Eigen/Dense ] && [ -f /usr/include/boost/graph/adjacency_list.hpp ] || missing=1
# The sanitizers' runtimes, for the sanitized program of the runtime tests.
compgen -G '/usr/lib/llvm-22/lib/clang/*/lib/*/libclang_rt.asan*' >/dev/null || missing=1
if [ "$missing" = 1 ]; then
  echo "test.sh: installing llvm-22 clang-22 llvm-22-tools libclang-rt-22-dev nlohmann-json3-dev" \
    "libeigen3-dev libboost-dev" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q llvm-22 clang-22 llvm-22-tools libclang-rt-22-dev \
    nlohmann-json3-dev libeigen3-dev libboost-dev
fi

bash bench/corpus.sh
MERGEFN_CORPUS="$PWD/target/corpus" MERGEFN_REQUIRE_LLVM=1 cargo test --release --locked
