/* {{ header }}
 * Build: cc -std=c99 -O2 FILE.c -o engine
 * Run:   ./engine --fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft N]   (no arguments: UCI)
 * The endgame program is the switch in icp_program_step at the end: one
 * case per statement, under its source line; the engine (chess, search,
 * UCI) is the runtime before it. */

/* POSIX where the system has it (poll and read on standard input, the
 * monotonic clock): the engine then reads stop, isready and quit during a
 * search (CHEG §7.5). -DICP_NO_POSIX builds plain C99, which reads
 * commands only between searches. */
#if !defined(ICP_NO_POSIX) && (defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__)))
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define ICP_POSIX 1
#endif
{{ runtime }}
/* ---- the endgame program ---- */

/* The ENTRY lines (§6.1): first statement; queens, rooks, bishops,
 * knights, pawns (-1: any) of the side to move and of the other side; how
 * the pawn difference compares with m ('<', '=', '>'; 0: no condition),
 * m. */
static const icp_entry_spec icp_entries[{{ entries.len() }}] = {
{%- for entry in entries %}
    {{ entry }},
{%- endfor %}
};

static const uint32_t icp_lines[{{ lines.len() }}] = { {{ lines.join(", ") }} };
{%- if !helpers.is_empty() %}

/* The statements of a long program call one of these for each kind and
 * operand shape of their arithmetic and jumps. */
{%- for helper in helpers %}

{{ helper }}
{%- endfor %}
{%- endif %}

{{ steps }}

static const icp_program icp_the_program = {
    icp_entries, {{ entries.len() }}, icp_lines, {{ lines.len() }}, {{ user_vars }}, icp_program_step, "{{ name }}"
};

int main(int argc, char **argv)
{
    return icp_engine_main(argc - 1, argv + 1, &icp_the_program);
}
