//! Helpers shared by the integration tests: where the modules are, and how to ask LLVM 22.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ll_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ll_files_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "ll") {
            out.push(p);
        }
    }
}

/// Our hand-written fixtures under `tests/fixtures/<kind>`.
pub fn fixtures(kind: &str) -> Vec<PathBuf> {
    let mut v = Vec::new();
    ll_files_under(&root().join("tests/fixtures").join(kind), &mut v);
    assert!(!v.is_empty(), "no fixtures in tests/fixtures/{kind}");
    v
}

/// The benchmark corpus built by `bench/corpus.sh`, when `MERGEFN_CORPUS` names its folder.
/// A named folder without modules is an error, so CI cannot pass on an empty corpus.
pub fn corpus() -> Vec<PathBuf> {
    let Some(dir) = std::env::var_os("MERGEFN_CORPUS") else {
        eprintln!("MERGEFN_CORPUS not set: corpus modules skipped");
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file() && p.extension().is_some_and(|e| e == "ll"));
    v.sort();
    // Any folder of modules will do (README, "Popular crates"), but not an empty one: that
    // is a corpus not built.
    assert!(
        !v.is_empty(),
        "MERGEFN_CORPUS={dir:?} holds no .ll module (for ours, run bench/corpus.sh)"
    );
    v
}

/// `opt-22`, or `None` when it is missing and not required (`MERGEFN_REQUIRE_LLVM` unset).
pub fn opt() -> Option<&'static str> {
    let found = Command::new("opt-22").arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("MERGEFN_REQUIRE_LLVM").is_none(),
            "opt-22 not found but MERGEFN_REQUIRE_LLVM is set"
        );
        eprintln!("opt-22 not found: LLVM comparisons skipped");
        return None;
    }
    Some("opt-22")
}

/// Run `opt-22 -passes=verify` on IR text; `Err` holds LLVM's message.
pub fn verify(text: &str) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.ll");
    std::fs::write(&p, text).unwrap();
    let out = Command::new("opt-22")
        .args(["-passes=verify", "-disable-output"])
        .arg(&p)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Run an LLVM tool on IR text given on its standard input; its output, whether it succeeded.
pub fn run_on_text(program: &str, args: &[&str], text: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    // Written from another thread: the tool may fill its output pipe before it reads all.
    let mut stdin = child.stdin.take().unwrap();
    let text = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}
