//! Snapshots of what users see, for every language, through the driver:
//! the generated C and Rust of every example, the crate layout, and the
//! rendered diagnostics of every compile-error case
//! (`tests/programs/<lang>/errors/`). They live in `snapshots/<lang>/`,
//! named `<target>__<case>` (`snapshots/icp/c__beer.snap`). Each records
//! its source beside its output; a changed snapshot fails the test (review
//! with `cargo insta review`).

mod support;

use icp2c::codegen::{self, Layout, Target, sections};
use icp2c::diagnostic;
use icp2c::driver::{self, Language};
use icp2c::lang::{cheg, finvara, icp};

/// What the harness needs to know of a language: its folder (under
/// `tests/programs/`, `snapshots/`) and its runtimes, which are tested on
/// their own, so the snapshots show the program around them. The
/// placeholder texts are those the snapshots were first recorded with; a
/// runtime pasted as a selection of sections (CHEG) is replaced by a
/// placeholder naming the sections, so the snapshots show what each
/// program carries.
struct Snapshots {
    language: Language,
    folder: &'static str,
    /// (runtime text as pasted, placeholder) for a program, C then Rust.
    runtimes: fn(&driver::Program) -> Vec<(String, String)>,
    /// The Rust runtime's source, as a crate's `src/icp_rt.rs` of the
    /// program holds it.
    rust_runtime: fn(&driver::Program) -> String,
}

/// Comment lines, each starting with `lead` and a blank, holding `words`
/// joined by `, `, filled to 96 columns.
fn filled(lead: &str, words: &[&str]) -> String {
    let mut out = String::new();
    let mut line = lead.to_string();
    for (i, word) in words.iter().enumerate() {
        let piece = if i + 1 < words.len() {
            format!("{word},")
        } else {
            word.to_string()
        };
        if line.len() > lead.len() && line.len() + 1 + piece.len() > 96 {
            out.push_str(&line);
            out.push('\n');
            line = lead.to_string();
        }
        line.push(' ');
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// CHEG's runtimes as `program` carries them, with placeholders naming
/// their sections.
fn cheg_runtimes(program: &driver::Program) -> Vec<(String, String)> {
    let ir = program.ir::<cheg::Cheg>().expect("a CHEG program");
    let c = cheg::backend::c::select(ir);
    let rust = cheg::backend::select(ir);
    vec![
        (
            c.text,
            format!(
                "/* … src/codegen/prelude.c, src/lang/cheg/runtime/{{chess,engine,uci}}.c: the sections\n{} */\n",
                filled(" *", &c.sections)
            ),
        ),
        (
            codegen::inline_module(&rust.text),
            format!(
                "// … mod icp_rt: src/lang/cheg/runtime/{{chess,engine,uci}}.rs, indented: the sections\n{}",
                filled("//", &rust.sections).trim_end()
            ),
        ),
    ]
}

const LANGUAGES: &[Snapshots] = &[
    Snapshots {
        language: Language::InfChessPro,
        folder: "icp",
        runtimes: |_| {
            vec![
                (
                    sections::whole(icp::backend::c::RUNTIME, sections::Markers::C).unwrap(),
                    "/* … templates/c/runtime.c … */\n".into(),
                ),
                (
                    codegen::inline_runtime(icp::backend::rust::RUNTIME),
                    "// … mod icp_rt: src/lang/icp/runtime/board.rs, indented …".into(),
                ),
            ]
        },
        rust_runtime: |_| codegen::without_tests(icp::backend::rust::RUNTIME).to_string(),
    },
    Snapshots {
        language: Language::Finvara,
        folder: "finvara",
        runtimes: |_| {
            vec![
                (
                    sections::whole(finvara::backend::C_RUNTIME, sections::Markers::C).unwrap(),
                    "/* … templates/finvara/c/runtime.c … */\n".into(),
                ),
                (
                    codegen::inline_runtime(finvara::backend::RUST_RUNTIME),
                    "// … mod icp_rt: src/lang/finvara/runtime/board.rs, indented …".into(),
                ),
            ]
        },
        rust_runtime: |_| finvara::backend::RUST_RUNTIME.to_string(),
    },
    Snapshots {
        language: Language::Cheg,
        folder: "cheg",
        runtimes: cheg_runtimes,
        rust_runtime: |program| {
            let ir = program.ir::<cheg::Cheg>().expect("a CHEG program");
            cheg::backend::select(ir).text
        },
    },
];

#[test]
fn every_language_is_snapshotted() {
    for language in Language::ALL {
        assert!(
            LANGUAGES.iter().any(|l| l.language == *language),
            "{language:?} has no entry in tests/snapshots.rs"
        );
    }
}

impl Snapshots {
    fn without_runtimes(&self, program: &driver::Program, text: &str) -> String {
        let mut text = text.to_string();
        for (runtime, placeholder) in (self.runtimes)(program) {
            text = text.replace(&runtime, &placeholder);
        }
        text
    }

    fn ext(&self) -> &'static str {
        self.language.extension()
    }
}

/// A snapshot `snapshots/<folder>/<name>.snap` of a source and its output.
macro_rules! snapshot {
    ($lang:expr, $name:expr, $source:expr, $output:expr) => {{
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(format!("../snapshots/{}", $lang.folder));
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
            for (target, (runtime, _)) in [Target::C, Target::Rust]
                .into_iter()
                .zip((lang.runtimes)(&program))
            {
                let text = program.emit_file(target, &file).unwrap();
                assert!(text.contains(&runtime), "the runtime is embedded verbatim");
                // Issue 14: a user of the output has no icp2c checkout, so
                // nothing in it names a path inside one.
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
                    lang.without_runtimes(&program, &text)
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
            assert_eq!(paths, ["Cargo.toml", "src/main.rs", "src/icp_rt.rs"]);
            let runtime = (lang.rust_runtime)(&program);
            assert!(files[2].contents.contains(runtime.trim_end()));
            if lang.language == Language::Cheg {
                // The crate's runtime is the one file's: the same sections,
                // after the header line, no markers, no allow.
                assert_eq!(files[2].contents, codegen::runtime_file("CHEG", &runtime));
                let one_file = program.emit_file(Target::Rust, &file).unwrap();
                assert!(one_file.contains(&codegen::inline_module(&runtime)));
                assert!(!files[2].contents.contains("@section"));
                assert!(!files[2].contents.contains("allow(dead_code)"));
            }
            let shown: String = files[..2]
                .iter()
                .map(|f| {
                    let text = lang.without_runtimes(&program, &f.contents);
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

/// `icp2c run --trace --board` (issue 14): each language's trace and
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
