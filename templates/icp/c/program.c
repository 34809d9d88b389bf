/* {{ header }}
 * Build: cc -std=c99 -O2 FILE.c -o prog    Run: ./prog < input
 * Each statement is a case of the switch below, under its source line. */

{{ runtime }}
/* Piece names, interned (§4.3): */
{%- for name in names %}
/*   {{ loop.index0 }}: {{ name }} */
{%- endfor %}
{%- if names.is_empty() %}
/*   (none) */
{%- endif %}
{%- if !loop_tables.is_empty() %}

/* Loops of statements the optimiser summarised (docs/infchesspro.md,
 * "Loops of statements"), each member with its move: name, row offset,
 * column offset. */
{%- for t in loop_tables %}
{{ t }}
{%- endfor %}
{%- endif %}
{%- macro case_body(c) %}
        case {{ c.label }}: /* {{ c.comment }} */
{%- if c.sets_current %}
            icp_current_label = {{ c.label }};
{%- endif %}
{%- if let Some(read) = c.read %}
            {{ read }}
{%- endif %}
{%- for w in c.writes %}
            {{ w }}
{%- endfor %}
{%- if !c.loop_lines.is_empty() %}
{%- for line in c.loop_lines %}
            {{ line }}
{%- endfor %}
{%- else if c.branches %}
            if ({{ c.test }}) {
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
{%- endmacro %}
{%- if chunks.is_empty() %}

int main(void)
{
{%- if !cases.is_empty() %}
    int64_t icp_label = {{ first_label }};
{%- if input_jumps %}
    int64_t icp_from = {{ first_label }};
{%- endif %}
{%- if max_inputs > 0 %}
    int64_t icp_v[{{ max_inputs }}] = {0};
    int icp_n = 0;
{%- endif %}
{%- if multi_exit %}
    size_t icp_exit = 0;
{%- endif %}
{%- endif %}
    icp_init();
{%- if let Some(board_init) = board_init %}
    {{ board_init }}
{%- endif %}
{%- if !cases.is_empty() %}
    for (;;) {
        switch (icp_label) {
{%- for c in cases %}
{%- call case_body(c) %}{%- endcall %}
{%- endfor %}
        default:
{%- if let Some(no_label) = no_label %}
            {{ no_label }}(icp_from, icp_label);
{%- endif %}
            goto icp_halt;
        }
    }
icp_halt:
{%- endif %}
    return icp_finish();
}
{%- else %}

/* A large program is cut into chunks of consecutive statements, one
 * function each (so that the C compiler's time stays linear in the program
 * size). A chunk runs until control leaves its labels: it returns 1 to go
 * on with the chunk holding icp_label, or 0 when the program ends. */
static int64_t icp_label = {{ first_label }};
{%- if input_jumps %}
static int64_t icp_from = {{ first_label }};
{%- endif %}
{%- if max_inputs > 0 %}
static int64_t icp_v[{{ max_inputs }}];
static int icp_n;
{%- endif %}
{%- if multi_exit %}
static size_t icp_exit;
{%- endif %}
{%- if lean %}

{{ c_lean }}
{%- endif %}
{%- for k in chunks %}

/* Statements labelled {{ k.first }} to {{ k.last }}. */
{% if lean %}ICP_CHUNK{% else %}static{% endif %} int icp_chunk_{{ loop.index0 }}(void)
{
    for (;;) {
        switch (icp_label) {
{%- for c in k.cases %}
{%- call case_body(c) %}{%- endcall %}
{%- endfor %}
        default:
            if ({{ k.leaves }})
                return 1;
{%- if let Some(no_label) = no_label %}
            {{ no_label }}(icp_from, icp_label);
{%- endif %}
            return 0;
        }
    }
}
{%- endfor %}

/* The first label of each chunk, ascending, and the chunks. */
static const int64_t icp_chunk_first[{{ chunks.len() }}] = {
{%- for k in chunks %}
    {{ k.first }}{% if !loop.last %},{% endif %}
{%- endfor %}
};
static int (*const icp_chunk[{{ chunks.len() }}])(void) = {
{%- for k in chunks %}
    icp_chunk_{{ loop.index0 }}{% if !loop.last %},{% endif %}
{%- endfor %}
};

int main(void)
{
    icp_init();
{%- if let Some(board_init) = board_init %}
    {{ board_init }}
{%- endif %}
    for (;;) {
        /* The last chunk whose first label is at most icp_label (a label
         * below the first one belongs to no statement: chunk 0 says so). */
        size_t lo = 0, hi = {{ chunks.len() }};
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (icp_chunk_first[mid] <= icp_label)
                lo = mid;
            else
                hi = mid;
        }
        if (!icp_chunk[lo]())
            break;
    }
    return icp_finish();
}
{%- endif %}
