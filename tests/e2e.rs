//! End to end, one harness looped over the languages whose programs read
//! input and print (InfChessPro and Finvara; a CHEG program is an engine,
//! checked query by query in tests/cheg.rs), always through the driver:
//!
//! - every example and every program of `tests/programs/<lang>` (with its
//!   `.in`, `.out`, `.status` and, for a runtime error, `.err`: the error
//!   line) runs in the interpreter, which must match them;
//! - each is compiled to C (`cc -std=c99 -Wall -Wextra -Wpedantic -Werror`)
//!   and to Rust (`rustc -D warnings`), and both must match the interpreter
//!   byte for byte: standard output, standard error and exit status;
//! - the acceptance cases of `../shared/conformance/<suite>` run in
//!   tests/acceptance.rs, which reports a missing folder as ignored.

mod support;

use icp2c::Outcome;
use icp2c::driver::{self, Language, Program};
use std::path::Path;
use support::{Case, Ran, build_c, build_rust, cases, parallel, run_exe, show};

/// A language as this harness runs it.
struct Lang {
    language: Language,
    /// `tests/programs/<folder>` and `../shared/conformance/<folder>`.
    folder: &'static str,
    /// Its examples with their inputs and expected outputs.
    examples: fn() -> Vec<Case>,
}

const LANGUAGES: [Lang; 2] = [
    Lang {
        language: Language::InfChessPro,
        folder: "icp",
        examples: || cases(&["examples"], "icp"),
    },
    Lang {
        language: Language::Finvara,
        folder: "finvara",
        examples: finvara_examples,
    },
];

/// Finvara's examples, each with one or more inputs (the files beside
/// them, `countdown.in` say, belong to InfChessPro's examples).
fn finvara_examples() -> Vec<Case> {
    let case = |file: &str, input: &str, out: &str| Case {
        name: format!("examples/{file} <<< {input:?}"),
        path: support::root().join("examples").join(file),
        input: input.as_bytes().to_vec(),
        want_out: Some(out.as_bytes().to_vec()),
        want_status: 0,
        want_err: None,
    };
    vec![
        case("seed_truth_machine.fin", "1\n", "1\n"),
        case("seed_truth_machine.fin", "0\n", "0\n"),
        case("seed_pieces.fin", "", "0\n20\n"),
        case("add.fin", "40 2\n", "42\n"),
        case("countdown.fin", "5\n", "5\n4\n3\n2\n1\n"),
        case("check_ends.fin", "7 7\n", "1\n"),
        case("check_ends.fin", "7 8\n", "0\n"),
    ]
}

fn program(lang: &Lang, case: &Case) -> Program {
    let source = std::fs::read_to_string(&case.path).unwrap();
    driver::check(lang.language, &source)
        .unwrap_or_else(|e| panic!("{} rejected: {e:?}", case.path.display()))
        .program
}

/// The interpreter's run of `case`: what a generated program must print.
fn interpret(program: &Program, case: &Case) -> Ran {
    let mut stdout = Vec::new();
    // A budget no stepping program reaches, and summarised loops do not
    // spend (loop_rounds.icp counts 2·10^18 statements, issue 13).
    let outcome = program.run(&mut case.input.as_slice(), &mut stdout, Some(1 << 62));
    assert!(
        !matches!(outcome, Outcome::StepLimit(_)),
        "{} ran away",
        case.name
    );
    let stderr = match &outcome {
        Outcome::RuntimeError(line) => format!("{line}\n").into_bytes(),
        _ => Vec::new(),
    };
    Ran {
        status: outcome.exit_status(),
        stdout,
        stderr,
    }
}

/// What the interpreter's run of `case` lacks of its expectations.
fn expected(case: &Case, got: &Ran) -> Option<String> {
    let out_ok = case
        .want_out
        .as_ref()
        .is_none_or(|want| &got.stdout == want);
    let err_ok = case
        .want_err
        .as_ref()
        .is_none_or(|want| String::from_utf8_lossy(&got.stderr).trim_end() == want);
    (!out_ok || !err_ok || got.status != case.want_status).then(|| {
        format!(
            "{} [run]: exit {} (want {}), stderr {:?} (want {:?})\n--- got\n{}\n--- want\n{}",
            case.name,
            got.status,
            case.want_status,
            show(&got.stderr),
            case.want_err,
            show(&got.stdout),
            show(case.want_out.as_deref().unwrap_or_default())
        )
    })
}

fn check_case(lang: &Lang, case: &Case, index: usize, dir: &Path) -> Vec<String> {
    let program = program(lang, case);
    let reference = interpret(&program, case);
    let mut failures: Vec<String> = expected(case, &reference).into_iter().collect();
    let file = case
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let stem = format!("{}{index}", lang.folder);
    let built = [
        ("c", build_c(&program.emit_c(&file), dir, &stem, &[])),
        ("rust", build_rust(&program.emit_rust(&file), dir, &stem)),
    ];
    for (target, exe) in built {
        match exe {
            Err(e) => failures.push(format!("{} [{target}]: {e}", case.name)),
            Ok(exe) => {
                let got = run_exe(&exe, &[], &case.input);
                if got != reference {
                    failures.push(format!(
                        "{} [{target}] differs from the interpreter: exit {} vs {}\n--- {target} stdout\n{}\n--- run stdout\n{}\n--- {target} stderr\n{}\n--- run stderr\n{}",
                        case.name,
                        got.status,
                        reference.status,
                        show(&got.stdout),
                        show(&reference.stdout),
                        show(&got.stderr),
                        show(&reference.stderr)
                    ));
                }
            }
        }
    }
    failures
}

#[test]
fn every_program_agrees_across_interpreter_c_and_rust() {
    let dir = tempfile::tempdir().unwrap();
    for lang in &LANGUAGES {
        let mut all = (lang.examples)();
        all.extend(cases(
            &[&format!("tests/programs/{}", lang.folder)],
            lang.language.extension(),
        ));
        assert!(
            all.len() >= 10,
            "{}: only {} programs",
            lang.folder,
            all.len()
        );
        let indexed: Vec<(usize, &Case)> = all.iter().enumerate().collect();
        let failures: Vec<String> =
            parallel(&indexed, |&(i, case)| check_case(lang, case, i, dir.path()))
                .into_iter()
                .flatten()
                .collect();
        assert!(
            failures.is_empty(),
            "{}: {} of {} programs failed:\n\n{}",
            lang.folder,
            failures.len(),
            all.len(),
            failures.join("\n\n")
        );
    }
}

#[test]
fn every_example_has_expected_output() {
    for lang in &LANGUAGES {
        for case in (lang.examples)() {
            assert!(case.want_out.is_some(), "{} has no .out file", case.name);
        }
    }
}
