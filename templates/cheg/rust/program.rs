// {{ header }}
// Build: rustc --edition 2021 -O FILE.rs
// Run:   ./engine --fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft N]   (no arguments: UCI)
// The endgame program is the match in `step`: one arm per statement, under
// its source line; the engine (chess, search, UCI) is the runtime below.
{%- if let Some(runtime) = inline_runtime %}

{{ runtime }}
{%- else %}

mod icp_rt;
{%- endif %}

use icp_rt::engine as icp_e;

/// The engine's name (UCI `id name`): the program's file stem.
const ICP_NAME: &str = "{{ name }}";

/// The endgame program: control flow only; every value, condition and
/// outcome is the runtime's (CHEG §5, §6).
struct IcpProgram;

{{ entries }}

{{ lines }}

impl icp_e::Endgame for IcpProgram {
    fn entries(&self) -> &[icp_e::EntrySpec] {
        &ICP_ENTRIES
    }

    fn line(&self, pc: usize) -> u32 {
        ICP_LINES.get(pc).copied().unwrap_or(0)
    }

{%- if let Some(user_vars) = user_vars %}

    fn user_vars(&self) -> usize {
        {{ user_vars }}
    }
{%- endif %}

    fn step(
        &self,
        pc: usize,
        {{ inv }}: &mut icp_e::Invocation<'_, '_>,
    ) -> Result<icp_e::Step, icp_e::Error> {
        Ok(match pc {
{%- for case in cases %}
            // {{ case.comment }}
{{ case.body }}
{%- endfor %}
            _ => icp_e::Step::Fence,
        })
    }
}

fn main() {
    // Arguments as text; bytes that are not UTF-8 become U+FFFD, as in the
    // C engine.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut output = std::io::BufWriter::new(stdout.lock());
    // Commands are read on a thread of their own, so that `stop` and
    // `isready` reach a running search (CHEG §7.5); the search runs here.
    let input = std::io::BufReader::new(std::io::stdin());
    let mut commands = icp_rt::uci::ThreadReader::spawn(Box::new(input));
    let clock = icp_rt::uci::SystemClock::new();
    let status = icp_rt::uci::main(
        ICP_NAME,
        &args,
        &IcpProgram,
        &mut commands,
        &clock,
        &mut output,
        &mut stderr.lock(),
    );
    let _ = std::io::Write::flush(&mut output);
    std::process::exit(status);
}
