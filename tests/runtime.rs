//! A program built from merged IR behaves exactly as the one built from the input: the SQLite
//! amalgamation with our SQL driver, and our C++ program using nlohmann-json, each compiled
//! from the corpus module before and after `mergefn merge`, must print the same bytes.

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

fn build_and_run(ll: &Path, extra: &[&Path], cxx: bool, dir: &Path, name: &str) -> Vec<u8> {
    let exe = dir.join(name);
    let compiler = if cxx { "clang++-22" } else { "clang-22" };
    let mut cmd = Command::new(compiler);
    cmd.arg("-O1").arg(ll).args(extra).arg("-o").arg(&exe);
    if !cxx {
        cmd.arg("-lm");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{compiler} {}: {}",
        ll.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(
        run.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!run.stdout.is_empty(), "{name} printed nothing");
    run.stdout
}

/// Merge `module` and check the two builds print the same; returns the functions folded.
fn same_behaviour(module: &str, extra: &[&Path], cxx: bool) -> usize {
    let Some(corpus) = std::env::var_os("MERGEFN_CORPUS") else {
        eprintln!("MERGEFN_CORPUS not set: runtime test skipped");
        return 0;
    };
    if opt().is_none() {
        return 0;
    }
    let input = Path::new(&corpus).join(module);
    let dir = tempfile::tempdir().unwrap();
    let merged = dir.path().join("merged.ll");
    let mut m = mergefn::parse(std::fs::read_to_string(&input).unwrap()).unwrap();
    let report = mergefn::merge(&mut m, &mergefn::Options::default());
    mergefn::write::write_file(&m, &merged).unwrap();
    assert!(
        report.folded > 0,
        "{module}: nothing merged, the test would prove nothing"
    );
    let before = build_and_run(&input, extra, cxx, dir.path(), "before");
    let after = build_and_run(&merged, extra, cxx, dir.path(), "after");
    assert_eq!(
        String::from_utf8_lossy(&before),
        String::from_utf8_lossy(&after),
        "{module}: the merged build prints something else"
    );
    report.folded
}

#[test]
fn sqlite_driver_prints_the_same() {
    let Some(corpus) = std::env::var_os("MERGEFN_CORPUS") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The driver is compiled to an object of its own, against the corpus's sqlite3.h.
    let driver = dir.path().join("driver.o");
    let out = Command::new("clang-22")
        .args(["-O1", "-c", "-I"])
        .arg(&corpus)
        .arg(root().join("bench/programs/sqlite-driver/driver.c"))
        .arg("-o")
        .arg(&driver)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for module in ["sqlite3-O0.ll", "sqlite3-O2.ll"] {
        let folded = same_behaviour(module, &[&driver], false);
        eprintln!("{module}: {folded} functions folded, same output");
    }
}

#[test]
fn json_program_prints_the_same() {
    for module in ["jsonprog-O0.ll", "jsonprog-O2.ll", "jsonprog-O2-g.ll"] {
        let folded = same_behaviour(module, &[], true);
        eprintln!("{module}: {folded} functions folded, same output");
    }
}
