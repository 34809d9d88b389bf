//! `icp2c fmt` for InfChessPro: a statement is `N. command` from the
//! first column, its label, command and jump targets as written with the
//! blanks §2 makes insignificant taken out (`x = R 0 , 5 ? 3` is
//! `x=R0,5?3`); a text command keeps its text verbatim, trailing blanks
//! included (§4.6). A comment line starts at the first column; blank
//! lines stay. `--renumber START,STEP` relabels the statements and
//! rewrites every literal jump target.

use super::ast::{Command, Operand, Program, Statement};
use super::syntax;
use crate::common::diagnostic::Diagnostic;
use crate::common::format::is_blank;
use crate::common::source;
use crate::lang::{FormatOptions, Renumber};

/// The formatted lines of `source`, one per source line ([`crate::lang::Lang::format`]).
pub fn format(source: &str, options: &FormatOptions) -> Result<Vec<String>, Vec<Diagnostic>> {
    let (program, errors) = syntax::parse(source);
    if !errors.is_empty() {
        return Err(errors);
    }
    let labels = match options.renumber {
        Some(renumber) => Some(new_labels(&program, renumber)?),
        None => None,
    };
    let mut statements = program.statements.iter().enumerate().peekable();
    let mut out = Vec::new();
    for line in source::lines(source) {
        let body = line.text.trim_start_matches(is_blank);
        if body.is_empty() {
            out.push(String::new());
        } else if body.starts_with('#') {
            out.push(body.trim_end_matches(is_blank).to_string());
        } else if let Some((i, statement)) = statements.next_if(|(_, s)| s.line == line.number) {
            let new_label = |index: usize| labels.as_ref().and_then(|l| l.get(index)).copied();
            out.push(format_statement(
                source,
                statement,
                line.start + line.text.len(),
                new_label(i),
                |target| new_label(label_index(&program, target)?),
            ));
        } else {
            // Not a statement of the parsed program: kept as it is (a
            // program that checks has none).
            out.push(line.text.to_string());
        }
    }
    Ok(out)
}

/// The index of the statement labelled `label` (labels increase, §1).
fn label_index(program: &Program, label: i64) -> Option<usize> {
    program
        .statements
        .binary_search_by_key(&label, |s| s.label)
        .ok()
}

/// One statement line, `end` its end in `source`: `label. command`, the
/// label `new_label` when renumbering, every literal jump target what
/// `target` maps it to (when it maps it).
fn format_statement(
    source: &str,
    statement: &Statement,
    end: usize,
    new_label: Option<i64>,
    target: impl Fn(i64) -> Option<i64>,
) -> String {
    let text = |span: std::ops::Range<usize>| source.get(span).unwrap_or_default();
    let label = match new_label {
        Some(label) => label.to_string(),
        None => text(statement.label_span.clone()).to_string(),
    };
    // The command starts after the label's `.` (§1: no blank before it).
    let after_dot = statement.label_span.end + 1;
    if let Command::Text(_) = statement.command {
        let command = text(after_dot..end).trim_start_matches(is_blank);
        return format!("{label}. {command}");
    }
    let mut replaced: Vec<(std::ops::Range<usize>, String)> =
        [&statement.suffix.on_success, &statement.suffix.on_failure]
            .into_iter()
            .flatten()
            .filter_map(|operand| match operand {
                Operand::Int(value, span) => Some((span.clone(), target(*value)?.to_string())),
                Operand::Star(_) => None,
            })
            .collect();
    replaced.sort_by_key(|(span, _)| span.start);
    let mut command = String::new();
    let mut at = after_dot;
    for (span, new) in replaced {
        command.push_str(text(at..span.start));
        command.push_str(&new);
        at = span.end;
    }
    command.push_str(text(at..end));
    command.retain(|c| !is_blank(c));
    format!("{label}. {command}")
}

/// The new label of every statement, in order; refuses a program with a
/// jump whose target is read from input (renumbering would silently send
/// it elsewhere) and labels past 2^63−1.
fn new_labels(program: &Program, renumber: Renumber) -> Result<Vec<i64>, Vec<Diagnostic>> {
    let read: Vec<std::ops::Range<usize>> = program
        .statements
        .iter()
        .flat_map(|s| [&s.suffix.on_success, &s.suffix.on_failure])
        .flatten()
        .filter_map(|target| match target {
            Operand::Star(span) => Some(span.clone()),
            Operand::Int(..) => None,
        })
        .collect();
    if let Some(first) = read.iter().min_by_key(|span| span.start) {
        let mut d = Diagnostic::error(
            first.clone(),
            "cannot renumber: this jump reads its target label from input",
        )
        .with_label("the label to jump to is read when the statement runs")
        .with_note(
            "renumbering would leave the numbers the input gives pointing at the old labels (§5, §6)",
        );
        if read.len() > 1 {
            let more = read.len() - 1;
            d = d.with_note(format!(
                "{more} more jump{} read{} its target from input",
                if more == 1 { "" } else { "s" },
                if more == 1 { "s" } else { "" }
            ));
        }
        return Err(vec![d]);
    }
    let Renumber { start, step } = renumber;
    if start < 0 || step < 1 {
        return Err(vec![
            Diagnostic::error(
                0..0,
                format!("cannot renumber from {start} by {step}: labels start at 0 or more and grow by 1 or more"),
            )
            .with_label("labels are 0 ≤ label ≤ 2^63−1 and strictly increasing (§1)"),
        ]);
    }
    let mut labels = Vec::with_capacity(program.statements.len());
    for (i, statement) in program.statements.iter().enumerate() {
        let label = i64::try_from(i)
            .ok()
            .and_then(|i| i.checked_mul(step))
            .and_then(|offset| offset.checked_add(start));
        match label {
            Some(label) => labels.push(label),
            None => {
                return Err(vec![
                    Diagnostic::error(
                        statement.label_span.clone(),
                        format!(
                            "cannot renumber from {start} by {step}: this statement's label would pass 9223372036854775807"
                        ),
                    )
                    .with_label(format!("statement {} of {}", i + 1, program.statements.len()))
                    .with_note("a label is a decimal integer 0 ≤ label ≤ 2^63−1 (§1)"),
                ]);
            }
        }
    }
    Ok(labels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::format::assemble;

    fn fmt(source: &str) -> String {
        assemble(source, format(source, &FormatOptions::default()).unwrap())
    }

    fn renumber(source: &str, start: i64, step: i64) -> Result<String, Vec<Diagnostic>> {
        let options = FormatOptions {
            renumber: Some(Renumber { start, step }),
        };
        format(source, &options).map(|lines| assemble(source, lines))
    }

    #[test]
    fn blanks_between_items_go_and_text_stays_verbatim() {
        assert_eq!(
            fmt("  1.x = R 0 , 5 ? 3\n2.\t\"a ? b \t\n3.  ^ ! 1\n"),
            "1. x=R0,5?3\n2. \"a ? b \t\n3. ^!1\n"
        );
        assert_eq!(fmt("007. % n\t\n"), "007. %n\n");
        assert_eq!(fmt("1. -1 , * , 2,3 !* ?1"), "1. -1,*,2,3!*?1\n");
    }

    #[test]
    fn comments_and_blank_lines_stay_where_they_are() {
        assert_eq!(
            fmt("\n  # a comment  \n\n\n1. ^\n \t\n"),
            "\n# a comment\n\n\n1. ^\n"
        );
    }

    #[test]
    fn formatting_twice_changes_nothing() {
        let once = fmt(" 1.  x=R0,0 ? 2 ! 1\n# c\n2.^\n");
        assert_eq!(once, "1. x=R0,0?2!1\n# c\n2. ^\n");
        assert_eq!(fmt(&once), once);
    }

    #[test]
    fn a_program_that_does_not_parse_is_refused() {
        assert!(format("1. ^\n2 .^\n", &FormatOptions::default()).is_err());
    }

    #[test]
    fn renumbering_rewrites_labels_and_literal_targets() {
        let src = "5. x=R0,0?20!5\n# loop\n20. x;0,1 ? 5\n30. \"?5 stays text\n";
        assert_eq!(
            renumber(src, 10, 10).unwrap(),
            "10. x=R0,0?20!10\n# loop\n20. x;0,1?10\n30. \"?5 stays text\n"
        );
        assert_eq!(renumber("1. ^?3\n3. ^\n", 0, 1).unwrap(), "0. ^?1\n1. ^\n");
    }

    #[test]
    fn renumbering_refuses_jumps_read_from_input() {
        let src = "1. ^\n2. x=R0,*?1\n3. ^ !* ?1\n4. ^?*\n";
        let errors = renumber(src, 1, 1).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(&src[errors[0].primary.span.clone()], "*");
        assert_eq!(errors[0].primary.span.start, src.find("!*").unwrap() + 1);
        assert!(errors[0].notes.iter().any(|n| n.contains("1 more jump")));
    }

    #[test]
    fn renumbering_past_the_largest_label_is_refused() {
        let errors = renumber("1. ^\n2. ^\n3. ^\n", i64::MAX - 1, 1).unwrap_err();
        assert!(errors[0].message.contains("would pass"), "{errors:?}");
        assert!(renumber("1. ^\n2. ^\n", i64::MAX - 1, 1).is_ok());
        assert!(renumber("1. ^\n", -1, 1).is_err());
        assert!(renumber("1. ^\n", 0, 0).is_err());
    }
}
