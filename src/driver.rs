//! The one place that knows every language: check a source text in the
//! language it is written in, then interpret it or hand it to a back end.
//!
//! `main.rs` (the only code that does IO) talks to this module alone, so a
//! new front end (CHEG, next) is one more [`Language`] variant and one more
//! [`Program`] variant here; the CLI, the crate writer and the test harness
//! stay as they are. Like the rest of the library it does no IO of its own:
//! the interpreter reads and writes only the streams it is given.

use crate::diagnostic::Diagnostic;
use crate::{GeneratedFile, Outcome, backend, finvara, icp};
use std::io::{BufRead, Write};
use std::path::Path;

/// A source language icp2c compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// InfChessPro (`.icp`), contract `spec/infchesspro.md`.
    InfChessPro,
    /// Finvara (`.fin`), contract `spec/finvara.md`.
    Finvara,
}

impl Language {
    /// The language a file name's extension says: `.fin` is Finvara, every
    /// other name (`.icp`, none, `-`) InfChessPro, the project's first
    /// language.
    pub fn from_path(path: &Path) -> Language {
        match path.extension().and_then(|e| e.to_str()) {
            Some("fin") => Language::Finvara,
            _ => Language::InfChessPro,
        }
    }

    /// The language's name as users know it.
    pub fn name(self) -> &'static str {
        match self {
            Language::InfChessPro => "InfChessPro",
            Language::Finvara => "Finvara",
        }
    }
}

/// A checked program of any language: the IR its back ends read.
#[derive(Debug)]
pub enum Program {
    /// An InfChessPro IR.
    InfChessPro(icp::ir::Program),
    /// A Finvara IR.
    Finvara(finvara::ir::Program),
}

/// What a successful check gives: the program and its warnings (sorted by
/// position).
#[derive(Debug)]
pub struct Checked {
    /// The IR.
    pub program: Program,
    /// Warnings, never errors.
    pub warnings: Vec<Diagnostic>,
}

/// Parses, validates and lowers `source` as `language`. Errors: every
/// diagnostic of the program at once, sorted by position (InfChessPro §8,
/// Finvara §6).
pub fn check(language: Language, source: &str) -> Result<Checked, Vec<Diagnostic>> {
    match language {
        Language::InfChessPro => icp::check(source).map(|c| Checked {
            program: Program::InfChessPro(c.program),
            warnings: c.warnings,
        }),
        Language::Finvara => finvara::check(source).map(|c| Checked {
            program: Program::Finvara(c.program),
            warnings: c.warnings,
        }),
    }
}

impl Program {
    /// Interprets the program: `input` is its standard input, `output` its
    /// standard output. `max_steps` bounds the statements (InfChessPro) or
    /// moves (Finvara) executed.
    pub fn run(
        &self,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        max_steps: Option<u64>,
    ) -> Outcome {
        match self {
            Program::InfChessPro(p) => icp::interp::run(p, input, output, max_steps),
            Program::Finvara(p) => finvara::run(p, input, output, max_steps),
        }
    }

    /// One standalone C99 file needing only libc. `source_name` is the file
    /// name written in its header comment.
    pub fn emit_c(&self, source_name: &str) -> String {
        match self {
            Program::InfChessPro(p) => backend::c::emit(p, source_name),
            Program::Finvara(p) => finvara::emit_c(p, source_name),
        }
    }

    /// One self-contained Rust file that `rustc --edition 2021` builds.
    pub fn emit_rust(&self, source_name: &str) -> String {
        match self {
            Program::InfChessPro(p) => backend::rust::emit(p, source_name),
            Program::Finvara(p) => finvara::emit_rust(p, source_name, true)
                .into_iter()
                .next()
                .map(|f| f.contents)
                .unwrap_or_default(),
        }
    }

    /// A Cargo crate: `Cargo.toml` (package named after `stem`, made a
    /// valid crate name, first line [`backend::rust::CRATE_MARKER`]),
    /// `src/main.rs` and `src/icp_rt.rs` (the runtime). Paths are relative
    /// to the crate's folder.
    pub fn emit_crate(&self, source_name: &str, stem: &str) -> Vec<GeneratedFile> {
        match self {
            Program::InfChessPro(p) => backend::rust::emit_crate(p, source_name, stem),
            Program::Finvara(p) => {
                let mut files = vec![backend::rust::cargo_toml(source_name, stem)];
                files.extend(finvara::emit_rust(p, source_name, false));
                files
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn finvara_crate_has_a_manifest_a_main_and_a_runtime() {
        let src = "(k):\n+--+\n|kW|\n+--+\nTurn 1 W: k a1 checks turn 1\n";
        let checked = check(Language::Finvara, src).expect("valid program");
        let files = checked.program.emit_crate("t.fin", "My Prog");
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["Cargo.toml", "src/main.rs", "src/icp_rt.rs"]);
        assert!(files[0].contents.starts_with(backend::rust::CRATE_MARKER));
        assert!(files[0].contents.contains("name = \"my_prog\""));
    }

    #[test]
    fn each_language_rejects_the_other() {
        assert!(check(Language::Finvara, "1. ^\n").is_err());
        assert!(check(Language::InfChessPro, "(k):\n").is_err());
    }
}
