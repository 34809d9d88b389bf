// {{ header }}
// Build: rustc --edition 2021 -O FILE.rs    Run: ./prog < input
// Each statement is an arm of the match below, under its source line.
{%- if let Some(runtime) = inline_runtime %}

{{ runtime }}
{%- else %}

mod icp_rt;
{%- endif %}

use std::io::Write;

fn main() {
    std::process::exit(icp_main());
}

/// Runs the program on standard input and output; returns the exit status
/// (0 at the end of the program, 1 after a runtime error).
fn icp_main() -> i32 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut icp_in = icp_rt::Input::new(stdin.lock());
    let mut icp_out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = icp_run(&mut icp_in, &mut icp_out);
    let flushed = icp_out.flush();
    let error = match result {
        Ok(()) => {{ flush_error }},
        Err(e) => Some(e),
    };
    match error {
        None => 0,
        Some((label, fault)) => {
            eprintln!("{}", icp_rt::error_line(label, &fault));
            1
        }
    }
}
{% if chunks.is_empty() %}
/// The program has no statement: it ends at once (§5).
fn icp_run<R: std::io::BufRead, W: Write>(
    _icp_in: &mut icp_rt::Input<R>,
    _icp_out: &mut W,
) -> Result<(), (i64, icp_rt::Fault)> {
    Ok(())
}
{%- else %}
/// Runs the statements from the first label until the program ends, or
/// fails with the label of the statement that failed (§8). `icp_at` is
/// (current label, label of the statement whose `*` target was read).
/// Statements are in functions of at most {{ chunk_size }}, so that rustc's time
/// grows linearly with the program.
fn icp_run<R: std::io::BufRead, W: Write>(
    icp_in: &mut icp_rt::Input<R>,
    icp_out: &mut W,
) -> Result<(), (i64, icp_rt::Fault)> {
    let mut icp_board = icp_rt::Board::new({{ name_count }});
    let mut icp_v = [0i64; {{ max_inputs }}];
    let mut icp_at: (i64, i64) = ({{ first_label }}, {{ first_label }});
    loop {
{%- if chunks.len() == 1 %}
        {{ dispatch[0] }}
{%- else %}
        let icp_halted = match icp_at.0 {
{%- for line in dispatch %}
{{ line }}
{%- endfor %}
        };
{%- endif %}
        match icp_halted {
            Ok(true) => return Ok(()),
            Ok(false) => {}
            Err(icp_fault) => return Err((icp_at.0, icp_fault)),
        }
    }
}
{%- if chunks.len() > 1 %}

// The runtime's commands for a program of many functions, called rather
// than inlined into each of its statements: inlining them into thousands
// of arms made `rustc -O` several times slower.

#[inline(never)]
#[allow(dead_code)]
fn icp_place(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_colour: icp_rt::Colour,
    icp_kind: icp_rt::Kind,
    icp_row: i64,
    icp_col: i64,
) -> Result<bool, icp_rt::Fault> {
    icp_board.place(icp_name, icp_colour, icp_kind, icp_row, icp_col)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_move_squares(
    icp_board: &mut icp_rt::Board,
    icp_r1: i64,
    icp_c1: i64,
    icp_r2: i64,
    icp_c2: i64,
) -> Result<bool, icp_rt::Fault> {
    icp_board.move_squares(icp_r1, icp_c1, icp_r2, icp_c2)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_move_name_to(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_row: i64,
    icp_col: i64,
) -> Result<bool, icp_rt::Fault> {
    icp_board.move_name_to(icp_name, icp_row, icp_col)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_move_name_by(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_drow: i64,
    icp_dcol: i64,
) -> Result<bool, icp_rt::Fault> {
    icp_board.move_name_by(icp_name, icp_drow, icp_dcol)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_slide(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_drow: i64,
    icp_dcol: i64,
    icp_most: u64,
) -> Result<u64, icp_rt::Fault> {
    icp_board.slide(icp_name, icp_drow, icp_dcol, icp_most)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_write_text<W: Write>(icp_out: &mut W, icp_text: &str) -> Result<(), icp_rt::Fault> {
    icp_rt::write_text(icp_out, icp_text)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_write_count<W: Write>(icp_out: &mut W, icp_n: u64) -> Result<(), icp_rt::Fault> {
    icp_rt::write_count(icp_out, icp_n)
}

// A statement that reads no `*` and goes to a label on either outcome is
// one call of these: the command, then the label to go to.

#[inline(never)]
#[allow(dead_code, clippy::too_many_arguments)]
fn icp_step_place(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_colour: icp_rt::Colour,
    icp_kind: icp_rt::Kind,
    icp_row: i64,
    icp_col: i64,
    icp_yes: i64,
    icp_no: i64,
) -> Result<i64, icp_rt::Fault> {
    let icp_done = icp_board.place(icp_name, icp_colour, icp_kind, icp_row, icp_col)?;
    Ok(if icp_done { icp_yes } else { icp_no })
}

#[inline(never)]
#[allow(dead_code, clippy::too_many_arguments)]
fn icp_step_move_squares(
    icp_board: &mut icp_rt::Board,
    icp_r1: i64,
    icp_c1: i64,
    icp_r2: i64,
    icp_c2: i64,
    icp_yes: i64,
    icp_no: i64,
) -> Result<i64, icp_rt::Fault> {
    let icp_done = icp_board.move_squares(icp_r1, icp_c1, icp_r2, icp_c2)?;
    Ok(if icp_done { icp_yes } else { icp_no })
}

#[inline(never)]
#[allow(dead_code)]
fn icp_step_move_name_to(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_row: i64,
    icp_col: i64,
    icp_yes: i64,
    icp_no: i64,
) -> Result<i64, icp_rt::Fault> {
    let icp_done = icp_board.move_name_to(icp_name, icp_row, icp_col)?;
    Ok(if icp_done { icp_yes } else { icp_no })
}

#[inline(never)]
#[allow(dead_code)]
fn icp_step_move_name_by(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_drow: i64,
    icp_dcol: i64,
    icp_yes: i64,
    icp_no: i64,
) -> Result<i64, icp_rt::Fault> {
    let icp_done = icp_board.move_name_by(icp_name, icp_drow, icp_dcol)?;
    Ok(if icp_done { icp_yes } else { icp_no })
}

#[inline(never)]
#[allow(dead_code)]
fn icp_step_slide(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_drow: i64,
    icp_dcol: i64,
    icp_next: i64,
) -> Result<i64, icp_rt::Fault> {
    icp_board.slide(icp_name, icp_drow, icp_dcol, u64::MAX)?;
    Ok(icp_next)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_step_text<W: Write>(
    icp_out: &mut W,
    icp_text: &str,
    icp_next: i64,
) -> Result<i64, icp_rt::Fault> {
    icp_rt::write_text(icp_out, icp_text)?;
    Ok(icp_next)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_step_count<W: Write>(
    icp_board: &icp_rt::Board,
    icp_out: &mut W,
    icp_name: icp_rt::Name,
    icp_next: i64,
) -> Result<i64, icp_rt::Fault> {
    icp_rt::write_count(icp_out, icp_board.count(icp_name))?;
    Ok(icp_next)
}

#[inline(never)]
#[allow(dead_code)]
fn icp_read_into<R: std::io::BufRead>(
    icp_in: &mut icp_rt::Input<R>,
    icp_values: &mut [i64],
) -> Result<usize, icp_rt::Fault> {
    icp_in.read_into(icp_values)
}
{%- endif %}
{%- for k in chunks %}

/// Statements {{ k.first }} to {{ k.last }}: runs until the program ends (true) or
/// control leaves them (false, `icp_at` saying where to).
{%- if k.separate %}
/// An arm's value is the label to go to next, or its command's fault; an
/// arm that reads `*`s or ends the program sets the label itself.
#[inline(never)]
{%- endif %}
#[allow(unused_variables, clippy::never_loop)]
fn icp_chunk_{{ k.index }}<R: std::io::BufRead, W: Write>(
    icp_board: &mut icp_rt::Board,
    icp_in: &mut icp_rt::Input<R>,
    icp_out: &mut W,
    icp_v: &mut [i64; {{ max_inputs }}],
    icp_at: &mut (i64, i64),
) -> Result<bool, icp_rt::Fault> {
    let (icp_label, icp_from) = (&mut icp_at.0, &mut icp_at.1);
    loop {
{%- if k.separate %}
        let icp_next: Result<i64, icp_rt::Fault> = match *icp_label {
{%- else %}
        match *icp_label {
{%- endif %}
{%- for c in k.cases %}
            {{ c.label }} => {
                // {{ c.comment }}
{%- for line in c.body %}
{{ line }}
{%- endfor %}
            }
{%- endfor %}
{%- for line in k.rest %}
{{ line }}
{%- endfor %}
{%- if k.separate %}
        };
        *icp_label = icp_next?;
{%- else %}
        }
{%- endif %}
    }
}
{%- endfor %}
{%- endif %}
{%- for line in loop_tables %}
{{ line }}
{%- endfor %}
