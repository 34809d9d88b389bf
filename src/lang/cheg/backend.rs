//! The Rust back end (issue 12): a standalone UCI engine, one file or a
//! crate. The runtime (`runtime/chess.rs`, `engine.rs`, `uci.rs`, the very
//! files icp2c's interpreter runs) is embedded verbatim as `icp_rt`; the
//! endgame program becomes `Endgame::step`, a `match` on the statement
//! number whose arms make the same runtime calls as the interpreter's
//! (`interp.rs`), each under its source line.

pub mod c;

use super::ir::{Kind, Literal, Op, Operand, Program, Var};
use super::runtime::engine::{Compare, Cond, Ordering, Test};
use crate::codegen::{self, Syntax, escape::comment};
use askama::Template;

/// The runtime's source files, as the sibling modules of `icp_rt`.
const CHESS: &str = include_str!("runtime/chess.rs");
const ENGINE: &str = include_str!("runtime/engine.rs");
const UCI: &str = include_str!("runtime/uci.rs");

/// The runtime as one module body: `pub mod chess { … } pub mod engine {
/// … } pub mod uci { … }`.
pub fn runtime() -> String {
    format!(
        "pub mod chess {{\n{}}}\n\npub mod engine {{\n{}}}\n\npub mod uci {{\n{}}}\n",
        codegen::indent(CHESS.trim_end(), 1),
        codegen::indent(ENGINE.trim_end(), 1),
        codegen::indent(UCI.trim_end(), 1)
    )
}

/// One statement as the templates (C and Rust) lay it out: its number,
/// its source line as a comment, the target's code.
struct CaseView {
    pc: usize,
    comment: String,
    body: String,
}

/// Every statement of `program` as a case, its code written by `body`
/// (given the operation and the source line).
fn cases(program: &Program, body: impl Fn(&Op, u32) -> String) -> Vec<CaseView> {
    program
        .statements
        .iter()
        .enumerate()
        .map(|(pc, s)| CaseView {
            pc,
            comment: format!("{}: {}", s.line, comment(s.text.trim())),
            body: body(&s.op, s.line),
        })
        .collect()
}

/// The source line of each statement (for runtime errors and `BREAK`).
fn source_lines(program: &Program) -> Vec<String> {
    program
        .statements
        .iter()
        .map(|s| s.line.to_string())
        .collect()
}

#[derive(Template)]
#[template(path = "cheg/rust/program.rs", escape = "none")]
struct ProgramView {
    header: String,
    inline_runtime: Option<String>,
    entries: Vec<String>,
    lines: Vec<String>,
    user_vars: usize,
    cases: Vec<CaseView>,
}

/// Generated Rust: one file with the runtime inlined (`single_file`), or a
/// crate's `src/main.rs`, which declares `mod icp_rt;`.
pub fn emit_rust(program: &Program, source_name: &str, single_file: bool) -> String {
    let view = ProgramView {
        header: codegen::header("CHEG", source_name),
        inline_runtime: single_file.then(|| codegen::inline_runtime(&runtime())),
        entries: super::interp::entry_specs(program)
            .iter()
            .map(|e| {
                let side = |s: (u8, u8, u8, u8, Option<u8>)| {
                    format!("({}, {}, {}, {}, {:?})", s.0, s.1, s.2, s.3, s.4)
                };
                format!(
                    "icp_e::EntrySpec {{ start: {}, mover: {}, other: {}, pawn_diff: {} }}",
                    e.start,
                    side(e.mover),
                    side(e.other),
                    e.pawn_diff.map_or("None".into(), |(c, m)| format!(
                        "Some(({}, {m}))",
                        compare(c)
                    ))
                )
            })
            .collect(),
        lines: source_lines(program),
        user_vars: program.user_vars.len(),
        cases: cases(program, body),
    };
    codegen::render(&view, Syntax::Rust)
}

fn kind(k: Kind) -> String {
    format!("icp_rt::chess::Kind::{k:?}")
}

fn var(v: Var) -> String {
    match v {
        Var::User(slot) => format!("icp_e::Var::User({slot})"),
        Var::Piece {
            mover,
            kind: k,
            index,
        } => format!(
            "icp_e::Var::Piece {{ mover: {mover}, kind: {}, index: {index} }}",
            kind(k)
        ),
        other => format!("icp_e::Var::{other:?}"),
    }
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::Undefined => "icp_e::Value::Undefined".into(),
        Literal::Logical(b) => format!("icp_e::Value::Logical({b})"),
        Literal::Integer(i64::MIN) => "icp_e::Value::Integer(i64::MIN)".into(),
        Literal::Integer(n) => format!("icp_e::Value::Integer({n})"),
        Literal::Set(items) => format!(
            "icp_e::Value::Set(vec![{}])",
            items.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn read(o: &Operand) -> String {
    match o {
        Operand::Var(v) => format!("inv.read({})", var(*v)),
        Operand::Literal(l) => literal(l),
    }
}

fn cond(c: Cond) -> String {
    match c {
        None => "None".into(),
        Some(c) => {
            let test = match c.test {
                Test::Kind(k) => format!("icp_e::Test::Kind({})", kind(k)),
                t => format!("icp_e::Test::{t:?}"),
            };
            format!(
                "Some(icp_e::Condition {{ negated: {}, test: {test} }})",
                c.negated
            )
        }
    }
}

fn compare(c: Compare) -> String {
    format!("icp_e::Compare::{c:?}")
}

fn ordering(o: Ordering) -> String {
    format!("icp_e::Ordering::{o:?}")
}

/// The arm of one statement: the runtime calls of `interp.rs`'s `step`.
fn body(op: &Op, line: u32) -> String {
    let next = |call: String| format!("{{ {call}; icp_e::Step::Next }}");
    match op {
        Op::Fence => "icp_e::Step::Fence".into(),
        Op::Break(a, b, c) => format!(
            "{{ let (a, b, c) = ({}, {}, {}); inv.break_line({line}, &a, &b, &c); icp_e::Step::Next }}",
            read(a),
            read(b),
            read(c)
        ),
        Op::Return(v) => format!("icp_e::Step::Return({})", read(v)),
        Op::Cond {
            cond: c,
            sub,
            target,
        } => format!(
            "icp_e::Step::Call {{ sub: {sub}, arg: inv.x.clone(), then: icp_e::Then::Cond({}, {target}) }}",
            cond(*c)
        ),
        Op::CondV {
            cond: c,
            value,
            target,
        } => format!(
            "icp_e::Invocation::branch(inv.test({}, &{})?, {target})",
            cond(*c),
            read(value)
        ),
        Op::CondTF {
            on_true,
            sub,
            arg,
            target,
        } => format!(
            "icp_e::Step::Call {{ sub: {sub}, arg: {}, then: icp_e::Then::CondTF({on_true}, {target}) }}",
            read(arg)
        ),
        Op::Jump { cmp, a, b, target } => format!(
            "icp_e::Invocation::branch(icp_e::compare({}, &{}, &{})?, {target})",
            compare(*cmp),
            read(a),
            read(b)
        ),
        Op::Call {
            kind: super::ir::CallKind::Set,
            dst,
            sub,
            arg,
        } => format!(
            "icp_e::Step::Call {{ sub: {sub}, arg: {}, then: icp_e::Then::Store({}) }}",
            read(arg),
            var(*dst)
        ),
        Op::Call {
            kind: k,
            dst,
            sub,
            arg,
        } => format!(
            "icp_e::Step::Each {{ kind: icp_e::CallKind::{k:?}, dst: {}, sub: {sub}, set: {} }}",
            var(*dst),
            read(arg)
        ),
        Op::Unary { op, dst, a } => next(format!(
            "inv.unary(icp_e::Unary::{op:?}, {}, &{})?",
            var(*dst),
            read(a)
        )),
        Op::Binary { op, dst, a, b } => next(format!(
            "inv.binop(icp_e::Binary::{op:?}, {}, &{}, &{})?",
            var(*dst),
            read(a),
            read(b)
        )),
        Op::Exch(a, b) => next(format!("inv.exch({}, {})", var(*a), var(*b))),
        Op::Order(a, b, o) => next(format!(
            "inv.order({}, {}, {})?",
            var(*a),
            var(*b),
            ordering(*o)
        )),
        Op::Selecc { dst, cond: c, set } => next(format!(
            "inv.selecc({}, {}, &{})?",
            var(*dst),
            cond(*c),
            read(set)
        )),
        Op::SetEl { value, set, index } => next(format!(
            "inv.set_element({}, {}, &{})?",
            read(value),
            var(*set),
            read(index)
        )),
        Op::Insert { value, set, index } => next(format!(
            "inv.insert({}, {}, &{})?",
            read(value),
            var(*set),
            read(index)
        )),
        Op::Unsert { dst, set, index } => next(format!(
            "inv.unsert({}, {}, &{})?",
            var(*dst),
            var(*set),
            read(index)
        )),
        Op::ExchWe { a, set, index } => next(format!(
            "inv.exchwe({}, {}, &{})?",
            var(*a),
            var(*set),
            read(index)
        )),
        Op::ExchEl { set, i, j } => next(format!(
            "inv.exchel({}, &{}, &{})?",
            var(*set),
            read(i),
            read(j)
        )),
        Op::Play {
            kind,
            set,
            cond: c,
            order,
        } => format!(
            "icp_e::Invocation::outcome(inv.play(icp_e::PlayKind::{kind:?}, &{}, {}, {})?)",
            read(set),
            cond(*c),
            ordering(*order)
        ),
        Op::Plan { tag, set, value } => {
            next(format!("inv.plan({tag}, &{}, {})?", read(set), read(value)))
        }
        Op::Unplan => next("inv.unplan()".into()),
        Op::Done => "icp_e::Invocation::outcome(Some(inv.done()))".into(),
        Op::Leave => "icp_e::Step::Leave".into(),
        Op::Value { kind, w, l, c } => format!(
            "icp_e::Invocation::outcome(inv.value(icp_e::ValueKind::{kind:?}, &{}, &{}, &{})?)",
            read(w),
            read(l),
            read(c)
        ),
    }
}
