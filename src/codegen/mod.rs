//! The shared code-generation layer: what every language's back end uses.
//!
//! A back end turns its IR into a view model of plain, already-escaped
//! strings; an askama template (under `templates/<lang>/`) only lays it
//! out. This module holds what does not depend on the language: the
//! targets and layouts a caller may ask for ([`EmitRequest`]), the answer
//! for a target a language does not have yet ([`Unsupported`]), escaping
//! ([`escape`]), the generated crate's `Cargo.toml` ([`cargo`]) and the way
//! a crate's files are laid out ([`crate_files`]).

pub mod cargo;
pub mod escape;

use crate::GeneratedFile;
use std::fmt;

/// The version written into generated headers.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The module name of the runtime inside generated Rust (`mod icp_rt`), and
/// the stem of its file in a crate (`src/icp_rt.rs`). Like every generated
/// identifier it starts with `icp_`, which names the tool, not a language.
pub const RUNTIME_MODULE: &str = "icp_rt";

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// C99 needing only libc.
    C,
    /// Rust (edition 2021) needing only std.
    Rust,
}

impl Target {
    /// The target's name as users know it.
    pub fn name(self) -> &'static str {
        match self {
            Target::C => "C",
            Target::Rust => "Rust",
        }
    }
}

/// How the generated program is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One self-contained file (the runtime pasted in).
    File,
    /// A Cargo crate: `Cargo.toml`, `src/main.rs`, `src/icp_rt.rs`
    /// (Rust only).
    Crate,
}

/// One request to a language's back end.
#[derive(Clone, Copy, Debug)]
pub struct EmitRequest<'a> {
    /// C or Rust.
    pub target: Target,
    /// One file or a crate.
    pub layout: Layout,
    /// The source file's name, written into the generated header.
    pub source_name: &'a str,
    /// The source file's stem: a crate's package name is made from it.
    pub stem: &'a str,
}

/// A back end's answer when it cannot generate what was asked: the
/// language has no back end for this target (yet), or the layout does not
/// exist for the target (a C crate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The language's name.
    pub language: &'static str,
    /// What was asked.
    pub target: Target,
    /// How it was to be laid out.
    pub layout: Layout,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.target, self.layout) {
            (Target::C, Layout::Crate) => write!(f, "--crate needs --target rust"),
            (target, _) => write!(
                f,
                "icp2c cannot compile {} to {} yet",
                self.language,
                target.name()
            ),
        }
    }
}

impl std::error::Error for Unsupported {}

/// The files of a generated crate, for every language: `Cargo.toml`
/// ([`cargo::cargo_toml`]), `src/main.rs` (`main`, which declares
/// `mod icp_rt;`) and `src/icp_rt.rs` (`runtime`).
pub fn crate_files(request: &EmitRequest<'_>, main: String, runtime: String) -> Vec<GeneratedFile> {
    vec![
        cargo::cargo_toml(request.source_name, request.stem),
        GeneratedFile {
            path: "src/main.rs".into(),
            contents: main,
        },
        GeneratedFile {
            path: format!("src/{RUNTIME_MODULE}.rs"),
            contents: runtime,
        },
    ]
}

/// The one file of a [`Layout::File`] request.
pub fn one_file(target: Target, contents: String) -> Vec<GeneratedFile> {
    let path = match target {
        Target::C => "main.c",
        Target::Rust => "main.rs",
    };
    vec![GeneratedFile {
        path: path.into(),
        contents,
    }]
}
