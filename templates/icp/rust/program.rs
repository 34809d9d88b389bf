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
        Ok(()) => flushed.err().map(|_| ({{ first_label }}, icp_rt::Fault::WriteFailed)),
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
{%- for k in chunks %}

/// Statements {{ k.first }} to {{ k.last }}: runs until the program ends (true) or
/// control leaves them (false, `icp_at` saying where to).
{%- if k.separate %}
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
        match *icp_label {
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
        }
    }
}
{%- endfor %}
{%- endif %}
