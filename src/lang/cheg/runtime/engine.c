/* ---------------------------------------------------------------------
 * The CHEG engine in C (docs/cheg.md §2, §4, §5, §6, §7.3, §9): values,
 * conditions and orderings, the instructions, the endgame program inside
 * the search, runtime errors. The C port of runtime/engine.rs, pasted into
 * generated C after the prelude and chess.c: keep the two in step (the
 * tests run every example, conformance case and random program through
 * both and compare the bytes).
 *
 * Values (§2) have value semantics; sets are shared, reference counted
 * and copied on write: an edit changes a set in place when only the edited
 * variable holds it, and copies it first otherwise, so building a set one
 * PAIR, APPEND or INSERT at a time costs O(1) amortised a step. Freeing,
 * comparing and printing nested sets use explicit stacks, never recursion.
 * Every allocation of a search is tracked in one list, so that a runtime
 * error (§9), which ends the whole search, unwinds with longjmp and frees
 * everything at once.
 *
 * The generated program does control flow only: icp_program_step runs one
 * statement through the icp_do_* functions below and returns a step code.
 *
 * Cut into sections as engine.rs is (runtime/api.rs): a program carries
 * the core and the sections it reaches, so that -Wall -Wextra -Werror,
 * which report an unused static function or parameter, prove it carries
 * nothing unused. Dispatchers therefore use their operands outside any
 * case (icp_do_unary, icp_do_binary, icp_do_jump compute in place; a
 * condition test consumes its value), the constants a section adds are
 * macros of their own, and the conditions and orderings find the node and
 * the line of their errors in the running invocation, icp_current.
 * --------------------------------------------------------------------- */
#include <setjmp.h>
#include <stdarg.h>

/* Statements one invocation may execute (§5.2, §11.16). */
#define ICP_MAX_STATEMENTS 1000000
/* Calls that may be active at once (§5.2, §11.16). */
#define ICP_MAX_CALLS 1000
/* The checkmate value at DEPTH 0 (§6.2). */
#define ICP_MATE 28672
