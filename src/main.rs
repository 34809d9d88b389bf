//! The `icp2c` command: all file and terminal IO lives here; the library
//! does none.

mod manual;
mod oom;

// Standard input and output closed at start fail as they do in generated
// programs (the same module, pasted into their `main`).
include!("codegen/stdio.rs");

use clap::{Parser, Subcommand, ValueEnum};
use icp2c::codegen::{Layout, Target as CodegenTarget, cargo::CRATE_MARKER};
use icp2c::diagnostic::{self, Diagnostic, MessageKind};
use icp2c::driver::{self, Language, Program};
use icp2c::lang::{FormatOptions, Glyphs, Renumber, RunOptions, UsageError};
use icp2c::{GeneratedFile, Outcome, source};
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const AFTER_HELP: &str = "\
Examples:
  icp2c examples/beer.icp > beer.c          compile to C on standard output
  icp2c examples/beer.icp -o beer.c         … or into a file
  cc -std=c99 -O2 beer.c -o beer && ./beer  build and run it
  icp2c --target rust examples/beer.icp -o beer.rs && rustc --edition 2021 -O beer.rs
  icp2c --crate -o beer-crate examples/beer.icp && cargo run --manifest-path beer-crate/Cargo.toml
  icp2c run examples/multiply.icp <<< '7 9'  interpret directly
  icp2c run examples/add.fin <<< '40 2'      … a Finvara program, too
  icp2c --lang fin - < prog.txt > prog.c     Finvara from standard input
  icp2c --check prog.icp                     only check: diagnostics, no output
  cat prog.icp | icp2c - > prog.c            read the program from standard input
  icp2c run - --input in.txt < prog.icp      … and give it input from a file
  icp2c examples/krk.cheg -o krk.c && cc -std=c99 -O2 krk.c -o krk
                                             a CHEG program becomes a UCI chess engine
  icp2c run examples/krk.cheg --fen '8/8/8/4k3/8/8/8/R3K3 w - - 0 1'
                                             … or is searched by the interpreter
  icp2c fmt prog.icp prog.fin                lay programs out in place, as rustfmt does
  icp2c fmt --check examples/*.cheg          … or only show how (a diff, exit 1)

Languages, chosen by the file extension (--lang overrides it): InfChessPro
(.icp, programs of labelled statements on an infinite board), Finvara
(.fin, a fairy-chess stack language) and CHEG (.cheg, MacHack VI's endgame
language, compiled to chess engines). All compile to C, Rust and crates.
A closed standard output (icp2c prog.icp | head) ends icp2c quietly.

Exit status: 0 success; 1 runtime error (run; running out of memory too),
a file that --verify finds stale or missing, or a program not formatted
(fmt --check); 2 the program was rejected (diagnostics on standard error,
nothing written), a file could not be read or written, or icp2c ran out of
memory compiling it (one line: error: out of memory while compiling FILE);
3 `run --max-steps` ran out.";

/// Compile chess-board esoteric languages (InfChessPro, Finvara, CHEG) to standalone C or Rust.
#[derive(Parser, Debug)]
#[command(name = "icp2c", version, about, after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// The program to compile (`-` reads it from standard input). One program
    /// at a time: to compile several, run icp2c once per file.
    #[arg(value_name = "FILE")]
    file: Vec<PathBuf>,

    /// Write the output to PATH instead of standard output (`-` is standard output;
    /// with --crate: the crate's folder). Example: -o beer.c
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,

    /// What to generate (default: from -o's extension, `.rs` Rust, else C).
    /// Example: --target rust
    #[arg(short, long, value_enum)]
    target: Option<Target>,

    /// Write a Rust Cargo crate into the folder given by -o (it implies --target
    /// rust): Cargo.toml, .gitignore, src/lib.rs (the program as a library),
    /// src/main.rs (its binary) and src/icp_rt.rs (the runtime it uses).
    /// Example: --crate -o beer-crate
    #[arg(long = "crate", requires = "output")]
    as_crate: bool,

    /// Write Rust as a module to include in a crate of yours (it implies
    /// --target rust): no `fn main`, nothing public but `run(input, output)`
    /// and `Error`. Use it as `mod beer { include!("beer.rs"); }`.
    /// Example: icp2c --module examples/beer.icp -o src/beer.rs
    #[arg(long, conflicts_with = "as_crate")]
    module: bool,

    /// Only check the program: print diagnostics, generate nothing; exit 2 if it is
    /// rejected. Example: icp2c --check prog.icp
    #[arg(long)]
    check: bool,

    /// Is the file named by -o (with --crate: the files icp2c writes in that
    /// folder) what icp2c would write now? Writes nothing: exit 0 when it is;
    /// exit 1 with a unified diff on standard output when it differs, or
    /// with a line on standard error naming it when it is missing; 2 when
    /// the program is rejected or a file cannot be read. For CI, beside
    /// generated code kept in version control.
    /// Example: icp2c examples/beer.icp -o beer.c --verify
    #[arg(long, conflicts_with = "check")]
    verify: bool,

    /// The source language, when the file extension does not say (or for `-`).
    /// Example: --lang fin
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// Optimisation level: -O1 (the default) summarises InfChessPro's slide
    /// loops (`L. x;0,1?L`), transfer loops (`A. a;0,-1!B` `A+1. b;0,1?A`)
    /// and the loops around them into a few steps of the runtime, ending
    /// exactly as stepping would; -O0 generates and runs the program as
    /// written, statement by statement (for debugging, and to compare).
    #[arg(short = 'O', value_name = "LEVEL", default_value_t = 1, global = true,
          value_parser = clap::value_parser!(u8).range(0..=1))]
    opt_level: u8,

    /// The same as -O0.
    #[arg(long = "no-opt", global = true)]
    no_opt: bool,

    /// Colour in diagnostics: auto (when standard error is a terminal and
    /// NO_COLOR is not set), always, never.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value = "auto",
        global = true
    )]
    color: ColorChoice,
}

/// `--color WHEN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    /// Colour when standard error is a terminal, TERM is not `dumb` and
    /// NO_COLOR is unset or empty.
    Auto,
    /// Always colour (even into a pipe).
    Always,
    /// Never colour.
    Never,
}

/// Whether diagnostics are coloured: decided once in `main`.
static COLOUR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

fn colour_wanted(choice: ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
                && io::stderr().is_terminal()
        }
    }
}

/// Prints `error: MESSAGE` on standard error, coloured as diagnostics are.
fn error(message: &str) {
    eprint!("{}", error_line(message));
}

/// The line [`error`] prints, newline included.
fn error_line(message: &str) -> String {
    diagnostic::render_message(MessageKind::Error, message, *COLOUR.get().unwrap_or(&false))
}

/// From now on, running out of memory ends icp2c with `error: out of
/// memory while compiling NAME` and status 2 ([`oom`]).
fn compiling(path: &Path) {
    let message = format!("out of memory while compiling {}", source_name(path));
    oom::on_failure(error_line(&message), REJECTED, false);
}

/// Prints `note: MESSAGE` on standard error, coloured as diagnostics are.
fn note(message: &str) {
    eprint!(
        "{}",
        diagnostic::render_message(MessageKind::Note, message, *COLOUR.get().unwrap_or(&false))
    );
}

/// Renders diagnostics for standard error, in colour when [`COLOUR`] says.
fn render(name: &str, text: &str, diagnostics: &[Diagnostic]) -> String {
    diagnostic::render_styled(name, text, diagnostics, *COLOUR.get().unwrap_or(&false))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print a shell completion script for icp2c. Example:
    /// mkdir -p ~/.local/share/bash-completion/completions && icp2c completions bash > ~/.local/share/bash-completion/completions/icp2c
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print icp2c's manual page (roff): every command and option on one page.
    /// Example: mkdir -p ~/.cargo/share/man/man1 && icp2c man > ~/.cargo/share/man/man1/icp2c.1
    Man,
    /// Interpret a program directly; its input is read from standard input.
    /// Example: icp2c run examples/multiply.icp <<< '7 9'
    Run {
        /// The program to run (`-` reads it from standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,

        /// Stop after N statements (moves, for Finvara) with exit status 3:
        /// a guard against runaway programs. Example: --max-steps 1000000
        #[arg(long, value_name = "N")]
        max_steps: Option<u64>,

        /// The source language, when the file extension does not say.
        #[arg(long, value_enum)]
        lang: Option<LangArg>,

        /// Read the program's input from FILE instead of standard input (for
        /// a program that itself comes from standard input, `-`).
        /// Example: icp2c run - --input numbers.txt < prog.icp
        #[arg(long, value_name = "FILE")]
        input: Option<PathBuf>,

        /// Trace the run on standard error, one line per step: InfChessPro
        /// the statement, what it did (pieces moved, captured, placed,
        /// counted, numbers read), whether it succeeded and where control
        /// goes; Finvara the move, valid or not, a capture, both stacks'
        /// tops; CHEG every consultation of the endgame program at the
        /// root of the search. Example: icp2c run --trace examples/sum.icp <<< '3 4'
        #[arg(long)]
        trace: bool,

        /// Draw the board on standard error: after every step with --trace,
        /// else once when the run ends. InfChessPro draws a window around
        /// the pieces, or lists them by name when they are far apart;
        /// Finvara draws the grid with its holes and both stacks; CHEG
        /// draws the position searched.
        #[arg(long)]
        board: bool,

        /// How --trace and --board draw pieces: Unicode chess symbols,
        /// letters (white upper case, black lower case), or auto (Unicode
        /// when LC_ALL, LC_CTYPE or LANG names UTF-8).
        #[arg(long, value_enum, default_value_t = GlyphsArg::Auto, value_name = "HOW")]
        glyphs: GlyphsArg,

        /// CHEG: the position to search (FEN); without it the engine speaks
        /// UCI on standard input and output (CHEG §7.4).
        /// Example: --fen "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
        #[arg(long, value_name = "FEN", help_heading = "CHEG engine")]
        fen: Option<String>,

        /// CHEG: moves played from --fen first, in UCI form, blank-separated
        /// in one argument; the positions they pass through are the game's
        /// history (a draw where the search meets them again, CHEG §7.5).
        /// Example: --moves "e1f1 e5e4"
        #[arg(
            long,
            value_name = "MOVES",
            help_heading = "CHEG engine",
            allow_hyphen_values = true
        )]
        moves: Option<String>,

        /// CHEG: search depth in plies, 1-20 (default 4).
        #[arg(long, value_name = "N", help_heading = "CHEG engine")]
        depth: Option<String>,

        /// CHEG: print the number of leaf nodes of the legal move tree to
        /// depth N instead of searching.
        #[arg(long, value_name = "N", help_heading = "CHEG engine")]
        perft: Option<String>,

        /// CHEG: search without the endgame program, to see what it adds.
        #[arg(long, help_heading = "CHEG engine")]
        no_endgame: bool,
    },
    /// Serve the Language Server Protocol on standard input and output, for
    /// editors: diagnostics as you type, hover help from the references,
    /// completion, go to definition, references, rename, outline, semantic
    /// colouring, folding, quick fixes and formatting, for .icp, .fin and
    /// .cheg files. docs/editors.md sets it up in Neovim, Helix and VS Code.
    /// Example (Neovim): vim.lsp.start({ name = "icp2c", cmd = { "icp2c", "lsp" } })
    Lsp,
    /// Lay programs out in their language's one canonical layout, in place,
    /// as rustfmt does (each language reference's "Formatting" says how);
    /// `-` reads standard input and writes standard output. Only a program
    /// that checks is formatted (else its diagnostics, exit 2, the file
    /// untouched); no line is added or removed, and the byte-order mark and
    /// line ends (LF or CRLF) are kept. Example: icp2c fmt examples/*.icp
    Fmt {
        /// The programs to format (`-`: standard input to standard output).
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,

        /// Write nothing: exit 0 when every program is formatted, 1 with a
        /// unified diff on standard output when one is not.
        /// Example: icp2c fmt --check examples/*.fin
        #[arg(long)]
        check: bool,

        /// The source language, when the file extension does not say.
        #[arg(long, value_enum)]
        lang: Option<LangArg>,

        /// InfChessPro: label the statements START, START+STEP, … and rewrite
        /// every literal jump target to match. Refused (exit 2) for a program
        /// with a jump that reads its target from input (`?*`, `!*`).
        /// Example: icp2c fmt --renumber 10,10 prog.icp
        #[arg(long, value_name = "START,STEP", value_parser = parse_renumber)]
        renumber: Option<Renumber>,
    },
}

/// `--glyphs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GlyphsArg {
    /// Unicode when the locale is UTF-8, else letters.
    Auto,
    /// Unicode chess symbols.
    Unicode,
    /// Letters.
    Letters,
}

impl GlyphsArg {
    /// The glyphs to draw with; `auto` reads the locale (the first of
    /// LC_ALL, LC_CTYPE and LANG that is set and not empty).
    fn resolve(self) -> Glyphs {
        match self {
            GlyphsArg::Unicode => Glyphs::Unicode,
            GlyphsArg::Letters => Glyphs::Letters,
            GlyphsArg::Auto => {
                let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
                    .iter()
                    .filter_map(|v| std::env::var(v).ok())
                    .find(|v| !v.is_empty())
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                if locale.contains("utf-8") || locale.contains("utf8") {
                    Glyphs::Unicode
                } else {
                    Glyphs::Letters
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Target {
    /// One C99 file needing only libc.
    C,
    /// One Rust file (or a crate with --crate) needing only std.
    Rust,
}

impl From<Target> for CodegenTarget {
    fn from(target: Target) -> CodegenTarget {
        match target {
            Target::C => CodegenTarget::C,
            Target::Rust => CodegenTarget::Rust,
        }
    }
}

/// `--lang NAME`: every language of the driver's table, named by its
/// extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LangArg(Language);

impl ValueEnum for LangArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::LazyLock<Vec<LangArg>> =
            std::sync::LazyLock::new(|| Language::ALL.iter().copied().map(LangArg).collect());
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(
            clap::builder::PossibleValue::new(self.0.extension()).help(format!(
                "{} (.{}).",
                self.0.name(),
                self.0.extension()
            )),
        )
    }
}

/// Exit status for rejected programs and IO failures.
const REJECTED: u8 = 2;

/// `icp2c lsp`: the language server on standard input and output, until
/// the editor says `exit`; a broken connection is reported, exit 1. When
/// the server stops on a broken connection, the reason is the IO
/// threads' (a malformed message, standard input or output failing): it
/// is waited for (a second at most, as a reader may still be blocked on
/// an open input) and reported rather than the channel's own error.
fn serve_lsp() -> ExitCode {
    let (connection, threads) = lsp_server::Connection::stdio();
    let served = icp2c::lsp::serve(&connection);
    drop(connection);
    let io = match served {
        Ok(()) => threads.join().map_err(|e| e.to_string()),
        Err(stopped) => {
            let (sender, joined) = std::sync::mpsc::channel();
            std::thread::spawn(move || sender.send(threads.join()));
            match joined.recv_timeout(std::time::Duration::from_secs(1)) {
                Ok(Err(io)) => Err(io.to_string()),
                _ => Err(stopped.to_string()),
            }
        }
    };
    match io {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error(&format!("language server: {e}"));
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = COLOUR.set(colour_wanted(cli.color));
    oom::on_failure(error_line("out of memory"), REJECTED, false);
    match cli.command {
        Some(Command::Completions { shell }) => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut command, "icp2c", &mut out);
            write_stdout(&out)
        }
        Some(Command::Man) => match manual::render(<Cli as clap::CommandFactory>::command()) {
            Ok(out) => write_stdout(&out),
            Err(e) => {
                error(&format!("cannot render the manual page: {e}"));
                ExitCode::from(REJECTED)
            }
        },
        Some(Command::Run {
            file,
            max_steps,
            lang,
            input,
            trace,
            board,
            glyphs,
            fen,
            moves,
            depth,
            perft,
            no_endgame,
        }) => {
            // The engine options, in the engine's own command-line form
            // (CHEG §7.4); a language without them refuses any.
            let mut args = Vec::new();
            let options = [
                ("--fen", fen),
                ("--moves", moves),
                ("--depth", depth),
                ("--perft", perft),
            ];
            for (flag, value) in options {
                if let Some(value) = value {
                    args.extend([flag.to_string(), value]);
                }
            }
            if no_endgame {
                args.push("--no-endgame".to_string());
            }
            run(
                &file,
                input.as_deref(),
                RunOptions {
                    max_steps,
                    args,
                    trace,
                    board,
                    glyphs: glyphs.resolve(),
                    no_opt: cli.no_opt || cli.opt_level == 0,
                    source_name: String::new(),
                    unbuffered: false,
                },
                lang,
            )
        }
        Some(Command::Lsp) => serve_lsp(),
        Some(Command::Fmt {
            files,
            check,
            lang,
            renumber,
        }) => format_files(&files, check, lang, FormatOptions { renumber }),
        None => match cli.file.as_slice() {
            [file] => compile(&cli, file),
            [_, _, ..] => {
                let names: Vec<String> = cli.file.iter().map(|f| f.display().to_string()).collect();
                error(&format!(
                    "one program at a time: got {} files ({}); run icp2c once per file",
                    names.len(),
                    names.join(", ")
                ));
                ExitCode::from(REJECTED)
            }
            [] => {
                error("no program given");
                eprintln!(
                    "\nUsage: icp2c [OPTIONS] <FILE>\n       icp2c run <FILE>\n       icp2c fmt [--check] <FILE>...\n\nFor more information, try '--help'."
                );
                ExitCode::from(REJECTED)
            }
        },
    }
}

/// Writes `bytes` to standard output; a closed pipe ends quietly.
fn write_stdout(bytes: &[u8]) -> ExitCode {
    let mut stdout = icp_stdio::open(1, || io::stdout().lock());
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            error(&format!("cannot write standard output: {e}"));
            ExitCode::from(REJECTED)
        }
    }
}

/// A source file read and decoded, with the name diagnostics show.
struct Source {
    name: String,
    stem: String,
    text: String,
}

/// The name diagnostics give the program at `path`: `<stdin>` for `-`.
fn source_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads and decodes `path` (`-`: standard input); prints a diagnostic and
/// returns `None` when that fails.
fn load(path: &Path) -> Option<Source> {
    let name = source_name(path);
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        if let Err(e) = icp_stdio::open(0, || io::stdin().lock()).read_to_end(&mut bytes) {
            error(&format!("cannot read the program from standard input: {e}"));
            return None;
        }
        bytes
    } else {
        match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                error(&format!("cannot read {}: {e}", path.display()));
                return None;
            }
        }
    };
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| s != "-")
        .unwrap_or_else(|| "program".to_string());
    match source::decode(&bytes) {
        Ok(text) => Some(Source { name, stem, text }),
        Err((text, diagnostics)) => {
            eprint!("{}", render(&name, &text, &diagnostics));
            None
        }
    }
}

/// The language: `--lang`, else the file's extension. A file whose
/// extension names no language is read as the first language of the table
/// (InfChessPro), with a note saying how to choose another.
fn language(path: &Path, lang: Option<LangArg>) -> Language {
    match lang {
        Some(LangArg(language)) => language,
        None => {
            let language = Language::from_path(path);
            let known = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| Language::from_name(e).is_some());
            if !known && path.as_os_str() != "-" {
                let names: Vec<&str> = Language::ALL.iter().map(|l| l.extension()).collect();
                note(&format!(
                    "{}: the extension names no language, so it is read as {}; choose another with --lang {}",
                    path.display(),
                    language.name(),
                    names.join("|")
                ));
            }
            language
        }
    }
}

/// Checks a program in the language `--lang` names, else in the one
/// [`language`] guesses. When the guess came from nothing (standard input,
/// or an extension that names no language) and the program is rejected in
/// it but accepted in another language, one error says which `--lang` to
/// use, instead of a diagnostic per line of a program in another language.
/// `warnings`: print the program's warnings (`fmt` does not).
fn check_as(src: &Source, path: &Path, lang: Option<LangArg>, warnings: bool) -> Option<Program> {
    let language = language(path, lang);
    let guessed = lang.is_none()
        && (path.as_os_str() == "-"
            || path
                .extension()
                .and_then(|e| e.to_str())
                .is_none_or(|e| Language::from_name(e).is_none()));
    if guessed && let Err(errors) = driver::check(language, &src.text) {
        // The other languages, by how well the program reads in them.
        let mut others: Vec<(usize, Language)> = Language::ALL
            .iter()
            .copied()
            .filter(|&other| other != language)
            .map(|other| {
                (
                    driver::check(other, &src.text).err().map_or(0, |e| e.len()),
                    other,
                )
            })
            .collect();
        others.sort_by_key(|&(errors, _)| errors);
        match others.first() {
            Some(&(0, other)) => {
                error(&format!(
                    "{} is not an {} program, but it reads as a {} program: use --lang {}",
                    src.name,
                    language.name(),
                    other.name(),
                    other.extension()
                ));
                return None;
            }
            // Far fewer errors in another language: the program was
            // written in it, and its own diagnostics are the useful ones.
            Some(&(n, other)) if errors.len() >= 3 && n * 3 <= errors.len() => {
                error(&format!(
                    "{} is not an {} program ({} errors); it looks like a {} program with {n} error{}: use --lang {} to see {}",
                    src.name,
                    language.name(),
                    errors.len(),
                    other.name(),
                    if n == 1 { "" } else { "s" },
                    other.extension(),
                    if n == 1 { "it" } else { "them" }
                ));
                return None;
            }
            _ => {}
        }
    }
    check(src, language, warnings)
}

/// Checks a program in its language, printing its warnings (when
/// `warnings` says), or its errors and `None`.
fn check(src: &Source, language: Language, warnings: bool) -> Option<Program> {
    match driver::check(language, &src.text) {
        Ok(checked) => {
            if warnings {
                print_diagnostics(src, &checked.warnings);
            }
            Some(checked.program)
        }
        Err(errors) => {
            print_diagnostics(src, &errors);
            let n = errors.len();
            error(&format!(
                "{} rejected ({} program): {n} error{}",
                src.name,
                language.name(),
                if n == 1 { "" } else { "s" }
            ));
            None
        }
    }
}

fn print_diagnostics(src: &Source, diagnostics: &[Diagnostic]) {
    if !diagnostics.is_empty() {
        eprint!("{}", render(&src.name, &src.text, diagnostics));
    }
}

/// The target: `--target`, else `-o`'s extension (`.rs` Rust, `.c` C), else
/// C; `--crate` means Rust. A `--target` that contradicts `-o`'s extension
/// or `--crate` is an error.
fn target(cli: &Cli) -> Result<Target, String> {
    for (given, what) in [
        (cli.as_crate, "--crate writes a Rust crate"),
        (cli.module, "--module writes a Rust module"),
    ] {
        if given {
            return match cli.target {
                Some(Target::C) => Err(format!(
                    "{what}, so it cannot go with --target c: drop one of them"
                )),
                _ => Ok(Target::Rust),
            };
        }
    }
    let from_output = match cli.output.as_ref().and_then(|o| o.extension()) {
        Some(ext) if ext == "rs" => Some(Target::Rust),
        Some(ext) if ext == "c" => Some(Target::C),
        _ => None,
    };
    match (cli.target, from_output) {
        (Some(t), Some(o)) if t != o => Err(format!(
            "--target {} contradicts -o {}: write {} to a .{} file, or drop --target",
            if t == Target::C { "c" } else { "rust" },
            cli.output
                .as_ref()
                .map_or(String::new(), |o| o.display().to_string()),
            if t == Target::C { "C" } else { "Rust" },
            if t == Target::C { "c" } else { "rs" },
        )),
        (Some(t), _) => Ok(t),
        (None, Some(o)) => Ok(o),
        (None, None) => Ok(Target::C),
    }
}

/// True when `output` is the same file as `input` (same device and inode,
/// so through links too): writing it would destroy the program.
fn same_file(input: &Path, output: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(input), std::fs::metadata(output)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    matches!(
        (std::fs::canonicalize(input), std::fs::canonicalize(output)),
        (Ok(a), Ok(b)) if a == b
    )
}

fn compile(cli: &Cli, path: &Path) -> ExitCode {
    let target = match target(cli) {
        Ok(target) => target,
        Err(message) => {
            error(&message);
            return ExitCode::from(REJECTED);
        }
    };
    if cli.verify && cli.output.as_ref().is_none_or(|o| o.as_os_str() == "-") {
        error(
            "--verify compares with the file named by -o: give it, e.g. icp2c prog.icp -o prog.c --verify",
        );
        return ExitCode::from(REJECTED);
    }
    if let Some(out) = cli.output.as_ref().filter(|o| o.as_os_str() != "-")
        && path.as_os_str() != "-"
        && same_file(path, out)
    {
        error(&format!(
            "-o {} is the program itself: refusing to overwrite it (choose another output)",
            out.display()
        ));
        return ExitCode::from(REJECTED);
    }
    compiling(path);
    let Some(src) = load(path) else {
        return ExitCode::from(REJECTED);
    };
    let Some(program) = check_as(&src, path, cli.lang, true) else {
        return ExitCode::from(REJECTED);
    };
    let program = if cli.no_opt || cli.opt_level == 0 {
        program.without_optimiser()
    } else {
        program
    };
    if cli.check {
        return ExitCode::SUCCESS;
    }
    if cli.as_crate {
        let dir = cli.output.clone().unwrap_or_default();
        if dir.as_os_str() == "-" {
            error("--crate writes a folder: give its path with -o, not `-`");
            return ExitCode::from(REJECTED);
        }
        let files = match program.emit(CodegenTarget::Rust, Layout::Crate, &src.name, &src.stem) {
            Ok(files) => files,
            Err(unsupported) => {
                error(&unsupported.to_string());
                return ExitCode::from(REJECTED);
            }
        };
        if cli.verify {
            let pairs: Vec<(PathBuf, &str)> = files
                .iter()
                .map(|f| (dir.join(&f.path), f.contents.as_str()))
                .collect();
            return verify(&pairs, Some(&dir));
        }
        let written = write_crate(&dir, &files);
        return match written {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                error(&message);
                ExitCode::from(REJECTED)
            }
        };
    }
    let layout = if cli.module {
        Layout::Module
    } else {
        Layout::File
    };
    let text = match program.emit(target.into(), layout, &src.name, &src.stem) {
        Ok(mut files) => files.pop().map(|f| f.contents).unwrap_or_default(),
        Err(unsupported) => {
            error(&unsupported.to_string());
            return ExitCode::from(REJECTED);
        }
    };
    if let Some(out) = cli.output.as_ref().filter(|_| cli.verify) {
        return verify(&[(out.clone(), text.as_str())], None);
    }
    let written = match cli.output.as_ref().filter(|out| out.as_os_str() != "-") {
        Some(out) => {
            std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))
        }
        None => {
            let mut stdout = icp_stdio::open(1, || io::stdout().lock());
            match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                // The reader has seen enough (`icp2c prog.icp | head`):
                // stop quietly, as `cat` does.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
                other => other.map_err(|e| format!("cannot write standard output: {e}")),
            }
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            error(&message);
            ExitCode::from(REJECTED)
        }
    }
}

/// `fmt --renumber START,STEP`: two integers, START 0 or more, STEP 1 or
/// more.
fn parse_renumber(text: &str) -> Result<Renumber, String> {
    let usage =
        "expected START,STEP: two integers, START 0 or more and STEP 1 or more (e.g. 10,10)";
    let (start, step) = text.split_once(',').ok_or(usage)?;
    let number = |s: &str| s.trim().parse::<i64>().map_err(|_| usage.to_string());
    let (start, step) = (number(start)?, number(step)?);
    if start < 0 || step < 1 {
        return Err(usage.into());
    }
    Ok(Renumber { start, step })
}

/// `icp2c fmt`: formats each file (`-`: standard input to standard
/// output), or with `check` compares. Exit 2 when a file could not be
/// read, checked or written (the others are still done), else 1 when
/// `check` found a file not formatted, else 0.
fn format_files(
    files: &[PathBuf],
    check: bool,
    lang: Option<LangArg>,
    options: FormatOptions,
) -> ExitCode {
    let mut status = 0u8;
    let mut unformatted = 0usize;
    for path in files {
        match format_file(path, check, lang, &options) {
            Ok(true) => {}
            Ok(false) => {
                unformatted += 1;
                status = status.max(1);
            }
            Err(()) => status = REJECTED,
        }
    }
    if unformatted > 0 {
        error(&format!(
            "{unformatted} of {} program{} not formatted (the diff is on standard output); `icp2c fmt` without --check formats {}",
            files.len(),
            if files.len() == 1 { " is" } else { "s are" },
            if unformatted == 1 { "it" } else { "them" },
        ));
    }
    ExitCode::from(status)
}

/// Formats one program: `Ok(true)` when it was formatted already (or is
/// now), `Ok(false)` when `check` found it not formatted (its diff
/// printed), `Err` when it could not be read, checked or written
/// (reported).
fn format_file(
    path: &Path,
    check: bool,
    lang: Option<LangArg>,
    options: &FormatOptions,
) -> Result<bool, ()> {
    let stdin = path.as_os_str() == "-";
    let src = load(path).ok_or(())?;
    let program = check_as(&src, path, lang, false).ok_or(())?;
    let language = program.language();
    if options.renumber.is_some() && language != Language::InfChessPro {
        error(&format!(
            "--renumber relabels InfChessPro statements: {} is a {} program, which has no labels",
            src.name,
            language.name()
        ));
        return Err(());
    }
    let formatted = driver::format_with(language, &src.text, options).map_err(|errors| {
        print_diagnostics(&src, &errors);
    })?;
    let same = formatted == src.text;
    if check {
        if !same {
            let diff = similar::TextDiff::from_lines(src.text.as_str(), formatted.as_str());
            let shown = diff
                .unified_diff()
                .context_radius(3)
                .header(&src.name, &format!("{} (formatted)", src.name))
                .to_string();
            write_out(shown.as_bytes())?;
        }
        return Ok(same);
    }
    if stdin {
        write_out(formatted.as_bytes())?;
    } else if !same {
        std::fs::write(path, formatted).map_err(|e| {
            error(&format!("cannot write {}: {e}", path.display()));
        })?;
    }
    Ok(true)
}

/// Writes `bytes` to standard output; a closed pipe is not an error (the
/// reader has seen enough), any other failure is reported.
fn write_out(bytes: &[u8]) -> Result<(), ()> {
    let mut stdout = icp_stdio::open(1, || io::stdout().lock());
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            error(&format!("cannot write standard output: {e}"));
            Err(())
        }
        _ => Ok(()),
    }
}

/// `--verify`: compares each file on disk with what icp2c generates for
/// it, `folder` being the crate's folder with `--crate`. Exit 0 when all
/// are equal; 1 when any differs (a unified diff on standard output, `---
/// PATH` on disk, `+++ PATH` as generated) or is missing (one line on
/// standard error per missing file, or for the whole crate folder when it
/// is missing); 2 when one cannot be read.
fn verify(files: &[(PathBuf, &str)], folder: Option<&Path>) -> ExitCode {
    const WRITE_IT: &str = "run without --verify to write it";
    if let Some(folder) = folder
        && !folder.exists()
    {
        error(&format!("{} does not exist: {WRITE_IT}", folder.display()));
        return ExitCode::from(1);
    }
    let mut diffs = String::new();
    let mut missing = Vec::new();
    let mut stale = 0;
    for (path, generated) in files {
        let shown = path.display().to_string();
        let old = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                missing.push(shown);
                continue;
            }
            Err(e) => {
                error(&format!("cannot read {shown}: {e}"));
                return ExitCode::from(REJECTED);
            }
        };
        if old != *generated {
            stale += 1;
            let diff = similar::TextDiff::from_lines(old.as_str(), *generated);
            diffs.push_str(
                &diff
                    .unified_diff()
                    .context_radius(3)
                    .header(&shown, &format!("{shown} (as icp2c generates it now)"))
                    .to_string(),
            );
        }
    }
    for shown in &missing {
        error(&format!("{shown} does not exist: {WRITE_IT}"));
    }
    if diffs.is_empty() {
        return ExitCode::from(if missing.is_empty() { 0 } else { 1 });
    }
    let mut stdout = icp_stdio::open(1, || io::stdout().lock());
    match stdout
        .write_all(diffs.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => error(&format!(
            "{stale} of {} generated file{} differ{} from what icp2c generates now (the diff is on standard output)",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            if stale == 1 { "s" } else { "" },
        )),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            error(&format!("cannot write standard output: {e}"));
            return ExitCode::from(REJECTED);
        }
    }
    ExitCode::from(1)
}

/// Writes a generated crate into `dir`, refusing a non-empty folder that is
/// not an earlier icp2c crate (its `Cargo.toml` starts with our marker).
fn write_crate(dir: &Path, files: &[GeneratedFile]) -> Result<(), String> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(format!("{} exists and is not a folder", dir.display()));
        }
        let empty = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .next()
            .is_none();
        let ours = std::fs::read_to_string(dir.join("Cargo.toml"))
            .is_ok_and(|t| t.starts_with(CRATE_MARKER));
        if !empty && !ours {
            return Err(format!(
                "{} is not empty and is not a crate generated by icp2c; refusing to overwrite it (choose another -o folder)",
                dir.display()
            ));
        }
    }
    for file in files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.contents)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn run(
    path: &Path,
    input_file: Option<&Path>,
    options: RunOptions,
    lang: Option<LangArg>,
) -> ExitCode {
    compiling(path);
    let Some(src) = load(path) else {
        return ExitCode::from(REJECTED);
    };
    let Some(program) = check_as(&src, path, lang, true) else {
        return ExitCode::from(REJECTED);
    };
    // Taken by value (`Send`): a language may read it on a thread of its
    // own while it works (a CHEG engine's `stop` during a search).
    let input: Box<dyn io::BufRead + Send> = match input_file {
        None => Box::new(icp_stdio::open(0, || {
            BufReader::with_capacity(1 << 16, io::stdin())
        })),
        Some(file) => match std::fs::File::open(file) {
            Ok(f) => Box::new(BufReader::with_capacity(1 << 16, f)),
            Err(e) => {
                error(&format!("cannot read {}: {e}", file.display()));
                return ExitCode::from(REJECTED);
            }
        },
    };
    let mut output = icp_stdio::open(1, || io::stdout().lock());
    let mut errors = io::stderr().lock();
    let options = RunOptions {
        source_name: src.name.clone(),
        ..options
    };
    // While the program runs, memory runs out as in its generated
    // programs: InfChessPro's and Finvara's runtimes report it as their
    // runtime error (the first failed allocation is theirs), and what they
    // cannot attribute, or CHEG's engine, ends with `error: memory
    // exhausted` and status 1 ([`oom`]).
    oom::on_failure(
        error_line("memory exhausted"),
        1,
        program.language().run_reports_memory_exhaustion(),
    );
    match program.run_live(input, &mut output, &mut errors, &options) {
        Ok(outcome) => report(&outcome),
        Err(UsageError(message)) => {
            error(&message);
            ExitCode::from(REJECTED)
        }
    }
}

fn report(outcome: &Outcome) -> ExitCode {
    match outcome {
        Outcome::Halted | Outcome::Reported(_) => {}
        Outcome::RuntimeError(line) => eprintln!("{line}"),
        Outcome::StepLimit(steps) => error(&format!(
            "stopped after {steps} steps (--max-steps); the program did not end by itself"
        )),
    }
    ExitCode::from(outcome.exit_status() as u8)
}
