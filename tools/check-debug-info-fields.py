#!/usr/bin/env python3
"""Check src/read/debug_info.rs against opt-22: every field of every node kind there must be
one opt-22 takes for that kind, what opt-22 expects for its value must be what the table
says, and no identifier of LLVM's DebugInfoMetadata.h that opt-22 takes as a field of a kind
may be missing from the table (with --search: the header's identifiers, as written and as a
field spells them, that libLLVM holds as strings; the table's own fields take seconds). Run
when moving to another LLVM:

    python3 tools/check-debug-info-fields.py [--search] [opt-22] [/usr/lib/llvm-22/include]
"""
import os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

search = "--search" in sys.argv
args = [a for a in sys.argv[1:] if a != "--search"]
opt = args[0] if args else "opt-22"
include = args[1] if len(args) > 1 else "/usr/lib/llvm-22/include"
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
source = open(os.path.join(root, "src/read/debug_info.rs")).read()

# The table: `("Kind", NAME),` and `const NAME: &[Field] = &[opt("name", VALUE), ...];`.
consts = dict(re.findall(r"const (\w+): &\[Field\] =\s*&\[(.*?)\];", source, re.S))
table = {}
for kind, name in re.findall(r'^    \("(\w+)", (\w+)\),', source, re.M):
    table[kind] = re.findall(r'(?:opt|req)\("(\w+)",\s*([^)]*\)?)\)', consts[name])

# What opt-22 says it expected, given `]` for a value, by the table's value kinds.
EXPECTED = [
    (r"^NodeList", "'{' here"),
    (r"^(NODE|NOT_NULL|Node|SIZE|BOUND|SignedOrNode|UnsignedOrNode)", "metadata operand"),
    (r"^(STR|Str)", "string constant"),
    (r"^(LINE|COLUMN|U32|U64|Unsigned)", "unsigned integer"),
    (r"^Signed", "signed integer"),
    (r"^Integer", "integer"),
    (r"^Bool", "'true' or 'false'"),
    (r"^(Flags|SubprogramFlags)", "debug info flag"),
    (r"^Checksum", "invalid checksum kind"),
]
# The lists of words: `const NAME: FieldValue = Word(&Words { ... what: "..." })`.
WORDS = dict(re.findall(r'const (\w+): FieldValue = Word\(&Words \{.*?what: "([^"]*)"', source, re.S))


def expected(value):
    if value in WORDS:
        return WORDS[value]
    for pattern, what in EXPECTED:
        if re.match(pattern, value):
            return what
    return None


def opt_says(kind, field):
    distinct = "distinct " if kind in ("DICompileUnit", "DISubprogram") else ""
    text = f"!0 = {distinct}!{kind}({field}: ])\n"
    r = subprocess.run([opt, "-disable-output", "-"], input=text, capture_output=True, text=True)
    return r.stderr.splitlines()[0] if r.stderr else ""


problems = []
jobs = [(k, f, v) for k, fs in table.items() for f, v in fs]
with ThreadPoolExecutor(os.cpu_count()) as pool:
    said = list(pool.map(lambda j: opt_says(j[0], j[1]), jobs))
for (kind, field, value), message in zip(jobs, said):
    if "invalid field" in message:
        problems.append(f"{kind}.{field}: opt-22 has no such field")
    elif expected(value) and expected(value) not in message:
        problems.append(f"{kind}.{field} ({value}): opt-22 says {message!r}")



def field_candidates():
    """Names that may be fields: the identifiers of DebugInfoMetadata.h as written and as a
    field would spell them (`DataSizeInBits` -> `dataSize`), kept when libLLVM holds the
    very string (the parser compares each field name with a string literal)."""
    header = open(os.path.join(include, "llvm/IR/DebugInfoMetadata.h")).read()
    names = set()
    for word in re.findall(r"\b[A-Za-z][A-Za-z_]{1,40}\b", header):
        for w in (word, re.sub(r"InBits$", "", word)):
            names.add(w[0].lower() + w[1:])
    library = os.path.join(os.path.dirname(include), "lib", "libLLVM.so")
    if os.path.exists(library):
        data = open(library, "rb").read()
        strings = set(re.findall(rb"(?<=\0)[a-z][A-Za-z_]{1,40}(?=\0)", data))
        names = {n for n in names if n.encode() in strings}
    return sorted(names)


candidates = field_candidates() if search else []
known = {(k, f) for k, fs in table.items() for f, _ in fs}
jobs = [(k, c) for k in table for c in candidates if (k, c) not in known]
with ThreadPoolExecutor(os.cpu_count()) as pool:
    said = list(pool.map(lambda j: opt_says(*j), jobs))
for (kind, field), message in zip(jobs, said):
    if message and "invalid field" not in message:
        problems.append(f"{kind}.{field}: a field of opt-22's missing from the table ({message})")

print(f"{len(table)} kinds, {len(known)} fields checked")
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
