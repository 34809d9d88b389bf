//! The forms generated Rust takes, for every language: one file with a
//! `main`, a module to `include!`, or a crate (library and thin binary).
//!
//! A language's Rust back end gives a [`RustProgram`]: its selected
//! runtime, its items (data, the program's functions and `pub fn run`)
//! and how its `main` calls `run`. [`file()`], [`module`] and
//! [`crate_files`] lay it out through `templates/common/rust/program.rs`,
//! so that every language offers the same API:
//!
//! - `pub fn run(input, output) -> Result<(), Error>`: what the program
//!   does when it is started with no arguments, on the given streams (the
//!   program's run; a CHEG engine's UCI loop), output buffered and flushed
//!   before it returns;
//! - `pub struct Error`: opaque; its `Display` and its `Debug` are the
//!   message a standalone program prints on standard error after
//!   `error: `, before it exits with status 1.
//!
//! The module form has no `fn main`, no inner attribute and nothing public
//! but `run` and `Error`; one unnamed constant names `run`, so that a
//! module whose includer calls nothing still builds under `-D warnings`
//! (everything else in the file is reached from `run`, so dead code is
//! still reported).

use super::{GeneratedFile, RUNTIME_MODULE, Syntax, VERSION, cargo, indent, render};
use askama::Template;

/// The bounds of `run`'s streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Streams {
    /// `run<R: BufRead, W: Write>`: the program reads its input as it
    /// runs (InfChessPro, Finvara).
    Plain,
    /// `run<R: BufRead + Send + 'static, W: Write + Send + 'static>`: the
    /// program reads its input on a thread of its own while it works (a
    /// CHEG engine answers `stop` during a search).
    Live,
}

/// A language's generated Rust, before it is laid out.
#[derive(Clone, Debug)]
pub struct RustProgram {
    /// The language's name (`"InfChessPro"`).
    pub language: &'static str,
    /// The program's name for the header ([`super::header`]).
    pub source_name: String,
    /// Comment lines saying what the file holds (without `// `), after the
    /// header and the build line.
    pub about: Vec<String>,
    /// The runtime the program uses ([`super::sections`]), not indented.
    pub runtime: String,
    /// The program's items, in the scope that holds `mod icp_rt`: its
    /// data, its functions and `pub fn run`, which builds `Error { message }`
    /// for a runtime error (the message without `error: `).
    pub items: String,
    /// The one-file form's `fn main` and what only it uses; `None` for the
    /// shared [`STDIO_MAIN`].
    pub main: Option<String>,
    /// The crate's `src/main.rs` after its header, `{lib}` standing for the
    /// library's name; `None` for the shared one that calls `run` on
    /// standard input and output.
    pub crate_main: Option<String>,
    /// Public items a crate's `src/lib.rs` adds after `run` and `Error`
    /// (CHEG's engine API), with their docs; may be empty.
    pub crate_api: String,
    /// The crate's documentation lines after the shared ones (without
    /// `//! `), saying what `crate_api` offers; may be empty.
    pub crate_doc: Vec<String>,
}

/// The `fn main` of a program that reads standard input and writes
/// standard output (InfChessPro, Finvara): `run` on both, and its error on
/// standard error after `error: `, with exit status 1; then the `icp_stdio` module
/// (`stdio.rs`, which `icp2c`'s own `main` includes too), through which a
/// stream closed at start fails as it does in C.
pub const STDIO_MAIN: &str = concat!(
    "\
fn main() {
    let input = icp_stdio::open(0, || std::io::stdin().lock());
    let output = icp_stdio::open(1, || std::io::stdout().lock());
    if let Err(error) = run(input, output) {
        eprintln!(\"error: {error}\");
        std::process::exit(1);
    }
}

",
    include_str!("stdio.rs")
);

/// The documentation of every language's `run`.
pub const RUN_DOC: &str = "\
/// Runs the program: `input` is its standard input, `output` its standard
/// output (buffered here, and flushed before `run` returns). `Err`: the
/// runtime error that the standalone program reports with exit status 1;
/// output written before it stays written.";

/// `pub fn run` with `streams`' bounds, its parameters named `input` and
/// `output` (a name starting with `_` for a stream the program never
/// uses), up to the opening brace of its body, laid out as rustfmt does.
pub fn run_signature(streams: Streams, input: &str, output: &str) -> String {
    let (r, w) = match streams {
        Streams::Plain => ("std::io::BufRead", "std::io::Write"),
        Streams::Live => (
            "std::io::BufRead + Send + 'static",
            "std::io::Write + Send + 'static",
        ),
    };
    let one_line =
        format!("pub fn run<R: {r}, W: {w}>({input}: R, {output}: W) -> Result<(), Error> {{");
    if one_line.len() <= 100 {
        return one_line;
    }
    let generics = format!("pub fn run<R: {r}, W: {w}>(");
    if generics.len() <= 100 {
        format!("{generics}\n    {input}: R,\n    {output}: W,\n) -> Result<(), Error> {{")
    } else {
        format!(
            "pub fn run<\n    R: {r},\n    W: {w},\n>(\n    {input}: R,\n    {output}: W,\n) -> Result<(), Error> {{"
        )
    }
}

/// Which file the template lays out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    File,
    Module,
    Library,
}

#[derive(Template)]
#[template(path = "common/rust/program.rs", escape = "none")]
struct ProgramView<'a> {
    header: String,
    form: Form,
    about: &'a [String],
    /// The module's name in the module form's usage line.
    stem: &'a str,
    crate_doc: &'a [String],
    runtime: String,
    items: &'a str,
    main: &'a str,
    crate_api: &'a str,
}

impl RustProgram {
    fn view<'a>(&'a self, form: Form, stem: &'a str) -> ProgramView<'a> {
        ProgramView {
            header: super::header(self.language, &self.source_name),
            form,
            about: &self.about,
            stem,
            crate_doc: &self.crate_doc,
            runtime: match form {
                Form::Library => String::new(),
                _ => inline(&self.runtime),
            },
            items: self.items.trim_end(),
            main: self.main.as_deref().unwrap_or(STDIO_MAIN).trim_end(),
            crate_api: self.crate_api.trim_end(),
        }
    }
}

/// `mod icp_rt { … }` holding `runtime` indented one level, as rustfmt
/// lays out a module (empty lines stay empty): how a file or module form
/// carries its runtime.
pub fn inline(runtime: &str) -> String {
    format!(
        "mod {RUNTIME_MODULE} {{\n{}}}",
        indent(runtime.trim_end(), 1)
    )
}

/// One Rust file with `fn main`: `rustc --edition 2021 FILE.rs` builds the
/// program.
pub fn file(program: &RustProgram) -> String {
    render(&program.view(Form::File, ""), Syntax::Rust)
}

/// The module form (`--module`): `mod NAME { include!("FILE.rs"); }` in
/// any crate gives `NAME::run` and `NAME::Error`; `stem` names the module
/// in the usage comment.
pub fn module(program: &RustProgram, stem: &str) -> String {
    let name = cargo::crate_name(stem).replace('-', "_");
    render(&program.view(Form::Module, &name), Syntax::Rust)
}

/// The files of a generated crate: `Cargo.toml`, `.gitignore`,
/// `src/lib.rs` (the library: `run`, `Error` and the language's API),
/// `src/main.rs` (the program's binary, a thin caller of the library) and
/// `src/icp_rt.rs` (the runtime the program uses). Package, library and
/// binary are named [`cargo::crate_name`]`(stem)`.
pub fn crate_files(program: &RustProgram, stem: &str) -> Vec<GeneratedFile> {
    let package = cargo::crate_name(stem);
    let lib = package.replace('-', "_");
    let header = super::header(program.language, &program.source_name);
    let main_body = match &program.crate_main {
        Some(text) => text.replace("{lib}", &lib),
        None => STDIO_MAIN.replacen("run(", &format!("{lib}::run("), 1),
    };
    let main = format!(
        "// {header}\n// The program's binary: `{lib}::run` on standard input and output; the\n// library (src/lib.rs) is the program itself.\n\n{}\n",
        main_body.trim_end()
    );
    let runtime = format!(
        "// Runtime of icp2c {VERSION} ({}), as much as this program uses. Do not edit.\n{}\n",
        program.language,
        program.runtime.trim_end()
    );
    let file = |path: &str, contents: String| GeneratedFile {
        path: path.into(),
        contents,
    };
    vec![
        cargo::cargo_toml(&program.source_name, stem),
        file(".gitignore", super::GITIGNORE.into()),
        file(
            "src/lib.rs",
            render(&program.view(Form::Library, &lib), Syntax::Rust),
        ),
        file("src/main.rs", main),
        file(&format!("src/{RUNTIME_MODULE}.rs"), runtime),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RustProgram {
        RustProgram {
            language: "Test",
            source_name: "t.test".into(),
            about: vec!["A test program.".into()],
            runtime: "pub fn hello() -> &'static str {\n    \"hi\"\n}\n".into(),
            items: "pub fn run<R: std::io::BufRead, W: std::io::Write>(_input: R, mut output: W) -> Result<(), Error> {\n    writeln!(output, \"{}\", icp_rt::hello()).map_err(|_| Error {\n        message: \"cannot write standard output\".into(),\n    })\n}\n".into(),
            main: None,
            crate_main: None,
            crate_api: String::new(),
            crate_doc: Vec::new(),
        }
    }

    #[test]
    fn the_file_form_has_a_main_and_the_module_form_none() {
        let p = sample();
        let file = file(&p);
        assert!(file.starts_with("// Generated by icp2c"));
        assert!(file.contains("\nfn main() {\n"));
        assert!(file.contains("\nmod icp_rt {\n    pub fn hello()"));
        let module = module(&p, "t");
        assert!(!module.contains("fn main"));
        assert!(!module.contains("#!["));
        assert!(
            module.contains("const _: fn(std::io::Empty, std::io::Sink) -> Result<(), Error> =")
        );
        for text in [&file, &module] {
            assert!(text.contains("pub struct Error {"));
            assert!(!text.contains("allow("));
        }
    }

    #[test]
    fn a_crate_is_a_library_and_a_thin_binary() {
        let files = crate_files(&sample(), "My Prog");
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "Cargo.toml",
                ".gitignore",
                "src/lib.rs",
                "src/main.rs",
                "src/icp_rt.rs"
            ]
        );
        assert!(files[2].contents.contains("\nmod icp_rt;\n"));
        assert!(files[3].contents.contains("my_prog::run(input, output)"));
        assert!(files[4].contents.ends_with("    \"hi\"\n}\n"));
    }
}
