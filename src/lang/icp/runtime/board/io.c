/* @section read: die u2i */
/* ------------------------------------------------------------ stdin, out */

static unsigned char icp_in_buf[65536];
static size_t icp_in_pos, icp_in_len;
static int icp_in_eof; /* no more bytes after the buffer (sticky, §6) */
static int icp_in_err; /* a read error after the buffer */

/* The next input byte without consuming it, or -1 at end of input. Input
 * is read with fread in 64 KiB blocks; a read error is a runtime error
 * (§8). End of input is sticky: once seen, stdin is not read again. */
static int icp_in_peek(void)
{
    if (icp_in_pos == icp_in_len) {
        size_t n;
        if (icp_in_err)
            icp_die(icp_current_label, "cannot read standard input (" ICP_SECT "8)");
        if (icp_in_eof)
            return -1;
        n = fread(icp_in_buf, 1, sizeof icp_in_buf, stdin);
        if (n < sizeof icp_in_buf) {
            if (ferror(stdin))
                icp_in_err = 1;
            else
                icp_in_eof = 1;
        }
        icp_in_pos = 0;
        icp_in_len = n;
        if (n == 0)
            return icp_in_peek();
    }
    return icp_in_buf[icp_in_pos];
}

/* Reads one integer (§6): skips ' ' '\t' '\r' '\n'; at end of input
 * returns 0. Then an optional '-' or '+' and one or more digits (else the
 * runtime error "input is not a number"); the number ends at the first
 * non-digit, which is left unread. Outside i64: a runtime error. */
static int icp_read_one(int64_t *out)
{
    int ch, neg = 0;
    uint64_t v = 0, lim;
    for (;;) {
        ch = icp_in_peek();
        if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
            break;
        icp_in_pos++;
    }
    if (ch < 0)
        return 0;
    if (ch == '-' || ch == '+') {
        neg = ch == '-';
        icp_in_pos++;
        ch = icp_in_peek();
    }
    if (ch < '0' || ch > '9')
        icp_die(icp_current_label, "input is not a number (" ICP_SECT "6)");
    lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    do {
        unsigned d = (unsigned)(ch - '0');
        if (v > (lim - d) / 10u)
            icp_die(icp_current_label,
                    "input number is outside the signed 64-bit range (" ICP_SECT "6)");
        v = v * 10u + d;
        icp_in_pos++;
        ch = icp_in_peek();
    } while (ch >= '0' && ch <= '9');
    *out = neg ? icp_u2i(0u - v) : (int64_t)v;
    return 1;
}

/* @end read */



/* @section read */
/* §6: reads up to n integers left to right, stopping at the first end of
 * input; returns how many were read. Bad text or out of range: runtime
 * error (§8) with the current label. */
ICP_API int icp_read(int64_t *values, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!icp_read_one(&values[i]))
            return i;
    return n;
}
/* @end read */

/* @section die */
/* §8: flushes stdout, prints "error: statement <label>: <cause>" on stderr,
 * frees the board (in a program that has one) and exits with status 1. */
static void icp_die(int64_t label, const char *cause)
{
    fflush(stdout);
    fprintf(stderr, "error: statement %" PRId64 ": %s\n", label, cause);
    fflush(stderr);
    /* @section board */
    icp_free_all();
    /* @end board */
    exit(1);
}
/* @end die */

/* §8: standard output failed. Buffered output reaches the system at times
 * that differ between back ends, so the line names no statement
 * (docs/infchesspro.md): "error: cannot write standard output (§8)". */
static void icp_die_write(void)
{
    icp_report_write_failure("cannot write standard output (" ICP_SECT "8)");
    /* @section board */
    icp_free_all();
    /* @end board */
    exit(1);
}

/* @section text */
/* §4.6: writes exactly len bytes (NUL bytes included). A write failure is
 * a runtime error (§8). */
ICP_API void icp_write_text(const char *bytes, size_t len)
{
    if (len != 0 && fwrite(bytes, 1, len, stdout) != len)
        icp_die_write();
}
/* @end text */

/* @section count: board text */
/* §4.7: live pieces called name. O(1). */
static uint64_t icp_count(uint32_t name)
{
    return icp_name_count[name];
}

/* §4.7: n in decimal and '\n'. */
ICP_API void icp_write_count(uint64_t n)
{
    char buf[24];
    size_t i = sizeof buf;
    buf[--i] = '\n';
    do {
        buf[--i] = (char)('0' + (int)(n % 10u));
        n /= 10u;
    } while (n != 0);
    icp_write_text(buf + i, sizeof buf - i);
}
/* @end count */

/* @section no_label: die */
/* §5: a `*` jump to a label no statement has. */
static void icp_die_no_label(int64_t label, int64_t target)
{
    char cause[96];
    sprintf(cause, "no statement is labelled %" PRId64 " (" ICP_SECT "5)", target);
    icp_die(label, cause);
}
/* @end no_label */

/* @section end_of_input: die */
/* §6: a `*` jump target that must be taken found end of input. */
static void icp_die_end_of_input(int64_t label)
{
    icp_die(label, "end of input in a `*` jump target (" ICP_SECT "6)");
}
/* @end end_of_input */

/* End of the program: flushes stdout (a failure is a runtime error, §8),
 * frees the board (in a program that has one) and returns the exit status
 * 0. */
static int icp_finish(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        icp_die_write();
    /* @section board */
    icp_free_all();
    /* @end board */
    return 0;
}
/* ---------------------------------------------- end of the board runtime */
