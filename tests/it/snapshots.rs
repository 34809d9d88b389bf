//! Snapshots of what users see, for every language, through the driver:
//! the generated C and Rust of every example, the crate layout, and the
//! rendered diagnostics of every compile-error case
//! (`tests/programs/<lang>/errors/`). They live in `snapshots/<lang>/`,
//! named `<target>__<case>` (`snapshots/icp/c__beer.snap`). Each records
//! its source beside its output; a changed snapshot fails the test (review
//! with `cargo insta review`).

use crate::support;

use icp2c::codegen::{self, Layout, Target};
use icp2c::diagnostic;
use icp2c::driver::{self, Language, Program};
use icp2c::lang::icp;

/// What the harness needs to know of a language: its folder (under
/// `tests/programs/`, `snapshots/`). Runtimes are tested on their own, so
/// the snapshots show the program around them: each pasted runtime is
/// replaced by a placeholder naming its sections ([`Program::runtime`],
/// the same for every language).
struct Snapshots {
    language: Language,
    folder: &'static str,
}

/// The placeholder of a pasted runtime: the sections it holds (the
/// regions kept besides the unmarked core), in a comment of `open` and
/// `close`, filled to 96 columns.
fn placeholder<'a>(open: &str, sections: impl IntoIterator<Item = &'a str>, close: &str) -> String {
    let names: Vec<&str> = sections.into_iter().collect();
    let lead = if open.starts_with("/*") { " *" } else { "//" };
    let mut out = String::new();
    let mut line = format!("{open} … runtime sections:");
    if names.is_empty() {
        line.push_str(" none, the core alone");
    }
    for (i, name) in names.iter().enumerate() {
        let word = if i + 1 < names.len() {
            format!("{name},")
        } else {
            name.to_string()
        };
        if line.len() + 1 + word.len() > 96 {
            out.push_str(&line);
            out.push('\n');
            line = lead.to_string();
        }
        line.push(' ');
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str(" …");
    out.push_str(close);
    out
}

const LANGUAGES: &[Snapshots] = &[
    Snapshots {
        language: Language::InfChessPro,
        folder: "icp",
    },
    Snapshots {
        language: Language::Finvara,
        folder: "finvara",
    },
    Snapshots {
        language: Language::Cheg,
        folder: "cheg",
    },
];

#[test]
fn every_language_is_snapshotted() {
    for language in Language::ALL {
        assert!(
            LANGUAGES.iter().any(|l| l.language == *language),
            "{language:?} has no entry in tests/it/snapshots.rs"
        );
    }
}

impl Snapshots {
    /// `text` with each runtime `program` pastes replaced by its
    /// placeholder: the C file's, the Rust file's `mod icp_rt { … }` and a
    /// crate's `src/icp_rt.rs`.
    fn without_runtimes(&self, text: &str, program: &Program) -> String {
        let c = program.runtime(Target::C).unwrap();
        let rust = program.runtime(Target::Rust).unwrap();
        text.replace(&c.text, &placeholder("/*", c.sections, " */\n"))
            .replace(
                &codegen::rust::inline(&rust.text),
                &placeholder("// mod icp_rt:", rust.sections.iter().copied(), ""),
            )
            .replace(&rust.text, &placeholder("//", rust.sections, "\n"))
    }

    fn ext(&self) -> &'static str {
        self.language.extension()
    }
}

/// A snapshot `snapshots/<folder>/<name>.snap` of a source and its output.
macro_rules! snapshot {
    ($lang:expr, $name:expr, $source:expr, $output:expr) => {{
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(format!("../../snapshots/{}", $lang.folder));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.bind(|| {
            insta::assert_snapshot!(
                $name,
                format!("----- SOURCE\n{}\n----- OUTPUT\n{}", $source, $output)
            );
        });
    }};
}

#[test]
fn generated_code_of_every_example() {
    for lang in LANGUAGES {
        let cases = support::cases(&["examples"], lang.ext());
        assert!(!cases.is_empty(), "no {} example", lang.ext());
        for case in cases {
            let source = std::fs::read_to_string(&case.path).unwrap();
            let program = driver::check(lang.language, &source).unwrap().program;
            let file = format!("{}.{}", case.name, lang.ext());
            for target in [Target::C, Target::Rust] {
                let text = program.emit_file(target, &file).unwrap();
                // A Rust file holds its runtime as a module, inlined.
                let runtime = match (target, program.runtime(target).unwrap().text) {
                    (Target::Rust, text) => codegen::rust::inline(&text),
                    (_, text) => text,
                };
                assert!(text.contains(&runtime), "the runtime is embedded verbatim");
                // A user of the output has no icp2c checkout, so nothing
                // in it names a path inside one.
                for path in ["src/lang", "src/codegen", "templates/"] {
                    assert!(!text.contains(path), "{file} ({target:?}) names {path}");
                }
                let prefix = match target {
                    Target::C => "c",
                    Target::Rust => "rust",
                };
                snapshot!(
                    lang,
                    format!("{prefix}__{}", case.name),
                    source,
                    lang.without_runtimes(&text, &program)
                );
            }
        }
    }
}

#[test]
fn crate_layout_of_every_example() {
    for lang in LANGUAGES {
        for case in support::cases(&["examples"], lang.ext()) {
            let source = std::fs::read_to_string(&case.path).unwrap();
            let program = driver::check(lang.language, &source).unwrap().program;
            let file = format!("examples/{}.{}", case.name, lang.ext());
            let files = program
                .emit(Target::Rust, Layout::Crate, &file, &case.name)
                .unwrap();
            let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            let runtime = files.last().unwrap();
            assert_eq!(runtime.path, "src/icp_rt.rs");
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
            let text = program.runtime(Target::Rust).unwrap().text;
            assert!(runtime.contents.ends_with(text.as_str()));
            // The runtime file is shown as the sections it holds.
            let shown: String = files
                .iter()
                .map(|f| {
                    let text = lang.without_runtimes(&f.contents, &program);
                    format!("===== {}\n{text}", f.path)
                })
                .collect();
            snapshot!(lang, format!("crate__{}", case.name), source, shown);
        }
    }
}

/// One program per kind of compile error in `tests/programs/<lang>/errors/`;
/// the snapshot shows the whole rendered diagnostic (file:line:col, caret,
/// notes).
#[test]
fn diagnostics_for_every_error_case() {
    for lang in LANGUAGES {
        let dir = format!("tests/programs/{}/errors", lang.folder);
        let cases = support::cases(&[&dir], lang.ext());
        assert!(
            cases.len() >= 20,
            "only {} error cases in {dir}",
            cases.len()
        );
        for case in cases {
            let source = std::fs::read_to_string(&case.path).unwrap();
            let errors = match driver::check(lang.language, &source) {
                Ok(_) => panic!("{} was accepted", case.path.display()),
                Err(errors) => errors,
            };
            assert!(errors.iter().all(|d| d.is_error()));
            let file = format!("{}.{}", case.name, lang.ext());
            let text = diagnostic::render(&file, &source, &errors);
            assert!(text.contains(&format!("{file}:")), "{text}");
            snapshot!(lang, format!("error__{}", case.name), source, text);
        }
    }
}

const ICP: &Snapshots = &LANGUAGES[0];

#[test]
fn invalid_utf8_is_a_diagnostic() {
    let (text, errors) = icp2c::source::decode(b"1. \"ok\n2. \"\xff\xfe\n").unwrap_err();
    let shown = diagnostic::render("bad.icp", &text, &errors);
    assert!(shown.contains("bad.icp:2:"), "{shown}");
    snapshot!(
        ICP,
        "error__invalid_utf8",
        "1. \"ok\\n2. \"\\xff\\xfe\\n",
        shown
    );
}

#[test]
fn warning_for_an_empty_program() {
    for source in ["", "# only a comment\n\n"] {
        let checked = driver::check(Language::InfChessPro, source).unwrap();
        let ir = checked.program.ir::<icp::InfChessPro>().unwrap();
        assert!(ir.statements.is_empty());
        assert_eq!(checked.warnings.len(), 1);
        let text = diagnostic::render("empty.icp", source, &checked.warnings);
        assert!(text.contains("empty.icp:1:1"), "{text}");
        if source.is_empty() {
            snapshot!(ICP, "warning__empty_program", source, text);
        }
    }
}

#[test]
fn warnings_for_names_never_placed() {
    let source = "1. ghost;1,0\n2. %ghost\n3. %nobody\n4. x=R0,0\n5. x;0,1\n";
    let checked = driver::check(Language::InfChessPro, source).unwrap();
    assert_eq!(checked.warnings.len(), 2, "one warning per name");
    let text = diagnostic::render("w.icp", source, &checked.warnings);
    snapshot!(ICP, "warning__never_placed", source, text);
}

/// `icp2c run --trace --board`: each language's trace and
/// board pictures for an example, on the error stream; standard output is
/// shown too, and must be what a plain run prints.
#[test]
fn trace_and_board_of_examples() {
    use icp2c::lang::{Glyphs, RunOptions};
    let runs: [(&Snapshots, &str, &str, Vec<String>, Glyphs); 4] = [
        (ICP, "multiply", "2 3\n", vec![], Glyphs::Letters),
        (ICP, "checkmate", "", vec![], Glyphs::Unicode),
        (&LANGUAGES[1], "add", "40 2\n", vec![], Glyphs::Unicode),
        (
            &LANGUAGES[2],
            "krk",
            "",
            vec!["--fen".into(), "8/8/8/4k3/8/8/8/R3K3 w - - 0 1".into()],
            Glyphs::Letters,
        ),
    ];
    for (lang, name, input, args, glyphs) in runs {
        let path = support::root().join(format!("examples/{name}.{}", lang.ext()));
        let source = std::fs::read_to_string(&path).unwrap();
        let program = driver::check(lang.language, &source).unwrap().program;
        let run = |trace: bool, board: bool| {
            let options = RunOptions {
                args: args.clone(),
                trace,
                board,
                glyphs,
                ..RunOptions::default()
            };
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let outcome = program
                .run_with(&mut input.as_bytes(), &mut out, &mut err, &options)
                .unwrap();
            (
                outcome,
                String::from_utf8(out).unwrap(),
                String::from_utf8(err).unwrap(),
            )
        };
        let plain = run(false, false);
        let watched = run(true, true);
        assert_eq!(plain.0, watched.0, "{name}: the outcome is the same");
        assert_eq!(plain.1, watched.1, "{name}: the output is the same");
        assert!(watched.2.lines().count() > 3, "{name}: a trace");
        let board_only = run(false, true);
        assert_eq!(plain.1, board_only.1);
        // A long trace is shown by its first and last lines.
        let lines: Vec<&str> = watched.2.lines().collect();
        let trace = if lines.len() > 200 {
            format!(
                "{}\n… {} lines …\n{}\n",
                lines[..150].join("\n"),
                lines.len() - 200,
                lines[lines.len() - 50..].join("\n")
            )
        } else {
            watched.2.clone()
        };
        snapshot!(
            lang,
            format!("trace__{name}"),
            source,
            format!(
                "===== input\n{input}===== standard output\n{}===== standard error (--trace --board)\n{}===== standard error (--board)\n{}",
                watched.1, trace, board_only.2
            )
        );
    }
}

/// Where a line sends its reader somewhere the reader cannot go: a
/// contract outside the repository (`shared/`, a `spec/` path, "the spec
/// §8", a language's page named without its folder `docs/`) or an issue
/// of the project's tracker (`issue 13`, `Issue #13`). `None` for a line
/// that cites only what a user has (`docs/cheg.md §7`).
fn cites_what_users_lack(line: &str) -> Option<&'static str> {
    if line.contains("shared/") {
        return Some("`shared/`");
    }
    let bytes = line.as_bytes();
    let word_start =
        |at: usize| at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
    if line.match_indices("spec/").any(|(at, _)| word_start(at)) {
        return Some("a `spec/` path");
    }
    for page in ["infchesspro.md", "finvara.md", "cheg.md"] {
        if line
            .match_indices(page)
            .any(|(at, _)| !line[..at].ends_with("docs/"))
        {
            return Some("a language's page without `docs/`");
        }
    }
    let lower = line.to_ascii_lowercase();
    if lower.match_indices("spec §").any(|(at, _)| word_start(at)) {
        return Some("\"spec §\"");
    }
    for (at, _) in lower.match_indices("issue") {
        if !word_start(at) {
            continue;
        }
        let rest = lower[at + "issue".len()..].trim_start_matches('s');
        let rest = rest.trim_start().trim_start_matches('#').trim_start();
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            return Some("an issue number");
        }
    }
    None
}

#[test]
fn the_citation_check_finds_what_users_lack() {
    for bad in [
        "the contract is `shared/spec/infchesspro.md` §6",
        "; (spec/cheg.md) for the icp2c chess engine.",
        "/* ------ loops (issue 13) */",
        "// Issue #13: loops",
        "as issues 12 and 13 say",
        "A Finvara program (spec: finvara.md): 5 kinds",
        "/// A runtime error cause (spec §8).",
    ] {
        assert!(cites_what_users_lack(bad).is_some(), "{bad}");
    }
    for good in [
        "the language is the one `docs/infchesspro.md` defines (§6)",
        "icp_entry_spec, EntrySpec, respec/ and the issue of a move",
        "// docs/cheg.md §7.4: the engine's command line",
        "fn matches_side(spec: (u8, u8, u8, u8, Option<u8>), have: (u8, u8, u8, u8, u8)) -> bool {",
        "A Finvara program (docs/finvara.md): 5 kinds",
    ] {
        assert_eq!(cites_what_users_lack(good), None, "{good}");
    }
}

/// Generated code and the examples cite what their reader has: the
/// language references in `docs/` (by section: `docs/infchesspro.md §6`),
/// never the contracts outside the repository or the project's issues.
/// Every example in every target and layout (a C file; a Rust file, module
/// and crate, every file of it), optimised and not, and every file of
/// `examples/`.
#[test]
fn generated_code_and_examples_cite_only_what_users_have() {
    let mut failures = Vec::new();
    let mut scan = |name: &str, text: &str| {
        for (i, line) in text.lines().enumerate() {
            if let Some(what) = cites_what_users_lack(line) {
                failures.push(format!("{name}:{}: cites {what}: {}", i + 1, line.trim()));
            }
        }
    };
    let mut generated = 0;
    for lang in LANGUAGES {
        let cases = support::cases(&["examples"], lang.ext());
        assert!(!cases.is_empty(), "no {} example", lang.ext());
        for case in cases {
            let source = std::fs::read_to_string(&case.path).unwrap();
            let file = format!("{}.{}", case.name, lang.ext());
            for optimised in [true, false] {
                let program = driver::check(lang.language, &source).unwrap().program;
                let program = if optimised {
                    program
                } else {
                    program.without_optimiser()
                };
                for (target, layout) in [
                    (Target::C, Layout::File),
                    (Target::Rust, Layout::File),
                    (Target::Rust, Layout::Module),
                    (Target::Rust, Layout::Crate),
                ] {
                    let files = program.emit(target, layout, &file, &case.name).unwrap();
                    assert!(!files.is_empty(), "{file}: {target:?} {layout:?}");
                    for f in files {
                        let opt = if optimised { "" } else { " -O0" };
                        scan(
                            &format!("{file} ({target:?} {layout:?}{opt}) {}", f.path),
                            &f.contents,
                        );
                        generated += 1;
                    }
                }
            }
        }
    }
    // Three languages, each with examples, in 2 × (1 + 1 + 1 + 4) files.
    assert!(generated >= 3 * 2 * 7, "only {generated} files generated");
    let mut examples: Vec<_> = std::fs::read_dir(support::root().join("examples"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    examples.sort();
    for path in examples {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let name = path
            .strip_prefix(support::root())
            .unwrap()
            .display()
            .to_string();
        scan(&name, &text);
    }
    assert!(
        failures.is_empty(),
        "{} lines cite what a user does not have; cite docs/<language>.md §n:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
