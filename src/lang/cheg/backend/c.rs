//! The C back end (issue 12): one C99 file needing only libc, a
//! standalone UCI engine. The runtime is pasted in, cut down to the
//! sections the program uses (`runtime/api.rs`): the shared C prelude,
//! then `runtime/chess.c` and `engine.c` with their parts (`chess/*.c`,
//! `engine/*.c`) and `uci.c` (the C ports of the Rust runtime the
//! interpreter runs). The endgame program becomes `icp_program_step`, a
//! `switch` on the statement number whose cases make the same runtime
//! calls as the interpreter's (`interp.rs`) and the Rust back end's, each
//! under its source line, every runtime name spelt through the table of
//! `runtime/api.rs`.

use super::super::ir::{CallKind, Kind, Literal, Op, Operand, Program, Var};
use super::super::runtime::api;
use super::super::runtime::engine::Cond;
use super::{
    Calls, CaseView, Outline, Selected, Shape, helper_name, select_from, source_lines,
    statement_cases,
};
use crate::codegen::chunks::{Case, Dense, Idle};
use crate::codegen::escape::c_string_chunks;
use crate::codegen::sections::{Entry, Markers, Uses};
use crate::codegen::{self, Syntax, literal};
use askama::Template;

/// The C runtime: the prelude, then chess, engine and UCI, section
/// markers and all. Chess and the engine are `chess.c` and `engine.c`
/// each followed by its parts by concern, `chess/*.c` and `engine/*.c`, a
/// blank line between, in the order of the `include!`s of `chess.rs` and
/// `engine.rs` (the twins have the same names).
pub const RUNTIME: &str = concat!(
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/codegen/prelude.c"
    )),
    include_str!("../runtime/chess.c"),
    "\n",
    include_str!("../runtime/chess/board.c"),
    "\n",
    include_str!("../runtime/chess/position.c"),
    include_str!("../runtime/engine.c"),
    "\n",
    include_str!("../runtime/engine/values.c"),
    "\n",
    include_str!("../runtime/engine/node.c"),
    "\n",
    include_str!("../runtime/engine/instructions.c"),
    "\n",
    include_str!("../runtime/engine/program.c"),
    "\n",
    include_str!("../runtime/engine/history.c"),
    "\n",
    include_str!("../runtime/engine/search.c"),
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
    /// The functions that outlined statements call ([`outlined_body`]).
    helpers: Vec<String>,
    /// `icp_program_step`: the statements as a `switch`
    /// ([`chunks::Dense`]).
    steps: String,
    /// The engine's name (`id name`), a C string literal's body.
    name: String,
}

/// The cases of `icp_program_step`, what they use of the runtime (the
/// program's frame included) and the functions outlined statements call.
fn c_cases(program: &Program) -> (Vec<CaseView>, Uses, Vec<String>) {
    let frame = [
        &api::ENDGAME,
        &api::ENTRY_SPEC,
        &api::INVOCATION,
        &api::ENGINE_MAIN,
        &api::LIGHT,
        &api::FENCE,
    ];
    statement_cases(
        program,
        &frame,
        |u, _, op| outlined_body(u, op),
        |u, calls, _, op, line| body(u, calls, op, line),
        helper,
    )
}

/// The shapes of `operands` when each is a variable or an integer.
fn shapes(operands: &[&Operand]) -> Option<Vec<Shape>> {
    operands
        .iter()
        .map(|o| match o {
            Operand::Var(_) => Some(Shape::Var),
            Operand::Literal(Literal::Integer(_)) => Some(Shape::Int),
            Operand::Literal(_) => None,
        })
        .collect()
}

/// The case of a statement as one call of the function of its kind and
/// operands' shapes ([`helper`]), as the Rust back end does above
/// [`super::OUTLINE`] statements: the case then makes no value of its own, and
/// `cc -O2`'s time grows with the program's length, not with the values
/// its cases would make (20 s on 50,000 `ADD`s of a variable and an
/// integer, 9 s outlined). `None` for another statement, or an operand
/// that is neither a variable nor an integer.
fn outlined_body(u: &mut Uses, op: &Op) -> Option<(String, (Outline, Vec<Shape>))> {
    let (kind, dst, operands, target) = match op {
        Op::Unary { dst, a, .. } => (Outline::Unary, Some(*dst), vec![a], None),
        Op::Binary { dst, a, b, .. } => (Outline::Binary, Some(*dst), vec![a, b], None),
        Op::Jump { a, b, target, .. } => (Outline::Jump, None, vec![a, b], Some(*target)),
        _ => return None,
    };
    let shapes = shapes(&operands)?;
    let head = match op {
        Op::Unary { op, .. } => u.c(api::unary(*op)),
        Op::Binary { op, .. } => u.c(api::binary(*op)),
        Op::Jump { cmp, .. } => u.c(api::compare(*cmp)),
        _ => unreachable!("matched above"),
    };
    let mut args = vec!["inv".to_string(), head.to_string()];
    if let Some(dst) = dst {
        args.push(var(u, dst));
    }
    for o in operands {
        args.push(match o {
            Operand::Var(v) => var(u, *v),
            Operand::Literal(Literal::Integer(n)) => literal::c_i64(*n),
            Operand::Literal(_) => unreachable!("shapes() refused it"),
        });
    }
    if let Some(target) = target {
        args.push(target.to_string());
    }
    let body = format!(
        "return {}({});",
        helper_name(kind, &shapes),
        args.join(", ")
    );
    Some((body, (kind, shapes)))
}

/// The function outlined statements of `kind` on operands of `shapes`
/// call: their values made here, then the runtime's statement.
fn helper(u: &mut Uses, kind: Outline, shapes: &[Shape]) -> String {
    // (name, C type) of each parameter after the invocation, in order.
    let mut named: Vec<(String, &str)> = match kind {
        Outline::Unary | Outline::Binary => {
            vec![("op".into(), "int"), ("dst".into(), "icp_var")]
        }
        Outline::Jump => vec![("cmp".into(), "int")],
    };
    let mut args = vec!["inv".to_string()];
    args.extend(named.iter().map(|(n, _)| n.clone()));
    for (shape, name) in shapes.iter().zip(["a", "b"]) {
        let (ty, arg) = match shape {
            Shape::Var => ("icp_var", format!("{}(inv, {name})", u.c(&api::READ))),
            Shape::Int => ("int64_t", format!("{}({name})", u.c(&api::INTEGER))),
        };
        named.push((name.into(), ty));
        args.push(arg);
    }
    let entry = match kind {
        Outline::Unary => &api::UNARY,
        Outline::Binary => &api::BINARY,
        Outline::Jump => {
            named.push(("target".into(), "size_t"));
            args.push("target".into());
            &api::JUMP
        }
    };
    let mut params = vec!["icp_inv *inv".to_string()];
    params.extend(named.iter().map(|(n, ty)| format!("{ty} {n}")));
    format!(
        "ICP_LIGHT static int {}({})\n{{\n    return {}({});\n}}",
        helper_name(kind, shapes),
        params.join(", "),
        u.c(entry),
        args.join(", ")
    )
}

/// The C runtime a program carries: the core and the sections its
/// statements reach.
pub fn select(program: &Program) -> Selected {
    let (_, uses, _) = c_cases(program);
    select_from(RUNTIME, Markers::C, &uses)
}

/// Generated C for `program` (`source_name` goes into the header).
pub fn emit_c(program: &Program, source_name: &str) -> String {
    let (cases, uses, helpers) = c_cases(program);
    let view = ProgramView {
        header: codegen::header("CHEG", source_name),
        runtime: select_from(RUNTIME, Markers::C, &uses).text,
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
                let (cmp, m) = e.pawn_diff.map_or(("0", 0), |(c, m)| {
                    let c = match c {
                        std::cmp::Ordering::Less => "'<'",
                        std::cmp::Ordering::Equal => "'='",
                        std::cmp::Ordering::Greater => "'>'",
                    };
                    (c, m)
                });
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
        helpers,
        steps: Dense {
            name: "icp_program_step".into(),
            doc: vec![
                "Runs statement pc of the program: what the engine does next. Control".into(),
                "flow only: every value, condition and outcome is the runtime's".into(),
                "(CHEG §5, §6).".into(),
            ],
            returns: "int".into(),
            params: vec!["icp_inv *inv".into(), "size_t pc".into()],
            args: "inv, pc".into(),
            pc: "pc".into(),
            default: "return ICP_STEP_FENCE;".into(),
            wrap: String::new(),
            storage: "ICP_LIGHT static".into(),
            idle: Some(Idle { name: "inv".into() }),
            operands: None,
            cases: cases
                .into_iter()
                .map(|c| {
                    Case::new(
                        c.pc,
                        c.comment,
                        c.body.lines().map(str::to_string).collect(),
                    )
                })
                .collect(),
        }
        .c(),
        name: codegen::escape::c_string_chunks(&super::super::engine_name(source_name))
            .into_iter()
            .map(|(body, _)| body)
            .collect::<Vec<_>>()
            .join("\" \""),
    };
    codegen::render(&view, Syntax::C)
}

fn kind(u: &mut Uses, k: Kind) -> String {
    u.c(api::kind(k)).to_string()
}

fn var(u: &mut Uses, v: Var) -> String {
    let name = u.c(api::var(v));
    match v {
        Var::User(slot) => format!("{name}({slot})"),
        Var::Piece {
            mover,
            kind: k,
            index,
        } => format!("{name}({}, {}, {index})", u8::from(mover), kind(u, k)),
        _ => format!("ICP_VAR({name})"),
    }
}

fn literal_c(u: &mut Uses, l: &Literal) -> String {
    match l {
        Literal::Undefined => format!("{}()", u.c(&api::UNDEFINED)),
        Literal::Logical(b) => format!("{}({})", u.c(&api::LOGICAL), u8::from(*b)),
        Literal::Integer(n) => format!("{}({})", u.c(&api::INTEGER), literal::c_i64(*n)),
        Literal::Set(text) => {
            // In parts short enough for C99's string literals.
            let parts = c_string_chunks(text);
            let mut args = vec![parts.len().to_string()];
            args.extend(parts.iter().map(|(body, _)| format!("\"{body}\"")));
            format!("{}({})", u.c(&api::SET_LITERAL), args.join(", "))
        }
    }
}

fn read(u: &mut Uses, o: &Operand) -> String {
    match o {
        Operand::Var(v) => {
            let read = u.c(&api::READ);
            format!("{read}(inv, {})", var(u, *v))
        }
        Operand::Literal(l) => literal_c(u, l),
    }
}

fn cond(u: &mut Uses, c: Cond) -> String {
    match c {
        None => u.c(&api::ALWAYS).into(),
        Some((negated, t)) => {
            let make = u.c(&api::CONDITION);
            let test = u.c(api::test(t));
            let k = match t {
                super::super::runtime::engine::Test::Kind(k) => kind(u, k),
                _ => "0".to_string(),
            };
            format!("{make}({}, {test}, {k})", u8::from(negated))
        }
    }
}

/// The case of one statement: the runtime calls of `interp.rs`'s `step`.
/// `calls`: what of the call machinery the program needs.
fn body(u: &mut Uses, calls: Calls, op: &Op, line: u32) -> String {
    let call = |u: &mut Uses, entry: &Entry, args: Vec<String>| {
        let mut all = vec!["inv".to_string()];
        all.extend(args);
        format!("return {}({});", u.c(entry), all.join(", "))
    };
    match op {
        Op::Fence => format!("return {};", u.c(&api::FENCE)),
        Op::Break(a, b, c) => {
            // The one statement that needs nothing of the invocation.
            let args = [line.to_string(), read(u, a), read(u, b), read(u, c)];
            format!("return {}({});", u.c(&api::BREAK), args.join(", "))
        }
        Op::Return(_) if !calls.calls => format!("return {};", u.c(&api::STRAY)),
        Op::Cond { sub, .. } if !calls.frames() => {
            let x = read(u, &Operand::Var(Var::X));
            call(u, &api::ENTER, vec![sub.to_string(), x])
        }
        Op::CondTF { sub, arg, .. }
        | Op::Call {
            kind: CallKind::Set,
            sub,
            arg,
            ..
        } if !calls.frames() => {
            let args = vec![sub.to_string(), read(u, arg)];
            call(u, &api::ENTER, args)
        }
        Op::Call { dst, sub, arg, .. } if !calls.frames() => {
            let args = vec![var(u, *dst), sub.to_string(), read(u, arg)];
            call(u, &api::ENTER_EACH, args)
        }
        Op::Return(v) => {
            let args = vec![read(u, v)];
            call(u, &api::RETURN, args)
        }
        Op::Cond {
            cond: c,
            sub,
            target,
        } => {
            let args = vec![cond(u, *c), sub.to_string(), target.to_string()];
            call(u, &api::COND, args)
        }
        Op::CondV {
            cond: c,
            value,
            target,
        } => {
            let args = vec![cond(u, *c), read(u, value), target.to_string()];
            call(u, &api::CONDV, args)
        }
        Op::CondTF {
            on_true,
            sub,
            arg,
            target,
        } => {
            let args = vec![
                u8::from(*on_true).to_string(),
                sub.to_string(),
                read(u, arg),
                target.to_string(),
            ];
            call(u, &api::CONDTF, args)
        }
        Op::Jump { cmp, a, b, target } => {
            let args = vec![
                u.c(api::compare(*cmp)).to_string(),
                read(u, a),
                read(u, b),
                target.to_string(),
            ];
            call(u, &api::JUMP, args)
        }
        Op::Call {
            kind: CallKind::Set,
            dst,
            sub,
            arg,
        } => {
            let args = vec![var(u, *dst), sub.to_string(), read(u, arg)];
            call(u, &api::SET, args)
        }
        Op::Call {
            kind: k,
            dst,
            sub,
            arg,
        } => {
            let args = vec![
                u.c(api::call_kind(*k)).to_string(),
                var(u, *dst),
                sub.to_string(),
                read(u, arg),
            ];
            call(u, &api::EACH, args)
        }
        Op::Unary { op, dst, a } => {
            let args = vec![u.c(api::unary(*op)).to_string(), var(u, *dst), read(u, a)];
            call(u, &api::UNARY, args)
        }
        Op::Binary { op, dst, a, b } => {
            let args = vec![
                u.c(api::binary(*op)).to_string(),
                var(u, *dst),
                read(u, a),
                read(u, b),
            ];
            call(u, &api::BINARY, args)
        }
        Op::Exch(a, b) => {
            let args = vec![var(u, *a), var(u, *b)];
            call(u, &api::EXCH, args)
        }
        Op::Order(a, b, o) => {
            let args = vec![var(u, *a), var(u, *b), u.c(api::ordering(*o)).to_string()];
            call(u, &api::ORDER, args)
        }
        Op::Selecc { dst, cond: c, set } => {
            let args = vec![var(u, *dst), cond(u, *c), read(u, set)];
            call(u, &api::SELECC, args)
        }
        Op::SetEl { value, set, index } => {
            let args = vec![read(u, value), var(u, *set), read(u, index)];
            call(u, &api::SETEL, args)
        }
        Op::Insert { value, set, index } => {
            let args = vec![read(u, value), var(u, *set), read(u, index)];
            call(u, &api::INSERT, args)
        }
        Op::Unsert { dst, set, index } => {
            let args = vec![var(u, *dst), var(u, *set), read(u, index)];
            call(u, &api::UNSERT, args)
        }
        Op::ExchWe { a, set, index } => {
            let args = vec![var(u, *a), var(u, *set), read(u, index)];
            call(u, &api::EXCHWE, args)
        }
        Op::ExchEl { set, i, j } => {
            let args = vec![var(u, *set), read(u, i), read(u, j)];
            call(u, &api::EXCHEL, args)
        }
        Op::Play {
            kind: k,
            set,
            cond: c,
            order,
        } => {
            let args = vec![
                u.c(api::play(*k)).to_string(),
                read(u, set),
                cond(u, *c),
                u.c(api::ordering(*order)).to_string(),
            ];
            call(u, &api::PLAY, args)
        }
        Op::Plan { tag, set, value } => {
            let args = vec![tag.to_string(), read(u, set), read(u, value)];
            call(u, &api::PLAN, args)
        }
        Op::Unplan => call(u, &api::UNPLAN, vec![]),
        Op::Done => call(u, &api::DONE, vec![]),
        Op::Leave => format!("return {};", u.c(&api::LEAVE)),
        Op::Value { kind: k, w, l, c } => {
            let args = vec![
                u.c(api::value(*k)).to_string(),
                read(u, w),
                read(u, l),
                read(u, c),
            ];
            call(u, &api::VALUE, args)
        }
    }
}
