/* The C half of tests/it/fin_twins.rs: Finvara's C board runtime (the C
 * prelude, then board.c, in the order generated C pastes them), called
 * function by function from an operation script read on standard input,
 * one result per operation on standard output. tests/it/fin_twins.rs
 * runs the same script over the Rust runtime (runtime/board.rs) and
 * compares the lines; the operations and their output are documented
 * there, and each branch of main below has its twin in that file's
 * interpreter.
 *
 * The runtime is included whole, section markers and all, as the
 * interpreter compiles the Rust runtime whole: the sections are comments,
 * and a program's selection is a subset of the whole. The kinds tables
 * a generated program defines come in the script (`kinds`), so no
 * generated program is included. What the driver does not call stays
 * unused, so -Wunused-function is off for the runtime alone (everything
 * else stays an error under -Wall -Wextra -Wpedantic -Werror).
 *
 * Standard input: the whole script is read first; then `input` writes its
 * bytes to the file named by the first argument and reopens standard
 * input on it, where icp_read_number reads (the `read` operation and the
 * holes of action 3). A runtime error ends the driver as it ends a
 * program: icp_fail flushes standard output, prints its line on
 * standard error and exits with status 1 (the test appends that line to
 * the driver's output).
 *
 * Build: cc -std=c99 -O1 -Wall -Wextra -Wpedantic -Werror
 *        tests/c/fin_twins.c -o fin_twins
 * (the test adds -fsanitize=bounds). Run: fin_twins INPUT-FILE < SCRIPT.
 * The runtime is found relative to this file: the test of the checker
 * builds a copy of it beside a patched copy laid out alike. */

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "../../src/codegen/prelude.c"
#include "../../src/lang/finvara/runtime/board.c"
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* ------------------------------------------------------ the state */

/* The kinds table, and the same with every value 0 (what `moves` steps
 * copies of the board with: no hole of a copy reads or prints). */
static icp_kind *t_kinds, *t_silent;
static int32_t t_nkinds;
/* The game, once `new` has made one. */
static icp_game t_game;
static int t_has_game;
static const char *t_input_path;

static const char *const t_causes[5] = {ICP_NOT_A_NUMBER, ICP_OUT_OF_RANGE, ICP_CANNOT_READ,
                                        ICP_CANNOT_WRITE, ICP_NO_MEMORY};

/* ------------------------------------------------------ helpers */

/* One line of f without its newline (malloc'd), or NULL at the end. */
static char *t_line(FILE *f)
{
    size_t len = 0, cap = 256;
    int c;
    char *s = malloc(cap);
    if (!s)
        exit(3);
    while ((c = getc(f)) != EOF && c != '\n') {
        if (len + 1 == cap) {
            char *grown = realloc(s, cap *= 2);
            if (!grown)
                exit(3);
            s = grown;
        }
        s[len++] = (char)c;
    }
    if (c == EOF && len == 0) {
        free(s);
        return NULL;
    }
    s[len] = '\0';
    return s;
}

/* The next integer of the arguments at *at. */
static long long t_num(char **at)
{
    char *end;
    long long v = strtoll(*at, &end, 10);
    if (end == *at) {
        fprintf(stderr, "driver: a number expected at \"%s\"\n", *at);
        exit(3);
    }
    *at = end;
    return v;
}

static unsigned long long t_unum(char **at)
{
    char *end;
    unsigned long long v = strtoull(*at, &end, 10);
    if (end == *at) {
        fprintf(stderr, "driver: a number expected at \"%s\"\n", *at);
        exit(3);
    }
    *at = end;
    return v;
}

static int t_hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void t_free_game(icp_game *g)
{
    free(g->board);
    free(g->next_board);
    free(g->stacks[0].data);
    free(g->stacks[1].data);
    free(g->arena.data);
    free(g->todo.data);
    free(g->cur.data);
    free(g->next.data);
    free(g->best.data);
    free(g->slots);
    free(g->gens);
    free(g->contexts.data);
    free(g->links.data);
}

/* The result's end: the state after the operation. */
static void t_state(void)
{
    int32_t i;
    int c;
    size_t j;
    if (!t_has_game) {
        printf(" # -\n");
        return;
    }
    printf(" #");
    for (i = 0; i < t_game.ncells; i++)
        printf(" %" PRId32, t_game.board[i]);
    for (c = 0; c < 2; c++) {
        printf(" |");
        for (j = 0; j < t_game.stacks[c].len; j++)
            printf(" %" PRId64, t_game.stacks[c].data[j]);
    }
    printf("\n");
}

/* ------------------------------------------------------ operations */

static void op_kinds(char *args)
{
    int32_t i;
    int side;
    if (t_kinds) {
        for (i = 0; i < t_nkinds; i++) {
            free((void *)t_kinds[i].code[0]);
            free((void *)t_kinds[i].code[1]);
        }
        free(t_kinds);
        free(t_silent);
    }
    if (t_has_game) {
        t_free_game(&t_game);
        t_has_game = 0;
    }
    t_nkinds = (int32_t)t_num(&args);
    t_kinds = calloc((size_t)t_nkinds + 1, sizeof *t_kinds);
    t_silent = calloc((size_t)t_nkinds + 1, sizeof *t_silent);
    if (!t_kinds || !t_silent)
        exit(3);
    for (i = 0; i < t_nkinds; i++) {
        t_kinds[i].value = (int64_t)t_num(&args);
        t_kinds[i].value_of = (int)t_num(&args);
        t_kinds[i].royal = (int)t_num(&args);
        for (side = 0; side < 2; side++) {
            long long len = t_num(&args), j;
            int32_t *code = malloc(((size_t)len + 1) * sizeof *code);
            if (!code)
                exit(3);
            for (j = 0; j < len; j++)
                code[j] = (int32_t)t_num(&args);
            t_kinds[i].code[side] = code;
        }
        t_silent[i] = t_kinds[i];
        t_silent[i].value = 0;
        t_silent[i].value_of = 0;
    }
    printf("ok");
}

static void op_new(char *args)
{
    int32_t w = (int32_t)t_num(&args), h = (int32_t)t_num(&args), i;
    int32_t *cells = malloc(((size_t)w * (size_t)h + 1) * sizeof *cells);
    if (!cells)
        exit(3);
    for (i = 0; i < w * h; i++)
        cells[i] = (int32_t)t_num(&args);
    if (t_has_game)
        t_free_game(&t_game);
    icp_game_init(&t_game, t_kinds, t_nkinds, w, h, cells);
    t_has_game = 1;
    free(cells);
    printf("ok");
}

/* The valid moves of a kind of a colour from a square: each (target,
 * promotion) stepped on a copy of the board, a fresh copy after each
 * valid one. */
static void op_moves(char *args)
{
    int32_t kind = (int32_t)t_num(&args);
    int colour = (int)t_num(&args);
    int32_t from = (int32_t)t_num(&args), to, promo;
    static icp_game probe;
    printf("piece %" PRId32 ":", 1 + 2 * kind + colour);
    icp_game_init(&probe, t_silent, t_nkinds, t_game.width, t_game.height, t_game.board);
    for (to = 0; to < t_game.ncells; to++) {
        for (promo = -1; promo < t_nkinds; promo++) {
            if (icp_step(&probe, 0, colour, kind, from, to, promo)) {
                printf(" %" PRId32, to);
                if (promo >= 0)
                    printf("=%" PRId32, promo);
                t_free_game(&probe);
                icp_game_init(&probe, t_silent, t_nkinds, t_game.width, t_game.height, t_game.board);
            }
        }
    }
    t_free_game(&probe);
}

static void op_input(const char *args)
{
    size_t len = strlen(args), i;
    FILE *f = fopen(t_input_path, "wb");
    if (!f)
        exit(3);
    for (i = 0; i + 1 < len; i += 2)
        putc(t_hex(args[i]) * 16 + t_hex(args[i + 1]), f);
    if (fclose(f) != 0 || !freopen(t_input_path, "rb", stdin))
        exit(3);
    t_game.eof = 0;
    printf("ok");
}

int main(int argc, char **argv)
{
    char **lines = NULL;
    size_t count = 0, cap = 0, i;
    char *line;
    if (argc < 2) {
        fprintf(stderr, "usage: fin_twins INPUT-FILE < SCRIPT\n");
        return 3;
    }
    t_input_path = argv[1];
    /* Line by line: what a crashing runtime printed before is kept. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* The whole script first: standard input is then the input stream. */
    while ((line = t_line(stdin)) != NULL) {
        if (count == cap) {
            char **grown = realloc(lines, (cap = cap ? cap * 2 : 256) * sizeof *lines);
            if (!grown)
                exit(3);
            lines = grown;
        }
        lines[count++] = line;
    }
    for (i = 0; i < count; i++) {
        char *op = lines[i], *args = strchr(op, ' ');
        if (args)
            *args++ = '\0';
        else
            args = op + strlen(op);
        if (!strcmp(op, "kinds"))
            op_kinds(args);
        else if (!strcmp(op, "new"))
            op_new(args);
        else if (!strcmp(op, "step")) {
            uint64_t turn = (uint64_t)t_unum(&args);
            int colour = (int)t_num(&args);
            int32_t kind = (int32_t)t_num(&args), from = (int32_t)t_num(&args);
            int32_t to = (int32_t)t_num(&args), promo = (int32_t)t_num(&args);
            printf("%s", icp_step(&t_game, turn, colour, kind, from, to, promo) ? "true" : "false");
        } else if (!strcmp(op, "play")) {
            long pc = (long)t_num(&args);
            uint64_t turn = (uint64_t)t_unum(&args);
            int colour = (int)t_num(&args);
            int32_t kind = (int32_t)t_num(&args), from = (int32_t)t_num(&args);
            int32_t to = (int32_t)t_num(&args), promo = (int32_t)t_num(&args);
            printf("next %ld", icp_play(&t_game, pc, turn, colour, kind, from, to, promo));
        } else if (!strcmp(op, "place")) {
            int colour = (int)t_num(&args);
            int32_t kind = (int32_t)t_num(&args), sq = (int32_t)t_num(&args);
            icp_place(&t_game, colour, kind, sq);
            printf("ok");
        } else if (!strcmp(op, "over"))
            printf("%s", icp_game_over(&t_game) ? "true" : "false");
        else if (!strcmp(op, "skip"))
            printf("%s", icp_skip(&t_game) ? "true" : "false");
        else if (!strcmp(op, "moves"))
            op_moves(args);
        else if (!strcmp(op, "input"))
            op_input(args);
        else if (!strcmp(op, "read"))
            printf("%" PRId64, icp_read_number(&t_game));
        else if (!strcmp(op, "flush")) {
            fflush(stdout);
            printf("ok");
        } else if (!strcmp(op, "causes"))
            printf("%s | %s | %s | %s | %s", t_causes[0], t_causes[1], t_causes[2], t_causes[3], t_causes[4]);
        else if (!strcmp(op, "fault")) {
            t_game.turn = (uint64_t)t_unum(&args);
            t_game.colour = (int)t_num(&args);
            icp_fail(&t_game, t_causes[t_num(&args)]);
        } else {
            fprintf(stderr, "driver: no operation %s\n", op);
            return 3;
        }
        t_state();
    }
    return 0;
}
