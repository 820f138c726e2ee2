//! Merging: the fixtures' expectations, and the differential test against
//! `opt-22 -passes=mergefunc` on every fixture and corpus module.

mod common;
mod near_twins;

use common::*;
use cranelift_entity::SecondaryMap;
use mergefn::fingerprint::{Context, Fingerprint, fingerprint};
use mergefn::merge::Fate;
use mergefn::merge::{Explainer, Explanation, HoleRule, eligible_functions, ineligibility};
use mergefn::model::{
    FuncId, GlobalKind, GlobalName, Item, Linkage, Module, Opcode, UseRole, ValueKind, Visibility,
};
use mergefn::{Options, Report, parse};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use std::sync::Arc;

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// Directives in a fixture's comments: `; OPTIONS: --aliases --preserve-debug-info`,
/// `; FOLDED: @a @b` (exactly these lose their body), `; DIFFERS: @a` (folded by opt-22 but
/// not by us: a "we differ" rule), `; BEYOND: @a` (folded by us, not by opt-22), `; ROUNDS: 2`
/// (the rounds of merging the report counts).
fn directive(text: &str, key: &str) -> Option<Vec<String>> {
    let prefix = format!("; {key}:");
    let rest = text.lines().find_map(|l| l.strip_prefix(prefix.as_str()))?;
    // Words apart by spaces, but a quoted name (`@"\01-[C m]"`) is one word.
    let mut words = vec![String::new()];
    let mut quoted = false;
    for c in rest.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                words.push(String::new());
                continue;
            }
            _ => {}
        }
        words.last_mut().unwrap().push(c);
    }
    Some(words.into_iter().filter(|w| !w.is_empty()).collect())
}

fn options(text: &str) -> Options {
    let words = directive(text, "OPTIONS").unwrap_or_default();
    Options {
        aliases: words.iter().any(|w| w == "--aliases"),
        preserve_debug_info: words.iter().any(|w| w == "--preserve-debug-info"),
    }
}

fn merged(text: &str, opts: &Options) -> (String, BTreeSet<String>, Report) {
    let mut m = parse(text.to_string()).unwrap();
    let report = mergefn::merge(&mut m, opts);
    let folded = report.folded_names().into_iter().collect();
    (mergefn::write::to_string(&m), folded, report)
}

/// The other members of `f`'s class in our report, and whether `f` kept the body.
fn class_mates(report: &Report, f: &str) -> Option<(bool, Vec<String>)> {
    let class = report
        .classes
        .iter()
        .find(|c| c.members.iter().any(|m| m.name == f))?;
    let survivor = class
        .members
        .iter()
        .any(|m| m.name == f && m.fate == Fate::Survivor);
    let others = class
        .members
        .iter()
        .filter(|m| m.name != f)
        .map(|m| m.name.clone())
        .collect();
    Some((survivor, others))
}

fn run_opt(path: &Path, opts: &Options) -> String {
    let mut cmd = Command::new("opt-22");
    cmd.args(["-S", "-passes=mergefunc", "-o", "-"]);
    if opts.aliases {
        cmd.arg("-mergefunc-use-aliases");
    }
    if opts.preserve_debug_info {
        cmd.arg("-mergefunc-preserve-debug-info");
    }
    let out = cmd.arg(path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The callee of a body that only forwards to another function (casts, one call, return; and
/// the allocas and stores that keep its parameters' debug information under
/// `-mergefunc-preserve-debug-info`).
fn thunk_callee(m: &Module, f: FuncId) -> Option<String> {
    let body = m.body(f).ok()?;
    if body.blocks.len() != 1 {
        return None;
    }
    let mut callee = None;
    for (i, inst) in body.insts.iter() {
        match inst.opcode {
            Opcode::Call => {
                if callee.is_some() {
                    return None;
                }
                let g = body.items(i).iter().find_map(|it| match it {
                    Item::Value(v) => match v.kind() {
                        ValueKind::Global(u) => Some(m.uses[u].global),
                        _ => None,
                    },
                    _ => None,
                })?;
                callee = Some(m.name_of(g));
            }
            Opcode::Ret
            | Opcode::Alloca
            | Opcode::Store
            | Opcode::PtrToInt
            | Opcode::IntToPtr
            | Opcode::BitCast
            | Opcode::ExtractValue
            | Opcode::InsertValue => {}
            _ => return None,
        }
    }
    callee
}

/// How many forwarders `@name` leads through before a function that does more (or none).
fn forwarding_depth(m: &Module, name: &str) -> usize {
    let mut name = name.to_string();
    let mut depth = 0;
    while depth < 64
        && let Some(next) = m
            .lookup(&name)
            .and_then(|g| m.function_of(g))
            .and_then(|f| thunk_callee(m, f))
    {
        name = next;
        depth += 1;
    }
    depth
}

/// Whether `@name` is a number (`@3`), which opt-22 may give another function when it prints.
fn is_numbered(name: &str) -> bool {
    name[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The functions of `before` whose own body is gone in `after`: missing, an alias, a
/// declaration, or turned into a thunk.
fn folded_between(before: &Module, after: &Module) -> BTreeSet<String> {
    let mut folded = BTreeSet::new();
    for (f, func) in before.functions.iter() {
        if func.body.is_none() {
            continue;
        }
        let name = before.name_of(func.global);
        let now = after.lookup(&name).and_then(|g| after.function_of(g));
        let gone = match now {
            None => true,
            Some(h) if after.functions[h].body.is_none() => true,
            Some(h) => match (thunk_callee(before, f), thunk_callee(after, h)) {
                (_, None) => false,
                (None, Some(_)) => true,
                // A forwarder to a numbered function, which opt-22 may have renumbered: it
                // became a thunk only if its chain of forwarders grew (a folded forwarder
                // calls a new one, which calls the old callee).
                (Some(old), Some(new)) if is_numbered(&old) || is_numbered(&new) => {
                    forwarding_depth(after, &new) > forwarding_depth(before, &old)
                }
                // A forwarder already: it became a thunk only if it now calls something else
                // than its old callee, while that callee keeps a body of its own elsewhere,
                // and it does not call a named function that was no forwarder (a call
                // redirected from the old callee to its twin).
                (Some(old), Some(new)) => {
                    let redirected = !is_numbered(&new)
                        && before
                            .lookup(&new)
                            .and_then(|g| before.function_of(g))
                            .is_some_and(|n| thunk_callee(before, n).is_none());
                    old != new
                        && !redirected
                        && after
                            .lookup(&old)
                            .and_then(|g| after.function_of(g))
                            .is_some_and(|d| {
                                after.functions[d].body.is_none()
                                    || thunk_callee(after, d).as_deref() != Some(new.as_str())
                            })
                }
            },
        };
        if gone {
            folded.insert(name);
        }
    }
    folded
}

/// The shape hash of `f`'s body (block sizes and opcodes along the walk of §3), to find the
/// functions opt-22 could have folded `f` into: functions whose encodings could be equal, as
/// LLVM's structural hash, have equal shapes.
fn shape(m: &Module, f: FuncId) -> Option<u64> {
    m.functions[f].body.as_ref().map(|b| b.shape)
}

/// LLVM's structural hash of `f` (`llvm_structural_hash`): LLVM compares only functions of
/// equal hashes, so opt-22 folds `f` only into one of its hash.
fn llvm_hash(m: &Module, f: FuncId) -> Option<u64> {
    m.functions[f].body.as_ref().map(|b| b.llvm_hash)
}

/// How far down chains of callees a "we differ" rule is looked for: rustc's iterators call
/// through five levels of generic functions to the one that differs (syn's `nth_back`).
const MAX_CALLEE_DEPTH: u32 = 8;

/// Whether a reason a function takes no part is a rule of ours (§1 is LLVM's).
fn is_our_rule(reason: &str) -> bool {
    reason.contains("block addresses") || reason.contains("llvm.localescape")
}

/// What explaining a module's differences from opt-22 looks up again and again, made once: its
/// functions by shape and by LLVM's hash too, the encodings of those looked at, and the
/// explanations found. A module of tens of thousands of functions has hundreds of differences
/// to explain, each by the functions it could equal.
struct Explaining<'m> {
    m: &'m Module,
    explainer: Explainer<'m>,
    by_shape: HashMap<Option<u64>, Vec<FuncId>>,
    by_shape_and_hash: HashMap<(Option<u64>, Option<u64>), Vec<FuncId>>,
    eligible: Arc<SecondaryMap<FuncId, bool>>,
    cx: Context<'m>,
    prints: RefCell<HashMap<FuncId, Rc<Fingerprint>>>,
    /// [`Explaining::we_differ`]'s answer for a function at a depth: a chain of calls meets one
    /// callee from many callers.
    rules: RefCell<HashMap<(FuncId, u32), Option<String>>>,
}

impl<'m> Explaining<'m> {
    fn new(m: &'m Module, opts: &Options) -> Explaining<'m> {
        let mut by_shape: HashMap<Option<u64>, Vec<FuncId>> = HashMap::new();
        let mut by_shape_and_hash: HashMap<_, Vec<FuncId>> = HashMap::new();
        for f in m.functions.keys() {
            by_shape.entry(shape(m, f)).or_default().push(f);
            let key = (shape(m, f), llvm_hash(m, f));
            by_shape_and_hash.entry(key).or_default().push(f);
        }
        let eligible = Arc::new(eligible_functions(m));
        // Holes only where the function named takes part: references to two functions that
        // take no part then differ in their bytes, not in their holes.
        let rule = HoleRule::new(m, opts);
        let takes_part = Arc::clone(&eligible);
        let hole = move |g, reference| {
            rule.is_hole(m, g, reference) && m.function_of(g).is_some_and(|h| takes_part[h])
        };
        Explaining {
            m,
            explainer: Explainer::new(m),
            by_shape,
            by_shape_and_hash,
            eligible,
            cx: Context::new(m, Box::new(hole)),
            prints: RefCell::default(),
            rules: RefCell::default(),
        }
    }

    /// The other functions of `f`'s shape, in the module's order: those our encoding may
    /// equal.
    fn of(&self, f: FuncId) -> impl Iterator<Item = FuncId> + '_ {
        let others = &self.by_shape[&shape(self.m, f)];
        others.iter().copied().filter(move |&g| g != f)
    }

    /// The other functions of `f`'s shape and LLVM hash, in the module's order: those LLVM's
    /// comparison may equal.
    fn llvm_may_equal(&self, f: FuncId) -> impl Iterator<Item = FuncId> + '_ {
        let others = &self.by_shape_and_hash[&(shape(self.m, f), llvm_hash(self.m, f))];
        others.iter().copied().filter(move |&g| g != f)
    }

    fn print(&self, f: FuncId) -> Rc<Fingerprint> {
        let made = self.prints.borrow().get(&f).cloned();
        made.unwrap_or_else(|| {
            let print = Rc::new(fingerprint(&self.cx, f, &self.m.body(f).unwrap()));
            self.prints.borrow_mut().insert(f, Rc::clone(&print));
            print
        })
    }

    /// Whether `f` was folded with the help of partition refinement (§7): some function of
    /// its shape has the same encoding but calls or takes the address of different functions.
    fn refined(&self, f: FuncId) -> bool {
        let pf = self.print(f);
        self.of(f).any(|g| {
            self.eligible[g] && {
                let pg = self.print(g);
                pg.bytes == pf.bytes && pg.holes != pf.holes
            }
        })
    }

    /// The "we differ" rule that keeps `f` from every function it could equal, if one does.
    fn we_differ(&self, f: FuncId, depth: u32) -> Option<String> {
        if let Some(rule) = self.rules.borrow().get(&(f, depth)) {
            return rule.clone();
        }
        let rule = self.find_we_differ(f, depth);
        self.rules.borrow_mut().insert((f, depth), rule.clone());
        rule
    }

    fn find_we_differ(&self, f: FuncId, depth: u32) -> Option<String> {
        let m = self.m;
        if let Some(reason) = ineligibility(m, f) {
            return is_our_rule(reason).then(|| reason.to_string());
        }
        for g in self.llvm_may_equal(f) {
            // A twin that keeps its body by a rule of ours is not one `f` folds into, as opt-22
            // may.
            match ineligibility(m, g) {
                Some(reason) if is_our_rule(reason) => {
                    return Some(format!(
                        "{reason} (twin {})",
                        m.name_of(m.functions[g].global)
                    ));
                }
                Some(_) => continue,
                None => {}
            }
            match self.explainer.explain(f, g) {
                Explanation::Differ { left, right } => {
                    if let Some(rule) = [left, right]
                        .into_iter()
                        .flatten()
                        .find_map(|mk| mk.part.we_differ())
                    {
                        return Some(format!("{rule} (vs {})", m.name_of(m.functions[g].global)));
                    }
                }
                Explanation::Holes { left, right, .. } if depth < MAX_CALLEE_DEPTH => {
                    let (a, b) = (m.function_of(left)?, m.function_of(right)?);
                    if let Some(r) = self
                        .we_differ(a, depth + 1)
                        .or_else(|| self.we_differ(b, depth + 1))
                    {
                        return Some(format!("callee {}: {r}", m.name_of(left)));
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// Whether function `name` names its own address other than as a callee. LLVM compares that
/// name as the function itself, equal only to another function's name of itself; mergefn as an
/// ordinary global (spec §3, we differ): a function naming itself and one naming the first are
/// equal for mergefn alone.
fn takes_own_address(m: &Module, name: &str) -> bool {
    let Some((g, f)) = m.lookup(name).and_then(|g| Some((g, m.function_of(g)?))) else {
        return false;
    };
    m.uses_of(g).any(|u| {
        let u = &m.uses[u];
        u.in_function.expand() == Some(f) && u.role == UseRole::Operand
    })
}

/// The printed names (`@f`, `@"a b"`) a line of IR names, with where each is.
fn global_tokens(line: &str) -> Vec<(usize, &str)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'@' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if b.get(i) == Some(&b'"') {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b"$._-".contains(&b[i])) {
                i += 1;
            }
        }
        out.push((start, &line[start..i]));
    }
    out
}

/// `text` with the functions of each class in `classes` that it names named alike, as the
/// first of them, in the bodies (declarations keep their names).
fn named_alike(text: &str, classes: &[Vec<String>]) -> String {
    let named: BTreeSet<&str> = text
        .lines()
        .flat_map(global_tokens)
        .map(|(_, n)| n)
        .collect();
    let mut alike: BTreeMap<&str, &str> = BTreeMap::new();
    for class in classes {
        let here: Vec<&str> = class
            .iter()
            .map(String::as_str)
            .filter(|n| named.contains(n))
            .collect();
        for n in &here {
            alike.insert(n, here[0]);
        }
    }
    let mut renamed = String::new();
    for line in text.lines() {
        let mut line = line.to_string();
        if line.starts_with(' ') {
            for (at, n) in global_tokens(&line.clone()).into_iter().rev() {
                if let Some(first) = alike.get(n) {
                    line.replace_range(at..at + n.len(), first);
                }
            }
        }
        renamed.push_str(&line);
        renamed.push('\n');
    }
    renamed
}

/// Whether opt-22 folds `f` and one of `mates` (functions of `m`, the module at `path`) when
/// the two are alone in a module (`llvm-extract-22` keeps them and declares what they name),
/// the functions they name that both fold (`folded_by_both`, each with its class as mergefn
/// made it) named alike. Then opt-22 kept them apart in the whole module not because it finds
/// them different, but because its search missed the pair (it looks a function up in a tree
/// ordered by its pairwise comparison, which is not transitive, spec §4), or because it folded
/// the functions they name otherwise (another survivor, thunks where mergefn replaced every
/// use: §6 order).
fn opt_folds_alone(
    m: &Module,
    path: &Path,
    opts: &Options,
    f: &str,
    mates: &[String],
    folded_by_both: &[Vec<String>],
) -> bool {
    use std::os::unix::ffi::OsStringExt;
    // `--func` takes the name LLVM holds, escapes decoded.
    let func = |printed: &str| {
        let g = m.lookup(printed)?;
        let GlobalName::Named(name) = &m.globals[g].name else {
            return None;
        };
        Some(std::ffi::OsString::from_vec(
            [b"--func=".as_slice(), name].concat(),
        ))
    };
    let dir = tempfile::tempdir().unwrap();
    let pair = dir.path().join("pair.ll");
    mates.iter().any(|mate| {
        let (Some(first), Some(second)) = (func(f), func(mate)) else {
            return false;
        };
        let extracted = Command::new("llvm-extract-22")
            .args(["-S", "-o"])
            .arg(&pair)
            .args([first, second])
            .arg(path)
            .status()
            .unwrap();
        if !extracted.success() {
            return false;
        }
        let renamed = named_alike(&read(&pair), folded_by_both);
        std::fs::write(&pair, &renamed).unwrap();
        let before = parse(renamed).unwrap();
        let after = parse(run_opt(&pair, opts)).unwrap();
        let folded = folded_between(&before, &after);
        folded.contains(f) || folded.contains(mate)
    })
}

struct Differences {
    missing: Vec<(String, Option<String>)>,
    extra: Vec<(String, bool)>,
    ours: usize,
    theirs: usize,
}

/// The linkage and visibility of each global that is not local, by name.
fn symbols(m: &Module) -> BTreeMap<String, (Linkage, Visibility)> {
    m.globals
        .iter()
        .filter_map(|(id, g)| {
            let link = m.linkable(id)?;
            let GlobalName::Named(name) = &g.name else {
                return None;
            };
            (!link.linkage.is_local()).then(|| {
                let name = String::from_utf8_lossy(name).into_owned();
                (name, (link.linkage, link.visibility))
            })
        })
        .collect()
}

/// Merging leaves what other modules see of this one as it was: each symbol keeps its linkage
/// and visibility, and only one that may be discarded can be gone.
fn symbols_kept(before: &Module, after: &Module) -> Result<(), String> {
    let now = symbols(after);
    for (name, was) in symbols(before) {
        match now.get(&name) {
            Some(&is) if is == was => {}
            None if was.0.is_discardable() => {}
            is => return Err(format!("@{name} was {was:?}, is {is:?}")),
        }
    }
    Ok(())
}

fn differential(path: &Path) -> Differences {
    let text = read(path);
    let opts = options(&text);
    let (ours_text, ours, report) = merged(&text, &opts);
    verify(&ours_text)
        .unwrap_or_else(|e| panic!("{}: merged output invalid:\n{e}", path.display()));
    let before = parse(text.clone()).unwrap();
    let after_opt = parse(run_opt(path, &opts)).unwrap();
    // opt-22 numbers unnamed globals afresh when it prints, so `@2` before and after need not
    // name one function: numbered functions are checked by the fixtures' FOLDED lines only.
    let theirs: BTreeSet<String> = folded_between(&before, &after_opt)
        .into_iter()
        .filter(|n| !is_numbered(n))
        .collect();
    let ours_named: BTreeSet<String> = ours.iter().filter(|n| !is_numbered(n)).cloned().collect();
    // What our report says must be what the text shows: each folded name is gone or a thunk.
    let after_ours = parse(ours_text).unwrap();
    symbols_kept(&before, &after_ours).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for name in &ours {
        let now = after_ours
            .lookup(name)
            .and_then(|g| after_ours.function_of(g));
        if let Some(h) = now.filter(|&h| after_ours.functions[h].body.is_some()) {
            assert!(
                thunk_callee(&after_ours, h).is_some(),
                "{}: {name} reported folded but keeps its body",
                path.display()
            );
        }
    }
    // A member reported an alias or a thunk is one in the text, under its own name.
    for member in report.classes.iter().flat_map(|c| &c.members) {
        let kind = after_ours
            .lookup(&member.name)
            .map(|g| after_ours.globals[g].kind);
        let shown = match member.fate {
            Fate::Alias => matches!(kind, Some(GlobalKind::Alias(_))),
            Fate::Thunk => matches!(kind, Some(GlobalKind::Function(h))
                if thunk_callee(&after_ours, h).is_some()),
            _ => true,
        };
        assert!(
            shown,
            "{}: {} reported {:?}, not so in the text",
            path.display(),
            member.name,
            member.fate
        );
    }
    let func = |n: &str| {
        before
            .lookup(n)
            .and_then(|g| before.function_of(g))
            .unwrap()
    };
    // The survivor of a class is a choice: opt-22 folds pairwise in the order it meets them,
    // we by the total order of §6. A class folded by both with another survivor is no
    // difference in what merges.
    let survivor_swap_missing = |n: &str| {
        class_mates(&report, n).and_then(|(kept, others)| {
            (kept && others.iter().any(|o| ours.contains(o)))
                .then(|| format!("survivor choice (§6 order): {n} kept, its class folded"))
        })
    };
    let survivor_swap_extra = |n: &str| {
        class_mates(&report, n).is_some_and(|(_, others)| others.iter().any(|o| theirs.contains(o)))
    };
    let explaining = Explaining::new(&before, &opts);
    let folded_by_both: Vec<Vec<String>> = report
        .classes
        .iter()
        .map(|c| c.members.iter().map(|m| m.name.clone()).collect::<Vec<_>>())
        .filter(|names| names.iter().any(|n| theirs.contains(n)))
        .collect();
    Differences {
        missing: theirs
            .difference(&ours_named)
            .map(|n| {
                let why = survivor_swap_missing(n).or_else(|| explaining.we_differ(func(n), 0));
                (n.clone(), why)
            })
            .collect(),
        extra: ours_named
            .difference(&theirs)
            .map(|n| {
                let alone = || {
                    class_mates(&report, n).is_some_and(|(_, mates)| {
                        opt_folds_alone(&before, path, &opts, n, &mates, &folded_by_both)
                    })
                };
                let own_address = || {
                    takes_own_address(&before, n)
                        || class_mates(&report, n).is_some_and(|(_, mates)| {
                            mates.iter().any(|mate| takes_own_address(&before, mate))
                        })
                };
                (
                    n.clone(),
                    survivor_swap_extra(n)
                        || explaining.refined(func(n))
                        || own_address()
                        || alone(),
                )
            })
            .collect(),
        ours: ours_named.len(),
        theirs: theirs.len(),
    }
}

#[test]
fn fixtures_fold_what_they_say() {
    if opt().is_none() {
        return;
    }
    for path in fixtures("merge") {
        let text = read(&path);
        let (out, folded, report) = merged(&text, &options(&text));
        verify(&out).unwrap_or_else(|e| panic!("{}: invalid output:\n{e}\n{out}", path.display()));
        let expected: BTreeSet<String> = directive(&text, "FOLDED")
            .unwrap_or_else(|| panic!("{}: no FOLDED directive", path.display()))
            .into_iter()
            .collect();
        assert_eq!(folded, expected, "{}:\n{out}", path.display());
        if let Some(rounds) = directive(&text, "ROUNDS") {
            assert_eq!(
                [report.rounds.to_string()].as_slice(),
                rounds.as_slice(),
                "{}: rounds of merging",
                path.display()
            );
        }
        let d = differential(&path);
        let missing: BTreeSet<String> = d.missing.iter().map(|m| m.0.clone()).collect();
        let extra: BTreeSet<String> = d.extra.iter().map(|m| m.0.clone()).collect();
        let want_missing: BTreeSet<String> = directive(&text, "DIFFERS")
            .unwrap_or_default()
            .into_iter()
            .collect();
        let want_extra: BTreeSet<String> = directive(&text, "BEYOND")
            .unwrap_or_default()
            .into_iter()
            .collect();
        assert_eq!(
            missing,
            want_missing,
            "{}: folded by opt-22 only",
            path.display()
        );
        assert_eq!(
            extra,
            want_extra,
            "{}: folded by mergefn only",
            path.display()
        );
    }
}

/// The text of `@name`'s definition in a printed module, `define` to `}`.
fn definition<'a>(module: &'a str, name: &str) -> &'a str {
    let head = format!("{name}(");
    let start = module
        .lines()
        .find(|l| l.starts_with("define ") && l.contains(&head))
        .map(|l| l.as_ptr() as usize - module.as_ptr() as usize)
        .unwrap_or_else(|| panic!("no definition of {name}"));
    let end = module[start..]
        .find("\n}")
        .map_or(module.len(), |e| start + e + 2);
    &module[start..end]
}

/// Under `-mergefunc-preserve-debug-info` a thunk keeps what LLVM's keeps: once opt-22 has
/// printed our output, each thunk reads exactly as in opt-22's own output (same instructions,
/// records, numbering and metadata).
#[test]
fn preserved_debug_info_is_what_llvm_keeps() {
    let Some(opt) = opt() else { return };
    let mut thunks = 0;
    for path in fixtures("merge") {
        let text = read(&path);
        let opts = options(&text);
        if !opts.preserve_debug_info || !(text.contains("#dbg_") || text.contains("@llvm.dbg.")) {
            continue;
        }
        let (ours, folded, _) = merged(&text, &opts);
        let reprint = run_on_text(opt, &["-S", "-o", "-", "-"], &ours);
        let reprinted = String::from_utf8(reprint.stdout).unwrap();
        let theirs = run_opt(&path, &opts);
        for f in &folded {
            assert_eq!(
                definition(&reprinted, f),
                definition(&theirs, f),
                "{}: {f}",
                path.display()
            );
            thunks += 1;
        }
    }
    assert!(
        thunks >= 2,
        "fixtures with debug records under -mergefunc-preserve-debug-info"
    );
}

/// The differences between opt-22's folds and ours that no rule explains, each printed with
/// the counts and the rules that explain the others.
fn unexplained(name: &str, d: &Differences) -> Vec<String> {
    eprintln!(
        "{name}: opt-22 folds {}, mergefn folds {}; {} only by opt-22, {} only by mergefn",
        d.theirs,
        d.ours,
        d.missing.len(),
        d.extra.len()
    );
    let mut unexplained = Vec::new();
    for (f, why) in &d.missing {
        match why {
            Some(rule) => eprintln!("  {f}: not folded by mergefn, we differ: {rule}"),
            None => unexplained.push(format!("{name}: {f} folded by opt-22 only")),
        }
    }
    for (f, refined) in &d.extra {
        if *refined {
            eprintln!(
                "  {f}: folded by mergefn only: §7 refinement over calls, survivor choice, \
                 a function's own address (§3) or a pair opt-22 folds alone"
            );
        } else {
            unexplained.push(format!("{name}: {f} folded by mergefn only"));
        }
    }
    unexplained
}

#[test]
fn differential_against_opt() {
    if opt().is_none() {
        return;
    }
    let mut paths = fixtures("merge");
    paths.extend(corpus());
    let unexplained: Vec<String> = paths
        .iter()
        .flat_map(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            unexplained(&name, &differential(path))
        })
        .collect();
    assert!(
        unexplained.is_empty(),
        "unexplained differences:\n{}",
        unexplained.join("\n")
    );
}

/// Near twins (`tests/near_twins`): each module's functions beside copies changed in one
/// place, merged by both. A copy mergefn folds where opt-22 does not, or the reverse, fails
/// unless a rule explains it. By default 60 copies in each fixture and each corpus module
/// (the whole corpus in under a minute); `MERGEFN_NEAR_TWINS=N` makes N copies in each, and
/// `MERGEFN_NEAR_TWINS_SEED` other copies.
#[test]
fn near_twins_merge_as_opt_merges_them() {
    if opt().is_none() {
        return;
    }
    let count = std::env::var("MERGEFN_NEAR_TWINS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60);
    let seed = std::env::var("MERGEFN_NEAR_TWINS_SEED").unwrap_or_default();
    let dir = tempfile::tempdir().unwrap();
    let mut paths = fixtures("merge");
    paths.extend(corpus());
    let mut unexplained_all = Vec::new();
    let mut copies = 0;
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy();
        let (text, n) = near_twins::with_near_twins(path, count, &seed);
        copies += n;
        let twinned = dir.path().join(&*name);
        std::fs::write(&twinned, text).unwrap();
        unexplained_all.extend(unexplained(&name, &differential(&twinned)));
    }
    eprintln!("{copies} near twins in {} modules", paths.len());
    assert!(
        copies >= paths.len() * count / 2,
        "only {copies} near twins kept"
    );
    assert!(
        unexplained_all.is_empty(),
        "unexplained differences:\n{}",
        unexplained_all.join("\n")
    );
}

fn mergefn_cli(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mergefn"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Two functions kept apart by their calls alone: the calls' lines, then why the functions
/// called differ, down to two that differ in themselves, by the shortest way (not round the
/// cycle the first call starts, nor through a callee met before).
#[test]
fn explain_follows_calls_to_the_difference() {
    let chain = root().join("tests/fixtures/merge/explain_chain.ll");
    let explain = |f: &str, g: &str| mergefn_cli(&["explain", chain.to_str().unwrap(), f, g]);
    let (ok, out, err) = explain("@top1", "@top2");
    assert!(ok, "{err}");
    let expected = [
        "@top1 and @top2 do not merge: their bodies are equal but a call names @ping1 in one and \
         @ping2 in the other, which do not merge (spec §3, §7):",
        "  @top1: line 47: %a = call i32 @ping1(i32 %x)",
        "  @top2: line 51: %a = call i32 @ping2(i32 %x)",
        "@ping1 and @ping2 do not merge: their bodies are equal but a call names @leaf1 in one \
         and @leaf2 in the other, which do not merge (spec §3, §7):",
        "  @ping1: line 30: %b = call i32 @leaf1(i32 %a)",
        "  @ping2: line 41: %b = call i32 @leaf2(i32 %a)",
        "@leaf1 and @leaf2 do not merge; first difference:",
        "  @leaf1: line 7: %a = add i32 %x, 3",
        "  @leaf2: line 11: %a = add i32 %x, 4",
    ];
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..expected.len()], expected, "{out}");
    assert!(lines[expected.len()].starts_with("  rule: §5:"), "{out}");
    // From the cycle's other side, the same way down.
    let (_, out, _) = explain("@pong1", "@pong2");
    assert!(
        out.contains("a call names @ping1 in one and @ping2"),
        "{out}"
    );
    assert!(
        out.contains("@leaf1 and @leaf2 do not merge; first difference:"),
        "{out}"
    );
    assert!(
        !out.contains(
            "@pong1 and @pong2 do not merge: their bodies are equal but a call names @pong"
        )
    );
    // Blocks of different sizes: as LLVM compares them, instruction by instruction (the
    // sizes last), the first instructions that differ, not the blocks' first lines.
    let (_, out, _) = explain("@leaf1", "@pong1");
    let expected = [
        "@leaf1 and @pong1 do not merge; first difference:",
        "  @leaf1: line 7: %a = add i32 %x, 3",
        "  @pong1: line 15: %a = call i32 @ping1(i32 %x)",
        "  rule: §5: instructions must agree in opcode, types, operands (locals by first \
         appearance, globals by identity, constants by §4) and flags; here `add`",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{out}");
    // Past the instructions the two blocks share.
    let (_, out, _) = explain("@top1", "@pong1");
    assert!(out.contains("  @top1: line 48: ret i32 %a\n"), "{out}");
    assert!(
        out.contains("  @pong1: line 16: %b = xor i32 %a, 7\n"),
        "{out}"
    );
    assert!(!out.contains("the block holds"), "{out}");
}

/// Two functions kept apart by the addresses they take alone: the stores' lines, then why
/// the functions named differ; two that take the addresses of equal functions merge.
#[test]
fn explain_follows_addresses_to_the_difference() {
    let holes = root().join("tests/fixtures/merge/address_holes.ll");
    let explain = |f: &str, g: &str| mergefn_cli(&["explain", holes.to_str().unwrap(), f, g]);
    let (ok, out, err) = explain("@mid1", "@mid_other");
    assert!(ok, "{err}");
    let expected = [
        "@mid1 and @mid_other do not merge: their bodies are equal but an address names @leaf1 \
         in one and @other in the other, which do not merge (spec §3, §7):",
        "  @mid1: line 30: store ptr @leaf1, ptr %p",
        "  @mid_other: line 60: store ptr @other, ptr %p",
        "@leaf1 and @other do not merge; first difference:",
        "  @leaf1: line 20: %r = add i32 %x, 1",
        "  @other: line 55: %r = add i32 %x, 2",
    ];
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..expected.len()], expected, "{out}");
    let (_, out, _) = explain("@top1", "@top2");
    assert_eq!(
        out.trim(),
        "@top1 and @top2 merge: they are equal (spec §2-§5, §7)"
    );
}

#[test]
fn explain_names_lines_and_rule() {
    let dir = root().join("tests/fixtures/merge");
    let gep = dir.join("gep_flags.ll");
    let (ok, out, _) = mergefn_cli(&["explain", gep.to_str().unwrap(), "@plain", "@inbounds"]);
    assert!(ok);
    assert!(out.contains("do not merge"), "{out}");
    assert!(out.contains("line 11: %q = getelementptr i32"), "{out}");
    assert!(
        out.contains("line 6: %q = getelementptr inbounds i32"),
        "{out}"
    );
    assert!(out.contains("getelementptr no-wrap flags"), "{out}");
    // GEPs compared by offset show what each adds; against one compared by its types, the
    // rule is the types'.
    let offsets = dir.join("gep_offsets.ll");
    let explain = |f: &str, g: &str| mergefn_cli(&["explain", offsets.to_str().unwrap(), f, g]).1;
    let out = explain("@bytes", "@other_offset");
    assert!(out.contains("i64 4 (adds 4 bytes)"), "{out}");
    assert!(out.contains("i64 8 (adds 8 bytes)"), "{out}");
    assert!(out.contains("must add the same number of bytes"), "{out}");
    let out = explain("@back", "@zigzag");
    assert!(out.contains("(adds -4 bytes)"), "{out}");
    assert!(out.contains("where the steps matter"), "{out}");
    assert!(explain("@field_a", "@bytes").contains("merge: they are equal"));
    // Attribute lists: which one, and its text on each side.
    let negative = dir.join("must_not_merge.ll");
    let (_, out, _) = mergefn_cli(&["explain", negative.to_str().unwrap(), "@base", "@attr"]);
    assert!(out.contains("(the function's attributes: none)\n"), "{out}");
    assert!(
        out.contains("(the function's attributes: `nounwind`)\n"),
        "{out}"
    );
    assert!(
        out.contains("must be equal; here the function's attributes"),
        "{out}"
    );
    let text = "define void @a(ptr %p, ptr align 8 byval(i64) %q) {\n  ret void\n}\n\
                define void @b(ptr %p, ptr %q) {\n  ret void\n}\n";
    let scratch = tempfile::tempdir().unwrap();
    let lists = scratch.path().join("lists.ll");
    std::fs::write(&lists, text).unwrap();
    let (_, out, _) = mergefn_cli(&["explain", lists.to_str().unwrap(), "@a", "@b"]);
    assert!(
        out.contains("(the attributes of parameter 2: `align 8 byval(i64)`)"),
        "{out}"
    );
    assert!(
        out.contains("(the attributes of parameter 2: none)"),
        "{out}"
    );
    let tree = dir.join("call_tree.ll");
    let (_, out, _) = mergefn_cli(&["explain", tree.to_str().unwrap(), "@mid1", "@mid2"]);
    assert!(out.contains("merge: they are equal"), "{out}");
    let (_, out, _) = mergefn_cli(&["explain", tree.to_str().unwrap(), "@mid1", "@mid3"]);
    assert!(out.contains("@leaf1") && out.contains("@leaf3"), "{out}");
    let (ok, _, err) = mergefn_cli(&["explain", tree.to_str().unwrap(), "@mid1", "@nope"]);
    assert!(!ok && err.contains("no function named @nope"), "{err}");
    // Names as LLVM prints them, escapes and all (as the report gives them).
    let escaped = dir.join("escaped_names.ll");
    let explain = |f: &str, g: &str| mergefn_cli(&["explain", escaped.to_str().unwrap(), f, g]);
    let (ok, out, err) = explain(r#"@"\01-[Counter bump]""#, r#"@"\01-[Counter bumpToo]""#);
    assert!(ok && out.contains("merge: they are equal"), "{out}{err}");
    let (ok, out, err) = explain(r#"@"quoted\22name\22""#, r#"@"\01-[Counter reset]""#);
    assert!(ok && out.contains("do not merge"), "{out}{err}");
    // An atomic's alignment, implied (its size) on one side and said on the other, is the
    // rule of atomic alignments, where LLVM and we differ.
    let dir = tempfile::tempdir().unwrap();
    let atomics = dir.path().join("atomics.ll");
    let body = |align: &str| {
        format!(
            "(ptr %p) {{\n  %v = atomicrmw xchg ptr %p, i32 -1 release{align}\n  ret i32 %v\n}}\n"
        )
    };
    let text = format!(
        "define i32 @a{}define i32 @b{}",
        body(""),
        body(", align 8")
    );
    std::fs::write(&atomics, text).unwrap();
    let (_, out, _) = mergefn_cli(&["explain", atomics.to_str().unwrap(), "@a", "@b"]);
    assert!(
        out.contains("atomicrmw and cmpxchg alignments must be equal"),
        "{out}"
    );
}

#[test]
fn opt_is_a_drop_in_for_this_pass() {
    let input = root().join("tests/fixtures/merge/linkage.ll");
    let input = input.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let merged = dir.path().join("merged.ll");
    let (ok, _, err) = mergefn_cli(&["merge", input, "-o", merged.to_str().unwrap()]);
    assert!(ok, "{err}");
    // As opt prints a module: headed by its identifier, the input's name, also its source
    // file's name (the fixture names none), the fixture's comments (whole lines there) left
    // out.
    let header = format!("; ModuleID = '{input}'\nsource_filename = \"{input}\"\n\n");
    let expected: String = std::iter::once(&header[..])
        .chain(
            std::fs::read_to_string(&merged)
                .unwrap()
                .split_inclusive('\n')
                .filter(|line| !line.starts_with(';')),
        )
        .collect();
    for args in [
        vec!["opt", "-S", "-passes=mergefunc", input, "-o", "-"],
        vec!["opt", "-S", "-p", "mergefunc", input],
        vec!["opt", "--passes=module(mergefunc)", "-S", input, "-o", "-"],
        vec!["opt", "-S", "-passes=mergefunc", "-o", "-", "--", input],
        // The input is verified as it is read; a `verify` after `mergefunc` reads the merged
        // module again.
        vec!["opt", "-S", "-passes=verify,mergefunc,verify", input],
        vec![
            "opt",
            "-S",
            "-passes=mergefunc",
            "-verify-each",
            "-f",
            input,
        ],
    ] {
        let (ok, out, err) = mergefn_cli(&args);
        assert!(ok, "{args:?}: {err}");
        assert_eq!(out, expected, "{args:?}");
    }
    let (ok, out, _) = mergefn_cli(&["opt", "-disable-output", "-passes=mergefunc", input]);
    assert!(ok && out.is_empty());
    // `verify` alone merges nothing.
    let (ok, out, err) = mergefn_cli(&["opt", "-S", "-passes=verify", input]);
    let defines = |text: &str| text.lines().filter(|l| l.starts_with("define ")).count();
    let source = std::fs::read_to_string(input).unwrap();
    assert!(ok && defines(&out) == defines(&source), "{err}\n{out}");
    assert!(defines(&out) > defines(&expected));
    // `-stats` as an opt built with statistics prints them: the body of two weak functions
    // moves to a new function, whose two names become aliases of it: one function merged.
    let weak = root().join("tests/fixtures/merge/interposable_aliases.ll");
    let weak = weak.to_str().unwrap();
    let args = [
        "opt",
        "-passes=mergefunc",
        "-mergefunc-use-aliases",
        "-stats",
        "-disable-output",
    ];
    let (ok, out, err) = mergefn_cli(&[&args[..], &[weak]].concat());
    assert!(ok && out.is_empty(), "{err}");
    let stats: Vec<&str> = err.lines().skip(4).collect();
    assert_eq!(
        stats,
        [
            "2 mergefunc - Number of aliases generated",
            "1 mergefunc - Number of new functions created",
            "1 mergefunc - Number of functions merged",
            ""
        ],
        "{err}"
    );
    assert!(err.starts_with("===---"), "{err}");
    // A boolean option takes a value as LLVM's option parser does.
    let with = |option: &str| {
        let args = ["opt", "-S", "-passes=mergefunc", option, weak, "-o", "-"];
        mergefn_cli(&args)
    };
    let (_, aliased, _) = with("-mergefunc-use-aliases");
    let (_, thunked, _) = with("-mergefunc-use-aliases=false");
    assert_ne!(aliased, thunked);
    for (value, expected) in [
        ("1", &aliased),
        ("TRUE", &aliased),
        ("", &aliased),
        ("0", &thunked),
    ] {
        let (ok, out, err) = with(&format!("--mergefunc-use-aliases={value}"));
        assert!(ok, "{value}: {err}");
        assert_eq!(&out, expected, "{value}");
    }
    let (ok, _, err) = with("-mergefunc-use-aliases=yes");
    assert!(
        !ok && err.contains("'yes' is invalid value for boolean argument"),
        "{err}"
    );
    // The pass's self-check, which opt-22 (built without assertions) never runs.
    for (option, value) in [
        ("-mergefunc-verify=5", None),
        ("--mergefunc-verify", Some("0")),
    ] {
        let mut args = vec!["opt", "-S", "-passes=mergefunc", option];
        args.extend(value);
        args.extend([weak, "-o", "-"]);
        let (ok, out, err) = mergefn_cli(&args);
        assert!(ok && out == thunked, "{option}: {err}");
    }
    let (ok, _, err) = with("-mergefunc-verify=x");
    assert!(
        !ok && err.contains("'x' value invalid for uint argument"),
        "{err}"
    );
    let none = root().join("tests/fixtures/merge/must_not_merge.ll");
    let none = none.to_str().unwrap();
    let (ok, _, err) = mergefn_cli(&[
        "opt",
        "-passes=mergefunc",
        "-stats",
        "-disable-output",
        none,
    ]);
    assert!(ok && err.is_empty(), "nothing merged, no statistics: {err}");
    let (ok, _, err) = mergefn_cli(&["opt", "-S", "-passes=instcombine", input]);
    assert!(
        !ok && err.contains("unsupported pass 'instcombine'"),
        "{err}"
    );
    let (ok, _, err) = mergefn_cli(&["opt", "-S", "-passes=mergefunc", "-O2", input]);
    assert!(!ok && err.contains("'-O2'"), "{err}");
    let (ok, _, err) = mergefn_cli(&["opt", "-passes=mergefunc", input]);
    assert!(
        !ok && err.contains("bitcode output is not supported"),
        "{err}"
    );
}

/// A test of opt's output keeps its CHECK lines in the input's comments, and `mergefn opt`
/// leaves comments out as opt does: kept, `CHECK-NOT` would find itself, and a CHECK of a
/// fold would pass on its own text without the fold. A thunk is where LLVM puts the new
/// function it makes, after the others, with numbered parameters. The same checks pass on
/// opt-22's output.
/// Where no structural hash of LLVM's orders folds (every function has the same opcodes),
/// `mergefn opt` writes what opt-22 writes, line for line: aliases before the functions,
/// thunks after them in the order LLVM folds, a weak pair's private body named `@0`, the
/// module's identifier and source file's name at the top, the datalayout LLVM gives the
/// triple of a module that writes none, names quoted as LLVM quotes them, attribute groups
/// numbered as LLVM numbers them, and only the comdats a global names.
#[test]
fn new_texts_go_where_llvm_writes_them() {
    let Some(opt) = common::opt() else {
        return;
    };
    // The second names a triple and no datalayout: opt prints the triple's layout before it.
    // The third names functions with a `$`, as clang names a lambda's (`$_0`), which LLVM
    // quotes: in a call retargeted and in a thunk too. In the fourth, a fold changes the
    // numbers LLVM gives the attribute groups; in the fifth, it leaves a comdat unnamed,
    // which LLVM does not write. The sixth, written by hand, has its statements out of
    // LLVM's order, blank lines in its bodies and attributes LLVM reads as others: opt's
    // comments on its blocks (`; preds = %entry`) are left out of the comparison.
    let fixtures = [
        ("llvm_order.ll", true),
        ("triple_layout.ll", false),
        ("dollar_names.ll", false),
        ("attribute_numbers.ll", false),
        ("comdats.ll", false),
        ("hand_layout.ll", false),
    ];
    let without_block_comments = |text: &str| {
        let lines = text.lines().map(|line| match line.find("; preds =") {
            Some(at) => line[..at].trim_end(),
            None => line,
        });
        lines.collect::<Vec<_>>().join("\n")
    };
    for (fixture, aliases) in fixtures {
        let path = root().join("tests/fixtures/merge").join(fixture);
        let mut args = vec!["-S", "-passes=mergefunc"];
        if aliases {
            args.push("-mergefunc-use-aliases");
        }
        let (ok, ours, err) =
            mergefn_cli(&[&["opt"], &args[..], &[path.to_str().unwrap()]].concat());
        assert!(ok, "{err}");
        let theirs = Command::new(opt).args(&args).arg(&path).output().unwrap();
        let theirs = without_block_comments(&String::from_utf8(theirs.stdout).unwrap());
        assert_eq!(ours.trim_end(), theirs.trim_end(), "{fixture}");
    }
}

#[test]
fn opt_output_checks_with_filecheck_as_opts_does() {
    let Some(opt) = common::opt() else {
        return;
    };
    let test = "\
; CHECK-LABEL: define i32 @first(i32 %x)
; CHECK-NOT: define internal i32 @second
; CHECK: call i32 @first(i32 1)
; CHECK-LABEL: define i32 @third(i32 %0)
; CHECK-NEXT: %2 = tail call i32 @first(i32 %0)
; CHECK-NEXT: ret i32 %2
define i32 @first(i32 %x) {
  %y = add i32 %x, 1 ; the body
  %z = mul i32 %y, %x
  ret i32 %z
}

define i32 @third(i32 %x) {
  %y = add i32 %x, 1
  %z = mul i32 %y, %x
  ret i32 %z
}

define internal i32 @second(i32 %x) {
  %y = add i32 %x, 1
  %z = mul i32 %y, %x
  ret i32 %z
}

define i32 @user() {
  %r = call i32 @second(i32 1)
  ret i32 %r
}
";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.ll");
    std::fs::write(&path, test).unwrap();
    let (ok, out, err) = mergefn_cli(&["opt", "-S", "-passes=mergefunc", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (module_id, rest) = out.split_once('\n').unwrap();
    assert_eq!(module_id, format!("; ModuleID = '{}'", path.display()));
    assert!(!rest.contains(';'), "{out}");
    assert!(out.contains("  %y = add i32 %x, 1\n  %z"), "{out}");
    let filecheck = |input: &str| {
        run_on_text("FileCheck-22", &[path.to_str().unwrap()], input)
            .status
            .success()
    };
    assert!(filecheck(&out), "{out}");
    let theirs = Command::new(opt)
        .args(["-S", "-passes=mergefunc", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(filecheck(&String::from_utf8_lossy(&theirs.stdout)));
    // The same checks fail on the input itself, and on output that keeps the comments.
    assert!(!filecheck(test));
    let merged = dir.path().join("merged.ll");
    let (ok, _, err) = mergefn_cli(&[
        "merge",
        path.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(!filecheck(&std::fs::read_to_string(&merged).unwrap()));
}

/// A module whose triple names a target not known here (nor to opt-22, which refuses it) has
/// a layout unknown: what merging compares by a layout is equal only where any layout makes
/// it so. Under LLVM's default layout the field after an `i8` in `{ i8, i64 }` is 4 bytes in,
/// an `i64` load is 4-aligned and a pointer is 64 bits, so each pair below would fold.
#[test]
fn an_unknown_target_compares_nothing_by_its_layout() {
    // Each function's parameter type and first line.
    let pairs = [
        (
            (
                "ptr",
                "%q = getelementptr { i8, i64 }, ptr %p, i64 0, i32 1",
            ),
            ("ptr", "%q = getelementptr i8, ptr %p, i64 4"),
        ),
        (
            ("ptr", "%v = load i64, ptr %p"),
            ("ptr", "%v = load i64, ptr %p, align 4"),
        ),
        (
            ("ptr", "store volatile ptr %p, ptr @g, align 8"),
            ("i64", "store volatile i64 %p, ptr @g, align 8"),
        ),
    ];
    for triple in ["", "target triple = \"foo-bar-baz\"\n"] {
        let mut folds = 0;
        for ((ta, a), (tb, b)) in pairs {
            let text = format!(
                "{triple}@g = global ptr null\n\
                 define void @a({ta} %p) {{\n  {a}\n  store volatile i8 1, ptr @g\n  ret void\n}}\n\
                 define void @b({tb} %p) {{\n  {b}\n  store volatile i8 1, ptr @g\n  ret void\n}}\n"
            );
            let (_, folded, _) = merged(&text, &Options::default());
            folds += folded.len();
        }
        match triple {
            "" => assert_eq!(folds, 3, "the default layout"),
            _ => assert_eq!(folds, 0, "a layout unknown"),
        }
    }
}

/// `mergefn opt` writes out what LLVM's printer writes and a text leaves implicit (numbers of
/// unnamed values and blocks, gaps between numbers closed, alignments, debug records written
/// as calls), so that checks written against `opt -S` hold: the fixture's checks pass on
/// opt-22's output and on ours, and fail on the input. And nothing LLVM reads changes: on
/// every fixture, merged and spelled out, and merged only, print alike through `opt-22 -S`.
#[test]
fn opt_spells_out_what_llvm_prints() {
    let Some(opt) = common::opt() else {
        return;
    };
    let fixture = root().join("tests/fixtures/opt/llvm_spelling.ll");
    let fixture = fixture.to_str().unwrap();
    opt_fixture_checks_hold(opt, fixture);

    let printed = |text: &str| {
        let out = run_on_text(opt, &["-S", "-o", "-", "-"], text);
        assert!(
            out.status.success(),
            "{}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let mut spelled = 0;
    for path in fixtures("merge")
        .into_iter()
        .chain([PathBuf::from(fixture)])
    {
        let text = read(&path);
        let opts = options(&text);
        let (merged_only, _, _) = merged(&text, &opts);
        let mut m = parse(text.clone()).unwrap();
        mergefn::merge(&mut m, &opts);
        m.spell_as_llvm_prints();
        let spelled_out = mergefn::write::to_string(&m);
        spelled += usize::from(spelled_out != merged_only);
        assert_eq!(
            printed(&spelled_out),
            printed(&merged_only),
            "{}: spelled out, another module",
            path.display()
        );
    }
    assert!(spelled >= 5, "only {spelled} fixtures spelled out");
}

/// The FileCheck lines of an `opt` fixture pass on `mergefn opt`'s output and on opt-22's,
/// and fail on the input (so they do not match themselves).
fn opt_fixture_checks_hold(opt: &str, fixture: &str) {
    let filecheck = |input: &[u8]| {
        run_on_text("FileCheck-22", &[fixture], &String::from_utf8_lossy(input))
            .status
            .success()
    };
    let (ok, ours, err) = mergefn_cli(&["opt", "-S", "-passes=mergefunc", fixture]);
    assert!(ok, "{err}");
    assert!(filecheck(ours.as_bytes()), "{ours}");
    let theirs = Command::new(opt)
        .args(["-S", "-passes=mergefunc", fixture])
        .output()
        .unwrap();
    assert!(filecheck(&theirs.stdout));
    assert!(!filecheck(read(Path::new(fixture)).as_bytes()));
}

/// `mergefn opt` numbers metadata as LLVM prints it (`write/metadata_numbers.rs`): a test's
/// `!tbaa !3` or `[[META0]] = !{}` lines match its output as they match opt-22's. The fixture's
/// checks are opt-22's output, which the input itself fails. And on every fixture and corpus
/// module, printing `mergefn opt`'s output again with opt-22 numbers no node otherwise: per
/// line, the same nodes named (a line's order may differ where LLVM writes the fields of a
/// debug information node in an order of its own), and the module is the one merging made.
#[test]
fn opt_numbers_metadata_as_llvm_prints() {
    let Some(opt) = common::opt() else {
        return;
    };
    opt_fixture_checks_hold(
        opt,
        root()
            .join("tests/fixtures/opt/llvm_metadata_numbers.ll")
            .to_str()
            .unwrap(),
    );

    let nodes_by_line = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .filter(|l| !l.starts_with(';'))
            .map(|l| {
                let mut nodes: Vec<String> = l
                    .match_indices('!')
                    .filter_map(|(at, _)| {
                        let digits: String = l[at + 1..]
                            .chars()
                            .take_while(char::is_ascii_digit)
                            .collect();
                        (!digits.is_empty()).then_some(digits)
                    })
                    .collect();
                nodes.sort();
                nodes
            })
            .filter(|nodes| !nodes.is_empty())
            .collect()
    };
    let mut renumbered = 0;
    for path in fixtures("merge")
        .into_iter()
        .chain(fixtures("opt"))
        .chain(corpus())
    {
        let input = path.to_str().unwrap();
        // LLVM 22 drops the `!nvvm.annotations` entries it turns into calling conventions
        // and attributes as it reads a module, and so numbers the rest otherwise.
        if read(&path).contains("!nvvm.annotations") {
            continue;
        }
        let (ok, ours, err) = mergefn_cli(&["opt", "-S", "-passes=mergefunc", input]);
        assert!(ok, "{input}: {err}");
        let again = run_on_text(opt, &["-S", "-o", "-", "-"], &ours);
        assert!(
            again.status.success(),
            "{input}: {}",
            String::from_utf8_lossy(&again.stderr)
        );
        let again = String::from_utf8(again.stdout).unwrap();
        assert_eq!(
            nodes_by_line(&ours),
            nodes_by_line(&again),
            "{input}: opt-22 numbers the nodes of mergefn opt's output otherwise"
        );
        // And it is the module merging made, as LLVM reads it: printed by opt-22, the same
        // but for opt's comments on a block's predecessors (in the use-list order, which
        // `mergefn opt` drops as opt does).
        let text = read(&path);
        let (merged_only, _, _) = merged(&text, &Options::default());
        let printed = |text: &str| -> Vec<String> {
            let out = run_on_text(opt, &["-S", "-o", "-", "-"], text);
            String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
                .map(|l| l.split("; preds = ").next().unwrap().trim_end().to_string())
                .collect()
        };
        assert!(
            printed(&merged_only) == printed(&again),
            "{input}: mergefn opt's output is another module"
        );
        renumbered += usize::from(nodes_by_line(&merged_only) != nodes_by_line(&ours));
    }
    assert!(renumbered >= 3, "only {renumbered} modules renumbered");
}

/// Merging reads again only the functions whose shape and header key another shares: sound
/// only if equal encodings always have equal keys, and useful only if keys tell functions of
/// one shape apart. Checked on every fixture and corpus module.
#[test]
fn header_keys_agree_with_encodings() {
    let mut told_apart = 0;
    for path in fixtures("merge").into_iter().chain(corpus()) {
        let m = parse(read(&path)).unwrap();
        let eligible = eligible_functions(&m);
        let cx = Context::new(&m, HoleRule::new(&m, &Options::default()).for_module(&m));
        let mut key_of_encoding = std::collections::HashMap::new();
        let mut keys_of_shape: std::collections::HashMap<u64, BTreeSet<u64>> = Default::default();
        for f in m.functions.keys().filter(|&f| eligible[f]) {
            let key = mergefn::fingerprint::header_key(&cx, f);
            let encoding = fingerprint(&cx, f, &m.body(f).unwrap()).bytes;
            let first = *key_of_encoding.entry(encoding).or_insert(key);
            assert_eq!(
                first,
                key,
                "{}: one encoding, two header keys",
                path.display()
            );
            let shape = m.functions[f].body.as_ref().unwrap().shape;
            keys_of_shape.entry(shape).or_default().insert(key);
        }
        told_apart += keys_of_shape.values().filter(|k| k.len() > 1).count();
    }
    assert!(
        told_apart > 0,
        "no header key told two functions of one shape apart"
    );
}

/// A module small enough to be merged on one thread, and one (from the corpus, when it is
/// there) large enough for the thread pool.
fn small_and_large_modules() -> Vec<PathBuf> {
    let mut inputs = vec![root().join("tests/fixtures/merge/call_tree.ll")];
    inputs.extend(
        corpus()
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n == "jsonprog-O0.ll")),
    );
    inputs
}

/// The same input gives byte-identical output and report whatever the thread count: bodies
/// are read and fingerprinted in parallel, and every result goes back to its place. The count
/// is set by `--threads` (`-j`) or by `RAYON_NUM_THREADS`; `--threads 0` is refused.
#[test]
fn output_does_not_depend_on_threads() {
    let inputs = small_and_large_modules();
    let dir = tempfile::tempdir().unwrap();
    for input in &inputs {
        let mut outputs = Vec::new();
        for (threads, set_by) in [("1", "RAYON_NUM_THREADS"), ("2", "-j"), ("3", "--threads")] {
            let out = dir.path().join(format!("out-{threads}.ll"));
            let report = dir.path().join(format!("report-{threads}.json"));
            let mut command = Command::new(env!("CARGO_BIN_EXE_mergefn"));
            command
                .args(["merge", input.to_str().unwrap(), "-o"])
                .arg(&out)
                .arg("--report")
                .arg(&report);
            match set_by {
                "RAYON_NUM_THREADS" => command.env(set_by, threads),
                flag => command.args([flag, threads]),
            };
            let status = command.status().unwrap();
            assert!(status.success(), "{}", input.display());
            outputs.push((
                std::fs::read(&out).unwrap(),
                std::fs::read(&report).unwrap(),
            ));
        }
        assert!(
            outputs.windows(2).all(|w| w[0] == w[1]),
            "{}: output differs with the thread count",
            input.display()
        );
    }
    let input = inputs[0].to_str().unwrap();
    let out = dir.path().join("out-0.ll");
    let out = out.to_str().unwrap();
    let (ok, _, stderr) = mergefn_cli(&["merge", input, "-o", out, "--threads", "0"]);
    assert!(
        !ok && stderr.contains("invalid value '0' for '--threads <N>'"),
        "{stderr}"
    );
}

/// A module that cannot be written leaves its report unwritten: the report says what the
/// written module holds. Both ways of writing them, a small module's (one thread) and a large
/// one's (the report beside the removal of the file the module replaced).
#[test]
fn a_failed_write_leaves_the_report_alone() {
    let inputs = small_and_large_modules();
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("no-such-folder").join("out.ll");
    let report = dir.path().join("report.json");
    for input in &inputs {
        let (ok, _, stderr) = mergefn_cli(&[
            "merge",
            input.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ]);
        assert!(!ok, "{}: the write should fail", input.display());
        assert!(stderr.contains("out.ll"), "{stderr}");
        assert!(!report.exists(), "{}: report written", input.display());
    }
}

/// Uses move between members whose types are equal but not the same, as LLVM moves them
/// (spec §6): an unnamed_addr member is replaced everywhere and deleted, a member whose address
/// is significant keeps a thunk but its direct calls go to the survivor.
#[test]
fn uses_move_between_equal_types() {
    let text = read(&root().join("tests/fixtures/merge/equal_types.ll"));
    let (out, _, report) = merged(&text, &Options::default());
    let fate = |f: &str| {
        let mut members = report.classes.iter().flat_map(|c| &c.members);
        members.find(|m| m.name == f).map(|m| m.fate)
    };
    assert_eq!(fate("@by_b"), Some(Fate::Deleted), "{out}");
    assert_eq!(fate("@ext_ptr"), Some(Fate::Thunk), "{out}");
    let code = |l: &&str| !l.starts_with(';');
    assert!(
        !out.lines().filter(code).any(|l| l.contains("@by_b")),
        "{out}"
    );
    assert!(out.contains("[ptr @by_a, ptr @by_a]"), "{out}");
    assert!(out.contains("call i32 @by_a(%B %s)"), "{out}");
    assert!(out.contains("call ptr @ext_int(ptr %v, ptr null)"), "{out}");
    assert!(out.contains("[ptr @ext_int, ptr @ext_ptr]"), "{out}");
}

/// Functions that differ only in the metadata of loads and stores merge, and the kept body
/// drops the attachments the members do not all have, equal; those they share stay.
#[test]
fn kept_bodies_drop_the_attachments_their_members_do_not_share() {
    let text = read(&root().join("tests/fixtures/merge/load_metadata.ll"));
    let (out, folded, report) = merged(&text, &Options::default());
    assert_eq!(folded, BTreeSet::from(["@get_b".to_string()]), "{out}");
    assert_eq!(report.attachments_dropped, 1, "{out}");
    assert!(
        out.contains("%x = load i32, ptr %p, align 4, !range !6\n"),
        "{out}"
    );
    let inline = "%x = load i32, ptr %p, align 4, !tbaa !0, !range !{i32 0, i32 5}\n";
    assert!(out.contains(inline), "{out}");
    let text = read(&root().join("tests/fixtures/merge/store_metadata.ll"));
    let (out, _, report) = merged(&text, &Options::default());
    assert_eq!(report.attachments_dropped, 2, "{out}");
    let kept = definition(&out, "@store_int");
    assert!(!kept.contains("!tbaa"), "{out}");
    let path = root().join("tests/fixtures/merge/load_metadata.ll");
    let (ok, out, _) = mergefn_cli(&["explain", path.to_str().unwrap(), "@get_a", "@get_b"]);
    assert!(
        ok && out.contains("but for 1 metadata attachment(s)"),
        "{out}"
    );
}

/// Where no rule of ours differs from LLVM's, the module we write is the one opt-22 writes,
/// once opt-22 has printed it again (which renumbers and reformats, and nothing else): each
/// fixture but those marked `TEXT-DIFFERS:` with the reason. Fold sets alone would miss a
/// wrong linkage, comdat or attribute on a thunk or a body made private.
#[test]
fn fixture_outputs_are_opts_where_no_rule_differs() {
    let Some(opt) = opt() else {
        return;
    };
    let printed = |text: &str| {
        let out = run_on_text(opt, &["-S", "-o", "-", "-"], text);
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    // The module's identifier and source file name are the file opt-22 read.
    let body = |text: &str| {
        text.lines()
            .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut checked = 0;
    for path in fixtures("merge") {
        let text = read(&path);
        if directive(&text, "TEXT-DIFFERS").is_some() {
            continue;
        }
        let opts = options(&text);
        let (ours, _, _) = merged(&text, &opts);
        assert_eq!(
            body(&printed(&ours)),
            body(&run_opt(&path, &opts)),
            "{}: our output differs from opt-22's",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fixtures compared");
}

/// A ThinLTO summary describes the module as it was read: it goes at the first edit, and
/// `llvm-as` (which reads summaries, where opt-22 skips them) accepts what we write. An
/// unedited module keeps it, byte for byte.
#[test]
fn summaries_go_at_the_first_edit() {
    if opt().is_none() {
        return;
    }
    let text = read(&root().join("tests/fixtures/merge/thin_lto_summary.ll"));
    let assemble = |text: &str| {
        let out = run_on_text("llvm-as-22", &["-", "-o", "/dev/null"], text);
        assert!(
            out.status.success(),
            "llvm-as-22 refused it:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    assemble(&text);
    let unedited = parse(text.clone()).unwrap();
    assert_eq!(mergefn::write::to_string(&unedited), text);
    let (ours, folded, _) = merged(&text, &Options::default());
    assert!(folded.contains("@twice_plus_one"), "{folded:?}");
    assert!(!ours.lines().any(|l| l.starts_with('^')), "{ours}");
    assert!(!ours.contains("; guid ="), "{ours}");
    assemble(&ours);
}

/// LLVM's code generator names a function's KCFI type symbol after the function
/// (`__cfi_<name>`), so two unnamed functions with a `!kcfi_type` define `__cfi_` twice and
/// the module does not compile. A body made private keeps a name when it has one.
#[test]
fn kcfi_bodies_made_private_compile() {
    if opt().is_none() {
        return;
    }
    let text = read(&root().join("tests/fixtures/merge/kcfi.ll"));
    let (ours, folded, _) = merged(&text, &Options::default());
    assert!(
        folded.contains("@w1") && folded.contains("@v1"),
        "{folded:?}"
    );
    let out = run_on_text(
        "llc-22",
        &[
            "-mtriple=x86_64-unknown-linux-gnu",
            "-filetype=obj",
            "-o",
            "/dev/null",
            "-",
        ],
        &ours,
    );
    assert!(
        out.status.success(),
        "llc-22 refused it:\n{}\n{ours}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Getelementptr of constant indices, each stepping forward or only one moving, compare by
/// the bytes they add (spec §5), worked out from the DataLayout as LLVM works them out. For
/// each datalayout and each typed GEP below, opt-22's instcombine gives the offset (it
/// rewrites such a GEP as `getelementptr inbounds [nuw] i8, ptr %p, i64 N`, or as `%p` itself
/// when N is 0): the typed function must fold with one that adds N bytes, and not with one
/// that adds N + 1.
#[test]
fn gep_offsets_are_llvms() {
    if opt().is_none() {
        return;
    }
    let layouts = [
        // x86-64, 32-bit x86, AArch64 and 32-bit ARM as clang-22 writes them; none; and one
        // that moves every default (aggregates aligned to 8, i64 to 4, 128-bit vectors to 4).
        "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
        "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128",
        "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
        "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64",
        "",
        "e-a:64-v128:32-i64:32-f64:32-p1:16:16",
    ];
    // A type and the indices after the first (which is `i64 K`).
    let geps: &[(&str, i64, &str)] = &[
        ("{ i8, i32 }", 0, "i32 1"),
        ("{ i8, i64 }", 0, "i32 1"),
        ("{ i8, double }", 0, "i32 1"),
        ("{ i8, x86_fp80 }", 0, "i32 1"),
        ("{ i8, fp128 }", 0, "i32 1"),
        ("{ i8, <4 x float> }", 0, "i32 1"),
        ("{ i8, <3 x i32> }", 0, "i32 1"),
        ("{ i8, <8 x i1> }", 0, "i32 1"),
        ("{ i8, <5 x i8> }", 0, "i32 1"),
        ("{ i8, i128 }", 0, "i32 1"),
        ("{ i8, i48 }", 0, "i32 1"),
        ("{ i8, i256 }", 0, "i32 1"),
        ("{ i1, i17 }", 0, "i32 1"),
        ("{ i8, ptr }", 0, "i32 1"),
        ("{ i8, ptr addrspace(270) }", 0, "i32 1"),
        ("{ i8, ptr addrspace(1) }", 0, "i32 1"),
        ("{ i16, half, i8, bfloat }", 0, "i32 3"),
        ("<{ i8, i64 }>", 0, "i32 1"),
        ("{ i8, <{ i8, i64 }> }", 0, "i32 1"),
        ("{ i8, [3 x i16], i64 }", 0, "i32 2"),
        ("{ i8, { i8, i64 } }", 0, "i32 1, i32 1"),
        ("[5 x { i32, i8 }]", 0, "i64 3, i32 1"),
        ("{ i32, i8 }", 3, ""),
        ("{ x86_fp80, i8 }", 2, "i32 1"),
        ("[3 x i64]", 1, "i64 2"),
        ("{ i8, [2 x { i8, double }] }", 1, "i32 1, i64 1, i32 1"),
        ("%named", 2, "i32 2"),
        // One step back: as exact as one forward.
        ("{ i32, i8 }", -1, ""),
        ("[3 x i64]", -2, ""),
        ("%named", -1, "i32 0"),
    ];
    for layout in layouts {
        let mut module = format!(
            "target datalayout = \"{layout}\"\n%named = type {{ i8, %inner, double }}\n\
             %inner = type {{ i16, [3 x i8] }}\n"
        );
        for (k, (ty, first, rest)) in geps.iter().enumerate() {
            let rest = if rest.is_empty() {
                String::new()
            } else {
                format!(", {rest}")
            };
            module += &format!(
                "define ptr @typed{k}(ptr %p) {{\n  \
                 %q = getelementptr inbounds {ty}, ptr %p, i64 {first}{rest}\n  ret ptr %q\n}}\n"
            );
        }
        let out = run_on_text("opt-22", &["-S", "-passes=instcombine"], &module);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let combined = String::from_utf8(out.stdout).unwrap();
        let mut pairs = module.clone();
        for k in 0..geps.len() {
            let body = definition(&combined, &format!("@typed{k}"));
            let offset: i64 = match body.split(" i8, ptr %p, ").nth(1) {
                // `i64 N`, or `i32 N` where indices are 32 bits wide.
                Some(rest) => rest.split_whitespace().nth(1).unwrap().parse().unwrap(),
                None if body.contains("ret ptr %p") => 0,
                None => panic!("{layout}: instcombine left @typed{k} as\n{body}"),
            };
            for (name, bytes) in [("bytes", offset), ("other", offset + 1)] {
                pairs += &format!(
                    "define ptr @{name}{k}(ptr %p) {{\n  \
                     %q = getelementptr inbounds i8, ptr %p, i64 {bytes}\n  ret ptr %q\n}}\n"
                );
            }
        }
        let (_, _, report) = merged(&pairs, &Options::default());
        for (k, gep) in geps.iter().enumerate() {
            let mates = class_mates(&report, &format!("@typed{k}")).map_or(vec![], |c| c.1);
            assert!(
                mates.contains(&format!("@bytes{k}")) && !mates.contains(&format!("@other{k}")),
                "{layout}: {gep:?} does not fold with what opt-22 makes of it: {mates:?}"
            );
        }
    }
}

/// No thunk calls a function under a calling convention that forbids calls, written by name
/// or by number (tests/fixtures/opt-aborts/uncallable_conventions.ll): only the unused
/// internal copy goes, and the output is valid; opt-22 thunks them all and refuses its own
/// output.
#[test]
fn uncallable_conventions_get_no_thunks() {
    let text = read(&root().join("tests/fixtures/opt-aborts/uncallable_conventions.ll"));
    for opts in [
        Options::default(),
        Options {
            aliases: true,
            ..Options::default()
        },
    ] {
        let (out, folded, report) = merged(&text, &opts);
        assert_eq!(folded, BTreeSet::from(["@kernel_internal".to_string()]));
        assert_eq!(report.classes.len(), 4, "{report:?}");
        if opt().is_some() {
            verify(&out).unwrap_or_else(|e| panic!("invalid output:\n{e}\n{out}"));
        }
    }
}

/// A function whose frame another recovers by name keeps its body (tests/fixtures/opt-aborts/
/// recovered_frame.ll); opt-22 folds it and writes a module its own verifier refuses.
#[test]
fn recovered_frames_keep_their_bodies() {
    let text = read(&root().join("tests/fixtures/opt-aborts/recovered_frame.ll"));
    let m = parse(text.clone()).unwrap();
    for name in ["@p1", "@p2"] {
        let f = m.function_of(m.lookup(name).unwrap()).unwrap();
        let why = ineligibility(&m, f).unwrap_or_default();
        assert!(why.contains("llvm.localescape"), "{name}: {why}");
    }
    let (out, folded, _) = merged(&text, &Options::default());
    assert!(folded.is_empty(), "{folded:?}");
    if opt().is_some() {
        verify(&out).unwrap_or_else(|e| panic!("invalid output:\n{e}\n{out}"));
    }
}
