#!/usr/bin/env bash
# Popular crates from crates.io as an outside corpus of rustc's IR (not part of CI: minutes of
# building). A throwaway package that uses them is built in target/rust-crates with
# `--emit=llvm-ir`, one code generation unit per crate, at opt-level 0 and 3, each without and
# with debug information: one module per crate and build (its procedural macros included),
# about two hundred modules. The differential
# test of tests/merge.rs then runs on them: every merged module must verify, and every fold
# opt-22 makes that mergefn does not (or the reverse) must be explained by a rule of the spec.
# Usage: bench/rust-crates.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/target/rust-crates
package=$out/package
mkdir -p "$package/src"
cat > "$package/Cargo.toml" <<'EOF'
[package]
name = "crates-sweep"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
anyhow = "1"
bytes = "1"
clap = { version = "4", features = ["derive"] }
crossbeam-channel = "0.5"
hashbrown = "0.16"
indexmap = "2"
itertools = "0.14"
rand = "0.9"
rayon = "1"
regex = "1"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
smallvec = "1"

[workspace]
EOF
cat > "$package/src/main.rs" <<'EOF'
//! Uses each dependency, so that its generic code is instantiated here too.
use clap::Parser;
use itertools::Itertools;
use rand::Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;

#[derive(Parser)]
struct Args {
    #[arg(default_value_t = 1000)]
    n: usize,
}

#[derive(serde::Serialize, serde::Deserialize, Clone)]
struct Record {
    key: String,
    values: Vec<u32>,
    weights: BTreeMap<String, f64>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let pattern = regex::Regex::new(r"(\d+)-(\w+)")?;
    let mut rng = rand::rng();
    let records: Vec<Record> = (0..args.n)
        .map(|i| Record {
            key: format!("{i}-k{}", rng.random_range(0..10)),
            values: (0..i as u32 % 7).collect(),
            weights: BTreeMap::from([(format!("x{i}"), i as f64 / 3.0)]),
        })
        .collect();
    let text = serde_json::to_string(&records)?;
    let back: Vec<Record> = serde_json::from_str(&text)?;
    let digits: usize = back
        .par_iter()
        .map(|r| pattern.captures(&r.key).map_or(0, |c| c[1].len()))
        .sum();
    let mut index = indexmap::IndexMap::new();
    for r in &back {
        index.insert(r.key.clone(), r.values.len());
    }
    let lengths: smallvec::SmallVec<[usize; 8]> = index.values().copied().collect();
    let mut table = hashbrown::HashMap::new();
    for (i, n) in lengths.iter().enumerate() {
        table.insert(i, *n);
    }
    let (send, receive) = crossbeam_channel::unbounded();
    send.send(bytes::Bytes::from(text).len())?;
    let joined = back.iter().map(|r| r.values.len()).join(",");
    println!("{digits} {} {} {} {}", table.len(), receive.recv()?, joined.len(), index.len());
    Ok(())
}
EOF
rm -rf "$out/modules"
mkdir -p "$out/modules"
# Each opt-level without debug information and with it (`-g`: cargo's dev profile has it).
for build in 0 3 0g 3g; do
  level=${build%g} debug=0
  [ "$build" != "$level" ] && debug=2
  echo "rust-crates: building at opt-level $level, debuginfo=$debug" >&2
  # RUSTFLAGS takes the place of the repository's .cargo/config.toml (a static C library, which
  # procedural macros cannot have).
  (cd "$package" && RUSTFLAGS="--emit=llvm-ir -C codegen-units=1" \
    CARGO_TARGET_DIR="$out/target-O$build" \
    cargo build -q --release --config "profile.release.opt-level=$level" \
    --config "profile.release.debug=$debug")
  for ll in "$out/target-O$build"/release/deps/*.ll; do
    cp "$ll" "$out/modules/O$build-$(basename "$ll")"
  done
done
echo "rust-crates: $(ls "$out/modules" | wc -l) modules in $out/modules" >&2
cd "$root"
MERGEFN_CORPUS="$out/modules" MERGEFN_REQUIRE_LLVM=1 \
  cargo test --release --quiet --test merge differential_against_opt -- --nocapture
