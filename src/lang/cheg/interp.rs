//! The interpreter: the endgame program inside the engine of
//! `runtime/engine.rs`, by walking the IR. It does control flow only; every
//! value, condition, instruction and outcome is computed by the runtime,
//! the same functions generated code calls (§5, §6).

use super::ir::{self, Literal, Op, Operand};
use super::runtime::chess::{Position, display};
use super::runtime::engine::{self, EntrySpec, Error, Invocation, Step, Then, Value};
use super::runtime::uci;
use std::cell::RefCell;
use std::io::Write;

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
        Literal::Set(text) => engine::set_literal(text),
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
            pawn_diff: e.pawn_diff.map(|d| {
                let order = match d.cmp {
                    ir::Compare::Lt => std::cmp::Ordering::Less,
                    ir::Compare::Gt => std::cmp::Ordering::Greater,
                    _ => std::cmp::Ordering::Equal,
                };
                (order, d.m)
            }),
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
        // Each arm is what generated code writes for the statement
        // (backend/rust.rs): one call into the runtime.
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
            } => Invocation::branch(inv.test(*cond, &read(inv, value))?, *target),
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
            Op::Jump { cmp, a, b, target } => Invocation::branch(
                engine::compare(*cmp, &read(inv, a), &read(inv, b))?,
                *target,
            ),
            Op::Call {
                kind: ir::CallKind::Set,
                dst,
                sub,
                arg,
            } => Step::Call {
                sub: *sub,
                arg: read(inv, arg),
                then: Then::Store(*dst),
            },
            Op::Call {
                kind,
                dst,
                sub,
                arg,
            } => Step::Each {
                kind: *kind,
                dst: *dst,
                sub: *sub,
                set: read(inv, arg),
            },
            Op::Unary { op, dst, a } => {
                inv.unary(*op, *dst, &read(inv, a))?;
                Step::Next
            }
            Op::Binary { op, dst, a, b } => {
                inv.binop(*op, *dst, read(inv, a), &read(inv, b))?;
                Step::Next
            }
            Op::Exch(a, b) => {
                inv.exch(*a, *b);
                Step::Next
            }
            Op::Order(a, b, ordering) => {
                inv.order(*a, *b, *ordering)?;
                Step::Next
            }
            Op::Selecc { dst, cond, set } => {
                inv.selecc(*dst, *cond, &read(inv, set))?;
                Step::Next
            }
            Op::SetEl { value, set, index } => {
                inv.set_element(read(inv, value), *set, &read(inv, index))?;
                Step::Next
            }
            Op::Insert { value, set, index } => {
                inv.insert(read(inv, value), *set, &read(inv, index))?;
                Step::Next
            }
            Op::Unsert { dst, set, index } => {
                inv.unsert(*dst, *set, &read(inv, index))?;
                Step::Next
            }
            Op::ExchWe { a, set, index } => {
                inv.exchwe(*a, *set, &read(inv, index))?;
                Step::Next
            }
            Op::ExchEl { set, i, j } => {
                inv.exchel(*set, &read(inv, i), &read(inv, j))?;
                Step::Next
            }
            Op::Play {
                kind,
                set,
                cond,
                order,
            } => Invocation::outcome(inv.play(*kind, &read(inv, set), *cond, *order)?),
            Op::Plan { tag, set, value } => {
                inv.plan(*tag, &read(inv, set), read(inv, value))?;
                Step::Next
            }
            Op::Unplan => {
                inv.unplan();
                Step::Next
            }
            Op::Done => Invocation::outcome(Some(inv.done())),
            Op::Leave => Step::Leave,
            Op::Value { kind, w, l, c } => Invocation::outcome(inv.value(
                *kind,
                &read(inv, w),
                &read(inv, l),
                &read(inv, c),
            )?),
        })
    }
}

/// Where a run's engine reads its commands and the time (§7.5).
pub struct Host<'h> {
    /// The UCI commands.
    pub commands: &'h mut dyn uci::Commands,
    /// The clock of time-limited searches.
    pub clock: &'h dyn uci::Clock,
}

/// Runs the engine with the program built in, as `icp2c run PROG.cheg
/// ARGS` (§7.4, §7.5); `name` is the engine's (`id name`). Returns the
/// exit status (0, 1 runtime error §9, 2 bad FEN, move or usage).
pub fn run(
    program: &ir::Program,
    name: &str,
    args: &[String],
    host: Host<'_>,
    output: &mut dyn Write,
    errors: &mut dyn Write,
) -> i32 {
    let interpreter = Interpreter::new(program);
    uci::main(
        name,
        args,
        &interpreter,
        host.commands,
        host.clock,
        output,
        errors,
    )
}

/// [`run`] for `icp2c run --trace` and `--board` (issue 14), both on
/// `errors`: with `trace`, every statement the program executes at the
/// root of a search (DEPTH 1: the invocation that may choose the move, and
/// the subroutines it calls) as `root LINE: TEXT`; with `board`, the
/// position of a `--fen` query before its search, drawn as the UCI
/// command `d` draws it (in UCI mode, `d` itself is the way).
#[allow(clippy::too_many_arguments)]
pub fn run_watched(
    program: &ir::Program,
    name: &str,
    args: &[String],
    host: Host<'_>,
    output: &mut dyn Write,
    errors: &mut dyn Write,
    trace: bool,
    board: bool,
) -> i32 {
    if board {
        let fen = args
            .iter()
            .position(|a| a == "--fen")
            .and_then(|i| args.get(i + 1));
        if let Some(Ok(position)) = fen.map(|f| Position::from_fen(f)) {
            let _ = write!(errors, "{}", display(&position));
        }
    }
    let shared = RefCell::new(errors);
    let traced = Traced {
        inner: Interpreter::new(program),
        out: &shared,
        trace,
    };
    uci::main(
        name,
        args,
        &traced,
        host.commands,
        host.clock,
        output,
        &mut Shared(&shared),
    )
}

/// The interpreter, reporting the statements it executes at the root.
struct Traced<'a, 'w> {
    inner: Interpreter<'a>,
    out: &'a RefCell<&'w mut dyn Write>,
    trace: bool,
}

/// A writer shared by the trace and the engine's own reports (`BREAK`,
/// errors), so that both keep their order on one stream.
struct Shared<'a, 'w>(&'a RefCell<&'w mut dyn Write>);

impl Write for Shared<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

impl engine::Endgame for Traced<'_, '_> {
    fn entries(&self) -> &[EntrySpec] {
        self.inner.entries()
    }

    fn line(&self, pc: usize) -> u32 {
        self.inner.line(pc)
    }

    fn user_vars(&self) -> usize {
        self.inner.user_vars()
    }

    fn step(&self, pc: usize, inv: &mut Invocation<'_, '_>) -> Result<Step, Error> {
        if self.trace
            && inv.read(engine::Var::Depth) == Value::Integer(1)
            && let Some(statement) = self.inner.program.statements.get(pc)
        {
            let _ = writeln!(
                self.out.borrow_mut(),
                "root {}: {}",
                statement.line,
                statement.text.trim()
            );
        }
        self.inner.step(pc, inv)
    }
}
