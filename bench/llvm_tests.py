"""LLVM's own tests as an outside corpus for mergefn (not run by CI: it fetches LLVM's source).

Run `bench/llvm-tests.sh`, which fetches the tests and calls this. Five checks:
  read  every file opt-22 reads must read with `mergefn read` and round-trip byte for byte;
  refuse the files opt-22's parser refuses (an error at a line and column; not the verifier's),
        counted with those mergefn reads all the same, and listed;
  broken the files opt-22's parser reads and its verifier refuses ("input module is broken!"),
        counted with those mergefn reads all the same (it checks only part of what the
        verifier checks: see src/read/verify.rs);
  merge every file opt-22 reads, merged by `mergefn merge`, must pass `opt-22 -passes=verify`;
  lit   the MergeFunc tests' RUN lines with `opt` replaced by `mergefn opt` (and by opt-22, to
        compare), counted as they pass as is, and as they pass with our output printed again
        by `opt-22 -S` (ours keeps the input's text, opt prints its own: `align 1` spelled
        out, parameters numbered...);
and prints the files refused or invalid and the tests failed, for a person to explain.
"""
import os, re, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

mergefn, tests = sys.argv[1], sys.argv[2]
env = dict(os.environ, PATH=os.environ["PATH"] + ":/usr/lib/llvm-22/bin")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, **kw)


def parser_refusal(stderr):
    """opt-22's message when its parser refused a file (an error at file:line:col), else None."""
    for line in stderr.splitlines():
        m = re.match(r"opt-22: .*?:\d+:\d+: error: (.*)", line)
        if m:
            return m.group(1)
    return None


def read_check(path):
    """For a file opt-22 reads: "ok", or why mergefn fails it. For a file opt-22's parser
    refuses: ("refused", None) or ("read", opt-22's message), as mergefn refuses or reads it.
    For a file its verifier refuses: ("broken", True or False), as mergefn refuses it or not.
    Otherwise None."""
    opt = run(["opt-22", "-disable-output", path])
    if opt.returncode != 0:
        message = parser_refusal(opt.stderr)
        if message is None:
            if "input module is broken" not in opt.stderr:
                return None
            ours = run([mergefn, "read", path, "-o", os.devnull])
            return ("broken", ours.returncode != 0)
        ours = run([mergefn, "read", path, "-o", os.devnull])
        return ("refused", None) if ours.returncode != 0 else ("read", message)
    with tempfile.NamedTemporaryFile(suffix=".ll") as out:
        p = run([mergefn, "read", path, "-o", out.name])
        if p.returncode != 0:
            return "refused: " + p.stderr.strip().splitlines()[0]
        if open(path, "rb").read() != open(out.name, "rb").read():
            return "differs after a round trip"
    return "ok"


def merge_check(path):
    """None if mergefn's merged module verifies, else why not."""
    with tempfile.NamedTemporaryFile(suffix=".ll") as out:
        p = run([mergefn, "merge", path, "-o", out.name])
        if p.returncode != 0:
            return "refused: " + p.stderr.strip().splitlines()[0]
        v = run(["opt-22", "-passes=verify", "-disable-output", out.name])
        if v.returncode != 0:
            return "does not verify: " + v.stderr.strip().splitlines()[0]
    return None


def lit(path, opt, reprint):
    runs, cur = [], ""
    for line in open(path, errors="replace"):
        m = re.search(r"RUN:\s?(.*)$", line.rstrip("\n"))
        if m:
            if m.group(1).endswith("\\"):
                cur += m.group(1)[:-1]
            else:
                runs.append(cur + m.group(1))
                cur = ""
    for r in runs:
        cmd = re.sub(r"(^|\|\s*)opt\b", lambda m: m.group(1) + opt, r.replace("%s", path))
        cmd = re.sub(r"\bFileCheck\b", "FileCheck-22", cmd)
        if reprint and "|" in cmd and " -S" in cmd.split("|")[0]:
            head, tail = cmd.split("|", 1)
            cmd = head + "| opt-22 -S |" + tail
        if run(["bash", "-o", "pipefail", "-c", cmd]).returncode != 0:
            return False
    return True


files = sorted(
    os.path.join(d, f) for d, _, fs in os.walk(tests) for f in fs if f.endswith(".ll")
)
with ThreadPoolExecutor(os.cpu_count()) as pool:
    results = list(pool.map(read_check, files))
read = [(f, r) for f, r in zip(files, results) if isinstance(r, str)]
bad = [(f, r) for f, r in read if r != "ok"]
print(f"read: {len(files)} files, opt-22 reads {len(read)}, mergefn refuses or changes {len(bad)}")
for f, r in bad:
    print(f"  {os.path.relpath(f, tests)}: {r}")
refused = [(f, r[1]) for f, r in zip(files, results) if isinstance(r, tuple) and r[0] != "broken"]
accepted = [(f, m) for f, m in refused if m is not None]
print(f"refuse: opt-22's parser refuses {len(refused)} files, mergefn reads {len(accepted)} of them")
for f, m in accepted:
    print(f"  {os.path.relpath(f, tests)}: opt-22: {m}")

broken = [r[1] for r in results if isinstance(r, tuple) and r[0] == "broken"]
print(f"broken: opt-22's verifier refuses {len(broken)} files, mergefn refuses {sum(broken)} of them")

readable = [f for f, r in read if r == "ok"]
with ThreadPoolExecutor(os.cpu_count()) as pool:
    merged = list(pool.map(merge_check, readable))
failed = [(f, r) for f, r in zip(readable, merged) if r is not None]
print(f"merge: {len(readable)} files merged, {len(failed)} refused or invalid after merging")
for f, r in failed:
    print(f"  {os.path.relpath(f, tests)}: {r}")

merge_tests = [f for f in files if "/MergeFunc/" in f]
with ThreadPoolExecutor(os.cpu_count()) as pool:
    theirs = list(pool.map(lambda f: lit(f, "opt-22", False), merge_tests))
    as_is = list(pool.map(lambda f: lit(f, mergefn + " opt", False), merge_tests))
    reprinted = list(pool.map(lambda f: lit(f, mergefn + " opt", True), merge_tests))
ours = [a or r for a, r in zip(as_is, reprinted)]
print(
    f"lit: {len(merge_tests)} MergeFunc tests, opt-22 passes {sum(theirs)}, mergefn passes "
    f"{sum(as_is)} as is and {sum(ours)} with its output printed again by opt-22"
)
for f, t, a, o in zip(merge_tests, theirs, as_is, ours):
    if t and not o:
        print(f"  {os.path.basename(f)}: passed by opt-22 only")
    elif t and not a:
        print(f"  {os.path.basename(f)}: passed by mergefn once printed again by opt-22")
