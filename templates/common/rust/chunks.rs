{%- macro body(chunk) %}
{%- if chunk.operands %}
{%- if let Some(op) = d.operands %}
    let {{ op.pattern }} = match {{ d.pc }} {
{%- for c in chunk.cases %}
        // {{ c.comment }}
{%- if let Some(arm) = c.operands %}
{%- for line in arm.lines() %}
{% if !line.is_empty() %}        {{ line }}{% endif %}
{%- endfor %}
{%- endif %}
{%- endfor %}
        _ => return {{ d.default }},
    };
    {{ op.call }}
{%- endif %}
{%- else %}
    {% if !d.wrap.is_empty() %}{{ d.wrap }}({% endif %}match {{ d.pc }} {
{%- for c in chunk.cases %}
        // {{ c.comment }}
{%- for line in c.lines %}
{% if !line.is_empty() %}        {{ line }}{% endif %}
{%- endfor %}
{%- endfor %}
        _ => {{ d.default }},
    }{% if !d.wrap.is_empty() %}){% endif %}
{%- endif %}
{%- endmacro %}
{%- if chunks.len() <= 1 %}
{%- for line in d.doc %}
/// {{ line }}
{%- endfor %}
{{ chunks[0].signature }}
{%- call body(chunks[0]) %}{% endcall %}
}
{%- else %}
{%- for chunk in chunks %}

/// Statements {{ loop.index0 * size }} to {{ loop.index0 * size + chunk.cases.len() - 1 }}.
#[inline(never)]
{{ chunk.signature }}
{%- call body(chunk) %}{% endcall %}
}
{%- endfor %}

{%- for line in d.doc %}
/// {{ line }}
{%- endfor %}
/// The statements are in functions of {{ size }}, picked by `{{ d.pc }} / {{ size }}`.
{{ d.rust_dispatcher() }}
    match {{ d.pc }} / {{ size }} {
{%- for chunk in chunks %}
        {{ loop.index0 }} => {{ d.name }}_{{ loop.index0 }}({{ d.args }}),
{%- endfor %}
        _ => {% if !d.wrap.is_empty() %}{{ d.wrap }}({{ d.default }}){% else %}{{ d.default }}{% endif %},
    }
}
{%- endif %}
