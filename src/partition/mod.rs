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
    let mut holes: Vec<Vec<u32>> = Vec::with_capacity(prints.len());
    for c in prints {
        let mut targets = Vec::with_capacity(c.holes.len());
        for g in &c.holes {
            let at = *position.entry(*g).or_insert_with(|| {
                class_of.push(class_count);
                class_count += 1;
                class_of.len() as u32 - 1
            });
            targets.push(at);
        }
        holes.push(targets);
    }
    holes.resize(class_of.len(), Vec::new());

    // Only members of classes of two or more can split; a member without holes never splits
    // from another member without holes, so refinement works on those with holes.
    loop {
        let mut members: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for (i, &c) in class_of.iter().enumerate() {
            members.entry(c).or_default().push(i as u32);
        }
        let mut classes: Vec<(u32, Vec<u32>)> = members
            .into_iter()
            .filter(|(_, v)| v.len() > 1 && v.iter().any(|&i| !holes[i as usize].is_empty()))
            .collect();
        classes.sort_unstable_by_key(|(c, _)| *c);
        let mut next = class_of.clone();
        let mut split = false;
        for (_, list) in classes {
            let mut by_key: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            for &i in &list {
                let key: Vec<u32> = holes[i as usize]
                    .iter()
                    .map(|&h| class_of[h as usize])
                    .collect();
                let n = by_key.len();
                let id = *by_key.entry(key).or_insert_with(|| {
                    if n == 0 {
                        class_of[i as usize]
                    } else {
                        class_count += 1;
                        class_count - 1
                    }
                });
                if id != class_of[i as usize] {
                    split = true;
                }
                next[i as usize] = id;
            }
        }
        class_of = next;
        if !split {
            break;
        }
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
