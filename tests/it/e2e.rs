//! End to end, one harness looped over the languages whose programs read
//! input and print (InfChessPro and Finvara; a CHEG program is an engine,
//! checked query by query in tests/it/cheg.rs), always through the driver:
//!
//! - every example and every program of `tests/programs/<lang>` (with its
//!   `.in`, `.out`, `.status` and, for a runtime error, `.err`: the error
//!   line) runs in the interpreter, which must match them;
//! - each is compiled to C (`cc -std=c99 -Wall -Wextra -Wpedantic -Werror`,
//!   one `cc` a program) and to Rust (`rustc -D warnings`, the module form
//!   of every program of a language in one `rustc`: tests/support/batch.rs),
//!   and both must match the interpreter byte for byte: standard output,
//!   standard error and exit status;
//! - the acceptance cases of `../shared/conformance/<suite>` run in
//!   tests/acceptance.rs, which reports a missing folder as ignored.

use crate::support;

use icp2c::Outcome;
use icp2c::driver::{Language, Program};
use std::path::Path;
use support::batch::{Prog, build_rust_batch, compare, run_batch};
use support::{Case, Ran, build_c, cases, parallel, run_exe, show};

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

/// Every case of `lang` through the interpreter, its C (one `cc` each)
/// and its Rust (all of them one `rustc` batch, tests/support/batch.rs):
/// the failures.
fn check_language(lang: &Lang, all: &[Case], dir: &Path) -> Vec<String> {
    let progs: Vec<Prog> = all
        .iter()
        .map(|case| Prog {
            name: case.name.clone(),
            lang: lang.language,
            source: std::fs::read_to_string(&case.path).unwrap(),
            input: case.input.clone(),
        })
        .collect();
    let programs: Vec<Program> = progs.iter().map(Prog::checked).collect();
    let files: Vec<String> = all
        .iter()
        .map(|case| {
            case.path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let members: Vec<(&Program, String)> = programs.iter().zip(files.iter().cloned()).collect();
    // Job 0 is the Rust batch, job i + 1 the C of case i.
    let jobs: Vec<usize> = (0..=all.len()).collect();
    let built = parallel(&jobs, |&j| {
        if j == 0 {
            build_rust_batch(&members, dir, &format!("{}_rust", lang.folder))
        } else {
            let i = j - 1;
            build_c(
                &programs[i].emit_c(&files[i]),
                dir,
                &format!("{}{i}", lang.folder),
                &[],
            )
        }
    });
    let mut failures = Vec::new();
    if let Err(e) = &built[0] {
        failures.push(format!("{} [rust]: {e}", lang.folder));
    }
    let indexed: Vec<usize> = (0..all.len()).collect();
    let per_case = parallel(&indexed, |&i| {
        let case = &all[i];
        let reference = interpret(&programs[i], case);
        let mut failures: Vec<String> = expected(case, &reference).into_iter().collect();
        match &built[i + 1] {
            Err(e) => failures.push(format!("{} [c]: {e}", case.name)),
            Ok(exe) => failures.extend(compare(
                &progs[i],
                "c",
                &run_exe(exe, &[], &case.input),
                &reference,
            )),
        }
        if let Ok(exe) = &built[0] {
            failures.extend(compare(
                &progs[i],
                "rust",
                &run_batch(exe, i, &case.input),
                &reference,
            ));
        }
        failures
    });
    failures.extend(per_case.into_iter().flatten());
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
        let failures = check_language(lang, &all, dir.path());
        assert!(
            failures.is_empty(),
            "{}: {} failures in {} programs:\n\n{}",
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
