//! The C back end (issue 12): one C99 file needing only libc, a
//! standalone UCI engine. The runtime is pasted in verbatim: the shared C
//! prelude, then `runtime/chess.c`, `engine.c` and `uci.c` (the C ports of
//! the Rust runtime the interpreter runs). The endgame program becomes
//! `icp_program_step`, a `switch` on the statement number whose cases make
//! the same runtime calls as the interpreter's (`interp.rs`) and the Rust
//! back end's, each under its source line.

use super::super::ir::{CallKind, Kind, Literal, Op, Operand, Program, Var};
use super::super::runtime::engine::{Compare, Cond, Test};
use super::{CaseView, cases, source_lines};
use crate::codegen::escape::c_string_chunks;
use crate::codegen::{self, Syntax, literal};
use askama::Template;

/// The C runtime: the prelude, then chess, engine and UCI.
pub const RUNTIME: &str = concat!(
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/codegen/prelude.c"
    )),
    include_str!("../runtime/chess.c"),
    include_str!("../runtime/engine.c"),
    include_str!("../runtime/uci.c")
);

#[derive(Template)]
#[template(path = "cheg/c/program.c", escape = "none")]
struct ProgramView {
    header: String,
    runtime: String,
    entries: Vec<String>,
    lines: Vec<String>,
    user_vars: usize,
    cases: Vec<CaseView>,
    /// The engine's name (`id name`), a C string literal's body.
    name: String,
}

/// Generated C for `program` (`source_name` goes into the header).
pub fn emit_c(program: &Program, source_name: &str) -> String {
    let view = ProgramView {
        header: codegen::header("CHEG", source_name),
        runtime: crate::codegen::sections::whole(RUNTIME, crate::codegen::sections::Markers::C)
            .expect("the C runtime's section markers parse"),
        entries: super::super::interp::entry_specs(program)
            .iter()
            .map(|e| {
                let side = |s: (u8, u8, u8, u8, Option<u8>)| {
                    format!(
                        "{{{}, {}, {}, {}, {}}}",
                        s.0,
                        s.1,
                        s.2,
                        s.3,
                        s.4.map_or(-1, i32::from)
                    )
                };
                let (cmp, m) = e
                    .pawn_diff
                    .map_or(("-1".to_string(), 0), |(c, m)| (compare(c), m));
                format!(
                    "{{{}, {}, {}, {cmp}, {m}}}",
                    e.start,
                    side(e.mover),
                    side(e.other)
                )
            })
            .collect(),
        lines: source_lines(program),
        user_vars: program.user_vars.len(),
        cases: cases(program, body),
        name: codegen::escape::c_string_chunks(&super::super::engine_name(source_name))
            .into_iter()
            .map(|(body, _)| body)
            .collect::<Vec<_>>()
            .join("\" \""),
    };
    codegen::render(&view, Syntax::C)
}

/// `SetSq` → `SET_SQ`: the C spelling of a runtime enum variant.
fn upper_snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// `ICP_<prefix>_<VARIANT>` for a runtime enum value.
fn constant(prefix: &str, value: impl std::fmt::Debug) -> String {
    format!("ICP_{prefix}_{}", upper_snake(&format!("{value:?}")))
}

fn kind(k: Kind) -> String {
    format!("ICP_{}", upper_snake(&format!("{k:?}")))
}

fn var(v: Var) -> String {
    match v {
        Var::User(slot) => format!("ICP_USER({slot})"),
        Var::Piece {
            mover,
            kind: k,
            index,
        } => format!("ICP_PIECE_VAR({}, {}, {index})", u8::from(mover), kind(k)),
        other => format!("ICP_VAR({})", constant("VAR", other)),
    }
}

fn literal_c(l: &Literal) -> String {
    match l {
        Literal::Undefined => "icp_undefined()".into(),
        Literal::Logical(b) => format!("icp_logical({})", u8::from(*b)),
        Literal::Integer(n) => format!("icp_integer({})", literal::c_i64(*n)),
        Literal::Set(text) => {
            // In parts short enough for C99's string literals.
            let parts = c_string_chunks(text);
            let mut args = vec![parts.len().to_string()];
            args.extend(parts.iter().map(|(body, _)| format!("\"{body}\"")));
            format!("icp_set_literal({})", args.join(", "))
        }
    }
}

fn read(o: &Operand) -> String {
    match o {
        Operand::Var(v) => format!("icp_read(inv, {})", var(*v)),
        Operand::Literal(l) => literal_c(l),
    }
}

fn cond(c: Cond) -> String {
    match c {
        None => "ICP_ALWAYS".into(),
        Some(c) => {
            let (test, k) = match c.test {
                Test::Kind(k) => ("ICP_T_KIND".to_string(), kind(k)),
                t => (constant("T", t), "0".to_string()),
            };
            format!("icp_cond_make({}, {test}, {k})", u8::from(c.negated))
        }
    }
}

fn compare(c: Compare) -> String {
    constant("CMP", c)
}

/// The case of one statement: the runtime calls of `interp.rs`'s `step`.
fn body(op: &Op, line: u32) -> String {
    let call = |name: &str, args: Vec<String>| {
        let mut all = vec!["inv".to_string()];
        all.extend(args);
        format!("return icp_do_{name}({});", all.join(", "))
    };
    match op {
        Op::Fence => "return ICP_STEP_FENCE;".into(),
        Op::Break(a, b, c) => call("break", vec![line.to_string(), read(a), read(b), read(c)]),
        Op::Return(v) => call("return", vec![read(v)]),
        Op::Cond {
            cond: c,
            sub,
            target,
        } => call("cond", vec![cond(*c), sub.to_string(), target.to_string()]),
        Op::CondV {
            cond: c,
            value,
            target,
        } => call("condv", vec![cond(*c), read(value), target.to_string()]),
        Op::CondTF {
            on_true,
            sub,
            arg,
            target,
        } => call(
            "condtf",
            vec![
                u8::from(*on_true).to_string(),
                sub.to_string(),
                read(arg),
                target.to_string(),
            ],
        ),
        Op::Jump { cmp, a, b, target } => call(
            "jump",
            vec![compare(*cmp), read(a), read(b), target.to_string()],
        ),
        Op::Call {
            kind: CallKind::Set,
            dst,
            sub,
            arg,
        } => call("set", vec![var(*dst), sub.to_string(), read(arg)]),
        Op::Call {
            kind: k,
            dst,
            sub,
            arg,
        } => call(
            "each",
            vec![constant("CALL", k), var(*dst), sub.to_string(), read(arg)],
        ),
        Op::Unary { op, dst, a } => call("unary", vec![constant("U", op), var(*dst), read(a)]),
        Op::Binary { op, dst, a, b } => call(
            "binary",
            vec![constant("B", op), var(*dst), read(a), read(b)],
        ),
        Op::Exch(a, b) => call("exch", vec![var(*a), var(*b)]),
        Op::Order(a, b, o) => call("order", vec![var(*a), var(*b), constant("ORDER", o)]),
        Op::Selecc { dst, cond: c, set } => call("selecc", vec![var(*dst), cond(*c), read(set)]),
        Op::SetEl { value, set, index } => call("setel", vec![read(value), var(*set), read(index)]),
        Op::Insert { value, set, index } => {
            call("insert", vec![read(value), var(*set), read(index)])
        }
        Op::Unsert { dst, set, index } => call("unsert", vec![var(*dst), var(*set), read(index)]),
        Op::ExchWe { a, set, index } => call("exchwe", vec![var(*a), var(*set), read(index)]),
        Op::ExchEl { set, i, j } => call("exchel", vec![var(*set), read(i), read(j)]),
        Op::Play {
            kind: k,
            set,
            cond: c,
            order,
        } => call(
            "play",
            vec![
                constant("PLAY", k),
                read(set),
                cond(*c),
                constant("ORDER", order),
            ],
        ),
        Op::Plan { tag, set, value } => call("plan", vec![tag.to_string(), read(set), read(value)]),
        Op::Unplan => call("unplan", vec![]),
        Op::Done => call("done", vec![]),
        Op::Leave => "return ICP_STEP_LEAVE;".into(),
        Op::Value { kind: k, w, l, c } => call(
            "value",
            vec![constant("VALUE", k), read(w), read(l), read(c)],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_variants_are_spelled_as_the_c_runtime_declares_them() {
        use super::super::super::runtime::engine::{Binary, PlayKind, Unary, ValueKind};
        assert_eq!(constant("B", Binary::SetSq), "ICP_B_SET_SQ");
        assert_eq!(constant("U", Unary::SColor), "ICP_U_S_COLOR");
        assert_eq!(constant("PLAY", PlayKind::PlayB), "ICP_PLAY_PLAY_B");
        assert_eq!(constant("VALUE", ValueKind::RetBet), "ICP_VALUE_RET_BET");
        assert_eq!(constant("T", Test::KeepsKingRank), "ICP_T_KEEPS_KING_RANK");
        assert_eq!(kind(Kind::Knight), "ICP_KNIGHT");
        // Every constant the generator can write is declared in engine.c.
        let engine = include_str!("../runtime/engine.c");
        for name in [
            "ICP_B_SET_SQ",
            "ICP_B_SQ_RANK",
            "ICP_U_P_COLOR",
            "ICP_PLAY_PLAY_B",
            "ICP_VALUE_RET_BET",
            "ICP_VALUE_VAL_RET",
            "ICP_T_KEEPS_KING_RANK",
            "ICP_CMP_NOT_GT",
            "ICP_ORDER_AS_GIVEN",
            "ICP_CALL_SELECT",
            "ICP_VAR_PLIES",
        ] {
            assert!(engine.contains(name), "{name} missing from engine.c");
        }
    }
}
