//! partition: classes of equal functions (spec §7), as lld's ICF and GCC's ipa-icf build them.
//!
//! Start optimistic: functions with equal encodings share a class, whatever their holes (the
//! functions they call, or take the address of, see `merge::HoleRule`) name. Then split every
//! class until, hole by hole, all members name functions of one class. What remains is the
//! coarsest partition consistent with both, so mutually recursive groups and whole call trees
//! of duplicates come out as classes in one pass.

use crate::model::{FuncId, GlobalId, Module};
use rustc_hash::FxHashMap;

/// A function that may equal others: which encoding it has (equal numbers for equal
/// encodings) and the functions its holes name, in order. The encodings themselves need not be
/// kept: the number says all that refinement needs.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub func: FuncId,
    pub encoding: u32,
    pub holes: Vec<GlobalId>,
}

/// Classes of two or more equal functions, members in input order, classes ordered by their
/// first member: the same input gives the same classes in the same order.
pub fn partition(m: &Module, prints: &[Candidate]) -> Vec<Vec<FuncId>> {
    refine(prints, |f| m.functions[f].global)
}

/// [`partition`], with the global that names each candidate's function given by `global_of`.
fn refine(prints: &[Candidate], global_of: impl Fn(FuncId) -> GlobalId) -> Vec<Vec<FuncId>> {
    // Optimistic start: one class per distinct encoding.
    let mut class_of: Vec<u32> = Vec::with_capacity(prints.len());
    let mut by_encoding: FxHashMap<u32, u32> = FxHashMap::default();
    for c in prints {
        let next = by_encoding.len() as u32;
        class_of.push(*by_encoding.entry(c.encoding).or_insert(next));
    }
    let mut class_count = by_encoding.len() as u32;
    drop(by_encoding);

    // Where each hole points: the position of its callee in `prints`. A callee without a
    // fingerprint equals no other function: it gets a position past the end and a class of
    // its own, and never splits (it has no holes).
    let mut position: FxHashMap<GlobalId, u32> = prints
        .iter()
        .enumerate()
        .map(|(i, c)| (global_of(c.func), i as u32))
        .collect();
    // The holes of candidate `i` are `targets[hole_ranges[i]]`, positions as above.
    let mut targets: Vec<u32> = Vec::new();
    let mut hole_ranges: Vec<(usize, usize)> = Vec::with_capacity(prints.len());
    for c in prints {
        let start = targets.len();
        for g in &c.holes {
            let at = *position.entry(*g).or_insert_with(|| {
                class_of.push(class_count);
                class_count += 1;
                class_of.len() as u32 - 1
            });
            targets.push(at);
        }
        hole_ranges.push((start, targets.len()));
    }
    hole_ranges.resize(class_of.len(), (0, 0));
    let holes = |i: u32| &targets[hole_ranges[i as usize].0..hole_ranges[i as usize].1];

    // Who calls each position: the candidates with a hole naming it, once per hole.
    let mut caller_starts = vec![0u32; class_of.len() + 1];
    for &t in &targets {
        caller_starts[t as usize + 1] += 1;
    }
    for i in 1..caller_starts.len() {
        caller_starts[i] += caller_starts[i - 1];
    }
    let mut callers = vec![0u32; targets.len()];
    let mut filled = caller_starts.clone();
    for (i, &(start, end)) in hole_ranges.iter().enumerate() {
        for &t in &targets[start..end] {
            callers[filled[t as usize] as usize] = i as u32;
            filled[t as usize] += 1;
        }
    }
    drop(filled);
    let callers_of = |i: u32| {
        &callers[caller_starts[i as usize] as usize..caller_starts[i as usize + 1] as usize]
    };

    // The members of each class lie together in `by_class`, class `c` at `span[c]`. A class
    // is split by the classes its members' holes name. The members that leave it for new
    // classes change the keys of their callers: each such caller is marked, moved to the end
    // of its class's span, and its class examined again, and there only the marked members
    // are keyed again and sorted, the others keeping the key they all had (Hopcroft's
    // refinement, as Paige and Tarjan keep it: the largest part keeps the class, so a
    // function changes class O(log n) times, and examining a class costs what was marked in
    // it). Each class is examined whole once, at the start. Whatever the order of the splits,
    // the result is the coarsest partition in which every class's members name the same
    // classes, hole by hole.
    let mut by_class: Vec<u64> = (class_of.iter().enumerate())
        .map(|(i, &c)| u64::from(c) << 32 | i as u64)
        .collect();
    by_class.sort_unstable();
    let mut by_class: Vec<u32> = by_class.into_iter().map(|k| k as u32).collect();
    let mut place = vec![0u32; by_class.len()];
    let mut span: Vec<(u32, u32)> = vec![(0, 0); class_count as usize];
    for (at, &i) in by_class.iter().enumerate() {
        place[i as usize] = at as u32;
        let c = class_of[i as usize] as usize;
        if span[c].1 == 0 {
            span[c].0 = at as u32;
        }
        span[c].1 = at as u32 + 1;
    }
    let mut whole: Vec<bool> = span.iter().map(|&(s, e)| e - s > 1).collect();
    let mut queued = whole.clone();
    let mut marked: Vec<u32> = vec![0; span.len()];
    let mut pending: Vec<u32> = (0..class_count)
        .filter(|&c| queued[c as usize])
        .rev()
        .collect();
    let mut keys: Vec<u32> = Vec::new();
    let mut key_ranges: Vec<(usize, usize)> = Vec::new();
    let mut by_key: Vec<usize> = Vec::new();
    let mut members: Vec<u32> = Vec::new();
    let mut parts: Vec<(usize, usize)> = Vec::new();
    let mut moved: Vec<u32> = Vec::new();
    while let Some(c) = pending.pop() {
        let c = c as usize;
        queued[c] = false;
        let (s, e) = (span[c].0 as usize, span[c].1 as usize);
        let keyed = match std::mem::take(&mut whole[c]) {
            true => e - s,
            false => marked[c] as usize,
        };
        marked[c] = 0;
        let from = e - keyed;
        let class = &by_class[from..e];
        if class.iter().all(|&i| holes(i).is_empty()) {
            continue;
        }
        keys.clear();
        key_ranges.clear();
        for &i in class {
            let start = keys.len();
            keys.extend(holes(i).iter().map(|&h| class_of[h as usize]));
            key_ranges.push((start, keys.len()));
        }
        let key = |k: usize| &keys[key_ranges[k].0..key_ranges[k].1];
        by_key.clear();
        by_key.extend(0..class.len());
        by_key.sort_unstable_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
        // The parts: the members not keyed again (their key is the one the class had), then
        // the keyed ones, a part for each key.
        parts.clear();
        if from > s {
            parts.push((s, from));
        }
        let mut at = from;
        for run in by_key.chunk_by(|&a, &b| key(a) == key(b)) {
            parts.push((at, at + run.len()));
            at += run.len();
        }
        if parts.len() == 1 {
            continue;
        }
        members.clear();
        members.extend(by_key.iter().map(|&k| class[k]));
        by_class[from..e].copy_from_slice(&members);
        for (at, &i) in (from..e).zip(&members) {
            place[i as usize] = at as u32;
        }
        let largest = (0..parts.len())
            .max_by_key(|&p| (parts[p].1 - parts[p].0, std::cmp::Reverse(p)))
            .unwrap_or(0);
        moved.clear();
        for (p, &(first, last)) in parts.iter().enumerate() {
            if p == largest {
                span[c] = (first as u32, last as u32);
                continue;
            }
            let fresh = span.len() as u32;
            span.push((first as u32, last as u32));
            queued.push(false);
            whole.push(false);
            marked.push(0);
            for &i in &by_class[first..last] {
                class_of[i as usize] = fresh;
                moved.push(i);
            }
        }
        // Each part's members name the same classes, but through a function that moved:
        // its callers are marked, at the end of their classes.
        for &i in &moved {
            for &caller in callers_of(i) {
                let cc = class_of[caller as usize] as usize;
                let (cs, ce) = (span[cc].0 as usize, span[cc].1 as usize);
                if ce - cs < 2 {
                    continue;
                }
                let unmarked_end = ce - marked[cc] as usize;
                let at = place[caller as usize] as usize;
                if !whole[cc] && at < unmarked_end {
                    let other = by_class[unmarked_end - 1];
                    by_class.swap(at, unmarked_end - 1);
                    place[other as usize] = at as u32;
                    place[caller as usize] = (unmarked_end - 1) as u32;
                    marked[cc] += 1;
                }
                if !queued[cc] {
                    queued[cc] = true;
                    pending.push(cc as u32);
                }
            }
        }
    }

    // Classes of two or more, in the order of their first members, members in input order.
    let size = |c: u32| span[c as usize].1 - span[c as usize].0;
    let mut first = vec![u32::MAX; span.len()];
    let mut grouped: Vec<u64> = Vec::new();
    for (i, &c) in class_of.iter().enumerate().take(prints.len()) {
        if size(c) > 1 {
            let first = &mut first[c as usize];
            *first = (*first).min(i as u32);
            grouped.push(u64::from(*first) << 32 | i as u64);
        }
    }
    grouped.sort_unstable();
    grouped
        .chunk_by(|a, b| a >> 32 == b >> 32)
        .map(|class| {
            class
                .iter()
                .map(|&k| prints[k as u32 as usize].func)
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_entity::EntityRef;

    /// The classes by the definition of §7, the slow way: split by encoding and the classes
    /// of the callees, over and over, until no class splits. Function `i` is global `i`; a
    /// callee that is no candidate is a class of its own.
    fn reference(prints: &[Candidate]) -> Vec<Vec<FuncId>> {
        let n = prints.len();
        let class_of_callee = |classes: &[usize], g: GlobalId| match g.index() < n {
            true => classes[g.index()],
            false => usize::MAX - g.index(),
        };
        let mut classes: Vec<usize> = prints.iter().map(|c| c.encoding as usize).collect();
        loop {
            let keys: Vec<(usize, Vec<usize>)> = prints
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let callees = c.holes.iter().map(|&g| class_of_callee(&classes, g));
                    (classes[i], callees.collect())
                })
                .collect();
            let mut numbers = std::collections::HashMap::new();
            let next: Vec<usize> = keys
                .iter()
                .map(|k| {
                    let fresh = numbers.len();
                    *numbers.entry(k.clone()).or_insert(fresh)
                })
                .collect();
            let count = |c: &[usize]| c.iter().collect::<std::collections::HashSet<_>>().len();
            let done = count(&next) == count(&classes);
            classes = next;
            if done {
                break;
            }
        }
        let mut out: Vec<Vec<FuncId>> = Vec::new();
        let mut first: std::collections::HashMap<usize, usize> = Default::default();
        for (i, &c) in classes.iter().enumerate() {
            let at = *first.entry(c).or_insert_with(|| {
                out.push(Vec::new());
                out.len() - 1
            });
            out[at].push(prints[i].func);
        }
        out.retain(|class| class.len() > 1);
        out
    }

    /// A small generator of pseudo-random numbers (xorshift), so the test needs no crate.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    #[test]
    fn refinement_agrees_with_the_definition() {
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        for round in 0..4000 {
            // Mostly small, where every case is near; now and then long chains of splits.
            let n = 1 + random.below(if round % 8 == 0 { 300 } else { 24 }) as usize;
            let encodings = 1 + random.below(4) as u32;
            let prints: Vec<Candidate> = (0..n)
                .map(|i| Candidate {
                    func: FuncId::new(i),
                    encoding: random.below(encodings as u64) as u32,
                    holes: (0..random.below(4))
                        .map(|_| GlobalId::new(random.below(n as u64 + 3) as usize))
                        .collect(),
                })
                .collect();
            let got = refine(&prints, |f| GlobalId::new(f.index()));
            assert_eq!(got, reference(&prints), "{prints:?}");
        }
    }
}
