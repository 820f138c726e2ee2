#!/usr/bin/env python3
"""Write src/read/intrinsic_names.rs: the names of LLVM 22's intrinsics, sorted, marking those
overloaded (take type suffixes: `llvm.memcpy.p0.p0.i64`), each with its signature, the
parameters that take only an immediate (`immarg`) and the function attributes LLVM gives its
declarations (as its printer writes them), from IntrinsicImpl.inc in the headers of
Debian's llvm-22-dev package: the tables LLVM's own lookup searches and its verifier matches
declarations against (`IIT_Table`, `IIT_LongEncodingTable`), and those it gives each
intrinsic's attributes from (`IntrinsicsToAttributesMap`, `ArgAttrIdTable`).

Usage: python3 tools/gen-intrinsic-names.py [/usr/lib/llvm-22/include]
Run again when moving to another LLVM; the output is committed, so building mergefn needs no
LLVM headers.
"""
import os, re, sys

include = sys.argv[1] if len(sys.argv) > 1 else "/usr/lib/llvm-22/include"
text = open(os.path.join(include, "llvm/IR/IntrinsicImpl.inc")).read()

# The name table: "\0", then "not_intrinsic\0" (ID 0), then one name a line, by ID.
start = text.index("static constexpr char IntrinsicNameTableStorage[] =")
table = text[start : text.index(";", start)]
names = re.findall(r'"((?:[^"\\]|\\.)*)\\0"', table)
assert names[:2] == ["", "not_intrinsic"], names[:2]
names = names[2:]
assert all(re.fullmatch(r"llvm\.[\w.]+", n) for n in names)

# The overload bitset: bit (ID % 8) of byte (ID / 8), IDs counted from not_intrinsic's 0.
start = text.index("#ifdef GET_INTRINSIC_OVERLOAD_TABLE")
body = text[text.index("{", start) + 1 : text.index("};", start)]
bits = []
for entry in body.split(","):
    if entry.strip():
        bits.append(sum(1 << int(b) for b in re.findall(r"1<<(\d)", entry)))
overloaded = [bool(bits[(i + 1) // 8] >> ((i + 1) % 8) & 1) for i in range(len(names))]
# The signatures: IIT_Table[ID - 1] holds the codes of one inline (4-bit codes, lowest
# first) or, with bit 15 set, the offset of its codes in IIT_LongEncodingTable. Each
# intrinsic's codes are written out whole, as many as LLVM's decoder reads (`IIT_CODES`).
def numbers(name):
    start = text.index(name)
    body = re.sub(r"/\*.*?\*/", "", text[text.index("{", start) + 1 : text.index("};", start)])
    return [e.strip() for e in body.split(",") if e.strip()]
iit_table = [(1 << 15) | int(e.split("|")[1]) if e.startswith("(1U<<15)") else int(e, 0)
             for e in numbers("static constexpr uint16_t IIT_Table[]")]
long_table = [int(e) for e in numbers("static constexpr unsigned char IIT_LongEncodingTable[]")]
codes = dict(re.findall(r"  IIT_(\w+) = (\d+),", text))
IIT = {k: int(v) for k, v in codes.items()}
one_byte = {IIT[k] for k in ["ARG", "EXTEND_ARG", "TRUNC_ARG", "SAME_VEC_WIDTH_ARG", "VEC_ELEMENT",
                             "SUBDIVIDE2_ARG", "SUBDIVIDE4_ARG", "VEC_OF_BITCASTS_TO_INT", "ANYPTR",
                             "STRUCT"]}
two_bytes = {IIT["ONE_NTH_ELTS_VEC_ARG"], IIT["VEC_OF_ANYPTRS_TO_ELT"]}
then_a_type = {IIT[k] for k in codes if re.fullmatch(r"V\d+", k)} | {IIT["SCALABLE_VEC"], IIT["SAME_VEC_WIDTH_ARG"]}
assert len(IIT) == 54, "IIT codes changed: check src/read/intrinsics.rs"

def type_end(t, i):
    """Where the type whose codes start at t[i] ends (LLVM's DecodeIITType)."""
    code = t[i]
    i += 1 + (code in one_byte) + 2 * (code in two_bytes)
    if code == IIT["STRUCT"]:
        for _ in range(t[i - 1] + 2):
            i = type_end(t, i)
    elif code in then_a_type:
        i = type_end(t, i)
    return i

def signature(id):
    value = iit_table[id - 1]
    if value >> 15:
        t, i = long_table, value & 0x7FFF
    else:
        t, i = [], 0
        while True:
            t.append(value & 15)
            value >>= 4
            if not value:
                break
    start = i
    i = type_end(t + [0, 0], i)
    while i < len(t) and t[i] != 0:
        i = type_end(t + [0, 0], i)
    return bytes(t[start:min(i, len(t))]).hex()

signatures = [signature(id) for id in range(1, len(names) + 1)]

# The parameters marked `immarg`: the attribute sets holding ImmArg (the cases of
# getIntrinsicArgAttributeSet), each intrinsic's run of (position, set) pairs (position 0 is
# the result, 1 the first parameter) in ArgAttrIdTable, found through ArgAttributesInfoTable
# by the low byte of its IntrinsicsToAttributesMap entry (`unpackID`).
start = text.index("static AttributeSet getIntrinsicArgAttributeSet")
cases = re.split(r"\n  case (\d+):", text[start : text.index("getIntrinsicFnAttributeSet", start)])
immarg_sets = {int(cases[i]) for i in range(1, len(cases), 2) if "Attribute::ImmArg" in cases[i + 1]}
# The range an attribute set gives the values of its position (`Range<ArgIndex<N>, lo, hi>` in
# the intrinsic's definition): the two ends, signed, of a `ConstantRange` of the parameter's
# width (the verifier checks an immediate against it).
RANGE = (r"Attribute::get\(C, Attribute::Range, ConstantRange\("
         r"APInt\(BitWidth, (-?\d+), /\*isSigned=\*/true, /\*implicitTrunc=\*/true\), "
         r"APInt\(BitWidth, (-?\d+), /\*isSigned=\*/true, /\*implicitTrunc=\*/true\)\)\)")
ranges_of_sets = {}
for i in range(1, len(cases), 2):
    found = re.findall(RANGE, cases[i + 1])
    assert len(found) == cases[i + 1].count("Attribute::Range"), cases[i + 1]
    if found:
        ranges_of_sets[int(cases[i])] = tuple(map(int, found[0]))
def pairs(name):
    start = text.index(name)
    body = re.sub(r"/\*.*?\*/", "", text[text.index("{", start) + 1 : text.index("};", start)])
    return [tuple(map(int, p)) for p in re.findall(r"\{(\d+), (\d+)\}", body)]
arg_attr_ids = pairs("static constexpr ArgNoAttrIDPair ArgAttrIdTable[]")
arg_attr_runs = pairs("static constexpr ArgAttributesInfo ArgAttributesInfoTable[]")
start = text.index("static constexpr uint16_t IntrinsicsToAttributesMap[]")
packed = re.findall(r"(\d+) << 8 \| (\d+), // (\S+)", text[start : text.index("};", start)])
assert [n for _, _, n in packed] == names, "IntrinsicsToAttributesMap is not in ID order"
fn_set_ids = [int(f) for f, _, _ in packed]
packed = [(run, n) for _, run, n in packed]

# The function attributes LLVM gives a declaration of each intrinsic, whatever the text
# says (the cases of getIntrinsicFnAttributeSet; 127: none), as its printer writes them:
# enum attributes in the order of their kinds (Attributes.td's, by name), then `memory(...)`.
start = text.index("static AttributeSet getIntrinsicFnAttributeSet")
fn_cases = re.split(r"\n  case (\d+):", text[start : text.index("} // getIntrinsicFnAttributeSet", start)])
ENUM_FN_ATTRIBUTES = ["Cold", "Convergent", "NoCallback", "NoCreateUndefOrPoison", "NoDuplicate",
                      "NoFree", "NoMerge", "NoReturn", "NoSync", "NoUnwind", "Speculatable",
                      "StrictFP", "WillReturn"]
LOCATIONS = ["argmem", "inaccessiblemem", "errnomem", "other", "target_mem0", "target_mem1"]
MOD_REF = ["none", "read", "write", "readwrite"]
def memory(value):
    """`memory(...)` as LLVM's Attribute::getAsString writes MemoryEffects `value`: two bits a
    location in LOCATIONS' order; `other`'s access is the default, written first unless none
    (or all are none), and each other location only where it differs."""
    access = [(value >> (2 * i)) & 3 for i in range(len(LOCATIONS))]
    assert value >> (2 * len(LOCATIONS)) == 0, value
    other = access[LOCATIONS.index("other")]
    assert access[4] == access[5] == other, f"target memory apart: check memory() for {value}"
    parts = [MOD_REF[other]] if other or not any(access) else []
    parts += [f"{loc}: {MOD_REF[a]}" for loc, a in zip(LOCATIONS, access) if loc != "other" and a != other]
    return "memory(" + ", ".join(parts) + ")"
fn_sets = {}
for i in range(1, len(fn_cases), 2):
    body = fn_cases[i + 1]
    enums = re.findall(r"Attribute::get\(C, Attribute::(\w+)\)", body)
    memories = re.findall(r"MemoryEffects::createFromIntValue\((\d+)\)", body)
    assert len(re.findall(r"Attribute::(?:get|getWith)\w*\(", body)) == len(enums) + len(memories), body
    assert set(enums) <= set(ENUM_FN_ATTRIBUTES), set(enums) - set(ENUM_FN_ATTRIBUTES)
    words = [e.lower() for e in sorted(enums, key=ENUM_FN_ATTRIBUTES.index)]
    fn_sets[int(fn_cases[i])] = " ".join(words + [memory(int(m)) for m in memories])
assert fn_sets[fn_set_ids[names.index("llvm.abs")]] == \
    "nocallback nofree nosync nounwind speculatable willreturn memory(none)"
# Each distinct text once; an intrinsic names its text by place.
fn_set_texts = sorted(set(fn_sets.values()))
fn_attributes = [None if f == 127 else fn_set_texts.index(fn_sets[f]) for f in fn_set_ids]
def immediates(run):
    first, count = arg_attr_runs[run]
    mask = 0
    for position, attribute_set in arg_attr_ids[first : first + count]:
        if attribute_set in immarg_sets:
            assert 1 <= position <= 32, position
            mask |= 1 << (position - 1)
    return mask
immarg_masks = [immediates(int(run)) for run, _ in packed]
def immediate_ranges(run):
    """The ranges of the parameters that take only an immediate: (parameter, low, high)."""
    first, count = arg_attr_runs[run]
    return [(position - 1, *ranges_of_sets[attribute_set])
            for position, attribute_set in arg_attr_ids[first : first + count]
            if attribute_set in immarg_sets and attribute_set in ranges_of_sets]
immarg_ranges = [immediate_ranges(int(run)) for run, _ in packed]
assert immarg_ranges[names.index("llvm.nvvm.fence.proxy.tensormap_generic.acquire.cta")] == [(1, 128, 129)]

# LLVM sorts each target's names apart (the target-independent ones first); one order here.
names, overloaded, signatures, immarg_masks, immarg_ranges, fn_attributes = map(
    list, zip(*sorted(zip(names, overloaded, signatures, immarg_masks, immarg_ranges, fn_attributes))))
for name, expected in [("llvm.memcpy", True), ("llvm.donothing", False), ("llvm.abs", True)]:
    assert overloaded[names.index(name)] == expected, name
for name, expected in [("llvm.memcpy", 0b1000), ("llvm.ctlz", 0b10), ("llvm.abs", 0b10)]:
    assert immarg_masks[names.index(name)] == expected, name

out = [
    "// @generated by tools/gen-intrinsic-names.py from LLVM 22's headers; do not edit.",
    "//! The names and signatures of LLVM 22's intrinsics.",
    "",
    f"/// Every intrinsic's name ({len(names)}), one a line, sorted (looked up by binary search);",
    f"/// an overloaded one ({sum(overloaded)}: it takes type suffixes) ends in `*`. After a space,",
    "/// its signature: LLVM's codes for it (`IIT_*`), two hex digits each; after another, for",
    f"/// one with parameters that take only an immediate ({sum(1 for m in immarg_masks if m)}), their positions: bit 0 the first",
    f"/// parameter, in hex; after `r`, for each of those LLVM gives a range ({sum(map(len, immarg_ranges))}), the parameter, the",
    "/// range's low and high ends (signed, of the parameter's width: a value must lie in",
    "/// `low..high`); after `#`, for one LLVM gives function attributes, their place in",
    "/// [`FN_ATTRIBUTES`]. One string rather than an array: no pointer a name to relocate when",
    "/// the program starts.",
    'pub const NAMES: &str = "' + "\n".join(n + ("*" if o else "") + " " + sig + (f" {m:x}" if m else "") + "".join(f" r{i}:{lo}:{hi}" for i, lo, hi in r) + ("" if a is None else f" #{a}") for n, o, sig, m, r, a in zip(names, overloaded, signatures, immarg_masks, immarg_ranges, fn_attributes)) + '";',
    "",
    "/// The function attributes LLVM gives declarations of intrinsics, whatever the text says,",
    "/// as its printer writes them.",
    "pub const FN_ATTRIBUTES: &[&str] = &[",
] + [f'    "{t}",' for t in fn_set_texts] + ["];"]
path = os.path.join(os.path.dirname(__file__), "..", "src", "read", "intrinsic_names.rs")
open(path, "w").write("\n".join(out) + "\n")
print(f"{len(names)} intrinsics, {sum(overloaded)} overloaded, "
      f"{sum(1 for m in immarg_masks if m)} with immediate parameters, "
      f"{len(fn_set_texts)} sets of function attributes, {sum(map(len, immarg_ranges))} ranges of immediates")
