// {{ header }}
{%- if form == Form::File %}
// Build: rustc --edition 2021 -O FILE.rs, then run ./FILE: its input is standard input.
{%- else if form == Form::Module %}
// A module: `mod {{ stem }} { include!("{{ stem }}.rs"); }` gives `{{ stem }}::run(input, output)`
// and `{{ stem }}::Error`.
{%- endif %}
{%- for line in about %}
// {{ line }}
{%- endfor %}
{%- if form == Form::Library %}

//! The program as a library: [`run`] does what its binary does, on the
//! input and output it is given, and fails with an [`Error`] where the
//! binary would print that error and exit with status 1.
{%- for line in crate_doc %}
//!{% if !line.is_empty() %} {{ line }}{% endif %}
{%- endfor %}

mod icp_rt;
{%- else %}

{{ runtime }}
{%- endif %}

{{ items }}

/// A runtime error of the program. Its `Display` (and `Debug`, which `?`
/// in a `main` prints) is the message that the standalone program prints
/// on standard error after `error: `, before it exits with status 1.
pub struct Error {
    message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
{%- if form == Form::File %}

{{ main }}
{%- else if form == Form::Module %}

// `run` is what this module offers: naming it here keeps it, and all it
// uses, from counting as dead code when the including crate calls nothing.
const _: fn(std::io::Empty, std::io::Sink) -> Result<(), Error> =
    run::<std::io::Empty, std::io::Sink>;
{%- else if !crate_api.is_empty() %}

{{ crate_api }}
{%- endif %}
