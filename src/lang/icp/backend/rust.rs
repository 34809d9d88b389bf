//! The Rust back end: a single `rustc`-ready file, or a Cargo crate. The
//! board runtime is `runtime/board.rs`, the very file compiled into
//! icp2c for `icp2c run`, embedded verbatim. Statements are the arms of a
//! `match` on the current label inside a `loop`.

use super::plan::{Jump, Spelling, StepPlan, loop_note, loop_tables, max_inputs, plan};
use crate::codegen::escape::{comment, rust_string};
use crate::codegen::layout::{ARRAY_WIDTH, CHAIN_WIDTH, MAX_WIDTH, arm, call, pad, width};
use crate::codegen::{self, Syntax, literal};
use crate::lang::Lang;
use crate::lang::icp::ir::{Command, Program};
use askama::Template;

const NAME: &str = <super::super::InfChessPro as Lang>::NAME;

/// The shared Rust board runtime source.
pub const RUNTIME: &str = include_str!("../runtime/board.rs");

#[derive(Template)]
#[template(path = "icp/rust/program.rs", escape = "none")]
struct ProgramView {
    /// [`codegen::header`].
    header: String,
    /// `Some(text)`: the runtime inlined as `mod icp_rt { … }` (single
    /// file); `None`: `mod icp_rt;` (crate).
    inline_runtime: Option<String>,
    name_count: usize,
    first_label: String,
    /// `icp_main`'s fault when the final flush fails, laid out.
    flush_error: String,
    max_inputs: usize,
    /// The statements in functions of at most [`CHUNK`]; empty for a
    /// program with no statement.
    chunks: Vec<ChunkView>,
    /// `icp_run`'s choice of function by label, laid out (one call for a
    /// program of one function).
    dispatch: Vec<String>,
    chunk_size: usize,
    /// The loops' member tables (issue 13), laid out.
    loop_tables: Vec<String>,
}

/// Statements per function of the generated Rust. One `match` of 10,000
/// arms in one function made `rustc -O` superlinear (286 s and 4.3 GB);
/// functions of this many statements keep it linear. A program of at most
/// this many statements is one function.
pub const CHUNK: usize = 256;

/// One function of the program's statements.
struct ChunkView {
    index: usize,
    /// First and last labels of its statements (Rust literals).
    first: String,
    last: String,
    /// More than one function: this one is not inlined into `icp_run`,
    /// and its arms are values (the label to go to) where they can be.
    separate: bool,
    cases: Vec<RustCase>,
    /// The arms after the statements' (a label not here), laid out.
    rest: Vec<String>,
}

/// One statement as a `match` arm.
struct RustCase {
    label: String,
    comment: String,
    /// The arm's body, laid out as rustfmt would (indented).
    body: Vec<String>,
}

/// Generates one self-contained Rust file (runtime inlined) that
/// `rustc --edition 2021 -O -D warnings FILE.rs` builds.
pub fn emit(program: &Program, source_name: &str) -> String {
    render(program, source_name, Some(RUNTIME))
}

/// Generated Rust: one file with the runtime inlined (`single_file`), or
/// the `src/main.rs` of a crate, which declares `mod icp_rt;`.
pub fn emit_rust(program: &Program, source_name: &str, single_file: bool) -> String {
    render(program, source_name, single_file.then_some(RUNTIME))
}

/// The indentation level of an arm's body: fn, loop, match, arm.
const BODY: usize = 4;

/// The arguments every statement function takes, as `icp_run` passes them.
const STATE: &str = "&mut icp_board, icp_in, icp_out, &mut icp_v, &mut icp_at";

fn render(program: &Program, source_name: &str, inline_runtime: Option<&'static str>) -> String {
    let plans = plan(program);
    let parts: Vec<&[StepPlan<'_>]> = plans.chunks(CHUNK).collect();
    let firsts: Vec<i64> = parts
        .iter()
        .map(|part| part.first().map_or(0, |p| p.statement.label))
        .collect();
    let separate = parts.len() > 1;
    let mut chunks = Vec::new();
    let mut dispatch = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let next = firsts.get(index + 1).copied();
        let low = (index > 0).then(|| firsts[index]);
        // A label in this function's range but on no statement is the §5
        // "no such label" error, reported at the `*` jump that read it.
        let owns = match (low, next) {
            (None, Some(n)) => Some(format!("icp_l < {}", S.int(n))),
            (Some(l), Some(n)) => Some(format!("({}..{}).contains(&icp_l)", S.int(l), S.int(n))),
            (Some(l), None) => Some(format!("icp_l >= {}", S.int(l))),
            (None, None) => None,
        };
        let missing = [
            "let icp_wanted = std::mem::replace(icp_label, *icp_from);",
            "return Err(icp_rt::Fault::NoSuchLabel(icp_wanted));",
        ];
        let arm_pad = pad(BODY - 1);
        let mut rest = match &owns {
            Some(owns) => vec![format!("{arm_pad}icp_l if {owns} => {{")],
            None => vec![format!("{arm_pad}_ => {{")],
        };
        rest.extend(missing.iter().map(|l| format!("{}{l}", pad(BODY))));
        rest.push(format!("{arm_pad}}}"));
        if owns.is_some() {
            rest.push(format!("{arm_pad}_ => return Ok(false),"));
        }
        let call = format!("icp_chunk_{index}({STATE})");
        if separate {
            match next {
                Some(n) => {
                    dispatch.extend(arm(3, &format!("icp_l if icp_l < {}", S.int(n)), &call))
                }
                None => dispatch.extend(arm(3, "_", &call)),
            }
        } else {
            dispatch.push(format!("let icp_halted = {call};"));
        }
        chunks.push(ChunkView {
            index,
            first: S.int(firsts[index]),
            last: S.int(part.last().map_or(0, |p| p.statement.label)),
            separate,
            cases: part.iter().map(|p| case(program, p, separate)).collect(),
            rest,
        });
    }
    let first_label = program
        .statements
        .first()
        .map_or("0".into(), |s| S.int(s.label));
    let view = ProgramView {
        header: codegen::header(NAME, source_name),
        inline_runtime: inline_runtime.map(codegen::inline_runtime),
        name_count: program.names.len(),
        flush_error: flush_error(&first_label),
        first_label,
        max_inputs: max_inputs(program),
        chunks,
        dispatch,
        chunk_size: CHUNK,
        loop_tables: loop_tables(program)
            .iter()
            .flat_map(|t| {
                let items = t.items(&S, |kind, args| match kind {
                    "Nothing" => "icp_rt::Step::Nothing".to_string(),
                    _ => format!("icp_rt::Step::{kind}({args})"),
                });
                let labels: Vec<String> = t.members.iter().map(|(l, _)| l.to_string()).collect();
                let mut lines = vec![
                    String::new(),
                    format!("/// Statements {}: a loop (issue 13).", labels.join(", ")),
                ];
                let declaration = format!(
                    "const ICP_LOOP_{}: [icp_rt::Step; {}] =",
                    t.first,
                    items.len()
                );
                let joined = items.join(", ");
                let one = format!("{declaration} [{joined}];");
                if width(&joined) <= ARRAY_WIDTH && width(&one) <= MAX_WIDTH {
                    lines.push(one);
                } else {
                    lines.push(format!("{declaration} ["));
                    lines.extend(items.iter().map(|i| format!("    {i},")));
                    lines.push("];".to_string());
                }
                lines
            })
            .collect(),
    };
    codegen::render(&view, Syntax::Rust)
}

/// `flushed.err().map(|_| (LABEL, …))` as rustfmt lays out the arm's
/// expression in `icp_main`: on the arm's line when the chain takes at most
/// rustfmt's `chain_width` (60) columns, else one call a line.
fn flush_error(first_label: &str) -> String {
    let map = format!(".map(|_| ({first_label}, icp_rt::Fault::WriteFailed))");
    let chain = format!("flushed.err(){map}");
    if width(&chain) <= CHAIN_WIDTH {
        chain
    } else {
        let at = pad(3);
        format!("flushed\n{at}.err()\n{at}{map}")
    }
}

/// Operands as Rust spells them.
const S: Spelling = Spelling {
    int: literal::rust_i64,
    colours: ["icp_rt::Colour::White", "icp_rt::Colour::Black"],
    kinds: [
        "icp_rt::Kind::King",
        "icp_rt::Kind::Queen",
        "icp_rt::Kind::Rook",
        "icp_rt::Kind::Bishop",
        "icp_rt::Kind::Knight",
        "icp_rt::Kind::Pawn",
    ],
    truth: "true",
    when: |cond, statement| format!("if {cond} {{ {statement} }}"),
    effect: |cond, call| match cond {
        Some(cond) => format!("if {cond} {{ {call}; }}"),
        None => format!("{call};"),
    },
    most: "u64::MAX",
};

/// The lines that send control on after a statement labelled `label`, at
/// `level` (§5): the next label, the end of the program, or a label read
/// by a `*` (an error if input ended before it, §6).
fn jump(j: Jump, label: &str, level: usize) -> Vec<String> {
    let at = pad(level);
    match j {
        Jump::Label(l) => vec![format!("{at}*icp_label = {};", S.int(l))],
        Jump::Halt => vec![format!("{at}return Ok(true);")],
        Jump::Input { slot, check_eof } => {
            let mut lines = Vec::new();
            if check_eof {
                lines.push(format!("{at}if icp_n <= {slot} {{"));
                lines.push(format!(
                    "{}return Err(icp_rt::Fault::EndOfInputInTarget);",
                    pad(level + 1)
                ));
                lines.push(format!("{at}}}"));
            }
            lines.push(format!("{at}*icp_from = {label};"));
            lines.push(format!("{at}*icp_label = icp_v[{slot}];"));
            lines
        }
    }
}

/// A statement's arm in a program of several functions: when it reads no
/// `*` and both its outcomes go to labels (most statements), one call of a
/// `#[inline(never)]` step function of the template that performs the
/// command and returns the label to go to (`icp_step_place(icp_board, …,
/// on success, on failure)`), so that each arm is a call with constant
/// arguments; else `None`, and [`case`] writes it (followed by `continue`).
fn step(p: &StepPlan<'_>) -> Option<Vec<String>> {
    let s = p.statement;
    let label = |j: Jump| match j {
        Jump::Label(l) => Some(S.int(l)),
        Jump::Halt | Jump::Input { .. } => None,
    };
    if s.inputs > 0 {
        return None;
    }
    let yes = label(p.on_success)?;
    let no = if p.branches {
        label(p.on_failure)?
    } else {
        yes.clone()
    };
    let (function, args) = match &s.command {
        Command::Nothing => return Some(vec![format!("{}Ok({yes})", pad(BODY))]),
        Command::Text(text) => (
            "icp_step_text",
            vec![
                "icp_out".to_string(),
                format!("\"{}\"", rust_string(&format!("{text}\n"))),
                yes,
            ],
        ),
        Command::Count(name) => (
            "icp_step_count",
            vec![
                "icp_board".to_string(),
                "icp_out".to_string(),
                name.to_string(),
                yes,
            ],
        ),
        Command::Slide { name, drow, dcol } => (
            "icp_step_slide",
            vec![
                "icp_board".to_string(),
                name.to_string(),
                S.int(*drow),
                S.int(*dcol),
                yes,
            ],
        ),
        command => {
            let (function, args) = S.board_call_args(command)?;
            let mut all = vec!["icp_board".to_string()];
            all.extend(args);
            all.push(yes);
            all.push(no);
            return Some(call(BODY, &format!("icp_step_{function}"), &all, ""));
        }
    };
    Some(call(BODY, function, &args, ""))
}

/// A statement's arm body (§4–§6): read its `*`s, print (when every `*`
/// was read), perform its command, jump on its outcome. `outlined`: the
/// program is several functions, whose arms call the runtime through the
/// `#[inline(never)]` wrappers of the template (`icp_place(icp_board, …)`)
/// rather than its methods, which rustc would inline into every arm.
fn case(program: &Program, p: &StepPlan<'_>, outlined: bool) -> RustCase {
    let s = p.statement;
    let label = S.int(s.label);
    if outlined && let Some(body) = step(p) {
        return RustCase {
            label,
            comment: comment(&s.text),
            body,
        };
    }
    let inputs = s.inputs;
    let mut body = Vec::new();
    let at = pad(BODY);
    if let Command::Loop { members, start } = &s.command {
        let first = members
            .first()
            .map_or(0, |m| program.statements[m.statement].label);
        let call = format!("icp_board.loop_exit(&ICP_LOOP_{first}, {start})");
        body.push(format!("{at}// {}", comment(&loop_note(program, members))));
        // A loop's exits go to literal labels or the end (no `*`). In a
        // program of several functions the arm's value is the next label.
        let go = |j: Jump| match j {
            Jump::Label(l) if outlined => format!("Ok({})", S.int(l)),
            Jump::Label(l) => format!("*icp_label = {}", S.int(l)),
            _ => "return Ok(true)".to_string(),
        };
        match p.exits.as_slice() {
            [(_, only)] => {
                body.push(format!("{at}{call};"));
                let value = outlined && matches!(only, Jump::Label(_));
                body.push(format!("{at}{}{}", go(*only), if value { "" } else { ";" }));
            }
            exits => {
                body.push(format!("{at}match {call} {{"));
                for (i, (ks, exit)) in exits.iter().enumerate() {
                    let pattern = if i + 1 == exits.len() {
                        "_".to_string()
                    } else {
                        let ks: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
                        ks.join(" | ")
                    };
                    body.extend(arm(BODY + 1, &pattern, &go(*exit)));
                }
                body.push(format!("{at}}}"));
            }
        }
        return RustCase {
            label,
            comment: comment(&s.text),
            body,
        };
    }
    if inputs > 0 {
        let read = if outlined {
            format!("icp_read_into(icp_in, &mut icp_v[..{inputs}])")
        } else {
            format!("icp_in.read_into(&mut icp_v[..{inputs}])")
        };
        body.push(format!("{at}let icp_n = {read}?;"));
    }
    // §6: at end of input the command is not performed, so a count whose
    // `*` jump target found nothing prints nothing.
    let write = match &s.command {
        Command::Text(text) => Some((
            if outlined {
                "icp_write_text"
            } else {
                "icp_rt::write_text"
            },
            vec![
                "icp_out".to_string(),
                format!("\"{}\"", rust_string(&format!("{text}\n"))),
            ],
        )),
        Command::Count(name) => Some((
            if outlined {
                "icp_write_count"
            } else {
                "icp_rt::write_count"
            },
            vec!["icp_out".to_string(), format!("icp_board.count({name})")],
        )),
        _ => None,
    };
    if let Some((function, args)) = write {
        if inputs > 0 {
            body.push(format!("{at}if icp_n == {inputs} {{"));
            body.extend(call(BODY + 1, function, &args, "?;"));
            body.push(format!("{at}}}"));
        } else {
            body.extend(call(BODY, function, &args, "?;"));
        }
    }
    let board = S.board_call_args(&s.command).map(|(function, mut args)| {
        if outlined {
            args.insert(0, "icp_board".to_string());
            (format!("icp_{function}"), args)
        } else {
            (format!("icp_board.{function}"), args)
        }
    });
    let success = jump(p.on_success, &label, BODY + 1);
    let failure = jump(p.on_failure, &label, BODY + 1);
    if p.branches {
        match (&board, inputs > 0) {
            (Some((function, args)), guarded) => {
                if guarded {
                    body.push(format!("{at}if icp_n < {inputs} {{"));
                    body.extend(failure.iter().cloned());
                    body.extend(call(BODY, &format!("}} else if {function}"), args, "? {"));
                } else {
                    body.extend(call(BODY, &format!("if {function}"), args, "? {"));
                }
            }
            (None, _) => body.push(format!("{at}if icp_n == {inputs} {{")),
        }
        body.extend(success);
        body.push(format!("{at}}} else {{"));
        body.extend(failure);
        body.push(format!("{at}}}"));
    } else {
        if let Some((function, args)) = &board {
            if inputs > 0 {
                body.push(format!("{at}if icp_n == {inputs} {{"));
                body.extend(call(BODY + 1, function, args, "?;"));
                body.push(format!("{at}}}"));
            } else {
                body.extend(call(BODY, function, args, "?;"));
            }
        }
        body.extend(jump(p.on_success, &label, BODY));
    }
    // The arm sets the label itself: on to the next turn of the loop
    // (unless it ended the program).
    if outlined && (p.branches || p.on_success != Jump::Halt) {
        body.push(format!("{at}continue;"));
    }
    RustCase {
        label,
        comment: comment(&s.text),
        body,
    }
}
