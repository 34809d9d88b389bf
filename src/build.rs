//! The build-script API: compile programs into Rust modules from a
//! crate's `build.rs`, as `prost-build` or `cxx-build` do.
//!
//! ```toml
//! [build-dependencies]
//! icp2c = { path = "…", default-features = false }   # no command-line dependencies
//! ```
//!
//! ```no_run
//! // build.rs: fn main() { … }
//! icp2c::build::compile("programs/beer.icp").unwrap();
//! ```
//!
//! ```ignore
//! // src/main.rs
//! mod beer {
//!     include!(concat!(env!("OUT_DIR"), "/beer.rs"));
//! }
//! fn main() {
//!     beer::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout()).unwrap();
//! }
//! ```
//!
//! [`compile`] writes `$OUT_DIR/<stem>.rs`, the module form of the
//! program (`pub fn run(input, output) -> Result<(), Error>` and nothing
//! else public, see `docs/generated-code.md`), and prints
//! `cargo:rerun-if-changed=` for the program, so cargo runs the build
//! script again only when the program changes. A rejected program is an
//! [`Error`] whose `Display` and `Debug` both show every diagnostic as the
//! command line does (`FILE:LINE:COL`, a caret), so `.unwrap()` in a build
//! script shows them in `cargo build`'s output. [`Config`] sets where the
//! files go, the optimiser and the language, and compiles several files.
//!
//! This module and the command line are the library's two edges that do
//! IO; the rest of the library does none.

use crate::codegen::{Layout, Target};
use crate::driver::{self, Language};
use crate::{diagnostic, source};
use std::fmt;
use std::path::{Path, PathBuf};

/// Compiles the program at `path` (its language from its extension:
/// `.icp`, `.fin`, `.cheg`) into `$OUT_DIR/<stem>.rs` with the default
/// [`Config`]. Returns the path written.
///
/// Errors: `OUT_DIR` unset (not run by cargo), the file unreadable or not
/// UTF-8, an extension that names no language, a rejected program, the
/// output not writable.
pub fn compile(path: impl AsRef<Path>) -> Result<PathBuf, Error> {
    Config::new().compile(path)
}

/// Options of a build-script compilation; [`Config::new`] gives the
/// defaults (into `$OUT_DIR`, optimised, language from the extension).
#[derive(Clone, Debug, Default)]
pub struct Config {
    out_dir: Option<PathBuf>,
    no_opt: bool,
    language: Option<Language>,
    rerun: bool,
}

impl Config {
    /// The defaults: write into `$OUT_DIR`, optimise (`-O1`), take the
    /// language from each file's extension, print `rerun-if-changed`.
    pub fn new() -> Config {
        Config {
            rerun: true,
            ..Config::default()
        }
    }

    /// Writes into `dir` instead of `$OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Config {
        self.out_dir = Some(dir.into());
        self
    }

    /// Generates programs as written, without the optimiser (`-O0`).
    pub fn no_opt(&mut self, no_opt: bool) -> &mut Config {
        self.no_opt = no_opt;
        self
    }

    /// Reads every file as `language`, whatever its extension.
    pub fn language(&mut self, language: Language) -> &mut Config {
        self.language = Some(language);
        self
    }

    /// Whether to print `cargo:rerun-if-changed=PATH` for each program
    /// (default true; turn it off outside a build script).
    pub fn rerun_if_changed(&mut self, rerun: bool) -> &mut Config {
        self.rerun = rerun;
        self
    }

    /// Compiles one program into `<out_dir>/<stem>.rs` (the module
    /// form), written only when its bytes change. Returns the path
    /// written. Errors: as [`compile`].
    pub fn compile(&self, path: impl AsRef<Path>) -> Result<PathBuf, Error> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        if self.rerun {
            println!("cargo:rerun-if-changed={shown}");
        }
        let bytes = std::fs::read(path)
            .map_err(|e| Error::new(format!("error: cannot read {shown}: {e}")))?;
        let text = source::decode(&bytes)
            .map_err(|(text, d)| Error::new(diagnostic::render(&shown, &text, &d)))?;
        let language = match self.language {
            Some(language) => language,
            None => language_of(path).ok_or_else(|| {
                let names: Vec<String> = Language::ALL
                    .iter()
                    .map(|l| format!(".{}", l.extension()))
                    .collect();
                Error::new(format!(
                    "error: {shown}: the extension names no language ({}); set one with Config::language",
                    names.join(", ")
                ))
            })?,
        };
        let checked = driver::check(language, &text).map_err(|errors| {
            let n = errors.len();
            Error::new(format!(
                "{}error: {shown} rejected ({} program): {n} error{}",
                diagnostic::render(&shown, &text, &errors),
                language.name(),
                if n == 1 { "" } else { "s" }
            ))
        })?;
        let program = if self.no_opt {
            checked.program.without_optimiser()
        } else {
            checked.program
        };
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "program".to_string());
        let contents = program
            .emit(Target::Rust, Layout::Module, &shown, &stem)
            .map_err(|e| Error::new(format!("error: {shown}: {e}")))?
            .pop()
            .map(|f| f.contents)
            .unwrap_or_default();
        let dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error::new(
                    "error: OUT_DIR is not set: run from a build script, or set Config::out_dir"
                        .to_string(),
                )
                })?,
        };
        let out = dir.join(format!("{stem}.rs"));
        if std::fs::read(&out).ok().as_deref() != Some(contents.as_bytes()) {
            std::fs::create_dir_all(&dir)
                .and_then(|()| std::fs::write(&out, &contents))
                .map_err(|e| Error::new(format!("error: cannot write {}: {e}", out.display())))?;
        }
        Ok(out)
    }

    /// Compiles every program of `paths`, in order; all errors at once
    /// (one [`Error`] holding each program's). Returns the paths written.
    pub fn compile_all<P: AsRef<Path>>(&self, paths: &[P]) -> Result<Vec<PathBuf>, Error> {
        let mut written = Vec::new();
        let mut failures = Vec::new();
        for path in paths {
            match self.compile(path) {
                Ok(out) => written.push(out),
                Err(e) => failures.push(e.rendered),
            }
        }
        if failures.is_empty() {
            Ok(written)
        } else {
            Err(Error::new(failures.concat()))
        }
    }
}

/// The language a path's extension names, if any.
fn language_of(path: &Path) -> Option<Language> {
    let ext = path.extension()?.to_str()?;
    Language::from_name(ext)
}

/// Why a build-script compilation failed: its `Display` and `Debug` are
/// the text the command line prints for it (every diagnostic of a
/// rejected program with `FILE:LINE:COL` and a caret, then a summary
/// line).
pub struct Error {
    rendered: String,
}

impl Error {
    fn new(mut rendered: String) -> Error {
        if !rendered.ends_with('\n') {
            rendered.push('\n');
        }
        Error { rendered }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rendered)
    }
}

/// The same text as `Display`, so that `.unwrap()` in a build script shows
/// the diagnostics as they are meant to be read.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.rendered)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(dir: &Path) -> Config {
        let mut c = Config::new();
        c.out_dir(dir).rerun_if_changed(false);
        c
    }

    #[test]
    fn a_program_becomes_a_module_in_the_folder() {
        let dir = std::env::temp_dir().join(format!("icp2c-build-{}", std::process::id()));
        let src = dir.join("add.fin");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/examples/add.fin"),
            &src,
        )
        .unwrap();
        let out = config(&dir.join("out")).compile(&src).unwrap();
        assert_eq!(out, dir.join("out/add.rs"));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("pub fn run<") && !text.contains("fn main"));
        let bad = dir.join("bad.fin");
        std::fs::write(&bad, "(k):\n(n 0): (0,0\n").unwrap();
        let e = config(&dir).compile(&bad).unwrap_err();
        let shown = format!("{e}");
        assert!(shown.contains("bad.fin:2:"), "{shown}");
        assert!(shown.contains('^'), "{shown}");
        assert!(format!("{e:?}").contains(&shown));
        let unknown = dir.join("prog.txt");
        std::fs::write(&unknown, "1. \"hi\n").unwrap();
        assert!(
            config(&dir)
                .compile(&unknown)
                .unwrap_err()
                .to_string()
                .contains("names no language")
        );
        let mut icp = config(&dir);
        icp.language(Language::Finvara);
        let both = icp.compile_all(&[&bad, &unknown]).unwrap_err().to_string();
        assert!(
            both.contains("bad.fin") && both.contains("prog.txt"),
            "{both}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
