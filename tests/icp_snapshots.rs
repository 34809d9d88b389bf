//! Snapshots (in `snapshots/`) of what users see: the generated C and Rust
//! for every example, and the rendered diagnostics for every kind of
//! compile error. Each snapshot records its source beside its output.
//! A changed snapshot fails the test; review it with `cargo insta review`.

#[macro_use]
mod support;

use icp2c::diagnostic;
use icp2c::lang::icp::{self, backend};

/// The C runtime and the Rust runtime are tested on their own; the
/// snapshots show the program around them.
fn without_runtimes(text: &str) -> String {
    let c_runtime = include_str!("../src/lang/icp/runtime/board.c");
    text.replace(c_runtime, "/* … templates/c/runtime.c … */\n")
        .replace(backend::rust::RUNTIME, "// … src/runtime/icp_board.rs …\n")
}

#[test]
fn generated_code_of_every_example() {
    let cases = support::cases(&["examples"], "icp");
    assert!(!cases.is_empty());
    for case in cases {
        let source = std::fs::read_to_string(&case.path).unwrap();
        let program = icp::check(&source).unwrap().program;
        let file = format!("{}.icp", case.name);
        let c = backend::c::emit(&program, &file);
        assert!(
            c.contains(include_str!("../src/lang/icp/runtime/board.c")),
            "the C runtime is embedded verbatim"
        );
        assert_source_snapshot!(format!("c__{}", case.name), source, without_runtimes(&c));
        let rust = backend::rust::emit(&program, &file);
        assert!(
            rust.contains(backend::rust::RUNTIME),
            "the Rust runtime is embedded verbatim"
        );
        assert_source_snapshot!(
            format!("rust__{}", case.name),
            source,
            without_runtimes(&rust)
        );
    }
}

#[test]
fn crate_layout_of_every_example() {
    let cases = support::cases(&["examples"], "icp");
    assert!(!cases.is_empty());
    for case in cases {
        let source = std::fs::read_to_string(&case.path).unwrap();
        let program = icp::check(&source).unwrap().program;
        let file = format!("examples/{}.icp", case.name);
        let request = icp2c::codegen::EmitRequest {
            target: icp2c::codegen::Target::Rust,
            layout: icp2c::codegen::Layout::Crate,
            source_name: &file,
            stem: &case.name,
        };
        let files = backend::rust::emit_crate(&program, &request);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["Cargo.toml", "src/main.rs", "src/icp_rt.rs"]);
        assert!(files[2].contents.ends_with(backend::rust::RUNTIME));
        let shown: String = files[..2]
            .iter()
            .map(|f| format!("===== {}\n{}", f.path, without_runtimes(&f.contents)))
            .collect();
        assert_source_snapshot!(format!("crate__{}", case.name), source, shown);
    }
}

/// One program per kind of compile error; the snapshot shows the whole
/// rendered diagnostic (file:line:col, caret, notes).
const ERRORS: &[(&str, &str)] = &[
    ("bad_letter", "1. x=X0,0\n"),
    ("too_many_numbers", "1. ^\n2. 1,2,3,4,5\n"),
    ("integer_out_of_range", "1. x=R9223372036854775808,0\n"),
    ("label_out_of_range", "9223372036854775808. ^\n"),
    ("label_repeated", "1. ^\n2. ^\n2. ^\n"),
    ("label_decreasing", "5. ^\n\n3. ^\n"),
    ("missing_field", "1. x=R0\n"),
    ("bad_name", "1. ^\n2. my-rook=R0,0\n"),
    ("no_label", "1. ^\nx=R0,0\n"),
    ("star_label", "*. ^\n"),
    ("negative_label", "-1. ^\n"),
    ("stray", "1. x=R0,0 @\n"),
    ("trailing_comment", "1. ^ # why not?\n"),
    ("two_success_targets", "1. ^?1?1\n"),
    ("two_failure_targets", "1. ^!1 ! 1\n"),
    ("unknown_target", "1. ^\n2. x=R0,0?7\n3. ^!7\n"),
    ("blank_before_dot", "1 . ^\n"),
    ("missing_command", "1.\n"),
    ("blank_inside_integer", "1. x=R- 5,0\n"),
    ("star_name", "1. *,1,2\n"),
    ("negative_name", "1. -4,1,2\n"),
    ("name_then_squares", "1. x,1,2,3\n"),
    ("star_letter", "1. x=*0,0\n"),
    ("count_without_name", "1. %\n"),
    ("missing_target", "1. ^?\n"),
    ("relative_one_offset", "1. x;1\n"),
    (
        "many_errors_at_once",
        "1. ^\n2. x=Y1,1\n1. ^\n4. ^?99\nfoo\n6. \"fine\n",
    ),
    ("non_ascii_stray", "1. x=R0,0 ♔\n"),
];

#[test]
fn diagnostics_for_every_error_kind() {
    for (name, source) in ERRORS {
        let errors = icp::check(source).expect_err(name);
        assert!(errors.iter().all(|d| d.is_error()));
        let text = diagnostic::render(&format!("{name}.icp"), source, &errors);
        assert!(text.contains(&format!("{name}.icp:")), "{text}");
        assert_source_snapshot!(format!("error__{name}"), source, text);
    }
}

#[test]
fn invalid_utf8_is_a_diagnostic() {
    let (text, errors) = icp2c::source::decode(b"1. \"ok\n2. \"\xff\xfe\n").unwrap_err();
    let shown = diagnostic::render("bad.icp", &text, &errors);
    assert!(shown.contains("bad.icp:2:"), "{shown}");
    assert_source_snapshot!("error__invalid_utf8", "1. \"ok\\n2. \"\\xff\\xfe\\n", shown);
}

#[test]
fn warning_for_an_empty_program() {
    for source in ["", "# only a comment\n\n"] {
        let checked = icp::check(source).unwrap();
        assert!(checked.program.statements.is_empty());
        assert_eq!(checked.warnings.len(), 1);
        let text = diagnostic::render("empty.icp", source, &checked.warnings);
        assert!(text.contains("empty.icp:1:1"), "{text}");
        if source.is_empty() {
            assert_source_snapshot!("warning__empty_program", source, text);
        }
    }
}

#[test]
fn warnings_for_names_never_placed() {
    let source = "1. ghost;1,0\n2. %ghost\n3. %nobody\n4. x=R0,0\n5. x;0,1\n";
    let checked = icp::check(source).unwrap();
    assert_eq!(checked.warnings.len(), 2, "one warning per name");
    let text = diagnostic::render("w.icp", source, &checked.warnings);
    assert_source_snapshot!("warning__never_placed", source, text);
}
