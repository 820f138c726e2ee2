//! The `mergefn` command line. Library errors get their context (the file) here.
// The program starts at the C library's call of `main`, below, not through the Rust
// runtime's start-up (see there). (So the binary has no unit tests: `test = false`.)
#![no_main]

use clap::{Arg, ArgAction, ArgMatches, value_parser};
use mergefn::fingerprint::Part;
use mergefn::write::{Replaced, Style};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

// The command line is built with clap's builder, not its derive macros: the binary links the
// C library statically, which rules out procedural macros (see ARCHITECTURE.md).
enum Command {
    Read {
        input: PathBuf,
        output: Option<PathBuf>,
        counts: bool,
    },
    Merge {
        input: PathBuf,
        output: PathBuf,
        aliases: bool,
        preserve_debug_info: bool,
        stats: bool,
        report: Option<PathBuf>,
    },
    Explain {
        input: PathBuf,
        first: String,
        second: String,
    },
    Opt {
        args: Vec<String>,
    },
}

fn cli() -> clap::Command {
    let input = || {
        Arg::new("input")
            .value_name("INPUT")
            .required(true)
            .value_parser(value_parser!(PathBuf))
            .help("Input `.ll` file, or `-` for standard input")
    };
    let output = || {
        Arg::new("output")
            .value_name("OUTPUT")
            .short('o')
            .long("output")
            .value_parser(value_parser!(PathBuf))
            .help(
                "Output file (`-` for standard output); written atomically (a device such as \
                 `/dev/null` is written as it is)",
            )
    };
    let flag = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(help)
    };
    clap::Command::new("mergefn")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Find functions in LLVM IR that do the same thing and keep one copy")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            Arg::new("threads")
                .short('j')
                .long("threads")
                .value_name("N")
                .global(true)
                .value_parser(value_parser!(u16).range(1..))
                .help(
                    "Use at most N threads (default: one a core, one for a module under 256 KiB; \
                     as RAYON_NUM_THREADS=N). The output is the same for any number",
                ),
        )
        .subcommand(
            clap::Command::new("read")
                .about(
                    "Read a module and write it back (unchanged text, byte for byte); with \
                     --counts, print each defined function's blocks and instructions instead",
                )
                .arg(input())
                .arg(output())
                .arg(flag(
                    "counts",
                    "Print `name blocks instructions reachable-blocks reachable-instructions` \
                     per function",
                )),
        )
        .subcommand(
            clap::Command::new("merge")
                .about("Merge the identical functions of a module")
                .arg(input())
                .arg(output().required(true))
                .arg(flag(
                    "aliases",
                    "Fold members whose address is not significant into aliases rather than \
                     thunks",
                ))
                .arg(flag(
                    "preserve-debug-info",
                    "Keep folded members as thunks in place (with their debug info); never \
                     redirect their callers nor delete them",
                ))
                .arg(flag(
                    "stats",
                    "Print a summary of what was merged to standard error",
                ))
                .arg(
                    Arg::new("report")
                        .long("report")
                        .value_name("FILE.json")
                        .value_parser(value_parser!(PathBuf))
                        .help("Write every class, its kept body and each member's fate as JSON"),
                ),
        )
        .subcommand(
            clap::Command::new("explain")
                .about("Say whether two functions would merge and, if not, where they first differ")
                .arg(input())
                .arg(
                    Arg::new("first")
                        .value_name("FIRST")
                        .required(true)
                        .help("The first function, e.g. `@f`"),
                )
                .arg(
                    Arg::new("second")
                        .value_name("SECOND")
                        .required(true)
                        .help("The second function"),
                ),
        )
        .subcommand(
            clap::Command::new("opt")
                .about(
                    "A drop-in for `opt` running only `-passes=mergefunc` (`mergefn opt --help`)",
                )
                .arg(
                    Arg::new("args")
                        .value_name("ARGS")
                        .num_args(0..)
                        .trailing_var_arg(true)
                        .allow_hyphen_values(true)
                        .help(
                            "opt's arguments: -S, -o FILE, -passes=mergefunc, -p mergefunc \
                             (with verify), -mergefunc-use-aliases, \
                             -mergefunc-preserve-debug-info, -mergefunc-verify=N (no effect, \
                             as in opt-22), -verify-each, -disable-output, -stats, -f, input",
                        ),
                ),
        )
}

impl Command {
    fn from_matches(matches: &ArgMatches) -> Command {
        let (name, args) = matches.subcommand().expect("a subcommand is required");
        let path = |id: &str| args.get_one::<PathBuf>(id).cloned();
        let text = |id: &str| args.get_one::<String>(id).cloned();
        let input = || path("input").expect("the input is required");
        match name {
            "read" => Command::Read {
                input: input(),
                output: path("output"),
                counts: args.get_flag("counts"),
            },
            "merge" => Command::Merge {
                input: input(),
                output: path("output").expect("the output is required"),
                aliases: args.get_flag("aliases"),
                preserve_debug_info: args.get_flag("preserve-debug-info"),
                stats: args.get_flag("stats"),
                report: path("report"),
            },
            "explain" => Command::Explain {
                input: input(),
                first: text("first").expect("required"),
                second: text("second").expect("required"),
            },
            "opt" => Command::Opt {
                args: args
                    .get_many::<String>("args")
                    .map_or_else(Vec::new, |a| a.cloned().collect()),
            },
            other => unreachable!("subcommand {other} is not declared"),
        }
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(buf);
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn load(path: &Path) -> Result<mergefn::Module, String> {
    load_with(path, None)
}

/// Read the input and merge it; the bodies merging compares are encoded as they are read.
fn load_and_merge(
    input: &Path,
    opts: &mergefn::Options,
) -> Result<(mergefn::Module, mergefn::merge::Merged), String> {
    let encodings = mergefn::merge::FirstReadEncodings::for_options(opts);
    let mut m = load_with(input, Some(&encodings))?;
    let merged = mergefn::merge::merge_first_read(&mut m, opts, encodings);
    Ok((m, merged))
}

fn load_with(
    path: &Path,
    work: Option<&dyn mergefn::read::BodyWork>,
) -> Result<mergefn::Module, String> {
    if path.as_os_str() != "-" {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        prepare_for(file.metadata().map_or(0, |meta| meta.len() as usize));
        if let Some(read) = mergefn::read::parse_file_with(&file, work) {
            return read.map_err(|e| format!("{}:{e}", path.display()));
        }
    }
    let bytes = read_input(path)?;
    prepare_for(bytes.len());
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    mergefn::read::parse_bytes_with(bytes, work).map_err(|e| format!("{name}:{e}"))
}

/// Readies the process for a module of `len` bytes. Where the text is large enough that its
/// pages are given back as it is read ([`mergefn::model::RELEASE_MIN`]), memory counts:
/// - The thread pool takes this thread as one of its threads, rather than waiting on its
///   own: glibc's allocator keeps a heap a thread, and what one thread frees only that
///   thread's allocations reuse, so the serial stages, run here, and the parallel ones now
///   share one (eigenprog-O0's merge peak 36.3 -> 34.3 MiB, 7 alternated runs).
/// - Blocks of 64 KiB or more are mapped apart, and unmapped when freed. glibc starts at 128
///   KiB and raises that bound to the size of each large block freed, after which the large
///   vectors of a merge's rounds come from the heap, whose pages stay resident once freed
///   (eigenprog-O0's merge peak 32.2 -> 31.3 MiB, times equal).
///
/// A smaller text keeps rayon's own pool, started when first asked for, and glibc's rule:
/// stress-10000-1 (661 KB, one body read in two pieces) merged in 9.2 ms with this thread in
/// the pool against 7.3 (11 alternated runs), and in 8.4 ms with blocks mapped apart.
///
/// A text too small for threads ([`mergefn::read::worth_threads`]) is read and merged on this
/// thread alone, unless a thread count is asked for: a pool of one, this thread, starts no
/// thread, where starting rayon's would cost such a module a sixth of its time (cfeatures-O2,
/// 50 KB, merged in 3.2 ms against 3.7; stress-1000-2 2.6 against 3.2; 41 alternated runs).
fn prepare_for(len: usize) {
    if !mergefn::read::worth_threads(len, 2) {
        if std::env::var_os("RAYON_NUM_THREADS").is_none() {
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .use_current_thread()
                .build_global();
        }
        return;
    }
    if len < mergefn::model::RELEASE_MIN {
        return;
    }
    // A pool started already stays as it is.
    let _ = rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets one of the allocator's parameters; it takes no pointer.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 10);
    }
}

/// Write the module to `output` (stdout if none or `-`); what the file replaced goes when the
/// value returned is dropped.
fn emit(m: &mergefn::Module, output: Option<&Path>) -> Result<Replaced, String> {
    emit_as(m, output, Style::AsRead)
}

fn emit_as(
    m: &mergefn::Module,
    output: Option<&Path>,
    style: Style<'_>,
) -> Result<Replaced, String> {
    match output {
        Some(p) if p.as_os_str() != "-" => {
            mergefn::write::write_file_as(m, p, style).map_err(|e| format!("{}: {e}", p.display()))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            mergefn::write::write_to_as(m, &mut out, style)
                .and_then(|()| out.flush())
                .map(|()| Replaced::default())
                .map_err(|e| format!("<stdout>: {e}"))
        }
    }
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Read {
            input,
            output,
            counts,
        } => {
            if counts {
                let m = load(&input)?;
                let mut out = String::new();
                for c in mergefn::function_counts(&m) {
                    out.push_str(&format!(
                        "{} {} {} {} {}\n",
                        c.name,
                        c.blocks,
                        c.instructions,
                        c.reachable_blocks,
                        c.reachable_instructions
                    ));
                }
                print!("{out}");
                return Ok(());
            }
            let m = load(&input)?;
            let written = emit(&m, output.as_deref());
            exit_without_freeing(m);
            written.map(drop)
        }
        Command::Merge {
            input,
            output,
            aliases,
            preserve_debug_info,
            stats,
            report,
        } => {
            let opts = mergefn::Options {
                aliases,
                preserve_debug_info,
            };
            let (m, merged) = load_and_merge(&input, &opts)?;
            // The report is made only when asked for, while the module is written; once the
            // module is written, and only then, the report is written while the file the
            // module replaced is removed. A module too small for threads asks for none:
            // starting the pool would cost it half its time.
            let threads = mergefn::read::worth_threads(m.source.len(), 2);
            let (replaced, r) = match stats || report.is_some() {
                true if threads => {
                    let (written, r) =
                        rayon::join(|| emit(&m, Some(&output)), || merged.report(&m));
                    (written?, Some(r))
                }
                true => (emit(&m, Some(&output))?, Some(merged.report(&m))),
                false => (emit(&m, Some(&output))?, None),
            };
            match (report, &r) {
                (Some(path), Some(r)) if threads => {
                    let ((), reported) =
                        rayon::join(move || drop(replaced), || write_report(r, &path));
                    reported?;
                }
                (Some(path), Some(r)) => {
                    drop(replaced);
                    write_report(r, &path)?;
                }
                _ => drop(replaced),
            }
            if let Some(r) = &r
                && stats
            {
                eprintln!("{}", stats_line(r));
            }
            exit_without_freeing((m, r));
            Ok(())
        }
        Command::Explain {
            input,
            first,
            second,
        } => {
            let m = load(&input)?;
            println!("{}", explain(&m, &first, &second)?);
            Ok(())
        }
        Command::Opt { args } => opt(&args),
    }
}

/// The command is done with the module (and its report) and the process is about to end: the
/// system takes the memory back at once, faster than freeing it piece by piece.
fn exit_without_freeing<T>(done: T) {
    std::mem::forget(done);
}

fn stats_line(r: &mergefn::Report) -> String {
    format!(
        "mergefn: {} functions, {} eligible, {} classes, {} folded ({} deleted, {} aliases, {} thunks), {} instructions saved, {} round(s)",
        r.functions,
        r.eligible,
        r.classes.len(),
        r.folded,
        r.deleted,
        r.aliases,
        r.thunks,
        r.instructions_saved,
        r.rounds
    )
}

/// The report as JSON, written to its file as it is made: held whole, it took 2.8 MB of
/// harfbuzz-O0's peak.
fn write_report(r: &mergefn::Report, path: &Path) -> Result<(), String> {
    mergefn::write::write_atomically(path, |out| {
        serde_json::to_writer_pretty(out, r).map_err(std::io::Error::from)
    })
    .map_err(|e| format!("{}: {e}", path.display()))
}

fn function(m: &mergefn::Module, name: &str) -> Result<mergefn::model::FuncId, String> {
    m.lookup(name)
        .and_then(|g| m.function_of(g))
        .ok_or_else(|| format!("no function named {name}"))
}

/// Why `first` and `second` would or would not merge; when only the functions they call or
/// take the address of keep them apart, why those do not merge, down to two that differ in
/// themselves.
fn explain(m: &mergefn::Module, first: &str, second: &str) -> Result<String, String> {
    let (f, g) = (function(m, first)?, function(m, second)?);
    let chain = mergefn::merge::Explainer::new(m).explain_through_holes(f, g);
    let name = |x: mergefn::model::FuncId| m.name_of(m.functions[x].global);
    let steps: Vec<String> = (chain.iter().enumerate())
        .map(|(step, (a, b, explanation))| match step {
            // The pair asked about, by the names as given.
            0 => explain_one(m, first, second, explanation),
            _ => explain_one(m, &name(*a), &name(*b), explanation),
        })
        .collect();
    Ok(steps.join("\n"))
}

/// One step of [`explain`]: `first` and `second`, and why they would or would not merge.
fn explain_one(
    m: &mergefn::Module,
    first: &str,
    second: &str,
    explanation: &mergefn::merge::Explanation,
) -> String {
    use mergefn::merge::Explanation;
    let line_of = |span: mergefn::model::Span| {
        let start = span.start as usize;
        let line = m.source[..start].matches('\n').count() + 1;
        let line_start = m.source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = m.source[start..]
            .find('\n')
            .map_or(m.source.len(), |i| start + i);
        format!("line {line}: {}", m.source[line_start..line_end].trim())
    };
    match *explanation {
        Explanation::Merge {
            attachments_dropped: 0,
        } => format!("{first} and {second} merge: they are equal (spec §2-§5, §7)"),
        Explanation::Merge {
            attachments_dropped: n,
        } => format!(
            "{first} and {second} merge: they are equal (spec §2-§5, §7) but for {n} metadata \
             attachment(s) of loads and stores, which the kept body does without (spec §5, \
             going further)"
        ),
        Explanation::Ineligible {
            ref function,
            reason,
        } => {
            format!("{first} and {second} do not merge: {function} does not take part ({reason})")
        }
        Explanation::Differ { left, right } => {
            let mut out = format!("{first} and {second} do not merge; first difference:\n");
            for (name, mark) in [(first, left), (second, right)] {
                match mark {
                    Some(mk) => {
                        let adds = match mk.part {
                            Part::GepOffset(n) => format!(" (adds {n} bytes)"),
                            Part::BlockShape { instructions } => {
                                format!(" (the block holds {instructions} instructions)")
                            }
                            Part::Attributes(of) => match mk.span.is_empty() {
                                true => format!(" ({}: none)", of.describe()),
                                false => format!(
                                    " ({}: `{}`)",
                                    of.describe(),
                                    &m.source[mk.span.range()]
                                ),
                            },
                            _ => String::new(),
                        };
                        out.push_str(&format!("  {name}: {}{adds}\n", line_of(mk.span)))
                    }
                    None => out.push_str(&format!("  {name}: (start)\n")),
                }
            }
            // Of an extra flag on one side and the item it faces, the flag names the rule; of a
            // GEP compared by its offset and one compared by its types, the types do; of a
            // function's own address and another's, the own address does.
            let named = |part: Part| {
                [left, right]
                    .into_iter()
                    .flatten()
                    .find(|mk| mk.part == part)
            };
            let rule = named(Part::GepFlags)
                .or(named(Part::GepSourceType))
                .or(named(Part::OwnAddress))
                .or(left)
                .or(right)
                .map_or_else(String::new, |mk| mk.part.rule());
            out.push_str(&format!("  rule: {rule}"));
            out
        }
        Explanation::Holes {
            reference,
            left,
            right,
            left_at,
            right_at,
            ..
        } => format!(
            "{first} and {second} do not merge: their bodies are equal but {} names {} \
             in one and {} in the other, which do not merge (spec §3, §7):\n  {first}: {}\n  \
             {second}: {}",
            match reference {
                mergefn::fingerprint::Reference::Call => "a call",
                mergefn::fingerprint::Reference::Address => "an address",
            },
            m.name_of(left),
            m.name_of(right),
            line_of(left_at),
            line_of(right_at)
        ),
    }
}

/// `mergefn opt ...`: the arguments of `opt` that make sense for this pass.
fn opt(args: &[String]) -> Result<(), String> {
    let mut text_output = false;
    let mut disable_output = false;
    let mut statistics = false;
    let mut verify_each = false;
    let mut output: Option<PathBuf> = None;
    let mut input: Option<PathBuf> = None;
    let mut passes: Vec<String> = Vec::new();
    let mut opts = mergefn::Options::default();
    let mut it = args.iter();
    let set_input = |input: &mut Option<PathBuf>, path: &str| {
        if input.is_some() {
            return Err(format!("opt: more than one input file ('{path}')"));
        }
        *input = Some(PathBuf::from(path));
        Ok(())
    };
    while let Some(arg) = it.next() {
        if arg == "--" {
            // As LLVM's option parser reads it: what follows are input files only.
            for path in it.by_ref() {
                set_input(&mut input, path)?;
            }
            break;
        }
        let flag = arg.strip_prefix("--").map(|a| format!("-{a}"));
        let flag = flag.as_deref().unwrap_or(arg);
        let mut value_of = |name: &str| -> Result<Option<String>, String> {
            if flag == name {
                return it
                    .next()
                    .cloned()
                    .map(Some)
                    .ok_or_else(|| format!("opt: {name} needs a value"));
            }
            Ok(flag.strip_prefix(&format!("{name}=")).map(str::to_string))
        };
        if let Some(v) = value_of("-o")? {
            output = Some(PathBuf::from(v));
        } else if let Some(v) = value_of("-passes")? {
            passes.push(v);
        } else if let Some(v) = value_of("-p")? {
            passes.push(v);
        } else if let Some(v) = value_of("-mergefunc-verify")? {
            // The pass's self-check of its comparator, which LLVM runs only under `-debug` (a
            // build with assertions): it changes no output, in opt-22 either.
            v.parse::<u32>().map_err(|_| {
                format!(
                    "opt: for the -mergefunc-verify option: '{v}' value invalid for uint argument!"
                )
            })?;
        } else {
            match flag {
                "-S" => text_output = true,
                "-disable-output" => disable_output = true,
                "-stats" => statistics = true,
                "-verify-each" => verify_each = true,
                // Binary output on a terminal: mergefn writes text only.
                "-f" => {}
                f if let Some(on) = bool_option(f, "-mergefunc-use-aliases")? => opts.aliases = on,
                f if let Some(on) = bool_option(f, "-mergefunc-preserve-debug-info")? => {
                    opts.preserve_debug_info = on
                }
                "-" => set_input(&mut input, "-")?,
                f if f.starts_with('-') => {
                    return Err(format!(
                        "opt: unknown or unsupported option '{arg}' (mergefn opt runs only -passes=mergefunc)"
                    ));
                }
                path => set_input(&mut input, path)?,
            }
        }
    }
    // The reader checks the input as LLVM's verifier does, so a `verify` before any
    // `mergefunc` holds once the module is read; one after it checks the merged module.
    let (mut merges, mut verify_merged) = (false, verify_each);
    for list in &passes {
        for pass in list.split(',') {
            let pass = pass.trim();
            let inner = pass
                .strip_prefix("module(")
                .and_then(|p| p.strip_suffix(')'))
                .unwrap_or(pass);
            match inner {
                "mergefunc" => merges = true,
                "verify" => verify_merged |= merges,
                _ => {
                    return Err(format!(
                        "opt: unsupported pass '{pass}': mergefn opt runs only 'mergefunc' \
                         (and 'verify')"
                    ));
                }
            }
        }
    }
    if passes.is_empty() {
        return Err("opt: no pass given; use -passes=mergefunc".into());
    }
    if !text_output && !disable_output {
        return Err(
            "opt: bitcode output is not supported; add -S for textual IR (or -disable-output)"
                .into(),
        );
    }
    let input = input.unwrap_or_else(|| PathBuf::from("-"));
    let (mut m, report) = match merges {
        true => {
            let (m, merged) = load_and_merge(&input, &opts)?;
            // Made before the module is spelled as LLVM prints it, from the module as merged.
            let report = statistics.then(|| merged.report(&m));
            (m, report)
        }
        false => (load(&input)?, None),
    };
    // The module's identifier, as opt names it: the input as given.
    let module_id = match input.as_os_str() == "-" {
        true => "<stdin>".into(),
        false => input.to_string_lossy(),
    };
    let style = Style::AsOpt {
        module_id: &module_id,
    };
    if !disable_output || verify_merged {
        // As opt prints a module: without the input's comments, with what LLVM's printer
        // writes out (numbers, alignments, debug records) written out.
        m.spell_as_llvm_prints();
    }
    if verify_merged {
        // The merged module as it would be written, read again with every check of the
        // reader: a failure is mergefn's bug, and nothing is written.
        let mut text = Vec::new();
        mergefn::write::write_to_as(&m, &mut text, style)
            .map_err(|e| format!("opt: writing the merged module: {e}"))?;
        mergefn::read::parse_bytes(text).map_err(|e| {
            format!("opt: the merged module does not verify (a bug of mergefn): <merged>:{e}")
        })?;
    }
    if !disable_output {
        emit_as(&m, output.as_deref(), style)?;
    }
    if let Some(report) = &report {
        eprint!("{}", llvm_statistics(report));
    }
    Ok(())
}

/// The value of LLVM's boolean option `name` if `flag` sets it: alone, or with `=` and a
/// value LLVM's option parser takes (`true`, `1`, `false`, `0`...).
fn bool_option(flag: &str, name: &str) -> Result<Option<bool>, String> {
    let Some(rest) = flag.strip_prefix(name) else {
        return Ok(None);
    };
    if rest.is_empty() {
        return Ok(Some(true));
    }
    let Some(value) = rest.strip_prefix('=') else {
        return Ok(None);
    };
    match value {
        "" | "true" | "TRUE" | "True" | "1" => Ok(Some(true)),
        "false" | "FALSE" | "False" | "0" => Ok(Some(false)),
        _ => Err(format!(
            "opt: for the -{} option: '{value}' is invalid value for boolean argument! Try 0 or 1",
            name.trim_start_matches('-')
        )),
    }
}

/// What `opt -stats` prints at exit for this pass, in LLVM's words and layout: the statistics
/// of its MergeFunctions that are not zero, sorted by their names in LLVM's source.
fn llvm_statistics(report: &mergefn::Report) -> String {
    use mergefn::merge::Fate;
    let (mut merged, mut new_functions) = (0, 0);
    for class in &report.classes {
        let folded = class
            .members
            .iter()
            .filter(|m| matches!(m.fate, Fate::Deleted | Fate::Alias | Fate::Thunk))
            .count();
        // With no survivor among the members, the body moved to a new private function and
        // the survivor's own name was folded into it: not a merge in LLVM's count.
        if class.members.iter().all(|m| m.fate != Fate::Survivor) && folded > 0 {
            new_functions += 1;
            merged += folded - 1;
        } else {
            merged += folded;
        }
    }
    let stats = [
        (report.aliases, "Number of aliases generated"),
        (new_functions, "Number of new functions created"),
        (merged, "Number of functions merged"),
        (report.thunks, "Number of thunks generated"),
    ];
    let stats: Vec<_> = stats.into_iter().filter(|&(n, _)| n > 0).collect();
    if stats.is_empty() {
        return String::new();
    }
    let width = stats
        .iter()
        .map(|(n, _)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let rule = format!("==={}===\n", "-".repeat(73));
    let title = "... Statistics Collected ...";
    let mut out = format!(
        "{rule}{:indent$}{title}\n{rule}\n",
        "",
        indent = (80 - title.len()) / 2
    );
    for (n, what) in stats {
        out.push_str(&format!("{n:>width$} mergefunc - {what}\n"));
    }
    out.push('\n');
    out
}

/// Where the C library starts the program. The Rust runtime's start-up is left out
/// (`#![no_main]`): to name the thread whose stack overflows, it finds the main thread's stack
/// in /proc/self/maps and maps a stack for signals, 0.05 ms, 4% of reading a small module (the
/// reader's nesting limit keeps mergefn's stacks within bounds). What else it does is done
/// here: the standard streams opened if closed, SIGPIPE ignored, standard output flushed.
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    open_standard_streams();
    // Writing to a closed pipe is an error to report, not a signal that ends the process.
    // SAFETY: no other thread runs yet, and SIG_IGN is a valid disposition.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let matches = cli().get_matches();
    if let Some(threads) = matches.get_one::<u16>("threads") {
        // The thread pool reads it when it starts, as a module is read.
        // SAFETY: no other thread runs yet.
        unsafe { std::env::set_var("RAYON_NUM_THREADS", threads.to_string()) };
    }
    let status = match run(Command::from_matches(&matches)) {
        Ok(()) => 0,
        Err(msg) => {
            eprintln!("mergefn: error: {msg}");
            1
        }
    };
    match std::io::stdout().flush() {
        Ok(()) => status,
        Err(_) => 1,
    }
}

/// Opens /dev/null in place of a closed standard stream, as the Rust runtime does: a file the
/// command opens would otherwise take its number, and a message meant for standard error would
/// go into the output.
fn open_standard_streams() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `fds` is an array of three `pollfd`, and a timeout of 0 returns at once.
    if unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } < 0 {
        return;
    }
    for _closed in fds.iter().filter(|p| p.revents & libc::POLLNVAL != 0) {
        // SAFETY: a path with its NUL. The file takes the lowest free number, the closed
        // stream's, as they are opened in order.
        if unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) } < 0 {
            std::process::abort();
        }
    }
}
