#!/usr/bin/env bash
# Our programs built with the compiler flags a build pipeline uses, as an outside corpus (not
# part of CI: about ten minutes of building): instrumentation (coverage, IR profiles, function
# entry hooks, XRay, gcov, coverage guards), sanitizers (thread, memory, undefined, safe stack,
# fuzzer, function, dataflow, numerical, realtime, KCFI, HWASan), hardening (stack protector,
# CET, branch protection, patchable entries, return thunks, split stacks), full LTO, -Oz, debug
# information (DWARF 5 at -O0, split DWARF at -O2), C++20 coroutines (split by the -O0
# pipeline, and before any pass: `presplitcoroutine` bodies), and the exception handling of
# other targets (Windows' funclet pads for x86 and x86-64, MinGW, WebAssembly); and small
# programs in other languages (OpenMP, C blocks, Objective-C, OpenCL, CUDA and HIP device code,
# and Fortran, by flang).
#   - the differential test of tests/merge.rs runs on them: every merged module must verify,
#     and every difference from opt-22 must be explained by a rule of the spec;
#   - the programs this machine runs without a sanitizer's runtime are built again from merged
#     IR and must print what the unmerged builds print.
# Usage: bench/flags.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
programs=$root/bench/programs
source "$root/bench/outside-corpus.sh"

# The AArch64 builds (HWASan, branch protection) need Debian's cross C and C++ headers; the
# Objective-C build for macOS, C headers outside a multiarch folder (/usr/include/bits, which
# libc6-dev-i386 installs).
for package in nlohmann-json3-dev flang-22 libc6-dev-arm64-cross libstdc++-12-dev-arm64-cross \
  libc6-dev-i386; do
  dpkg -s "$package" >/dev/null 2>&1 || apt-get install -y -q "$package" >&2
done
build_mergefn

rm -rf "$out" && mkdir -p "$out/modules" "$out/run"
# stlprog and jsonprog, each one module, built with the given flags.
build() {
  for program in stlprog jsonprog; do
    link_program "$program" "$@"
  done
}
log "building"
build coverage -O2 -fprofile-instr-generate -fcoverage-mapping
build irprofile -O2 -fprofile-generate
build tsan -O1 -fsanitize=thread
build msan -O1 -fsanitize=memory
build ubsan -O2 -fsanitize=undefined
build safestack -O2 -fsanitize=safe-stack
build hardened -O2 -fstack-protector-strong -fcf-protection=full
build Oz -Oz
build g5-O0 -O0 -g -gdwarf-5 -gcolumn-info
build gsplit-O2 -O2 -g -gsplit-dwarf
# What instruments each function or its entry: hooks given the function's own address (no
# merging there: spec §3), XRay sleds, gcov counters, coverage guards and tables, libFuzzer's
# and the other sanitizers' instrumentation, KCFI type hashes (spec §5: compared), patchable
# entries, cleared registers and return thunks, split stacks, mcount; full LTO's module; and
# for AArch64, HWASan and branch protection.
build instrfn -O2 -finstrument-functions
build xray -O2 -fxray-instrument -fxray-instruction-threshold=1
build gcov -O0 -fprofile-arcs -ftest-coverage
build sancov -O2 -fsanitize-coverage=trace-pc-guard,pc-table,trace-cmp
build fuzzer -O1 -fsanitize=fuzzer-no-link,address
build function -O2 -fsanitize=function
build dfsan -O1 -fsanitize=dataflow
build nsan -O1 -fsanitize=numerical
build rtsan -O1 -fsanitize=realtime
build kcfi -O2 -fsanitize=kcfi
build patchable -O2 -fpatchable-function-entry=16,8
build zeroregs -O2 -fzero-call-used-regs=used-gpr -mfunction-return=thunk-extern
build splitstack -O2 -fsplit-stack
build pg -O2 -pg
build lto -O2 -flto
build hwasan -O1 --target=aarch64-linux-gnu -fsanitize=hwaddress
build bti -O2 --target=aarch64-linux-gnu -mbranch-protection=standard
coro=$programs/coroprog/main.cpp
clang++-22 -std=c++20 -O0 -S -emit-llvm "$coro" -o "$out/modules/coroprog-O0.ll"
clang++-22 -std=c++20 -O2 -S -emit-llvm "$coro" -o "$out/modules/coroprog-O2.ll"
clang++-22 -std=c++20 -O1 -Xclang -disable-llvm-passes -S -emit-llvm "$coro" \
  -o "$out/modules/coroprog-presplit.ll"
for target in x86_64-pc-windows-msvc i686-pc-windows-msvc x86_64-w64-windows-gnu \
  wasm32-unknown-unknown; do
  extra=()
  [ "$target" = wasm32-unknown-unknown ] && extra=(-fwasm-exceptions)
  for level in O0 O2; do
    clang++-22 --target="$target" -fexceptions -fcxx-exceptions "${extra[@]}" -"$level" -S \
      -emit-llvm "$programs/ehprog/guarded.cpp" -o "$out/modules/ehprog-$target-$level.ll"
  done
done

# Other languages and targets (bench/programs/languages): modules only, as their runtimes are
# not here, but for Fortran (flang's runtime comes with it).
languages=$programs/languages
for level in O0 O2; do
  clang++-22 -fopenmp -$level -S -emit-llvm "$languages/openmp.cpp" -o "$out/modules/openmp-$level.ll"
  clang-22 -fblocks -$level -S -emit-llvm "$languages/blocks.c" -o "$out/modules/blocks-$level.ll"
  clang-22 -fobjc-arc -fobjc-runtime=gnustep-2.0 -$level -S -emit-llvm "$languages/counter.m" \
    -o "$out/modules/objc-gnustep-$level.ll"
  clang-22 --target=arm64-apple-macos13 -fobjc-arc -$level -S -emit-llvm "$languages/counter.m" \
    -o "$out/modules/objc-apple-$level.ll"
  for target in spir64 amdgcn-amd-amdhsa; do
    clang-22 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header --target=$target -nogpulib \
      -$level -S -emit-llvm "$languages/kernels.cl" -o "$out/modules/opencl-${target%%-*}-$level.ll"
  done
  clang++-22 -x hip --offload-arch=gfx90a -nogpuinc -nogpulib --cuda-device-only -$level -S \
    -emit-llvm "$languages/device.cu" -o "$out/modules/hip-$level.ll"
  (cd "$out/run" && flang-22 -$level -S -emit-llvm "$languages/kinds.f90" \
    -o "$out/modules/fortran-$level.ll")
  clang++-22 -x cuda --cuda-gpu-arch=sm_80 -nocudainc -nocudalib --cuda-device-only \
    -Xclang -target-feature -Xclang +ptx80 -$level -S -emit-llvm "$languages/device.cu" \
    -o "$out/modules/cuda-$level.ll"
done

# The programs this machine runs as they are: built from their IR as it is and merged, the
# same output.
build_here() { clang++-22 -O0 -w "$1" -o "$2"; }
for ll in "$out"/modules/*-{hardened,Oz,g5-O0,gsplit-O2,instrfn,kcfi,patchable,splitstack,pg,lto}.ll \
  "$out"/modules/coroprog-*.ll; do
  prints_the_same_merged "$ll" build_here
done
build_fortran() { flang-22 "$1" -o "$2"; }
for ll in "$out"/modules/fortran-*.ll; do
  prints_the_same_merged "$ll" build_fortran
done
differential_on_modules
