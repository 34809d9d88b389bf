//! End to end, for every InfChessPro program of the project (examples and
//! tests/programs): the interpreter must match the expected `.out`/`.status`
//! files, and the generated C (built with the strict flags) and the
//! generated Rust (built with `rustc -D warnings`) must match the
//! interpreter byte for byte: stdout, stderr and exit status.

mod support;

use icp2c::Outcome;
use icp2c::backend;
use icp2c::icp;
use support::{Case, Ran, build_c, build_rust, cases, parallel, run_exe, show};

fn interpret(case: &Case) -> Ran {
    let text = std::fs::read_to_string(&case.path).unwrap();
    let program = icp::check(&text)
        .unwrap_or_else(|e| panic!("{} rejected: {e:?}", case.name))
        .program;
    let mut stdout = Vec::new();
    let outcome = icp::interp::run(
        &program,
        &mut case.input.as_slice(),
        &mut stdout,
        Some(50_000_000),
    );
    let stderr = match &outcome {
        Outcome::RuntimeError(line) => format!("{line}\n").into_bytes(),
        _ => Vec::new(),
    };
    assert!(
        !matches!(outcome, Outcome::StepLimit(_)),
        "{} ran away",
        case.name
    );
    Ran {
        status: outcome.exit_status(),
        stdout,
        stderr,
    }
}

fn check_case(case: &Case, dir: &std::path::Path) -> Vec<String> {
    let mut failures = Vec::new();
    let reference = interpret(case);
    if let Some(want) = &case.want_out
        && (&reference.stdout != want || reference.status != case.want_status)
    {
        failures.push(format!(
            "{} [run]: exit {} (want {})\n--- got\n{}\n--- want\n{}",
            case.name,
            reference.status,
            case.want_status,
            show(&reference.stdout),
            show(want)
        ));
    }
    let text = std::fs::read_to_string(&case.path).unwrap();
    let program = icp::check(&text).unwrap().program;
    let name = case
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let built = [
        (
            "c",
            build_c(&backend::c::emit(&program, &name), dir, &case.name, &[]),
        ),
        (
            "rust",
            build_rust(&backend::rust::emit(&program, &name), dir, &case.name),
        ),
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
    let cases = cases(&["examples", "tests/programs"], "icp");
    assert!(cases.len() >= 10, "test programs not found");
    let dir = tempfile::tempdir().unwrap();
    let failures: Vec<String> = parallel(&cases, |c| check_case(c, dir.path()))
        .into_iter()
        .flatten()
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} programs failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_example_has_expected_output() {
    for case in cases(&["examples"], "icp") {
        assert!(
            case.want_out.is_some(),
            "examples/{}.icp has no .out file",
            case.name
        );
    }
}
