/* ---------------------------------------------------------------------
 * icp2c C prelude: the start of the C runtime of every language (pasted
 * before the language's own runtime). C99 and libc only. It holds
 * what every generated C program does the same way: the headers, standard
 * output (buffering, SIGPIPE), how a write failure is reported, and
 * allocation that fails instead of overflowing. Each function is a
 * section of its own: a program carries those its runtime needs.
 * --------------------------------------------------------------------- */
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The section sign, as UTF-8 bytes, for messages citing a section. */
#define ICP_SECT "\302\247"

/* @section prelude_stdout */
static char icp_out_buf[65536];

/* Call before the first write (again: no effect). A closed pipe becomes a
 * write error (exit 1), as in Rust, not a kill by SIGPIPE. full_buffer:
 * standard output is fully buffered in a 64 KiB buffer, even on a
 * terminal. */
static void icp_stdout_setup(int full_buffer)
{
    static int done;
    if (done)
        return;
    done = 1;
    if (full_buffer)
        setvbuf(stdout, icp_out_buf, _IOFBF, sizeof icp_out_buf);
#ifdef SIGPIPE
    signal(SIGPIPE, SIG_IGN);
#endif
}
/* @end prelude_stdout */

/* @section prelude_write_failure */
/* Standard output failed: the one line "error: CAUSE" on standard error.
 * It names no statement or move: when buffered output reaches the system
 * differs between back ends. The caller frees what it owns and exits with
 * status 1. */
static void icp_report_write_failure(const char *cause)
{
    fprintf(stderr, "error: %s\n", cause);
    fflush(stderr);
}
/* @end prelude_write_failure */

/* @section prelude_realloc */
/* Grows (or allocates) old to count elements of size bytes (at least one
 * element). NULL when the size overflows or memory is exhausted; old is
 * then still the caller's, which reports its language's "memory
 * exhausted" error. */
static void *icp_try_realloc(void *old, size_t count, size_t size)
{
    if (count == 0)
        count = 1;
    if (count > SIZE_MAX / size)
        return NULL;
    return realloc(old, count * size);
}
/* @end prelude_realloc */
/* ------------------------------------------------ end of the C prelude */
