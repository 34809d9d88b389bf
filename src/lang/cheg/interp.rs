//! The interpreter: the endgame program inside the engine of
//! `runtime/engine.rs`, by walking the IR. It does control flow only; every
//! value, condition, instruction and outcome is computed by the runtime,
//! the same functions generated code calls (§5, §6).

use super::ir::{self, Literal, Op, Operand};
use super::runtime::engine::{
    self, EntrySpec, Error, Invocation, Outcome, Step, Then, Value, binary, unary,
};
use super::runtime::uci;
use std::io::{BufRead, Write};

/// The program as the engine sees it: the IR, its `ENTRY` lines in the
/// runtime's form, and its literals as values.
pub struct Interpreter<'a> {
    program: &'a ir::Program,
    entries: Vec<EntrySpec>,
}

/// The runtime value of a literal (§2).
pub fn literal_value(literal: &Literal) -> Value {
    match literal {
        Literal::Undefined => Value::Undefined,
        Literal::Logical(b) => Value::Logical(*b),
        Literal::Integer(n) => Value::Integer(*n),
        Literal::Set(items) => Value::Set(items.iter().map(literal_value).collect()),
    }
}

/// The runtime form of the IR's `ENTRY` lines.
pub fn entry_specs(program: &ir::Program) -> Vec<EntrySpec> {
    let side = |m: &ir::Material| (m.queens, m.rooks, m.bishops, m.knights, m.pawns);
    program
        .entries
        .iter()
        .map(|e| EntrySpec {
            start: e.statement + 1,
            mover: side(&e.mover),
            other: side(&e.other),
            pawn_diff: e.pawn_diff.map(|d| (d.cmp, d.m)),
        })
        .collect()
}

impl<'a> Interpreter<'a> {
    /// Prepares `program` for the engine.
    pub fn new(program: &'a ir::Program) -> Interpreter<'a> {
        Interpreter {
            program,
            entries: entry_specs(program),
        }
    }
}

fn read(inv: &Invocation<'_, '_>, operand: &Operand) -> Value {
    match operand {
        Operand::Var(var) => inv.read(*var),
        Operand::Literal(literal) => literal_value(literal),
    }
}

impl engine::Endgame for Interpreter<'_> {
    fn entries(&self) -> &[EntrySpec] {
        &self.entries
    }

    fn line(&self, pc: usize) -> u32 {
        self.program.statements.get(pc).map_or(0, |s| s.line)
    }

    fn user_vars(&self) -> usize {
        self.program.user_vars.len()
    }

    fn step(&self, pc: usize, inv: &mut Invocation<'_, '_>) -> Result<Step, Error> {
        let Some(statement) = self.program.statements.get(pc) else {
            return Ok(Step::Fence);
        };
        Ok(match &statement.op {
            Op::Fence => Step::Fence,
            Op::Break(a, b, c) => {
                let (a, b, c) = (read(inv, a), read(inv, b), read(inv, c));
                inv.break_line(statement.line, &a, &b, &c);
                Step::Next
            }
            Op::Return(v) => Step::Return(read(inv, v)),
            Op::Cond { cond, sub, target } => Step::Call {
                sub: *sub,
                arg: inv.x.clone(),
                then: Then::Cond(*cond, *target),
            },
            Op::CondV {
                cond,
                value,
                target,
            } => {
                let v = read(inv, value);
                if inv.test(*cond, &v)? {
                    Step::Goto(*target)
                } else {
                    Step::Next
                }
            }
            Op::CondTF {
                on_true,
                sub,
                arg,
                target,
            } => Step::Call {
                sub: *sub,
                arg: read(inv, arg),
                then: Then::CondTF(*on_true, *target),
            },
            Op::Jump { cmp, a, b, target } => {
                if engine::compare(*cmp, &read(inv, a), &read(inv, b))? {
                    Step::Goto(*target)
                } else {
                    Step::Next
                }
            }
            Op::Call {
                kind,
                dst,
                sub,
                arg,
            } => match kind {
                ir::CallKind::Set => Step::Call {
                    sub: *sub,
                    arg: read(inv, arg),
                    then: Then::Store(*dst),
                },
                kind => Step::Each {
                    kind: *kind,
                    dst: *dst,
                    sub: *sub,
                    set: read(inv, arg),
                },
            },
            Op::Unary { op, dst, a } => {
                let v = unary(&inv.node, *op, &read(inv, a))?;
                inv.write(*dst, v);
                Step::Next
            }
            Op::Binary { op, dst, a, b } => {
                let v = binary(&inv.node, *op, &read(inv, a), &read(inv, b))?;
                inv.write(*dst, v);
                Step::Next
            }
            Op::Exch(a, b) => {
                let (va, vb) = (inv.read(*a), inv.read(*b));
                inv.write(*a, vb);
                inv.write(*b, va);
                Step::Next
            }
            Op::Order(a, b, ordering) => {
                inv.order(*a, *b, *ordering)?;
                Step::Next
            }
            Op::Selecc { dst, cond, set } => {
                let items = match read(inv, set) {
                    Value::Set(items) => items,
                    other => return Err(Error::Fault(format!("expected a set, got {other}"))),
                };
                let mut kept = Vec::new();
                for item in items {
                    if inv.test(*cond, &item)? {
                        kept.push(item);
                    }
                }
                inv.write(*dst, Value::Set(kept));
                Step::Next
            }
            Op::SetEl { value, set, index } => {
                let (v, u, i) = (read(inv, value), inv.read(*set), read(inv, index));
                let updated = engine::set_element(v, u, &i)?;
                inv.write(*set, updated);
                Step::Next
            }
            Op::Insert { value, set, index } => {
                let (v, u, i) = (read(inv, value), inv.read(*set), read(inv, index));
                let updated = engine::insert_element(v, u, &i)?;
                inv.write(*set, updated);
                Step::Next
            }
            Op::Unsert { dst, set, index } => {
                let (u, i) = (inv.read(*set), read(inv, index));
                let (removed, rest) = engine::remove_element(u, &i)?;
                inv.write(*dst, removed);
                inv.write(*set, rest);
                Step::Next
            }
            Op::ExchWe { a, set, index } => {
                let (u1, u2, i) = (inv.read(*a), inv.read(*set), read(inv, index));
                let (new_a, new_set) = engine::exchange_with_element(u1, u2, &i)?;
                inv.write(*a, new_a);
                inv.write(*set, new_set);
                Step::Next
            }
            Op::ExchEl { set, i, j } => {
                let (u, i, j) = (inv.read(*set), read(inv, i), read(inv, j));
                let updated = engine::exchange_elements(u, &i, &j)?;
                inv.write(*set, updated);
                Step::Next
            }
            Op::Play {
                kind,
                set,
                cond,
                order,
            } => {
                let s = read(inv, set);
                match inv.play(*kind, &s, *cond, *order)? {
                    Some(outcome) => Step::Outcome(outcome),
                    None => Step::Next,
                }
            }
            Op::Plan { tag, set, value } => {
                let (s, v) = (read(inv, set), read(inv, value));
                inv.plan(*tag, &s, v)?;
                Step::Next
            }
            Op::Unplan => {
                inv.unplan();
                Step::Next
            }
            Op::Done => match inv.done() {
                Outcome::Leave => Step::Leave,
                outcome => Step::Outcome(outcome),
            },
            Op::Leave => Step::Leave,
            Op::Value { kind, w, l, c } => {
                let (w, l, c) = (read(inv, w), read(inv, l), read(inv, c));
                match inv.value(*kind, &w, &l, &c)? {
                    Some(Outcome::Leave) => Step::Leave,
                    Some(outcome) => Step::Outcome(outcome),
                    None => Step::Next,
                }
            }
        })
    }
}

/// Runs the engine with the program built in, as `icp2c run PROG.cheg
/// ARGS` (§7.4). Returns the exit status (0, 1 runtime error §9, 2 bad FEN
/// or usage).
pub fn run(
    program: &ir::Program,
    args: &[String],
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    errors: &mut dyn Write,
) -> i32 {
    let interpreter = Interpreter::new(program);
    uci::main(args, &interpreter, input, output, errors)
}
