//! Lowers a validated syntax tree to the IR: resolves labels, interns
//! names and numbers the `*` reads in source order (§6).

use super::ast::{self, Operand};
use super::ir::{Command, NameId, Program, Statement, Target, Value};
use std::collections::HashMap;

/// Lowers `program`, which must have passed [`super::validate::validate`]
/// with no error (every literal target labels a statement).
pub fn lower(program: &ast::Program) -> Program {
    let mut names: Vec<String> = Vec::new();
    let mut ids: HashMap<String, NameId> = HashMap::new();
    let mut intern = |name: &ast::Name| -> NameId {
        if let Some(&id) = ids.get(&name.text) {
            return id;
        }
        let id = names.len() as NameId;
        names.push(name.text.clone());
        ids.insert(name.text.clone(), id);
        id
    };
    let index_of: HashMap<i64, usize> = program
        .statements
        .iter()
        .enumerate()
        .map(|(i, s)| (s.label, i))
        .collect();
    let mut statements = Vec::with_capacity(program.statements.len());
    for s in &program.statements {
        let mut inputs = 0usize;
        let mut value = |o: &Operand| match o {
            Operand::Int(v, _) => Value::Lit(*v),
            Operand::Star(_) => {
                inputs += 1;
                Value::Input(inputs - 1)
            }
        };
        let command = match &s.command {
            ast::Command::Place {
                name,
                colour,
                kind,
                row,
                col,
            } => Command::Place {
                name: intern(name),
                colour: *colour,
                kind: *kind,
                row: value(row),
                col: value(col),
            },
            ast::Command::MoveSquares { from, to } => Command::MoveSquares {
                r1: value(&from.0),
                c1: value(&from.1),
                r2: value(&to.0),
                c2: value(&to.1),
            },
            ast::Command::MoveNameTo { name, row, col } => Command::MoveNameTo {
                name: intern(name),
                row: value(row),
                col: value(col),
            },
            ast::Command::MoveNameBy { name, drow, dcol } => Command::MoveNameBy {
                name: intern(name),
                drow: value(drow),
                dcol: value(dcol),
            },
            ast::Command::Nothing => Command::Nothing,
            ast::Command::Text(t) => Command::Text(t.clone()),
            ast::Command::Count(name) => Command::Count(intern(name)),
        };
        let mut target = |o: &Option<Operand>| {
            o.as_ref().map(|o| match value(o) {
                Value::Input(k) => Target::Input(k),
                // Validation guarantees the label exists; 0 is never reached otherwise.
                Value::Lit(label) => Target::Statement(index_of.get(&label).copied().unwrap_or(0)),
            })
        };
        let (on_success, on_failure) = if s.suffix.failure_first {
            let f = target(&s.suffix.on_failure);
            (target(&s.suffix.on_success), f)
        } else {
            let t = target(&s.suffix.on_success);
            (t, target(&s.suffix.on_failure))
        };
        statements.push(Statement {
            label: s.label,
            line: s.line,
            text: s.text.clone(),
            inputs,
            command,
            on_success,
            on_failure,
        });
    }
    Program { statements, names }
}
