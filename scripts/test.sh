#!/usr/bin/env bash
# Run every test of mergefn. Installs what the tests need when missing (LLVM 22 and
# nlohmann-json from Debian), builds the corpus (bench/corpus.sh), then runs cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
# Nothing here reads stdin; cargo's rustc probe (`rustc -`) would.
exec </dev/null
# Cargo caches that probe's result, failures included, in the target directory's
# .rustc_info.json; a probe once spoiled by a stray stdin would replay its failure on
# every later run that shares the directory. Always probe afresh (it costs ~50 ms).
export CARGO_CACHE_RUSTC_INFO=0

missing=0
for tool in opt-22 clang-22 clang++-22 llvm-link-22 llvm-stress-22 FileCheck-22; do
  command -v "$tool" >/dev/null 2>&1 || missing=1
done
[ -f /usr/include/nlohmann/json.hpp ] || missing=1
if [ "$missing" = 1 ]; then
  echo "test.sh: installing llvm-22 clang-22 llvm-22-tools nlohmann-json3-dev" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q llvm-22 clang-22 llvm-22-tools nlohmann-json3-dev
fi

bash bench/corpus.sh
MERGEFN_CORPUS="$PWD/target/corpus" MERGEFN_REQUIRE_LLVM=1 cargo test --release --locked
