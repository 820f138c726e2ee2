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
        .map(|(i, c)| (m.functions[c.func].global, i as u32))
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
    // rounds that follow.
    let mut by_class: Vec<u32> = (0..class_of.len() as u32).collect();
    let mut splittable: Vec<u32> = Vec::new();
    let mut keys: Vec<u32> = Vec::new();
    let mut key_ranges: Vec<(usize, usize)> = Vec::new();
    let mut by_key: Vec<usize> = Vec::new();
    loop {
        by_class.sort_unstable_by_key(|&i| (class_of[i as usize], i));
        let mut next = class_of.clone();
        let mut split = false;
        splittable.clear();
        for class in by_class.chunk_by(|&a, &b| class_of[a as usize] == class_of[b as usize]) {
            if class.len() < 2 || class.iter().all(|&i| holes(i).is_empty()) {
                continue;
            }
            splittable.extend_from_slice(class);
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
            for (run, members) in by_key.chunk_by(|&a, &b| key(a) == key(b)).enumerate() {
                if run > 0 {
                    split = true;
                    for &k in members {
                        next[class[k] as usize] = class_count;
                    }
                    class_count += 1;
                }
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
