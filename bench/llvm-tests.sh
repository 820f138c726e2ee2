#!/usr/bin/env bash
# LLVM's own tests (Assembler, Verifier, Transforms, Analysis, Linker, Feature, Other,
# DebugInfo/Generic: about 13,000 files) as an outside corpus: fetched
# from Debian's source package of LLVM 22 (about 190 MiB, so not part of CI), then checked by
# bench/llvm_tests.py, and the MergeFunc tests by the differential test of tests/merge.rs.
# Usage: bench/llvm-tests.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/target/llvm-tests
mkdir -p "$work"
cd "$work"
# LLVM 22's own tests, from the upstream tarball of Debian's source package (unstable carries
# llvm-toolchain-22; bookworm-security lists it but its mirror lacks the tarball), checked
# against Debian's checksum. LoopVectorize stands for the wider set of directories.
version=22_22.1.8
tarball=llvm-toolchain-$version.orig.tar.xz
sha256=b49b9277aef97616320b2da259e1f8174c65b0ce2fbe2e8629644a97693402fe
if ! ls -d llvm-toolchain-$version/llvm/test/Transforms/LoopVectorize >/dev/null 2>&1; then
    if [ ! -f "$tarball" ]; then
        curl -fsSL -o "$tarball.part" \
            "http://deb.debian.org/debian/pool/main/l/llvm-toolchain-22/$tarball"
        mv "$tarball.part" "$tarball"
    fi
    echo "$sha256  $tarball" | sha256sum -c --quiet
    tar -xJf "$tarball" --wildcards \
        '*/llvm/test/Assembler/*' '*/llvm/test/Verifier/*' '*/llvm/test/Transforms/*' \
        '*/llvm/test/Analysis/*' '*/llvm/test/Linker/*' '*/llvm/test/Feature/*' \
        '*/llvm/test/Other/*' '*/llvm/test/DebugInfo/Generic/*'
fi
tests=$work/llvm-toolchain-$version/llvm/test
cd "$root"
cargo build --release --quiet
python3 bench/llvm_tests.py "$root/target/release/mergefn" "$tests"
MERGEFN_CORPUS="$tests/Transforms/MergeFunc" cargo test --release --quiet --test merge differential
