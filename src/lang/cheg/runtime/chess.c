/* ---------------------------------------------------------------------
 * Legal chess for the CHEG engine (docs/cheg.md §7.1, §7.2, §7.4): the
 * position, FEN, legal moves in §7.2's order, make, check, perft.
 * The C port of runtime/chess.rs, function for function: the same 0x88
 * mailbox with per-colour and per-kind bit masks, the same legal
 * generation (checkers and pins from one scan from the king) in the same
 * order, the same FEN messages. Keep the two in step: tests/it/cheg.rs and
 * the conformance suites compare the engines built on each. Cut into
 * sections as chess.rs is (runtime/api.rs).
 *
 * Squares are rank * 8 + file (a1 = 0, h8 = 63); the mailbox uses 0x88
 * squares rank * 16 + file.
 * --------------------------------------------------------------------- */

/* The engine's core (chess, the search, UCI: everything outside a
 * section) needs these sections of the prelude. A program carries the
 * sections its statements use besides (runtime/api.rs), nothing else: an
 * unused static function would not build under -Wall -Werror. */
/* @section core: prelude_realloc prelude_stdout */
/* @end core */

/* What gcc optimises (the build's time is gcc's -O2 passes).
 * Only the move generation and the search need -O2; the rest is marked:
 * - ICP_COLD: runs once per command or on an error (FEN, UCI, messages,
 *   start-up): not optimised at all, and calls to it are unlikely;
 * - ICP_LIGHT: the program's language (values, statements, invocations),
 *   no faster at -O2 than at -O1: -O1.
 * GCC only, and only lowering the build's level (-O0 and -Os builds, and
 * other compilers, keep theirs). Small helpers stay unmarked: a function
 * with its own optimisation level is not inlined into one with another. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#define ICP_COLD __attribute__((cold, optimize("O0")))
#if defined(__OPTIMIZE_SIZE__)
#define ICP_LIGHT
#else
#define ICP_LIGHT __attribute__((optimize("O1")))
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define ICP_COLD __attribute__((cold))
#define ICP_LIGHT
#else
#define ICP_COLD
#define ICP_LIGHT
#endif
