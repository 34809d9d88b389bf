//! The Rust back end (issue 12): a standalone UCI engine, one file or a
//! crate. The runtime (`runtime/chess.rs`, `engine.rs`, `uci.rs`, the very
//! files icp2c's interpreter runs) is embedded verbatim as `icp_rt`; the
//! endgame program becomes `Endgame::step`, a `match` on the statement
//! number whose arms make the same runtime calls as the interpreter's
//! (`interp.rs`), each under its source line.

pub mod c;

use super::ir::{Kind, Literal, Op, Operand, Program, Var};
use super::runtime::engine::{Compare, Cond, Ordering, Test};
use crate::codegen::escape::{comment, rust_string};
use crate::codegen::layout::{self, Expr};
use crate::codegen::{self, Syntax};
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
    /// `const ICP_ENTRIES: … = […];`, laid out.
    entries: String,
    /// `const ICP_LINES: … = […];`, laid out.
    lines: String,
    user_vars: usize,
    cases: Vec<CaseView>,
    /// The engine's name (`id name`), a string literal's body.
    name: String,
}

/// Generated Rust: one file with the runtime inlined (`single_file`), or a
/// crate's `src/main.rs`, which declares `mod icp_rt;`.
pub fn emit_rust(program: &Program, source_name: &str, single_file: bool) -> String {
    let view = ProgramView {
        header: codegen::header("CHEG", source_name),
        inline_runtime: single_file.then(|| codegen::inline_runtime(&runtime())),
        entries: layout::expr_array(
            &format!(
                "const ICP_ENTRIES: [icp_e::EntrySpec; {}]",
                program.entries.len()
            ),
            &super::interp::entry_specs(program)
                .iter()
                .map(|e| {
                    let side = |s: (u8, u8, u8, u8, Option<u8>)| {
                        atom(format!("({}, {}, {}, {}, {:?})", s.0, s.1, s.2, s.3, s.4))
                    };
                    let pawn_diff = e.pawn_diff.map_or("None".into(), |(c, m)| {
                        format!("Some((icp_e::Compare::{c:?}, {m}))")
                    });
                    Expr::Struct(
                        "icp_e::EntrySpec".into(),
                        vec![
                            ("start".into(), atom(e.start.to_string())),
                            ("mover".into(), side(e.mover)),
                            ("other".into(), side(e.other)),
                            ("pawn_diff".into(), atom(pawn_diff)),
                        ],
                    )
                })
                .collect::<Vec<_>>(),
        )
        .join("\n"),
        lines: layout::array(
            &format!("const ICP_LINES: [u32; {}]", program.statements.len()),
            &source_lines(program),
        )
        .join("\n"),
        user_vars: program.user_vars.len(),
        name: codegen::escape::rust_string(&super::engine_name(source_name)),
        cases: program
            .statements
            .iter()
            .enumerate()
            .map(|(pc, st)| CaseView {
                pc,
                comment: format!("{}: {}", st.line, comment(st.text.trim())),
                body: arm(pc, &st.op, st.line).join("\n"),
            })
            .collect(),
    };
    codegen::render(&view, Syntax::Rust)
}

fn kind(k: Kind) -> String {
    format!("icp_rt::chess::Kind::{k:?}")
}

fn atom(text: impl Into<String>) -> Expr {
    Expr::atom(text)
}

fn var(v: Var) -> Expr {
    match v {
        Var::User(slot) => Expr::call("icp_e::Var::User", vec![atom(slot.to_string())]),
        Var::Piece {
            mover,
            kind: k,
            index,
        } => Expr::Struct(
            "icp_e::Var::Piece".into(),
            vec![
                ("mover".into(), atom(mover.to_string())),
                ("kind".into(), atom(kind(k))),
                ("index".into(), atom(index.to_string())),
            ],
        ),
        other => atom(format!("icp_e::Var::{other:?}")),
    }
}

fn literal(l: &Literal) -> Expr {
    match l {
        Literal::Undefined => atom("icp_e::Value::Undefined"),
        Literal::Logical(b) => Expr::call("icp_e::Value::Logical", vec![atom(b.to_string())]),
        Literal::Integer(i64::MIN) => Expr::call("icp_e::Value::Integer", vec![atom("i64::MIN")]),
        Literal::Integer(n) => Expr::call("icp_e::Value::Integer", vec![atom(n.to_string())]),
        Literal::Set(text) => Expr::call(
            "icp_e::set_literal",
            vec![atom(format!("\"{}\"", rust_string(text)))],
        ),
    }
}

fn read(o: &Operand) -> Expr {
    match o {
        Operand::Var(v) => Expr::call("inv.read", vec![var(*v)]),
        Operand::Literal(l) => literal(l),
    }
}

/// `&read(o)`.
fn read_ref(o: &Operand) -> Expr {
    read(o).borrowed()
}

fn cond(c: Cond) -> Expr {
    match c {
        None => atom("None"),
        Some(c) => {
            let test = match c.test {
                Test::Kind(k) => Expr::call("icp_e::Test::Kind", vec![atom(kind(k))]),
                t => atom(format!("icp_e::Test::{t:?}")),
            };
            let condition = Expr::Struct(
                "icp_e::Condition".into(),
                vec![
                    ("negated".into(), atom(c.negated.to_string())),
                    ("test".into(), test),
                ],
            );
            Expr::call("Some", vec![condition])
        }
    }
}

fn compare(c: Compare) -> Expr {
    atom(format!("icp_e::Compare::{c:?}"))
}

fn ordering(o: Ordering) -> Expr {
    atom(format!("icp_e::Ordering::{o:?}"))
}

/// `icp_e::Step::Call { sub, arg, then }`.
fn call_step(sub: usize, arg: Expr, then: Expr) -> Expr {
    Expr::Struct(
        "icp_e::Step::Call".into(),
        vec![
            ("sub".into(), atom(sub.to_string())),
            ("arg".into(), arg),
            ("then".into(), then),
        ],
    )
}

/// The level of the `match` arms in `step` (impl, fn, match).
const ARM: usize = 3;

/// The arm of statement `pc` (source line `line`), laid out as rustfmt
/// would: the runtime calls of `interp.rs`'s `step`.
fn arm(pc: usize, op: &Op, line: u32) -> Vec<String> {
    let pattern = pc.to_string();
    let value = |e: Expr| layout::expr_arm(ARM, &pattern, &e);
    // A statement of the runtime, then the next statement.
    let next = |e: Expr| {
        let body = layout::statement(ARM + 1, "", &e, ";");
        layout::block_arm(ARM, &pattern, body, &atom("icp_e::Step::Next"))
    };
    let outcome = |e: Expr| value(Expr::call("icp_e::Invocation::outcome", vec![e]));
    let branch = |test: Expr, target: usize| {
        value(Expr::call(
            "icp_e::Invocation::branch",
            vec![test, atom(target.to_string())],
        ))
    };
    match op {
        Op::Fence => value(atom("icp_e::Step::Fence")),
        Op::Break(a, b, c) => {
            let mut body = Vec::new();
            for (name, operand) in [("a", a), ("b", b), ("c", c)] {
                body.extend(layout::statement(
                    ARM + 1,
                    &format!("let {name} = "),
                    &read(operand),
                    ";",
                ));
            }
            body.push(format!(
                "{}inv.break_line({line}, &a, &b, &c);",
                layout::pad(ARM + 1)
            ));
            layout::block_arm(ARM, &pattern, body, &atom("icp_e::Step::Next"))
        }
        Op::Return(v) => value(Expr::call("icp_e::Step::Return", vec![read(v)])),
        Op::Cond {
            cond: c,
            sub,
            target,
        } => value(call_step(
            *sub,
            atom("inv.x.clone()"),
            Expr::call(
                "icp_e::Then::Cond",
                vec![cond(*c), atom(target.to_string())],
            ),
        )),
        Op::CondV {
            cond: c,
            value: v,
            target,
        } => branch(
            Expr::try_call("inv.test", vec![cond(*c), read_ref(v)]),
            *target,
        ),
        Op::CondTF {
            on_true,
            sub,
            arg,
            target,
        } => value(call_step(
            *sub,
            read(arg),
            Expr::call(
                "icp_e::Then::CondTF",
                vec![atom(on_true.to_string()), atom(target.to_string())],
            ),
        )),
        Op::Jump { cmp, a, b, target } => branch(
            Expr::try_call(
                "icp_e::compare",
                vec![compare(*cmp), read_ref(a), read_ref(b)],
            ),
            *target,
        ),
        Op::Call {
            kind: super::ir::CallKind::Set,
            dst,
            sub,
            arg,
        } => value(call_step(
            *sub,
            read(arg),
            Expr::call("icp_e::Then::Store", vec![var(*dst)]),
        )),
        Op::Call {
            kind: k,
            dst,
            sub,
            arg,
        } => value(Expr::Struct(
            "icp_e::Step::Each".into(),
            vec![
                ("kind".into(), atom(format!("icp_e::CallKind::{k:?}"))),
                ("dst".into(), var(*dst)),
                ("sub".into(), atom(sub.to_string())),
                ("set".into(), read(arg)),
            ],
        )),
        Op::Unary { op, dst, a } => next(Expr::try_call(
            "inv.unary",
            vec![
                atom(format!("icp_e::Unary::{op:?}")),
                var(*dst),
                read_ref(a),
            ],
        )),
        Op::Binary { op, dst, a, b } => next(Expr::try_call(
            "inv.binop",
            vec![
                atom(format!("icp_e::Binary::{op:?}")),
                var(*dst),
                read(a),
                read_ref(b),
            ],
        )),
        Op::Exch(a, b) => next(Expr::call("inv.exch", vec![var(*a), var(*b)])),
        Op::Order(a, b, o) => next(Expr::try_call(
            "inv.order",
            vec![var(*a), var(*b), ordering(*o)],
        )),
        Op::Selecc { dst, cond: c, set } => next(Expr::try_call(
            "inv.selecc",
            vec![var(*dst), cond(*c), read_ref(set)],
        )),
        Op::SetEl {
            value: v,
            set,
            index,
        } => next(Expr::try_call(
            "inv.set_element",
            vec![read(v), var(*set), read_ref(index)],
        )),
        Op::Insert {
            value: v,
            set,
            index,
        } => next(Expr::try_call(
            "inv.insert",
            vec![read(v), var(*set), read_ref(index)],
        )),
        Op::Unsert { dst, set, index } => next(Expr::try_call(
            "inv.unsert",
            vec![var(*dst), var(*set), read_ref(index)],
        )),
        Op::ExchWe { a, set, index } => next(Expr::try_call(
            "inv.exchwe",
            vec![var(*a), var(*set), read_ref(index)],
        )),
        Op::ExchEl { set, i, j } => next(Expr::try_call(
            "inv.exchel",
            vec![var(*set), read_ref(i), read_ref(j)],
        )),
        Op::Play {
            kind,
            set,
            cond: c,
            order,
        } => outcome(Expr::try_call(
            "inv.play",
            vec![
                atom(format!("icp_e::PlayKind::{kind:?}")),
                read_ref(set),
                cond(*c),
                ordering(*order),
            ],
        )),
        Op::Plan { tag, set, value: v } => next(Expr::try_call(
            "inv.plan",
            vec![atom(tag.to_string()), read_ref(set), read(v)],
        )),
        Op::Unplan => next(Expr::call("inv.unplan", vec![])),
        Op::Done => outcome(Expr::call("Some", vec![Expr::call("inv.done", vec![])])),
        Op::Leave => value(atom("icp_e::Step::Leave")),
        Op::Value { kind, w, l, c } => outcome(Expr::try_call(
            "inv.value",
            vec![
                atom(format!("icp_e::ValueKind::{kind:?}")),
                read_ref(w),
                read_ref(l),
                read_ref(c),
            ],
        )),
    }
}
