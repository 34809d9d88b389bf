//! Snapshots (in `snapshots/`) of what Finvara users see: the generated C
//! and Rust of every Finvara example, the crate layout, and the rendered
//! diagnostics of every kind of compile error (spec `finvara.md` §6), one
//! program per kind from `tests/programs/finvara/compile-errors`. Each
//! snapshot records its source beside its output; a changed snapshot fails
//! the test (review with `cargo insta review`).

#[macro_use]
mod support;

use icp2c::diagnostic;
use icp2c::driver::{self, Language};
use icp2c::lang::finvara::backend::{C_RUNTIME, RUST_RUNTIME};

/// The runtimes are tested on their own; the snapshots show the program
/// around them.
fn without_runtimes(text: &str) -> String {
    text.replace(C_RUNTIME, "/* … templates/finvara/c/runtime.c … */\n")
        .replace(RUST_RUNTIME.trim_end(), "// … src/runtime/fin_board.rs …")
}

fn check(source: &str) -> driver::Program {
    driver::check(Language::Finvara, source)
        .unwrap_or_else(|e| panic!("rejected: {e:?}"))
        .program
}

#[test]
fn generated_code_of_every_example() {
    let cases = support::cases(&["examples"], "fin");
    assert!(cases.len() >= 5, "the Finvara examples are missing");
    for case in cases {
        let source = std::fs::read_to_string(&case.path).unwrap();
        let program = check(&source);
        let file = format!("{}.fin", case.name);
        let c = program.emit_c(&file);
        assert!(c.contains(C_RUNTIME), "the C runtime is embedded verbatim");
        assert_source_snapshot!(
            format!("fin_c__{}", case.name),
            source,
            without_runtimes(&c)
        );
        let rust = program.emit_rust(&file);
        assert!(
            rust.contains(RUST_RUNTIME.trim_end()),
            "the Rust runtime is embedded verbatim"
        );
        assert_source_snapshot!(
            format!("fin_rust__{}", case.name),
            source,
            without_runtimes(&rust)
        );
    }
}

#[test]
fn crate_layout_of_every_example() {
    let cases = support::cases(&["examples"], "fin");
    assert!(!cases.is_empty());
    for case in cases {
        let source = std::fs::read_to_string(&case.path).unwrap();
        let file = format!("examples/{}.fin", case.name);
        let files = check(&source).emit_crate(&file, &case.name);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["Cargo.toml", "src/main.rs", "src/icp_rt.rs"]);
        assert!(files[2].contents.contains(RUST_RUNTIME.trim_end()));
        let shown: String = files[..2]
            .iter()
            .map(|f| format!("===== {}\n{}", f.path, without_runtimes(&f.contents)))
            .collect();
        assert_source_snapshot!(format!("fin_crate__{}", case.name), source, shown);
    }
}

#[test]
fn diagnostics_for_every_error_kind() {
    let dir = support::root().join("tests/programs/finvara/compile-errors");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "fin"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "only {} error kinds", paths.len());
    for path in paths {
        let source = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let errors = match driver::check(Language::Finvara, &source) {
            Ok(_) => panic!("{name}.fin was accepted"),
            Err(errors) => errors,
        };
        assert!(errors.iter().all(|d| d.is_error()));
        let file = format!("{name}.fin");
        let text = diagnostic::render(&file, &source, &errors);
        assert!(text.contains(&format!("{file}:")), "{text}");
        assert_source_snapshot!(format!("fin_error__{name}"), source, text);
    }
}
