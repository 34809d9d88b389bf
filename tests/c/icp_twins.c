/* The C half of tests/it/icp_twins.rs: InfChessPro's C board runtime (the
 * prelude, board.c, then board/{pieces,table,rays,moves,loops,io}.c, in
 * the order generated C pastes them) called function by function from an
 * operation script read on standard input, one result line per operation
 * on standard output. tests/it/icp_twins.rs runs the same script over the
 * Rust runtime (runtime/board.rs and the parts in board/) and compares the lines;
 * the operations and their output are documented there, and each branch
 * of main below has its twin in that file's `Twin::op`.
 *
 * A runtime error ends the script as it ends a program: icp_die prints
 * "error: statement LABEL: CAUSE" on standard error and exits with status
 * 1 (the label is the operation's line number, set in icp_current_label
 * before each operation); the test appends that line to the output.
 *
 * The reader (`read`) is given its bytes by filling the runtime's input
 * buffer and marking end of input seen, so the runtime never reads the
 * script's standard input itself (`die read` marks a read error instead).
 *
 * The runtime is included whole; what this driver does not call stays
 * unused, so -Wunused-function is off for the runtime alone (everything
 * else is an error under -Wall -Wextra -Wpedantic -Werror). Plain C99.
 *
 * Build: cc -std=c99 -O1 -Wall -Wextra -Wpedantic -Werror
 *        tests/c/icp_twins.c -o icp_twins
 * (the test adds -fsanitize=bounds). The runtime is found relative to
 * this file: the test of the checker builds a copy of it beside patched
 * copies laid out alike. */

#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "../../src/codegen/prelude.c"
#include "../../src/lang/icp/runtime/board.c"
#include "../../src/lang/icp/runtime/board/pieces.c"
#include "../../src/lang/icp/runtime/board/table.c"
#include "../../src/lang/icp/runtime/board/rays.c"
#include "../../src/lang/icp/runtime/board/moves.c"
#include "../../src/lang/icp/runtime/board/loops.c"
#include "../../src/lang/icp/runtime/board/io.c"
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

#define T_MAX_WORDS 16
#define T_LINE 200000

/* ------------------------------------------------------ helpers */

static int t_hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 0;
}

/* Hex text ("-" for none) to bytes in out (at most cap); the count. */
static size_t t_unhex(const char *text, unsigned char *out, size_t cap)
{
    size_t n = 0;
    if (!strcmp(text, "-"))
        return 0;
    while (text[0] && text[1] && n < cap) {
        out[n++] = (unsigned char)(t_hex(text[0]) * 16 + t_hex(text[1]));
        text += 2;
    }
    return n;
}

static int64_t t_i64(const char *w)
{
    return (int64_t)strtoll(w, NULL, 10);
}

static uint64_t t_u64(const char *w)
{
    return (uint64_t)strtoull(w, NULL, 10);
}

static uint32_t t_u32(const char *w)
{
    return (uint32_t)strtoul(w, NULL, 10);
}

/* The letter of a piece (upper case white), as §2 spells it. */
static char t_letter(int colour, int kind)
{
    static const char letters[] = "KQRBNP";
    char l = kind >= 0 && kind < 6 ? letters[kind] : '?';
    return colour == ICP_WHITE ? l : (char)(l - 'A' + 'a');
}

/* The colour and kind of a piece letter (§2); 0 for another character. */
static int t_piece(char letter, int *colour, int *kind)
{
    static const char letters[] = "KQRBNP";
    const char *at;
    char upper = letter >= 'a' && letter <= 'z' ? (char)(letter - 'a' + 'A') : letter;
    if (upper == 0 || (at = strchr(letters, upper)) == NULL)
        return 0;
    *colour = letter == upper ? ICP_WHITE : ICP_BLACK;
    *kind = (int)(at - letters);
    return 1;
}

static int t_by_square(const void *a, const void *b)
{
    const icp_piece *p = *(const icp_piece *const *)a, *q = *(const icp_piece *const *)b;
    if (p->row != q->row)
        return p->row < q->row ? -1 : 1;
    if (p->col != q->col)
        return p->col < q->col ? -1 : 1;
    return 0;
}

/* A loop member, `m,NAME,DR,DC`, `s,NAME,DR,DC` or `n`. */
static icp_loop_step t_step(const char *w)
{
    icp_loop_step s;
    char *end;
    s.kind = w[0] == 'm' ? ICP_STEP_MOVE : w[0] == 's' ? ICP_STEP_SLIDE : ICP_STEP_NOTHING;
    s.name = 0;
    s.drow = s.dcol = 0;
    if (s.kind != ICP_STEP_NOTHING) {
        s.name = (uint32_t)strtoul(w + 2, &end, 10);
        s.drow = (int64_t)strtoll(end + 1, &end, 10);
        s.dcol = (int64_t)strtoll(end + 1, &end, 10);
    }
    return s;
}

/* ------------------------------------------------------ operations */

static void op_board(void)
{
    const icp_piece **live = malloc((icp_pieces_len + 1) * sizeof *live);
    uint32_t i, n = 0;
    if (!live)
        exit(3);
    for (i = 0; i < icp_pieces_len; i++)
        if (icp_pieces[i].live)
            live[n++] = &icp_pieces[i];
    qsort(live, n, sizeof *live, t_by_square);
    printf("board %" PRIu32 ":", n);
    for (i = 0; i < n; i++)
        printf(" %" PRId64 ",%" PRId64 ",%c%" PRIu32, live[i]->row, live[i]->col,
               t_letter(live[i]->colour, live[i]->kind), live[i]->name);
    printf("\n");
    free(live);
}

static void op_squares(uint32_t name)
{
    uint32_t p;
    printf("squares %" PRIu64 ":", icp_count(name));
    for (p = icp_name_head[name]; p != ICP_NIL; p = icp_pieces[p].next)
        printf(" %" PRId64 ",%" PRId64, icp_pieces[p].row, icp_pieces[p].col);
    printf("\n");
}

static void op_at(int64_t r, int64_t c)
{
    size_t i;
    uint32_t s = icp_find(r, c, &i);
    if (s == ICP_NIL || s == ICP_OCCUPIED)
        printf("at none\n");
    else
        printf("at %c%" PRIu32 "\n", t_letter(icp_pieces[s].colour, icp_pieces[s].kind),
               icp_pieces[s].name);
}

static void op_read(int n, const char *hex)
{
    int64_t values[16];
    int i, k;
    icp_in_len = t_unhex(hex, icp_in_buf, sizeof icp_in_buf);
    icp_in_pos = 0;
    icp_in_eof = 1;
    icp_in_err = 0;
    k = icp_read(values, n);
    printf("read %d:", k);
    for (i = 0; i < k; i++)
        printf(" %" PRId64, values[i]);
    printf(" |");
    fflush(stdout);
    while (icp_read_one(&values[0])) {
        printf(" %" PRId64, values[0]);
        fflush(stdout);
    }
    printf(" eof\n");
}

static void op_loop(char **w, int words, int exit_only)
{
    icp_loop_step steps[T_MAX_WORDS];
    size_t n = 0, start = (size_t)t_u64(w[1]);
    int i, first = exit_only ? 2 : 3;
    for (i = first; i < words; i++)
        steps[n++] = t_step(w[i]);
    if (exit_only) {
        printf("exit %zu\n", icp_loop_exit(steps, n, start));
    } else {
        icp_loop_end end = icp_run_loop(steps, n, start, t_u64(w[2]));
        printf("executed %" PRIu64 " at %zu left %d\n", end.executed, end.at, end.left);
    }
}

static void op_die(char **w)
{
    const char *kind = w[1];
    fflush(stdout);
    if (!strcmp(kind, "label"))
        icp_die_no_label(icp_current_label, t_i64(w[2]));
    else if (!strcmp(kind, "eof"))
        icp_die_end_of_input(icp_current_label);
    else if (!strcmp(kind, "oom"))
        (void)icp_realloc_array(NULL, SIZE_MAX, 2);
    else if (!strcmp(kind, "write"))
        icp_die_write();
    else if (!strcmp(kind, "read")) {
        int64_t v;
        icp_in_pos = icp_in_len = 0;
        icp_in_err = 1;
        (void)icp_read_one(&v);
    }
    printf("no fault\n");
}

static char t_text[T_LINE];

int main(void)
{
    static unsigned char bytes[T_LINE / 2];
    int64_t line = 0;
    while (fgets(t_text, sizeof t_text, stdin)) {
        char *w[T_MAX_WORDS + 8], *tok;
        int words = 0;
        const char *op;
        t_text[strcspn(t_text, "\n")] = 0;
        for (tok = strtok(t_text, " "); tok && words < T_MAX_WORDS + 8; tok = strtok(NULL, " "))
            w[words++] = tok;
        line++;
        icp_current_label = line;
        if (words == 0)
            continue;
        op = w[0];
        if (!strcmp(op, "new")) {
            icp_board_init(t_u32(w[1]));
            printf("new %" PRIu32 "\n", icp_names);
        } else if (!strcmp(op, "place")) {
            int colour = 0, kind = 0;
            if (!t_piece(w[2][0], &colour, &kind))
                printf("no piece\n");
            else
                printf("%d\n", icp_place(t_u32(w[1]), colour, kind, t_i64(w[3]), t_i64(w[4])));
        } else if (!strcmp(op, "occupy"))
            printf("%d\n", icp_occupy(t_u32(w[1]), t_i64(w[2]), t_i64(w[3])));
        else if (!strcmp(op, "msq"))
            printf("%d\n", icp_move_squares(t_i64(w[1]), t_i64(w[2]), t_i64(w[3]), t_i64(w[4])));
        else if (!strcmp(op, "mto"))
            printf("%d\n", icp_move_name_to(t_u32(w[1]), t_i64(w[2]), t_i64(w[3])));
        else if (!strcmp(op, "mby"))
            printf("%d\n", icp_move_name_by(t_u32(w[1]), t_i64(w[2]), t_i64(w[3])));
        else if (!strcmp(op, "slide"))
            printf("slid %" PRIu64 "\n", icp_slide(t_u32(w[1]), t_i64(w[2]), t_i64(w[3]), t_u64(w[4])));
        else if (!strcmp(op, "loop"))
            op_loop(w, words, 0);
        else if (!strcmp(op, "exit"))
            op_loop(w, words, 1);
        else if (!strcmp(op, "board"))
            op_board();
        else if (!strcmp(op, "at"))
            op_at(t_i64(w[1]), t_i64(w[2]));
        else if (!strcmp(op, "count"))
            printf("count %" PRIu64 "\n", icp_count(t_u32(w[1])));
        else if (!strcmp(op, "squares"))
            op_squares(t_u32(w[1]));
        else if (!strcmp(op, "live"))
            printf("live %" PRIu64 " names %" PRIu32 "\n", icp_live, icp_names);
        else if (!strcmp(op, "letter")) {
            int colour = 0, kind = 0;
            if (t_piece(w[1][0], &colour, &kind))
                printf("letter %c\n", t_letter(colour, kind));
            else
                printf("letter none\n");
        } else if (!strcmp(op, "read"))
            op_read((int)t_u32(w[1]), w[2]);
        else if (!strcmp(op, "text")) {
            size_t n = t_unhex(w[1], bytes, sizeof bytes);
            printf("text:");
            icp_write_text((const char *)bytes, n);
            printf("\n");
        } else if (!strcmp(op, "wcount")) {
            printf("count:");
            icp_write_count(t_u64(w[1]));
        } else if (!strcmp(op, "die"))
            op_die(w);
        else
            printf("unknown operation %s\n", op);
        fflush(stdout);
    }
    icp_free_all();
    return 0;
}
