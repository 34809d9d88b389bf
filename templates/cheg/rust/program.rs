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
        inv: &mut icp_e::Invocation<'_, '_>,
    ) -> Result<icp_e::Step, icp_e::Error> {
        icp_step(pc, inv)
    }
}

{{ steps }}

/// The engine as its binary runs it: `args` (without the program's name)
/// ask one query (`--fen FEN …`, `--help`); none speak UCI, reading the
/// commands from `input` on a thread of their own, so that `stop` and
/// `isready` reach a running search (CHEG §7.5). Answers go to `output`,
/// errors to standard error. Returns the exit status and whether the
/// output could be flushed.
fn icp_engine<W: std::io::Write>(
    args: &[String],
    input: Box<dyn std::io::BufRead + Send>,
    output: W,
) -> (i32, std::io::Result<()>) {
    let mut output = std::io::BufWriter::new(output);
    let mut commands = icp_rt::uci::ThreadReader::spawn(input);
    let clock = icp_rt::uci::SystemClock::new();
    let status = icp_rt::uci::main(
        ICP_NAME,
        args,
        &IcpProgram,
        &mut commands,
        &clock,
        &mut output,
        &mut std::io::stderr().lock(),
    );
    let flushed = std::io::Write::flush(&mut output);
    (status, flushed)
}

/// Runs the engine's UCI loop (CHEG §7.4, §7.5) until `quit` or the end
/// of `input`: the commands are read from `input`, the answers written to
/// `output` (buffered, and flushed before `run` returns), runtime errors
/// of searches reported on standard error, as the engine's binary does
/// when started with no arguments. `Err`: the output could not be
/// written.
pub fn run<R: std::io::BufRead + Send + 'static, W: std::io::Write + Send + 'static>(
    input: R,
    output: W,
) -> Result<(), Error> {
    match icp_engine(&[], Box::new(input), output) {
        (_, Err(_)) => Err(Error {
            message: "cannot write standard output".to_string(),
        }),
        (_, Ok(())) => Ok(()),
    }
}
