#!/usr/bin/env python3
"""Run mergefn and opt-22 side by side on each corpus module and print ratios.

    python3 bench/compare.py [--runs N] [--mergefn PATH] [MODULE.ll ...]

Mode `read` (default): `mergefn read IN -o OUT` against `opt-22 -S IN -o OUT` (parse and
print, no pass). Mode `merge` (`--mode merge`): `mergefn merge IN -o OUT` against
`opt-22 -S -passes=mergefunc IN -o OUT`, end to end (read, merge, write), with the number of
functions each folds (mergefn's from its report; opt-22's counted from its output: functions
gone, or turned into a forwarding thunk). The two commands alternate, N runs each (default 5); the table
gives the median wall time and the median peak resident memory of each, as bench/measure.c
reports them (fork to wait4, so a command's own start-up counts, the harness's does not), then
speed-up = opt time / mergefn time and memory = mergefn peak / opt peak. Machines are noisy:
read the ratios, not the absolute numbers. Without module arguments it takes every module in
target/corpus (build it with bench/corpus.sh).
"""

import argparse
import json
import re
import glob
import os
import statistics
import subprocess
import sys
import shutil
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def launcher():
    """bench/measure.c, built once into target/bench: it forks and execs the command and
    reports the command's own wall time and peak memory, without this script's start-up cost
    (which a Python-side clock would add to both sides and so shrink every ratio)."""
    exe = os.path.join(ROOT, "target", "bench", "measure")
    src = os.path.join(ROOT, "bench", "measure.c")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        cc = next((c for c in ("clang-22", "cc", "gcc") if shutil.which(c)), None)
        if cc is None:
            sys.exit("needs a C compiler (clang-22 or cc) to build bench/measure.c")
        subprocess.run([cc, "-O2", src, "-o", exe], check=True)
    return exe


def measure(cmd):
    """Wall seconds and peak RSS in KiB of one run of `cmd`."""
    proc = subprocess.run([launcher(), *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.decode(errors='replace')}")
    ns, peak = proc.stderr.decode().strip().splitlines()[-1].split()
    return int(ns) / 1e9, int(peak)


DEFINE = re.compile(r'^define [^@]*(@(?:"[^"]*"|[-\w$.]+))\(')
CAST = re.compile(r"^\s*%\S+ = (ptrtoint|inttoptr|bitcast|extractvalue|insertvalue) ")


def bodies(path):
    """Function name -> whether its body only forwards to another function."""
    out, name, lines = {}, None, []
    with open(path, errors="replace") as f:
        for line in f:
            m = DEFINE.match(line)
            if m:
                name, lines = m.group(1), []
            elif name and line.startswith("}"):
                calls = [l for l in lines if " call " in l]
                rest = [l for l in lines if l.strip() and " call " not in l and not CAST.match(l)
                        and not l.strip().startswith("ret ")]
                out[name] = len(calls) == 1 and "tail call" in calls[0] and not rest
                name = None
            elif name:
                lines.append(line)
    return out


def folded_by_opt(before, after):
    b, a = bodies(before), bodies(after)
    return sum(1 for n, fwd in b.items() if n not in a or (a[n] and not fwd))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mode", choices=["read", "merge"], default="read")
    ap.add_argument("--mergefn", default=os.path.join(ROOT, "target/release/mergefn"))
    ap.add_argument("modules", nargs="*")
    args = ap.parse_args()
    modules = args.modules or sorted(glob.glob(os.path.join(ROOT, "target/corpus/*.ll")))
    if not modules:
        sys.exit("no modules: run bench/corpus.sh first")
    if not os.path.exists(args.mergefn):
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)

    merge = args.mode == "merge"
    label = "opt-22 -S -passes=mergefunc" if merge else "opt-22 -S"
    print(f"mode: {'read+merge+write' if merge else 'read+write'}; {args.runs} runs each; medians")
    extra = " folded by mergefn | folded by opt-22 |" if merge else ""
    print(f"| module | size (KiB) | mergefn (ms) | {label} (ms) | speed-up | mergefn peak (MiB) | opt-22 peak (MiB) | memory ratio |{extra}")
    print("|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if merge else ""))
    worst_speed, worst_mem = float("inf"), 0.0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.ll")
        out_opt = os.path.join(tmp, "out-opt.ll")
        report = os.path.join(tmp, "report.json")
        for m in modules:
            ours, theirs = [], []
            for _ in range(args.runs):
                if merge:
                    ours.append(measure([args.mergefn, "merge", m, "-o", out, "--report", report]))
                    theirs.append(measure(["opt-22", "-S", "-passes=mergefunc", m, "-o", out_opt]))
                else:
                    ours.append(measure([args.mergefn, "read", m, "-o", out]))
                    theirs.append(measure(["opt-22", "-S", m, "-o", out_opt]))
            t_ours = statistics.median(t for t, _ in ours)
            t_opt = statistics.median(t for t, _ in theirs)
            m_ours = statistics.median(r for _, r in ours) / 1024
            m_opt = statistics.median(r for _, r in theirs) / 1024
            speed, mem = t_opt / t_ours, m_ours / m_opt
            worst_speed, worst_mem = min(worst_speed, speed), max(worst_mem, mem)
            size = os.path.getsize(m) / 1024
            cells = ""
            if merge:
                with open(report) as f:
                    cells = f" {json.load(f)['folded']} | {folded_by_opt(m, out_opt)} |"
            print(f"| {os.path.basename(m)} | {size:.0f} | {t_ours*1000:.1f} | {t_opt*1000:.1f} | "
                  f"{speed:.1f}x | {m_ours:.1f} | {m_opt:.1f} | {mem:.2f} |{cells}")
    print(f"\nworst speed-up {worst_speed:.1f}x (target >= 10x); worst memory ratio {worst_mem:.2f} (target <= 0.20)")


if __name__ == "__main__":
    main()
