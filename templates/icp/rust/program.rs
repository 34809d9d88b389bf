{%- macro arm(c) %}
            {{ c.label }} => {
                // {{ c.comment }}
{%- if let Some(n) = c.reads %}
                let icp_n = icp_in.read_into(&mut icp_v[..{{ n }}]).map_err(|f| ({{ c.label }}, f))?;
{%- endif %}
{%- for w in c.writes %}
                {{ w }}
{%- endfor %}
{%- if c.branches %}
                if {{ c.test }} {
                    {{ c.on_success }}
                } else {
                    {{ c.on_failure }}
                }
{%- else %}
{%- if !c.effect.is_empty() %}
                {{ c.effect }}
{%- endif %}
                {{ c.on_success }}
{%- endif %}
            }
{%- endmacro -%}
// {{ header }}
// Build: rustc --edition 2021 -O FILE.rs    Run: ./prog < input
// Each statement is an arm of the match below, under its source line.
{%- if let Some(runtime) = inline_runtime %}

mod icp_rt {
#![allow(dead_code)]
{{ runtime }}
}
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
{% if !chunks.is_empty() %}
/// The program is large: its statements are cut into functions of at most
/// {{ chunk_size }} statements each, so that rustc's time grows linearly with the
/// program. `icp_at` is (current label, label a `*` target came from).
fn icp_run<R: std::io::BufRead, W: Write>(
    icp_in: &mut icp_rt::Input<R>,
    icp_out: &mut W,
) -> Result<(), (i64, icp_rt::Fault)> {
    let mut icp_board = icp_rt::Board::new({{ name_count }});
    let mut icp_v = [0i64; {{ max_inputs }}];
    let mut icp_at: (i64, i64) = ({{ first_label }}, {{ first_label }});
    loop {
        let icp_halted = match icp_at.0 {
{%- for k in chunks %}
{%- if let Some(next) = k.next %}
            icp_l if icp_l < {{ next }} => {
                icp_chunk_{{ k.index }}(&mut icp_board, icp_in, icp_out, &mut icp_v, &mut icp_at)?
            }
{%- else %}
            _ => icp_chunk_{{ k.index }}(&mut icp_board, icp_in, icp_out, &mut icp_v, &mut icp_at)?,
{%- endif %}
{%- endfor %}
        };
        if icp_halted {
            return Ok(());
        }
    }
}
{%- for k in chunks %}

/// Statements {{ k.first }} to {{ k.last }}: runs until the program ends (true) or
/// jumps out of them (false, `icp_at` saying where to).
#[inline(never)]
#[allow(unused_variables, unused_mut, unreachable_code, clippy::never_loop)]
fn icp_chunk_{{ k.index }}<R: std::io::BufRead, W: Write>(
    icp_board: &mut icp_rt::Board,
    icp_in: &mut icp_rt::Input<R>,
    icp_out: &mut W,
    icp_v: &mut [i64; {{ max_inputs }}],
    icp_at: &mut (i64, i64),
) -> Result<bool, (i64, icp_rt::Fault)> {
    let (mut icp_label, mut icp_from) = *icp_at;
    loop {
        match icp_label {
{%- for c in k.cases %}
{%- call arm(c) %}{%- endcall %}
{%- endfor %}
            _ if {{ k.owns }} => return Err((icp_from, icp_rt::Fault::NoSuchLabel(icp_label))),
            _ => {
                *icp_at = (icp_label, icp_from);
                return Ok(false);
            }
        }
    }
    Ok(true)
}
{%- endfor %}
{% else if cases.is_empty() %}
fn icp_run<R: std::io::BufRead, W: Write>(
    _icp_in: &mut icp_rt::Input<R>,
    _icp_out: &mut W,
) -> Result<(), (i64, icp_rt::Fault)> {
    let _board = icp_rt::Board::new({{ name_count }});
    Ok(())
}
{%- else %}
fn icp_run<R: std::io::BufRead, W: Write>(
    {% if max_inputs == 0 %}_{% endif %}icp_in: &mut icp_rt::Input<R>,
    {% if !writes_output %}_{% endif %}icp_out: &mut W,
) -> Result<(), (i64, icp_rt::Fault)> {
    let {% if board_mut %}mut {% endif %}{% if !board_used %}_{% endif %}icp_board = icp_rt::Board::new({{ name_count }});
{%- if max_inputs > 0 %}
    let mut icp_v = [0i64; {{ max_inputs }}];
{%- endif %}
    let {% if label_changes %}mut {% endif %}icp_label: i64 = {{ first_label }};
    let {% if input_jumps %}mut {% endif %}icp_from: i64 = {{ first_label }};
    {%- if !label_changes %}
    #[allow(clippy::never_loop)] // a single statement that ends the program
    {%- endif %}
    loop {
        match icp_label {
{%- for c in cases %}
{%- call arm(c) %}{%- endcall %}
{%- endfor %}
            _ => return Err((icp_from, icp_rt::Fault::NoSuchLabel(icp_label))),
        }
    }
{%- if halts %}
    Ok(())
{%- endif %}
}
{%- endif %}
