//! partition: classes of equal functions (spec §7), as lld's ICF and GCC's ipa-icf build them.
//!
//! Start optimistic: functions with equal encodings share a class, whatever their call holes
//! name. Then split every class until, hole by hole, all members call functions of one class.
//! What remains is the coarsest partition consistent with both, so mutually recursive groups
//! and whole call trees of duplicates come out as classes in one pass.

use crate::model::{FuncId, GlobalId, Module};
use rustc_hash::FxHashMap;

/// A function that may equal others: which encoding it has (equal numbers for equal
/// encodings) and the callees of its holes, in order. The encodings themselves need not be
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

    // Only members of classes of two or more can split; a member without holes never splits
    // from another member without holes, so refinement works on those with holes. Each round
    // splits every class by the classes its members' holes name in the round before. A class
    // that cannot split now never can (classes only get smaller): its members leave the
    // rounds that follow. The members of each class are kept together, in input order, in
    // `by_class`: sorted once, then written class by class as the classes split.
    let mut by_class: Vec<u32> = (0..class_of.len() as u32).collect();
    by_class.sort_unstable_by_key(|&i| (class_of[i as usize], i));
    let mut splittable: Vec<u32> = Vec::new();
    let mut keys: Vec<u32> = Vec::new();
    let mut key_ranges: Vec<(usize, usize)> = Vec::new();
    let mut by_key: Vec<usize> = Vec::new();
    loop {
        let mut next = class_of.clone();
        let mut split = false;
        splittable.clear();
        for class in by_class.chunk_by(|&a, &b| class_of[a as usize] == class_of[b as usize]) {
            if class.len() < 2 || class.iter().all(|&i| holes(i).is_empty()) {
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
            // The first run of equal keys keeps the class; each other run becomes a class.
            // Each run's members, in input order, follow each other for the next round.
            for (run, members) in by_key.chunk_by(|&a, &b| key(a) == key(b)).enumerate() {
                if run > 0 {
                    split = true;
                    for &k in members {
                        next[class[k] as usize] = class_count;
                    }
                    class_count += 1;
                }
                splittable.extend(members.iter().map(|&k| class[k]));
            }
        }
        class_of = next;
        if !split {
            break;
        }
        std::mem::swap(&mut by_class, &mut splittable);
    }

    let mut members: FxHashMap<u32, Vec<FuncId>> = FxHashMap::default();
    let mut order: Vec<u32> = Vec::new();
    for (i, &c) in class_of.iter().enumerate().take(prints.len()) {
        let list = members.entry(c).or_default();
        if list.is_empty() {
            order.push(c);
        }
        list.push(prints[i].func);
    }
    order
        .into_iter()
        .filter_map(|c| {
            let list = members.remove(&c)?;
            (list.len() > 1).then_some(list)
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
        for _ in 0..2000 {
            let n = 1 + random.below(24) as usize;
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
