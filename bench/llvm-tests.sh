#!/usr/bin/env bash
# LLVM's own tests (Assembler, Verifier, Transforms, Analysis, Linker, Feature, Other,
# DebugInfo/Generic: about 13,000 files) as an outside corpus: fetched
# from Debian's source package of LLVM (about 160 MiB, so not part of CI), then checked by
# bench/llvm_tests.py, and the MergeFunc tests by the differential test of tests/merge.rs.
# Usage: bench/llvm-tests.sh   (as root, or with the source package already in target/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/target/llvm-tests
mkdir -p "$work"
cd "$work"
# LoopVectorize stands for the wider set of directories, added after the first four.
if ! ls -d llvm-toolchain-*/llvm/test/Transforms/LoopVectorize >/dev/null 2>&1; then
    if ! ls llvm-toolchain-*.orig.tar.xz >/dev/null 2>&1; then
        if ! apt-cache showsrc llvm-toolchain-19 2>/dev/null | grep -q '^Package:'; then
            # Debian's source lines, beside the binary ones the machine has.
            sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
                > /etc/apt/sources.list.d/mergefn-deb-src.sources
            apt-get update -qq
        fi
        # LLVM 22's source package is listed (bookworm-security) but its upstream tarball is not
        # on the mirror (404, checked 2026-11-22); 19's tests read with LLVM 22 all the same.
        apt-get source --download-only llvm-toolchain-19
    fi
    tar -xJf llvm-toolchain-*.orig.tar.xz --wildcards \
        '*/llvm/test/Assembler/*' '*/llvm/test/Verifier/*' '*/llvm/test/Transforms/*' \
        '*/llvm/test/Analysis/*' '*/llvm/test/Linker/*' '*/llvm/test/Feature/*' \
        '*/llvm/test/Other/*' '*/llvm/test/DebugInfo/Generic/*'
fi
tests=$(ls -d "$work"/llvm-toolchain-*/llvm/test | head -1)
cd "$root"
cargo build --release --quiet
python3 bench/llvm_tests.py "$root/target/release/mergefn" "$tests"
MERGEFN_CORPUS="$tests/Transforms/MergeFunc" cargo test --release --quiet --test merge differential
