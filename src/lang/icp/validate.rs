//! Checks a parsed program as a whole (§1 label order, §5 literal jump
//! targets) and finds likely mistakes worth a warning.

use super::ast::{Command, Operand, Program};
use crate::common::diagnostic::Diagnostic;
use std::collections::BTreeSet;

/// Returns the errors and warnings of `program`, in line order per kind.
pub fn validate(program: &Program) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    for pair in program.labels.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        if after.value <= before.value {
            errors.push(
                Diagnostic::error(
                    after.span.clone(),
                    format!(
                        "labels must increase: {} follows {} (line {})",
                        after.value, before.value, before.line
                    ),
                )
                .with_label(format!("must be greater than {}", before.value))
                .with_secondary(before.span.clone(), "previous label")
                .with_note("labels must be strictly increasing from top to bottom (§1)"),
            );
        }
    }
    let labels: BTreeSet<i64> = program.labels.iter().map(|l| l.value).collect();
    for statement in &program.statements {
        for target in [&statement.suffix.on_success, &statement.suffix.on_failure]
            .into_iter()
            .flatten()
        {
            if let Operand::Int(value, span) = target
                && !labels.contains(value)
            {
                errors.push(
                    Diagnostic::error(span.clone(), format!("no statement is labelled {value}"))
                        .with_label("unknown jump target")
                        .with_note("a literal jump target must label a statement of the file (§5)"),
                );
            }
        }
    }
    (errors, unplaced_names(program))
}

/// Warns once per name that is moved or counted but never placed: such a
/// command can never find a piece (§4.3, §4.4, §4.7).
fn unplaced_names(program: &Program) -> Vec<Diagnostic> {
    let placed: BTreeSet<&str> = program
        .statements
        .iter()
        .filter_map(|s| match &s.command {
            Command::Place { name, .. } => Some(name.text.as_str()),
            _ => None,
        })
        .collect();
    let mut warned = BTreeSet::new();
    let mut warnings = Vec::new();
    for statement in &program.statements {
        let (name, what) = match &statement.command {
            Command::MoveNameTo { name, .. } | Command::MoveNameBy { name, .. } => (name, "moved"),
            Command::Count(name) => (name, "counted"),
            _ => continue,
        };
        if !placed.contains(name.text.as_str()) && warned.insert(name.text.as_str()) {
            let help = if what == "moved" {
                "this move always fails (§4.3)"
            } else {
                "this count is always 0 (§4.7)"
            };
            warnings.push(
                Diagnostic::warning(
                    name.span.clone(),
                    format!("`{}` is {what} but never placed", name.text),
                )
                .with_label("no statement places a piece with this name")
                .with_note(help),
            );
        }
    }
    warnings
}
