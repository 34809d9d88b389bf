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

{{ moves }}

/// Runs the moves; Err holds the runtime error (§6).
fn icp_run(game: &mut icp_rt::Game<'_>) -> Result<(), icp_rt::RuntimeError> {
    let mut pc: usize = 0;
    // §5.4: the game is checked before every move, and before the first;
    // a move number past the last ends the program.
    while pc != usize::MAX && !game.game_over()? {
        pc = icp_move(game, pc)?;
    }
    Ok(())
}

{{ run_doc }}
{{ run_signature }}
    let mut output = std::io::BufWriter::new(output);
    let mut game = icp_rt::Game::new(&ICP_KINDS, {{ width }}, {{ height }}, &ICP_CELLS);
{%- if let Some(read_from) = read_from %}
    game.{{ read_from }}(&mut input);
{%- endif %}
{%- if let Some(write_to) = write_to %}
    game.{{ write_to }}(&mut output);
{%- endif %}
    let result = icp_run(&mut game);
    let flushed = output.flush();
    let failure = match result {
        Err(error) => Some(error),
        Ok(()) => flushed.err().map(|_| icp_rt::RuntimeError::WRITE_FAILED),
    };
    match failure {
        None => Ok(()),
        Some(error) => Err(Error {
            message: error.to_string(),
        }),
    }
}
