{%- macro body(chunk) %}
{
{%- if let Some(op) = chunk.c_operands(d) %}
    {{ op.pattern }}
{%- endif %}
    switch ({{ chunk.c_index(d.pc) }}) {
{%- for c in chunk.cases %}
    case {{ c.pc - chunk.base }}: /* {{ c.comment }} */
{%- for line in chunk.c_lines(c) %}
        {{ line }}
{%- endfor %}
{%- if chunk.c_breaks(c) %}
        break;
{%- endif %}
{%- endfor %}
    default:
        {{ chunk.default }}
    }
{%- if let Some(op) = chunk.c_operands(d) %}
    {{ op.call }}
{%- endif %}
}
{%- endmacro %}
{%- if chunks.len() <= 1 %}
{%- for line in d.doc %}
{% if loop.first %}/* {% else %} * {% endif %}{{ line }}{% if loop.last %} */{% endif %}
{%- endfor %}
{{ d.storage }} {{ d.returns }} {{ d.name }}({{ chunks[0].signature }})
{%- call body(chunks[0]) %}{% endcall %}
{%- else %}
{%- if lean %}

{{ c_lean }}
{%- endif %}
{%- for chunk in chunks %}

/* Statements {{ chunk.base }} to {{ chunk.base + chunk.cases.len() - 1 }}, case 0 being {{ chunk.base }}. */
{% if lean %}ICP_CHUNK{% else %}{{ d.storage }}{% endif %} {{ d.returns }} {{ d.name }}_{{ loop.index0 }}({{ chunk.signature }})
{%- call body(chunk) %}{% endcall %}
{%- endfor %}

{%- for line in d.doc %}
{% if loop.first %}/* {% else %} * {% endif %}{{ line }}{% if loop.last %}
 * The statements are in functions of {{ size }}, picked by {{ d.pc }} / {{ size }}. */{% endif %}
{%- endfor %}
{{ d.storage }} {{ d.returns }} {{ d.name }}({{ d.c_params() }})
{
    switch ({{ d.pc }} / {{ size }}) {
{%- for chunk in chunks %}
    case {{ loop.index0 }}: return {{ d.name }}_{{ loop.index0 }}({{ d.args }});
{%- endfor %}
    default:
        {{ d.default }}
    }
}
{%- endif %}
