//! A program built from merged IR behaves exactly as the one built from the input: the SQLite
//! amalgamation with our SQL driver, our C++ program using nlohmann-json (also instrumented by
//! the sanitizers), our C++ program using the standard library, and the zstd, HarfBuzz and
//! SPIRV-Cross libraries with our drivers, each compiled from the corpus module before and after
//! `mergefn merge`, must print the same bytes; and our Rust program, its module compiled and
//! linked as rustc linked it. The C++ programs are also built as usual builds go: each unit
//! merged on its own, then linked.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Run a build step; its error output if it fails.
fn run_ok(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{what} ({:?}): {}",
        cmd.get_args().collect::<Vec<_>>(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// How a corpus module becomes a program.
enum Build<'a> {
    /// clang-22 (C, linked with libm) or clang++-22, with objects of ours beside it and
    /// flags of its own.
    Clang {
        cxx: bool,
        extra: &'a [&'a Path],
        flags: &'a [&'a str],
    },
    /// The Rust program: the module compiled to an object, then linked as rustc linked it
    /// (bench/programs/rustprog/keep-link.sh kept that link in this folder).
    RustLink(&'a Path),
}

/// Compile IR to an object file with clang-22. An instrumented module is compiled as it is
/// (clang says so, and leaves it).
fn compile_object(ll: &Path, object: &Path, level: &str) {
    let mut compile = Command::new("clang-22");
    compile.args([level, "-c", "-Wno-override-module", "-Wno-backend-plugin"]);
    run_ok(compile.arg(ll).arg("-o").arg(object), "clang-22 -c");
}

/// rustc's link kept by bench/programs/rustprog/keep-link.sh, writing `exe`, with the object
/// `unit` gives for each of the program's units (`@MAIN@`, `@CGU.<n>@`).
fn rustc_link(link: &Path, exe: &Path, unit: impl Fn(&str) -> Option<PathBuf>) -> Command {
    let args = std::fs::read_to_string(link.join("args")).unwrap();
    let mut cmd = Command::new("cc");
    for arg in args.lines() {
        if arg == "@OUT@" {
            cmd.arg(exe);
        } else if arg.starts_with('@') && arg.ends_with('@') {
            cmd.arg(unit(arg).unwrap_or_else(|| panic!("no object for {arg}")));
        } else {
            cmd.arg(arg);
        }
    }
    cmd
}

fn build_and_run(ll: &Path, build: &Build, dir: &Path, name: &str) -> Vec<u8> {
    let exe = dir.join(name);
    let (mut cmd, what) = match build {
        Build::Clang { cxx, extra, flags } => {
            let compiler = if *cxx { "clang++-22" } else { "clang-22" };
            let mut cmd = Command::new(compiler);
            cmd.arg("-O1")
                .args(*flags)
                .arg(ll)
                .args(*extra)
                .arg("-o")
                .arg(&exe);
            if !cxx {
                cmd.arg("-lm");
            }
            (cmd, compiler)
        }
        Build::RustLink(link) => {
            let object = dir.join(format!("{name}.o"));
            compile_object(ll, &object, "-O1");
            let cmd = rustc_link(link, &exe, |unit| {
                (unit == "@MAIN@").then(|| object.clone())
            });
            (cmd, "cc (rustc's link)")
        }
    };
    run_ok(&mut cmd, what);
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
fn same_behaviour(module: &str, build: &Build) -> usize {
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
    let before = build_and_run(&input, build, dir.path(), "before");
    let after = build_and_run(&merged, build, dir.path(), "after");
    assert_eq!(
        String::from_utf8_lossy(&before),
        String::from_utf8_lossy(&after),
        "{module}: the merged build prints something else"
    );
    report.folded
}

/// A module alone, built by clang-22 (linked with libm) or by clang++-22.
const C: Build = Build::Clang {
    cxx: false,
    extra: &[],
    flags: &[],
};
const C_PLUS_PLUS: Build = Build::Clang {
    cxx: true,
    extra: &[],
    flags: &[],
};

/// Each of `modules`, built as `build` says, prints the same merged.
fn modules_behave_the_same(modules: &[&str], build: &Build) {
    for module in modules {
        let folded = same_behaviour(module, build);
        eprintln!("{module}: {folded} functions folded, same output");
    }
}

#[test]
fn sqlite_driver_prints_the_same() {
    let Some(corpus) = std::env::var_os("MERGEFN_CORPUS") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The driver is compiled to an object of its own, against the corpus's sqlite3.h.
    let driver = dir.path().join("driver.o");
    let mut compile = Command::new("clang-22");
    compile.args(["-O1", "-c", "-I"]).arg(&corpus);
    compile.arg(root().join("bench/programs/sqlite-driver/driver.c"));
    run_ok(compile.arg("-o").arg(&driver), "clang-22 -c");
    let build = Build::Clang {
        cxx: false,
        extra: &[&driver],
        flags: &[],
    };
    modules_behave_the_same(&["sqlite3-O0.ll", "sqlite3-O2.ll"], &build);
}

#[test]
fn json_program_prints_the_same() {
    let modules = ["jsonprog-O0.ll", "jsonprog-O2.ll", "jsonprog-O2-g.ll"];
    modules_behave_the_same(&modules, &C_PLUS_PLUS);
}

#[test]
fn stl_program_prints_the_same() {
    modules_behave_the_same(&["stlprog-O0.ll", "stlprog-O2.ll"], &C_PLUS_PLUS);
}

/// Eigen's matrices and Boost's graphs (bench/programs/eigenprog): at -O0 more than half of
/// the definitions fold.
#[test]
fn eigen_program_prints_the_same() {
    modules_behave_the_same(&["eigenprog-O0.ll", "eigenprog-O2.ll"], &C_PLUS_PLUS);
}

/// The program instrumented by AddressSanitizer and UndefinedBehaviorSanitizer: module
/// constructors, instrumented globals and `llvm.compiler.used`. The module is instrumented
/// already (clang says so and leaves it); the flags link the sanitizers' runtimes.
#[test]
fn sanitized_json_program_prints_the_same() {
    let build = Build::Clang {
        cxx: true,
        extra: &[],
        flags: &["-fsanitize=address,undefined", "-Wno-backend-plugin"],
    };
    modules_behave_the_same(&["jsonprog-asan.ll"], &build);
}

/// Twins using computed goto, asm goto, inline assembly, _BitInt, atomics, VLAs, setjmp,
/// cleanups, complex numbers, _Float16, vectors and builtins (bench/programs/cfeatures).
#[test]
fn c_features_print_the_same() {
    modules_behave_the_same(&["cfeatures-O0.ll", "cfeatures-O2.ll"], &C);
}

#[test]
fn zstd_program_prints_the_same() {
    modules_behave_the_same(&["zstd-O0.ll", "zstd-O2.ll"], &C);
}

#[test]
fn harfbuzz_program_prints_the_same() {
    modules_behave_the_same(&["harfbuzz-O0.ll", "harfbuzz-O2.ll"], &C_PLUS_PLUS);
}

/// SPIRV-Cross, a third-party C++ program (exceptions, `std::function`, lambdas), translating
/// our shaders to six languages through our driver of its C API.
#[test]
fn spirv_cross_program_prints_the_same() {
    modules_behave_the_same(&["spvc-O0.ll", "spvc-O2.ll"], &C_PLUS_PLUS);
}

#[test]
fn rust_program_prints_the_same() {
    let Some(corpus) = std::env::var_os("MERGEFN_CORPUS") else {
        return;
    };
    // rustprog-O3 has no identical functions left to merge: O0 only.
    let link = Path::new(&corpus).join("rustprog-O0.link");
    assert!(
        link.join("args").is_file(),
        "{} missing: run bench/corpus.sh",
        link.display()
    );
    let folded = same_behaviour("rustprog-O0.ll", &Build::RustLink(&link));
    eprintln!("rustprog-O0.ll: {folded} functions folded, same output");
}

/// The Rust program as rustc splits a crate by default, in code generation units (16 here),
/// each unit's IR merged on its own (generic functions are instantiated in several units),
/// compiled and linked as rustc linked them, prints what the unmerged units print.
#[test]
fn rust_units_merged_alone_link() {
    let Some(corpus) = std::env::var_os("MERGEFN_CORPUS") else {
        return;
    };
    if opt().is_none() {
        return;
    }
    let parts = Path::new(&corpus).join("rustprog-cgu16");
    let link = parts.join("link");
    assert!(
        link.join("args").is_file(),
        "{} missing: run bench/corpus.sh",
        link.display()
    );
    let mut units: Vec<PathBuf> = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    units.sort();
    assert!(units.len() > 1, "{}: fewer than two units", parts.display());
    let dir = tempfile::tempdir().unwrap();
    let mut folded = 0;
    let mut outputs = Vec::new();
    for merged in [false, true] {
        let mut objects = std::collections::HashMap::new();
        for ll in &units {
            let stem = ll.file_stem().unwrap().to_string_lossy().into_owned();
            let mut input = ll.clone();
            if merged {
                input = dir.path().join(format!("{stem}.merged.ll"));
                let mut m = mergefn::parse(std::fs::read_to_string(ll).unwrap()).unwrap();
                folded += mergefn::merge(&mut m, &mergefn::Options::default()).folded;
                mergefn::write::write_file(&m, &input).unwrap();
            }
            let object = dir.path().join(format!("{stem}.{merged}.o"));
            compile_object(&input, &object, "-O0");
            // cgu.07 is linked as @CGU.07@.
            objects.insert(format!("@CGU.{}@", &stem["cgu.".len()..]), object);
        }
        let exe = dir.path().join(format!("rustprog-{merged}"));
        let mut cmd = rustc_link(&link, &exe, |unit| objects.get(unit).cloned());
        run_ok(&mut cmd, "cc (rustc's link)");
        let run = Command::new(&exe).output().unwrap();
        assert!(
            run.status.success() && !run.stdout.is_empty(),
            "{exe:?} failed"
        );
        outputs.push(run.stdout);
    }
    assert!(folded > 0, "nothing merged, the test would prove nothing");
    assert_eq!(
        String::from_utf8_lossy(&outputs[0]),
        String::from_utf8_lossy(&outputs[1]),
        "the units merged alone print something else"
    );
    eprintln!(
        "rustprog in {} units: {folded} functions folded, same output",
        units.len()
    );
}

/// The usual build: each translation unit of the C++ programs compiled to IR and merged on its
/// own, then compiled and linked. Every unit defines the same inline functions in the same
/// comdats, and the linker keeps one unit's copy of each comdat: a body made private for a
/// class (§6) must not stay in its comdat, or the callers left in the other units' kept code
/// would call a body the linker dropped. Linked in both orders, so each unit's copies are
/// both kept and dropped. At -O0, -O2, and -O1 instrumented by AddressSanitizer and
/// UndefinedBehaviorSanitizer (each unit's module constructor, and a check that the programs
/// themselves are sound).
#[test]
fn separately_merged_units_link_in_either_order() {
    if std::env::var_os("MERGEFN_CORPUS").is_none() || opt().is_none() {
        return;
    }
    // Each build: its flags, and what its link adds (the sanitizers' runtimes).
    let builds: [(&[&str], &[&str]); 3] = [
        (&["-O0"], &[]),
        (&["-O2"], &[]),
        (
            &["-O1", "-fsanitize=address,undefined"],
            &["-fsanitize=address,undefined"],
        ),
    ];
    for program in ["jsonprog", "stlprog"] {
        for (flags, link) in builds {
            units_merged_alone_link_in_either_order(program, flags, link);
        }
    }
}

fn units_merged_alone_link_in_either_order(program: &str, flags: &[&str], link_flags: &[&str]) {
    let level = flags.join(" ");
    let dir = tempfile::tempdir().unwrap();
    let sources: Vec<_> = std::fs::read_dir(root().join("bench/programs").join(program))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
        .collect();
    let units: Vec<_> = sources
        .iter()
        .map(|source| {
            let stem = source.file_stem().unwrap().to_string_lossy();
            let ll = dir.path().join(format!("{stem}.ll"));
            let child = Command::new("clang++-22")
                .arg("-std=c++17")
                .args(flags)
                .args(["-S", "-emit-llvm"])
                .arg(source)
                .arg("-o")
                .arg(&ll)
                .spawn()
                .unwrap();
            (ll, child)
        })
        .collect();
    let units: Vec<_> = units
        .into_iter()
        .map(|(ll, mut child)| {
            assert!(child.wait().unwrap().success(), "clang++-22 {level} failed");
            ll
        })
        .collect();
    let objects = |suffix: &str, transform: &dyn Fn(&Path) -> std::path::PathBuf| {
        units
            .iter()
            .map(|ll| {
                let object = ll.with_extension(format!("{suffix}.o"));
                compile_object(&transform(ll), &object, "-O1");
                object
            })
            .collect::<Vec<_>>()
    };
    let link_and_run = |objects: &[std::path::PathBuf], name: &str| {
        let exe = dir.path().join(name);
        let mut link = Command::new("clang++-22");
        link.args(link_flags).args(objects);
        run_ok(link.arg("-o").arg(&exe), "clang++-22 (link)");
        let run = Command::new(&exe).output().unwrap();
        assert!(
            run.status.success() && !run.stdout.is_empty(),
            "{name} failed"
        );
        run.stdout
    };
    let expected = link_and_run(&objects("plain", &|ll| ll.to_path_buf()), "plain");
    let mut folded = 0;
    for ll in &units {
        let mut m = mergefn::parse(std::fs::read_to_string(ll).unwrap()).unwrap();
        folded += mergefn::merge(&mut m, &mergefn::Options::default()).folded;
        mergefn::write::write_file(&m, &ll.with_extension("merged.ll")).unwrap();
    }
    let mut merged = objects("merged", &|ll| ll.with_extension("merged.ll"));
    assert!(
        folded > 0,
        "{program} {level}: nothing merged, the test would prove nothing"
    );
    for order in ["forward", "reverse"] {
        let out = link_and_run(&merged, &format!("merged-{order}"));
        assert_eq!(
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&out),
            "{program} {level}, linked {order}: the merged build prints something else"
        );
        merged.reverse();
    }
    eprintln!(
        "{program} {level}: {folded} functions folded in {} units, same output",
        units.len()
    );
}

/// A shared library built with `-fPIC -fsemantic-interposition`, merged, behaves as before
/// when another library loaded first defines one of its functions (`LD_PRELOAD`): `f2`, the
/// twin of the interposed `f1`, keeps returning what it computes, as neither may call the
/// other (spec §6, LLVM's `isInterposable`).
#[test]
fn interposed_function_leaves_its_twin_alone() {
    if opt().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let write = |name: &str, text: &str| std::fs::write(path(name), text).unwrap();
    write(
        "lib.c",
        "int f1(int x) { return x * 3 + 1; }\nint f2(int x) { return x * 3 + 1; }\n",
    );
    write("first.c", "int f1(int x) { return -x; }\n");
    write(
        "main.c",
        "#include <stdio.h>\nint f1(int); int f2(int);\n\
         int main(void) { printf(\"%d %d\\n\", f1(5), f2(5)); return 0; }\n",
    );
    let clang = || Command::new("clang-22");
    run_ok(
        clang()
            .args([
                "-O0",
                "-fPIC",
                "-fsemantic-interposition",
                "-S",
                "-emit-llvm",
            ])
            .arg(path("lib.c"))
            .arg("-o")
            .arg(path("lib.ll")),
        "clang-22 -emit-llvm",
    );
    let mut m = mergefn::parse(std::fs::read_to_string(path("lib.ll")).unwrap()).unwrap();
    let report = mergefn::merge(&mut m, &mergefn::Options::default());
    assert_eq!(
        report.folded, 2,
        "f1 and f2 both become thunks of one private body"
    );
    mergefn::write::write_file(&m, &path("merged.ll")).unwrap();
    run_ok(
        clang()
            .args(["-shared", "-fPIC"])
            .arg(path("first.c"))
            .arg("-o")
            .arg(path("first.so")),
        "clang-22 -shared",
    );
    let run = |library: &str| {
        let (so, exe) = (
            path(&format!("{library}.so")),
            path(&format!("{library}.exe")),
        );
        run_ok(
            clang()
                .args(["-shared", "-fPIC"])
                .arg(path(&format!("{library}.ll")))
                .arg("-o")
                .arg(&so),
            "clang-22 -shared",
        );
        run_ok(
            clang().arg(path("main.c")).arg(&so).arg("-o").arg(&exe),
            "clang-22 (link)",
        );
        let out = Command::new(&exe)
            .env("LD_PRELOAD", path("first.so"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{library}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run("lib"), "-5 16\n");
    assert_eq!(run("merged"), "-5 16\n");
}
