//! The `mergefn` command line. Library errors get their context (the file) here.

use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "mergefn",
    version,
    about = "Find functions in LLVM IR that do the same thing and keep one copy"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a module and write it back (unchanged text, byte for byte); with --counts, print
    /// each defined function's blocks and instructions instead.
    Read {
        /// Input `.ll` file, or `-` for standard input.
        input: PathBuf,
        /// Output file (`-` for standard output); written atomically.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print `name blocks instructions reachable-blocks reachable-instructions` per function.
        #[arg(long)]
        counts: bool,
    },
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
    let bytes = read_input(path)?;
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    mergefn::parse_bytes(bytes).map_err(|e| format!("{name}:{e}"))
}

fn emit(m: &mergefn::Module, output: Option<&Path>) -> Result<(), String> {
    match output {
        Some(p) if p.as_os_str() != "-" => {
            mergefn::write::write_file(m, p).map_err(|e| format!("{}: {e}", p.display()))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            mergefn::write::write_to(m, &mut out)
                .and_then(|()| out.flush())
                .map_err(|e| format!("<stdout>: {e}"))
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Read {
            input,
            output,
            counts,
        } => {
            let m = load(&input)?;
            if counts {
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
            emit(&m, output.as_deref())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("mergefn: error: {msg}");
            ExitCode::FAILURE
        }
    }
}
