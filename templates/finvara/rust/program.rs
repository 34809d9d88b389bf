// {{ header }}
// {{ summary }}
// Build: rustc --edition 2021 -O main.rs. Runtime errors exit with status 1.
{% if inline_runtime %}
{{ runtime }}
{% else %}
mod icp_rt;
{% endif %}
use std::io::Write;
{% for a in arrays %}
// path program of {{ a.comment }}
{{ a.body }}
{% endfor %}
static ICP_KINDS: [icp_rt::Kind<'static>; {{ nkinds }}] = [
{%- for k in kinds %}
    {{ k }}
{%- endfor %}
];

// {{ width }} columns x {{ height }} rows, row a (1) first
{{ cells }}

/// Runs the moves; Err holds the runtime error (§6).
fn icp_run(
    game: &mut icp_rt::Game<'_>,
    {{ input }}: &mut dyn std::io::BufRead,
    {{ output }}: &mut dyn std::io::Write,
) -> Result<(), icp_rt::RuntimeError> {
{%- if cases.is_empty() %}
    // No moves: the game is still checked once (§5.4).
    game.game_over()?;
{%- else %}
    let mut pc: usize = 0;
    // §5.4: the game is checked before every move, and before the first.
    while !game.game_over()? {
        pc = match pc {
{%- for c in cases %}
            // {{ c.comment }}
            {{ c.index }} => {
{%- for l in c.lines %}
                {{ l }}
{%- endfor %}
            }
{%- endfor %}
            _ => break,
        };
    }
{%- endif %}
    Ok(())
}

fn main() {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::BufWriter::new(std::io::stdout().lock());
    let mut game = icp_rt::Game::new(&ICP_KINDS, {{ width }}, {{ height }}, &ICP_CELLS);
    let result = icp_run(&mut game, &mut input, &mut output);
    let flushed = output.flush();
    let failure = match result {
        Err(error) => Some(error),
        Ok(()) => flushed.err().map(|_| icp_rt::RuntimeError::WRITE_FAILED),
    };
    if let Some(error) = failure {
        let _ = writeln!(std::io::stderr(), "{error}");
        std::process::exit(1);
    }
}
