//! A small program whose generic code (serde, collections) gives mergefn many
//! monomorphized functions to compare.
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::collections::{BTreeMap, HashMap};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Point {
    x: i64,
    y: i64,
    label: String,
}

#[derive(Serialize, Deserialize, Debug)]
struct Shape {
    name: String,
    points: Vec<Point>,
    tags: BTreeMap<String, u32>,
    weights: Vec<f64>,
}

fn make(n: usize) -> Vec<Shape> {
    (0..n)
        .map(|i| Shape {
            name: format!("shape{i}"),
            points: (0..i % 7 + 1)
                .map(|k| Point { x: (i * k) as i64, y: (i + k) as i64 - 3, label: format!("p{k}") })
                .collect(),
            tags: (0..i % 4).map(|t| (format!("t{t}"), (i * t) as u32)).collect(),
            weights: (0..i % 3).map(|w| w as f64 * 0.5).collect(),
        })
        .collect()
}

fn main() {
    let shapes = make(500);
    let text = serde_json::to_string(&shapes).expect("serialize");
    let back: Vec<Shape> = serde_json::from_str(&text).expect("deserialize");
    let mut by_len: HashMap<usize, u64> = HashMap::new();
    let mut small: SmallVec<[i64; 8]> = SmallVec::new();
    for s in &back {
        *by_len.entry(s.points.len()).or_default() += 1;
        small.push(s.points.iter().map(|p| p.x * p.y).sum());
    }
    let mut keys: Vec<_> = by_len.into_iter().collect();
    keys.sort();
    let mut buf = itoa::Buffer::new();
    println!("bytes {} shapes {} sum {}", text.len(), back.len(), buf.format(small.iter().sum::<i64>()));
    println!("{keys:?}");
}
