use std::io::Write;

{{ run_doc }}
{{ api_signature }}
{%- if let Some(input) = input %}
    let mut icp_in = icp_rt::{{ input }}(input);
{%- endif %}
    let mut icp_out = std::io::BufWriter::with_capacity(1 << 16, output);
    let result = {{ run_call }};
    let flushed = icp_out.flush();
    let error = match result {
        Ok(()) => {{ flush_error }},
        Err(e) => Some(e),
    };
    match error {
        None => Ok(()),
{%- if let Some(error_message) = error_message %}
        Some((label, fault)) => Err(Error {
            message: icp_rt::{{ error_message }}(label, &fault),
        }),
{%- else %}
        Some((_, fault)) => Err(Error {
            message: fault.to_string(),
        }),
{%- endif %}
    }
}
{% if chunks.is_empty() %}
/// The program has no statement: it ends at once (§5).
{%- for line in run_signature %}
{{ line }}
{%- endfor %}
    Ok(())
}
{%- else %}
/// Runs the statements from the first label until the program ends, or
/// fails with the label of the statement that failed (§8). `icp_at` is
/// (current label, label of the statement whose `*` target was read).
/// Statements are in functions of at most {{ chunk_size }}, so that rustc's time
/// grows linearly with the program.
{%- for line in run_signature %}
{{ line }}
{%- endfor %}
{%- if let Some(board) = board %}
    let mut icp_board = icp_rt::{{ board }}({{ name_count }});
{%- endif %}
{%- if max_inputs > 0 %}
    let mut icp_v = [0i64; {{ max_inputs }}];
{%- endif %}
    let mut icp_at: (i64, i64) = ({{ first_label }}, {{ first_label }});
    loop {
{%- if chunks.len() == 1 %}
{%- for line in dispatch %}
{{ line }}
{%- endfor %}
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
{%- for block in helpers %}

{{ block }}
{%- endfor %}
{%- for k in chunks %}

/// Statements {{ k.first }} to {{ k.last }}: runs until the program ends (true) or
/// control leaves them (false, `icp_at` saying where to).
{%- if k.separate %}
/// An arm's value is the label to go to next, or its command's fault; an
/// arm that reads `*`s or ends the program sets the label itself.
#[inline(never)]
{%- endif %}
{%- if !k.loops %}
#[allow(clippy::never_loop)]
{%- endif %}
{%- for line in k.signature %}
{{ line }}
{%- endfor %}
    {{ k.labels }}
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
