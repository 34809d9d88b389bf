//! The one place that knows every language: check a source text in the
//! language it is written in, then interpret it or hand it to a back end.
//!
//! `main.rs` (the only code that does IO) talks to this module alone. Every
//! language implements [`Lang`] in its folder under `src/lang/`; the
//! `languages!` table below is the list of them, so adding a language
//! is one new folder and one line in that table: the CLI (`--lang`), the
//! crate writer and the test harness take their list from
//! [`Language::ALL`]. Like the rest of the library it does no IO of its own:
//! the interpreter reads and writes only the streams it is given.

use crate::codegen::sections::Selected;
use crate::codegen::{self, EmitRequest, Layout, Target, Unsupported};
use crate::common::debug::{Debugger, Stepper};
use crate::common::diagnostic::Diagnostic;
use crate::common::outline::Outline;
use crate::common::watch::Recording;
use crate::lang::{self, Checked, FormatOptions, Lang, RunOptions, UsageError};
use crate::{GeneratedFile, Outcome};
use std::any::Any;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::Path;

/// Declares [`Language`], one variant per implementation of [`Lang`], and
/// the dispatch from a variant to its implementation.
macro_rules! languages {
    ($($(#[$doc:meta])* $variant:ident => $imp:ty,)+) => {
        /// A source language icp2c compiles.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Language {
            $($(#[$doc])* $variant,)+
        }

        impl Language {
            /// Every language, in the order of the table; the first is the
            /// default when an extension says nothing.
            pub const ALL: &'static [Language] = &[$(Language::$variant),+];

            /// The language's name as users know it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Language::$variant => <$imp as Lang>::NAME,)+
                }
            }

            /// The file extension that selects the language, without the
            /// dot; also its name for `--lang`.
            pub fn extension(self) -> &'static str {
                match self {
                    $(Language::$variant => <$imp as Lang>::EXTENSION,)+
                }
            }

            /// [`Lang::RUN_REPORTS_MEMORY_EXHAUSTION`] of the language:
            /// whether its interpreter reports running out of memory as
            /// its own runtime error.
            pub fn run_reports_memory_exhaustion(self) -> bool {
                match self {
                    $(Language::$variant => <$imp as Lang>::RUN_REPORTS_MEMORY_EXHAUSTION,)+
                }
            }

            fn check_source(self, source: &str) -> Result<Checked<Program>, Vec<Diagnostic>> {
                match self {
                    $(Language::$variant => check_as::<$imp>(self, source),)+
                }
            }

            /// [`Lang::outline`] of the language: what an editor shows
            /// of `source`.
            pub fn outline(self, source: &str) -> Outline {
                match self {
                    $(Language::$variant => <$imp as Lang>::outline(source),)+
                }
            }

            fn format_lines(
                self,
                source: &str,
                options: &FormatOptions,
            ) -> Result<Vec<String>, Vec<Diagnostic>> {
                match self {
                    $(Language::$variant => <$imp as Lang>::format(source, options),)+
                }
            }
        }
    };
}

languages! {
    /// InfChessPro (`.icp`), contract `spec/infchesspro.md`.
    InfChessPro => lang::icp::InfChessPro,
    /// Finvara (`.fin`), contract `spec/finvara.md`.
    Finvara => lang::finvara::Finvara,
    /// CHEG (`.cheg`), contract `spec/cheg.md`: programs become chess engines.
    Cheg => lang::cheg::Cheg,
}

impl Language {
    /// The language a file name's extension says (case-sensitive); every
    /// other name (none, `-`) is the first language of the table,
    /// InfChessPro, the project's first language.
    pub fn from_path(path: &Path) -> Language {
        let ext = path.extension().and_then(|e| e.to_str());
        Language::ALL
            .iter()
            .copied()
            .find(|l| Some(l.extension()) == ext)
            .unwrap_or(Language::ALL[0])
    }

    /// The language whose `--lang` name (its extension) is `name`.
    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL
            .iter()
            .copied()
            .find(|l| l.extension() == name)
    }
}

/// A checked program of any language: its IR behind the language's
/// [`Lang`] implementation.
pub struct Program {
    language: Language,
    inner: Box<dyn AnyProgram>,
    /// `-O0`: generate without the optimiser ([`Program::without_optimiser`]).
    no_opt: bool,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("language", &self.language)
            .field("ir", &self.inner)
            .finish()
    }
}

/// A language's IR with its language's operations, as an object.
trait AnyProgram: fmt::Debug + Send + Sync {
    fn run(
        &self,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError>;
    fn record(&self, input: &mut dyn BufRead, options: &RunOptions) -> Option<Recording>;
    fn debugger<'a>(
        &'a self,
        input: Box<dyn BufRead + 'a>,
        output: Box<dyn Write + 'a>,
        options: &RunOptions,
        keep: usize,
    ) -> Option<Debugger<Box<dyn Stepper + 'a>>>;
    fn run_live(
        &self,
        input: Box<dyn BufRead + Send>,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError>;
    fn emit(&self, request: &EmitRequest<'_>) -> Result<Vec<GeneratedFile>, Unsupported>;
    fn runtime(&self, target: Target, no_opt: bool) -> Result<Selected, Unsupported>;
    fn ir(&self) -> &dyn Any;
}

struct Held<L: Lang>(L::Program);

impl<L: Lang> fmt::Debug for Held<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<L: Lang + 'static> AnyProgram for Held<L> {
    fn run(
        &self,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        L::run(&self.0, input, output, errors, options)
    }

    fn record(&self, input: &mut dyn BufRead, options: &RunOptions) -> Option<Recording> {
        L::record(&self.0, input, options)
    }

    fn debugger<'a>(
        &'a self,
        input: Box<dyn BufRead + 'a>,
        output: Box<dyn Write + 'a>,
        options: &RunOptions,
        keep: usize,
    ) -> Option<Debugger<Box<dyn Stepper + 'a>>> {
        L::debugger(&self.0, input, output, options, keep)
    }

    fn run_live(
        &self,
        input: Box<dyn BufRead + Send>,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        L::run_live(&self.0, input, output, errors, options)
    }

    fn emit(&self, request: &EmitRequest<'_>) -> Result<Vec<GeneratedFile>, Unsupported> {
        L::emit(&self.0, request)
    }

    fn runtime(&self, target: Target, no_opt: bool) -> Result<Selected, Unsupported> {
        L::runtime(&self.0, target, no_opt)
    }

    fn ir(&self) -> &dyn Any {
        &self.0
    }
}

fn check_as<L: Lang + 'static>(
    language: Language,
    source: &str,
) -> Result<Checked<Program>, Vec<Diagnostic>> {
    let by_position = |d: &Diagnostic| (d.primary.span.start, d.primary.span.end);
    match L::check(source) {
        Ok(Checked {
            program,
            mut warnings,
        }) => {
            warnings.sort_by_key(by_position);
            Ok(Checked {
                program: Program {
                    language,
                    inner: Box::new(Held::<L>(program)),
                    no_opt: false,
                },
                warnings,
            })
        }
        Err(mut errors) => {
            errors.sort_by_key(by_position);
            Err(errors)
        }
    }
}

/// Parses, validates and lowers `source` as `language`. Errors: every
/// diagnostic of the program at once; errors and warnings are sorted by
/// position (start, then end) whatever the language.
pub fn check(language: Language, source: &str) -> Result<Checked<Program>, Vec<Diagnostic>> {
    language.check_source(source)
}

/// `source` laid out in `language`'s one canonical layout, as `icp2c
/// fmt` writes it ([`format_with`] without options).
pub fn format(language: Language, source: &str) -> Result<String, Vec<Diagnostic>> {
    format_with(language, source, &FormatOptions::default())
}

/// `source` laid out in `language`'s one canonical layout ([`Lang::format`]),
/// with `options` (`--renumber`). Only a program that checks is formatted:
/// errors are its diagnostics as [`check`] gives them (every one, sorted),
/// or those of an option the program refuses. The result keeps the
/// source's lines (none added or removed but blank lines at the end), its
/// line ends (`\r\n` or `\n`, as its first line ends) and a leading
/// byte-order mark, and checks to the same program; formatting it again
/// changes nothing. Pure: a language server may call it on any text.
pub fn format_with(
    language: Language,
    source: &str,
    options: &FormatOptions,
) -> Result<String, Vec<Diagnostic>> {
    check(language, source)?;
    let lines = language.format_lines(source, options)?;
    Ok(crate::common::format::assemble(source, lines))
}

impl Program {
    /// The program generated and run as written, without the language's
    /// optimiser (`-O0`, issue 13): for debugging, and for tests that
    /// compare optimised with unoptimised runs.
    pub fn without_optimiser(mut self) -> Program {
        self.no_opt = true;
        self
    }

    /// The program's language.
    pub fn language(&self) -> Language {
        self.language
    }

    /// The language's IR, when `L` is the program's language.
    pub fn ir<L: Lang + 'static>(&self) -> Option<&L::Program> {
        self.inner.ir().downcast_ref::<L::Program>()
    }

    /// Interprets the program: `input` is its standard input, `output` its
    /// standard output, `errors` its standard error (for what it reports
    /// while it runs). `Err`: options the language refuses (nothing ran).
    pub fn run_with(
        &self,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        let options = RunOptions {
            no_opt: options.no_opt || self.no_opt,
            ..options.clone()
        };
        self.inner.run(input, output, errors, &options)
    }

    /// [`Program::run_with`] on a live input taken by value (standard
    /// input): a language that reads its input while it works may read it
    /// on a thread of its own (a CHEG engine answers `stop` and `isready`
    /// during a search, CHEG §7.5); the others read it as `run_with` does.
    pub fn run_live(
        &self,
        input: Box<dyn BufRead + Send>,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        let options = RunOptions {
            no_opt: options.no_opt || self.no_opt,
            ..options.clone()
        };
        self.inner.run_live(input, output, errors, &options)
    }

    /// Interprets the program with no language options: `max_steps`
    /// bounds the steps (statements in InfChessPro, moves in Finvara).
    pub fn run(
        &self,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        max_steps: Option<u64>,
    ) -> Outcome {
        let options = RunOptions {
            max_steps,
            no_opt: self.no_opt,
            ..RunOptions::default()
        };
        match self
            .inner
            .run(input, output, &mut std::io::sink(), &options)
        {
            Ok(outcome) => outcome,
            Err(UsageError(message)) => Outcome::RuntimeError(format!("error: {message}")),
        }
    }

    /// Runs the program step by step for a board view, as `icp2c run
    /// --trace` with `options` (`max_steps`, `glyphs`) runs it, recording
    /// the board at the start and every step's changes, trace line and
    /// output ([`crate::common::watch`]). `None` for a language with no
    /// board to watch (CHEG: its `--trace` through [`Program::run_with`]
    /// shows the statements run instead).
    pub fn record(&self, input: &mut dyn BufRead, options: &RunOptions) -> Option<Recording> {
        self.inner.record(input, options)
    }

    /// The program under a debugger ([`crate::common::debug`]), before its
    /// first step: it runs as [`Program::record`] runs it (`options.glyphs`
    /// for its trace lines), a step at a time when asked, reading `input`
    /// and writing `output`, and keeps its last `keep` steps for stepping
    /// back. `None` for a language with no board to step through (CHEG).
    pub fn debugger<'a>(
        &'a self,
        input: Box<dyn BufRead + 'a>,
        output: Box<dyn Write + 'a>,
        options: &RunOptions,
        keep: usize,
    ) -> Option<Debugger<Box<dyn Stepper + 'a>>> {
        self.inner.debugger(input, output, options, keep)
    }

    /// Generates `target` laid out as `layout`. The generated header names
    /// the program by the last component of `source_name` alone
    /// ([`codegen::file_name`]: `beer.icp` whether it was given as
    /// `./beer.icp` or `/home/…/beer.icp`; `<stdin>` stays as it is), so the
    /// output is the same bytes from any folder; a crate's package is named
    /// after `stem`.
    pub fn emit(
        &self,
        target: Target,
        layout: Layout,
        source_name: &str,
        stem: &str,
    ) -> Result<Vec<GeneratedFile>, Unsupported> {
        self.inner.emit(&EmitRequest {
            target,
            layout,
            source_name: codegen::file_name(source_name),
            stem,
            no_opt: self.no_opt,
        })
    }

    /// The runtime this program's generated `target` carries (optimised
    /// as [`Program::emit`] generates it): the text pasted into a file (in
    /// a crate, `src/icp_rt.rs` and the module inlined in a file) and its
    /// sections, the same for every layout. Errors: no back end for
    /// `target`.
    pub fn runtime(&self, target: Target) -> Result<Selected, Unsupported> {
        self.inner.runtime(target, self.no_opt)
    }

    /// One file of `target` (the runtime pasted in).
    pub fn emit_file(&self, target: Target, source_name: &str) -> Result<String, Unsupported> {
        let mut files = self.emit(target, Layout::File, source_name, "")?;
        Ok(files.pop().map(|f| f.contents).unwrap_or_default())
    }

    /// One standalone C99 file needing only libc. Panics if the language
    /// has no C back end; [`Program::emit_file`] asks instead.
    pub fn emit_c(&self, source_name: &str) -> String {
        self.emit_file(Target::C, source_name)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// One self-contained Rust file that `rustc --edition 2021` builds.
    /// Panics if the language has no Rust back end.
    pub fn emit_rust(&self, source_name: &str) -> String {
        self.emit_file(Target::Rust, source_name)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A Cargo crate: `Cargo.toml` (package named after `stem`, made a
    /// valid crate name, first line [`crate::codegen::cargo::CRATE_MARKER`]),
    /// `.gitignore`, `src/lib.rs` (the program as a library), `src/main.rs`
    /// (its binary) and `src/icp_rt.rs` (the runtime). Paths are relative
    /// to the crate's folder. Panics if the language has no Rust back end.
    pub fn emit_crate(&self, source_name: &str, stem: &str) -> Vec<GeneratedFile> {
        self.emit(Target::Rust, Layout::Crate, source_name, stem)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::cargo::CRATE_MARKER;

    #[test]
    fn extension_picks_the_language() {
        assert_eq!(Language::from_path(Path::new("a.fin")), Language::Finvara);
        assert_eq!(
            Language::from_path(Path::new("a.icp")),
            Language::InfChessPro
        );
        assert_eq!(Language::from_path(Path::new("-")), Language::InfChessPro);
        assert_eq!(
            Language::from_path(Path::new("a.FIN.txt")),
            Language::InfChessPro
        );
        assert_eq!(Language::from_name("fin"), Some(Language::Finvara));
        assert_eq!(Language::from_name("cheg"), Some(Language::Cheg));
        assert_eq!(Language::from_path(Path::new("k.cheg")), Language::Cheg);
    }

    #[test]
    fn every_language_makes_a_crate_with_a_manifest_a_main_and_a_runtime() {
        let sources = [
            (Language::InfChessPro, "1. \"hi\"\n"),
            (
                Language::Finvara,
                "(k):\n+--+\n|kW|\n+--+\nTurn 1 W: k a1 checks turn 1\n",
            ),
        ];
        for (language, src) in sources {
            let checked = check(language, src).expect("valid program");
            let files = checked.program.emit_crate("t.src", "My Prog");
            let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            assert_eq!(paths[..2], ["Cargo.toml", ".gitignore"]);
            assert!(
                paths.ends_with(&["src/main.rs", "src/icp_rt.rs"]),
                "{paths:?}"
            );
            assert!(files[0].contents.starts_with(CRATE_MARKER));
            assert!(files[0].contents.contains("name = \"my_prog\""));
            let c_crate = checked.program.emit(Target::C, Layout::Crate, "t", "t");
            assert!(c_crate.is_err(), "{language:?}");
        }
    }

    #[test]
    fn the_ir_is_reached_through_its_language() {
        let checked = check(Language::InfChessPro, "1. \"hi\"\n").unwrap();
        assert!(checked.program.ir::<lang::icp::InfChessPro>().is_some());
        assert!(checked.program.ir::<lang::finvara::Finvara>().is_none());
    }

    #[test]
    fn languages_without_options_refuse_them() {
        let checked = check(Language::InfChessPro, "1. \"hi\"\n").unwrap();
        let options = RunOptions {
            args: vec!["--fen".into()],
            ..RunOptions::default()
        };
        let mut out = Vec::new();
        let r = checked
            .program
            .run_with(&mut &b""[..], &mut out, &mut std::io::sink(), &options);
        assert!(r.is_err() && out.is_empty());
    }

    #[test]
    fn each_language_rejects_the_other() {
        assert!(check(Language::Finvara, "1. ^\n").is_err());
        assert!(check(Language::InfChessPro, "(k):\n").is_err());
    }
}
