{%- if chunks.len() <= 1 %}
{%- for line in d.doc %}
/// {{ line }}
{%- endfor %}
{{ chunks[0].signature }}
    {% if !d.wrap.is_empty() %}{{ d.wrap }}({% endif %}match {{ d.pc }} {
{%- for chunk in chunks %}
{%- for c in chunk.cases %}
        // {{ c.comment }}
{%- for line in c.lines %}
{% if !line.is_empty() %}        {{ line }}{% endif %}
{%- endfor %}
{%- endfor %}
{%- endfor %}
        _ => {{ d.default }},
    }{% if !d.wrap.is_empty() %}){% endif %}
}
{%- else %}
{%- for chunk in chunks %}

/// Statements {{ loop.index0 * size }} to {{ loop.index0 * size + chunk.cases.len() - 1 }}.
#[inline(never)]
{{ chunk.signature }}
    {% if !d.wrap.is_empty() %}{{ d.wrap }}({% endif %}match {{ d.pc }} {
{%- for c in chunk.cases %}
        // {{ c.comment }}
{%- for line in c.lines %}
{% if !line.is_empty() %}        {{ line }}{% endif %}
{%- endfor %}
{%- endfor %}
        _ => {{ d.default }},
    }{% if !d.wrap.is_empty() %}){% endif %}
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
