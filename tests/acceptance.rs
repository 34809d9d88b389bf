//! The acceptance cases of `../shared/conformance/<suite>` (a folder that
//! sits beside the checkout in CI, not in the repository) run in the
//! interpreter; the acceptance suite (`.ci/run`) runs them compiled too.
//!
//! A suite whose folder is missing is reported as ignored, with the
//! reason, never as a pass that ran no case: this binary has its own
//! harness (libtest-mimic) so that the choice is made when it runs.

mod support;

use icp2c::Outcome;
use icp2c::driver::{self, Language};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use support::{Case, cases, show};

/// The suites run here: the folder under `../shared/conformance` and its
/// language.
const SUITES: [(&str, Language); 2] = [
    ("icp", Language::InfChessPro),
    ("finvara", Language::Finvara),
];

fn main() {
    let args = Arguments::from_args();
    let trials = SUITES
        .iter()
        .map(|&(folder, language)| {
            Trial::ignorable_test(
                format!("acceptance_cases_run_in_the_interpreter::{folder}"),
                move || run_suite(folder, language),
            )
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// Runs every case of `../shared/conformance/<folder>` in the interpreter.
fn run_suite(folder: &str, language: Language) -> Result<Completion, Failed> {
    let dir = format!("../shared/conformance/{folder}");
    if !support::root().join(&dir).is_dir() {
        return Ok(Completion::ignored_with(format!(
            "{dir} is missing: the acceptance cases sit beside the checkout, not in it"
        )));
    }
    let all = cases(&[&dir], language.extension());
    if all.is_empty() {
        return Err(format!("{dir} holds no .{} case", language.extension()).into());
    }
    let failures: Vec<String> = all
        .iter()
        .filter_map(|case| check(language, case))
        .collect();
    if failures.is_empty() {
        Ok(Completion::Completed)
    } else {
        Err(format!(
            "{} of {} cases failed:\n\n{}",
            failures.len(),
            all.len(),
            failures.join("\n\n")
        )
        .into())
    }
}

/// What the interpreter's run of `case` lacks of its expectations.
fn check(language: Language, case: &Case) -> Option<String> {
    let source = match std::fs::read_to_string(&case.path) {
        Ok(source) => source,
        Err(e) => return Some(format!("{}: cannot read: {e}", case.name)),
    };
    let program = match driver::check(language, &source) {
        Ok(checked) => checked.program,
        Err(errors) => return Some(format!("{}: rejected: {errors:?}", case.name)),
    };
    let mut stdout = Vec::new();
    let outcome = program.run(&mut case.input.as_slice(), &mut stdout, Some(1 << 62));
    if matches!(outcome, Outcome::StepLimit(_)) {
        return Some(format!("{}: ran away", case.name));
    }
    let stderr = match &outcome {
        Outcome::RuntimeError(line) => line.clone(),
        _ => String::new(),
    };
    let status = outcome.exit_status();
    let out_ok = case.want_out.as_ref().is_none_or(|want| &stdout == want);
    let err_ok = case.want_err.as_ref().is_none_or(|want| &stderr == want);
    (!out_ok || !err_ok || status != case.want_status).then(|| {
        format!(
            "{}: exit {status} (want {}), stderr {stderr:?} (want {:?})\n--- got\n{}\n--- want\n{}",
            case.name,
            case.want_status,
            case.want_err,
            show(&stdout),
            show(case.want_out.as_deref().unwrap_or_default())
        )
    })
}
