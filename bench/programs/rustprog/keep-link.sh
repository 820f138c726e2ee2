#!/usr/bin/env bash
# A linker for rustc (`-C linker=`) that links as `cc` does and keeps what is needed to link
# the program again from other IR: the object files rustc made (copied into $KEEP_LINK_DIR,
# as rustc deletes them) and the command line, one argument a line, in $KEEP_LINK_DIR/args,
# with the program's own code generation units written @MAIN@ (the first) and @CGU.<n>@ (the
# others, when there are several) and the output file @OUT@.
# tests/runtime.rs links the program from rustprog-O*.ll (and from the units of
# rustprog-cgu16/) before and after merging this way.
set -euo pipefail
dir=${KEEP_LINK_DIR:?KEEP_LINK_DIR names the folder to keep the link in}
mkdir -p "$dir"
args=()
next_is_out=0
for a in "$@"; do
  if [ "$next_is_out" = 1 ]; then
    args+=(@OUT@)
    next_is_out=0
    continue
  fi
  case "$a" in
    -o) args+=(-o); next_is_out=1 ;;
    *-cgu.0.rcgu.o) args+=(@MAIN@) ;;
    *-cgu.*.rcgu.o) n=${a##*-cgu.}; args+=("@CGU.${n%.rcgu.o}@") ;;
    *.o) cp "$a" "$dir/"; args+=("$dir/$(basename "$a")") ;;
    *) args+=("$a") ;;
  esac
done
printf '%s\n' "${args[@]}" >"$dir/args"
exec cc "$@"
