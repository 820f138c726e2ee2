"""LLVM's own tests as an outside corpus for mergefn (not run by CI: it fetches LLVM's source).

Run `bench/llvm-tests.sh`, which fetches the tests and calls this. Six checks:
  read  every file opt-22 reads must read with `mergefn read` and round-trip byte for byte;
  refuse the files opt-22's parser refuses (an error at a line and column; not the verifier's),
        counted with those mergefn reads all the same, and listed;
  broken the files opt-22's parser reads and its verifier refuses ("input module is broken!"),
        counted with those mergefn reads all the same (it checks only part of what the
        verifier checks: see src/read/verify.rs);
  merge every file opt-22 reads, merged by `mergefn merge`, must pass opt-22's verifier, and
        merged by `mergefn opt -S` (which spells out what LLVM prints) must be the same
        module once both are printed by `opt-22 -S`;
  numbers every file merged, its `mergefn opt` output printed again by opt-22: the same nodes
        named on each line (LLVM's numbering of metadata, which `mergefn opt` writes), the
        files where not listed;
  fold  the functions opt-22 folds in each file it merges (gone, or now forwarding to another
        where they did not forward before)
        against those mergefn folds: counted, those opt-22 alone folds grouped by the reason
        `mergefn explain` gives, and the files where mergefn alone folds one listed (the class
        mates of a function either folds count as that function: the survivor is a choice);
  lit   the MergeFunc tests' RUN lines with `opt` replaced by `mergefn opt` (and by opt-22, to
        compare), counted as they pass as is, and as they pass with our output printed again
        by `opt-22 -S` (ours keeps the input's text but for what LLVM always spells out,
        where opt prints its own: metadata renumbered, constants on one line...);
and prints the files refused or invalid and the tests failed, for a person to explain.
"""
import json, os, re, subprocess, sys, tempfile
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


DEFINE = re.compile(r'^define [^@]*(@(?:"[^"]*"|[-\w$.]+))\(')
FORWARD_CAST = re.compile(r"^%\S+ = (ptrtoint|inttoptr|bitcast|extractvalue|insertvalue) ")


def bodies(text):
    """Function name -> (whether its body only forwards to another, its lines), as opt-22
    prints them."""
    out, name, lines = {}, None, []
    for line in text.splitlines():
        m = DEFINE.match(line)
        if m:
            name, lines = m.group(1), []
        elif name and line.startswith("}"):
            calls = [l for l in lines if " call " in l]
            rest = [l for l in lines if " call " not in l and not FORWARD_CAST.match(l)
                    and not l.startswith("ret ") and not l.startswith("#dbg")]
            out[name] = (len(calls) == 1 and "tail call" in calls[0] and not rest, lines)
            name = None
        elif name:
            line = line.split(";")[0].strip()
            if line:
                lines.append(line)
    return out


def fold_check(path):
    """(functions opt-22 folds, functions mergefn folds, [(opt-22 alone, the reason mergefn
    gives)], [mergefn alone])."""
    before = run(["opt-22", "-S", path, "-o", "-"]).stdout
    after = run(["opt-22", "-S", "-passes=mergefunc", path, "-o", "-"])
    if after.returncode != 0:
        return None
    b, a = bodies(before), bodies(after.stdout)
    numbered = re.compile(r"^@\d+$")
    # A function that forwarded before and forwards elsewhere after had its call redirected.
    theirs = {n for n, (forwarded, lines) in b.items() if not numbered.match(n)
              and (n not in a or (a[n][0] and not forwarded and a[n][1] != lines))}
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "report.json")
        p = run([mergefn, "merge", path, "-o", os.path.join(d, "out.ll"), "--report", report])
        if p.returncode != 0:
            return None
        classes = json.load(open(report))["classes"]
    ours, mates = set(), {}
    for c in classes:
        names = [m["name"] for m in c["members"]]
        for m in c["members"]:
            mates[m["name"]] = names
            if m["fate"] not in ("survivor", "kept") and not numbered.match(m["name"]):
                ours.add(m["name"])
    # Counted alike on both sides: a function that forwarded before is left out.
    ours -= {n for n, (forwarded, _) in b.items() if forwarded}
    swapped = lambda n, other: any(x in other for x in mates.get(n, []))
    alone = []
    for n in sorted(theirs - ours):
        if swapped(n, ours):
            continue
        # The function opt-22's thunk calls, if any, against which to ask why.
        target = next((re.search(r"@[-\w$.\"]+(?=\()", l.split(" call ", 1)[1]) for l in a.get(n, (0, []))[1]
                       if " call " in l), None)
        why = "gone (no thunk to ask about)"
        if target:
            out = run([mergefn, "explain", path, n, target.group(0)]).stdout
            rule = re.search(r"rule: (.*)|does not take part \((.*)\)|(merge: they are equal)", out)
            why = next((g for g in rule.groups() if g), "?") if rule else out.strip()[:80]
        alone.append((n, why))
    extra = sorted(n for n in ours - theirs if not swapped(n, theirs))
    return (len(theirs), len(ours), alone, extra)


def nodes_by_line(text):
    """The metadata nodes each line names (`!N`, outside strings), in order, for the lines that
    name some: comments left out."""
    lines = (re.sub(r'"[^"]*"', '""', l) for l in text.splitlines() if not l.startswith(";"))
    return [n for n in (sorted(re.findall(r"!(\d+)", l)) for l in lines) if n]


def merge_check(path):
    """(None if mergefn's merged module verifies, and `mergefn opt`'s output is the same module
    as LLVM reads it, else why not; whether opt-22, printing `mergefn opt`'s output again,
    names the same nodes on each line, that is numbers metadata as mergefn did)."""
    with tempfile.NamedTemporaryFile(suffix=".ll") as out:
        p = run([mergefn, "merge", path, "-o", out.name])
        if p.returncode != 0:
            return "refused: " + p.stderr.strip().splitlines()[0], False
        v = run(["opt-22", "-S", out.name, "-o", "-"])
        if v.returncode != 0:
            return "does not verify: " + v.stderr.strip().splitlines()[0], False
        o = run([mergefn, "opt", "-S", "-passes=mergefunc", path, "-o", out.name])
        if o.returncode != 0:
            return "opt refused: " + o.stderr.strip().splitlines()[0], False
        w = run(["opt-22", "-S", out.name, "-o", "-"])
        if w.returncode != 0:
            return "opt's output does not verify: " + w.stderr.strip().splitlines()[0], False
        numbered_alike = nodes_by_line(open(out.name, errors="replace").read()) == nodes_by_line(w.stdout)
        # Printed by opt-22, both are the same module: its identifier aside, and the order of
        # a block's predecessors in opt's comments, which is the use-list order the directives
        # give (`uselistorder`), dropped by `mergefn opt` as opt drops them.
        printed = lambda text: [re.sub(r"\s+; preds = .*", "", l) for l in text.splitlines()
                                if not l.startswith(("; ModuleID", "source_filename"))]
        if printed(v.stdout) != printed(w.stdout):
            diff = next(((a, b) for a, b in zip(printed(v.stdout), printed(w.stdout)) if a != b), None)
            return f"opt's output is another module: {diff}", numbered_alike
    return None, numbered_alike


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
failed = [(f, r) for f, (r, _) in zip(readable, merged) if r is not None]
print(f"merge: {len(readable)} files merged, {len(failed)} refused or invalid after merging")
for f, r in failed:
    print(f"  {os.path.relpath(f, tests)}: {r}")
# Where they differ, LLVM changed the module as it read it (it drops debug information of
# another version or that its verifier refuses, upgrades old TBAA nodes and intrinsics...),
# or writes a debug information node's fields in its own order: listed for a person to see.
renumbered = [f for f, (_, alike) in zip(readable, merged) if not alike]
print(
    f"numbers: of {len(readable)} files, opt-22 numbers the metadata of `mergefn opt`'s output "
    f"as it is on {len(readable) - len(renumbered)}, otherwise on {len(renumbered)}"
)
for f in renumbered:
    print(f"  {os.path.relpath(f, tests)}")

with ThreadPoolExecutor(os.cpu_count()) as pool:
    folds = [(f, r) for f, r in zip(readable, pool.map(fold_check, readable)) if r]
reasons = {}
for f, (_, _, alone, _) in folds:
    for n, why in alone:
        # The reason without the instruction it names (`here \`call\``).
        reasons.setdefault(re.sub(r"; here .*", "", why), []).append(f"{os.path.relpath(f, tests)} {n}")
print(
    f"fold: {len(folds)} files merged by both, opt-22 folds {sum(r[0] for _, r in folds)} "
    f"functions, mergefn {sum(r[1] for _, r in folds)}; opt-22 alone "
    f"{sum(len(r[2]) for _, r in folds)}, mergefn alone {sum(len(r[3]) for _, r in folds)}"
)
for why, where in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
    print(f"  opt-22 alone, {len(where)}: {why} (e.g. {where[0]})")
    # A reason shared by few is listed whole: each may hide a case of its own.
    if 1 < len(where) <= 30:
        for w in where[1:]:
            print(f"    also {w}")
for f, (_, _, _, extra) in folds:
    if extra:
        print(f"  mergefn alone: {os.path.relpath(f, tests)}: {' '.join(extra[:4])}")

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
    elif o and not t:
        print(f"  {os.path.basename(f)}: passed by mergefn only")
