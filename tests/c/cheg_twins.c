/* The C half of tests/it/cheg_twins.rs: CHEG's C runtime (the prelude,
 * chess.c and engine.c each with its parts, in chess/ and engine/,
 * then uci.c, in the order generated C pastes them), called function by
 * function from an operation script read on standard input, one result
 * per operation on standard output. tests/it/cheg_twins.rs runs the
 * same script over the Rust runtime (runtime/chess.rs, engine.rs, uci.rs)
 * and compares the lines; the operations and their output are
 * documented there, and each `op_` function below has its twin in that
 * file's interpreter.
 *
 * The runtime is included whole, section markers and all, as the
 * interpreter compiles the Rust runtime whole: the sections are comments,
 * and a program's selection is a subset of the whole. After it comes the
 * part of a generated C program after its runtime (-DTWINS_PROGRAM,
 * written by the test: examples/kpk.cheg). What only other programs'
 * statements call, and icp_engine_main, stays unused, so
 * -Wunused-function is off for the runtime alone (everything else stays
 * an error under -Wall -Wextra -Wpedantic -Werror). Plain C99, ICP_POSIX
 * undefined: the UCI session's searches then ask standard input for
 * nothing while they run (uci.c), so a `go` answers the same whatever
 * follows it in the script.
 *
 * Build: cc -std=c99 -O1 -Wall -Wextra -Wpedantic -Werror
 *        tests/c/cheg_twins.c -o cheg_twins
 * (the test adds -fsanitize=bounds and -DTWINS_PROGRAM="FILE"; without
 * the latter, searches consult a program without ENTRY lines).
 * The runtime is found relative to this file: the test of the checker
 * builds a copy of it beside patched copies laid out alike. */

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "../../src/codegen/prelude.c"
#include "../../src/lang/cheg/runtime/chess.c"
#include "../../src/lang/cheg/runtime/chess/board.c"
#include "../../src/lang/cheg/runtime/chess/position.c"
#include "../../src/lang/cheg/runtime/engine.c"
#include "../../src/lang/cheg/runtime/engine/values.c"
#include "../../src/lang/cheg/runtime/engine/node.c"
#include "../../src/lang/cheg/runtime/engine/instructions.c"
#include "../../src/lang/cheg/runtime/engine/program.c"
#include "../../src/lang/cheg/runtime/engine/history.c"
#include "../../src/lang/cheg/runtime/engine/search.c"
#include "../../src/lang/cheg/runtime/uci.c"
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <ctype.h>

#define T_MAX_PLIES 2048

/* ------------------------------------------------------ the state */

/* The game: its start (the last `fen`), the moves made since, the
 * positions before each of them; the position now. */
static icp_position t_start, t_now;
static icp_position t_before[T_MAX_PLIES];
static icp_move t_played[T_MAX_PLIES];
static int t_plies;
static icp_table t_table;

/* A program without ENTRY lines: the invocations of the instructions'
 * operations run in it. */
static int t_step(icp_inv *inv, size_t pc)
{
    (void)inv;
    (void)pc;
    return 0;
}
static const uint32_t t_lines[1] = {0};
static const icp_program t_program = {NULL, 0, t_lines, 0, 0, t_step, "twins"};

/* The endgame program the searches consult (ENDGAME 1) and the UCI
 * session runs: the part of a generated C program after its runtime
 * (the test writes it and names it with -DTWINS_PROGRAM="FILE"), whose
 * icp_the_program holds its ENTRY lines, lines and icp_program_step. */
#ifdef TWINS_PROGRAM
#include TWINS_PROGRAM
#define T_PROGRAM (&icp_the_program)
#else
#define T_PROGRAM (&t_program)
#endif

/* The UCI session of the `uci` operations. */
static icp_session t_session;

/* ------------------------------------------------------ helpers */

static void t_move_text(icp_move mv, char out[6])
{
    icp_move_uci(mv, out);
}

static int t_hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Hex text to bytes (malloc'd, *n bytes). */
static unsigned char *t_unhex(const char *text, size_t *n)
{
    size_t len = strlen(text), i;
    unsigned char *out = malloc(len / 2 + 1);
    if (!out)
        exit(3);
    for (i = 0; i + 1 < len; i += 2)
        out[i / 2] = (unsigned char)(t_hex(text[i]) * 16 + t_hex(text[i + 1]));
    *n = len / 2;
    return out;
}

static void t_print_moves(const icp_move_list *list)
{
    int i;
    printf("%d", list->count);
    for (i = 0; i < list->count; i++) {
        char uci[6];
        t_move_text(list->moves[i], uci);
        printf(" %s", uci);
    }
    printf("\n");
}

/* A kind from its letter (either case), ICP_NO_KIND for another. */
static int t_kind(int c)
{
    switch (toupper(c)) {
    case 'K':
        return ICP_KING;
    case 'Q':
        return ICP_QUEEN;
    case 'R':
        return ICP_ROOK;
    case 'B':
        return ICP_BISHOP;
    case 'N':
        return ICP_KNIGHT;
    case 'P':
        return ICP_PAWN;
    default:
        return ICP_NO_KIND;
    }
}

/* A square a1..h8 at s (two characters), or -1. */
static int t_square(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return (s[1] - '1') * 8 + (s[0] - 'a');
}

/* A value in the script's syntax (tests/it/cheg_twins.rs, `Value`): # T F,
 * integers, squares e4, pieces Ke1 / ke1, moves Pe7e8q (piece, then the
 * destination and a promotion letter), sets (a,b,c). */
static icp_value t_value(const char **at)
{
    const char *s = *at;
    icp_value v = icp_undefined();
    if (*s == '(') {
        icp_set *set = icp_set_new(0);
        s++;
        while (*s && *s != ')') {
            icp_set_push(set, t_value(&s));
            if (*s == ',')
                s++;
        }
        if (*s == ')')
            s++;
        *at = s;
        return icp_set_value(set);
    }
    if (*s == '#') {
        *at = s + 1;
        return v;
    }
    if (*s == 'T' || *s == 'F') {
        *at = s + 1;
        return icp_logical(*s == 'T');
    }
    if (*s == '-' || isdigit((unsigned char)*s)) {
        char *end;
        long long n = strtoll(s, &end, 10);
        *at = end;
        return icp_integer((int64_t)n);
    }
    if (*s == 'M') {
        icp_move_value m;
        m.piece.colour = (uint8_t)(isupper((unsigned char)s[1]) ? ICP_WHITE : ICP_BLACK);
        m.piece.kind = (uint8_t)t_kind(s[1]);
        m.piece.square = (uint8_t)t_square(s + 2);
        m.to = (uint8_t)t_square(s + 4);
        s += 6;
        m.promotion = ICP_NO_KIND;
        if (*s && strchr("qrbn", *s)) {
            m.promotion = (uint8_t)t_kind(*s);
            s++;
        }
        *at = s;
        return icp_move_val(m);
    }
    if (t_kind(*s) != ICP_NO_KIND) {
        icp_piece p;
        p.colour = (uint8_t)(isupper((unsigned char)s[0]) ? ICP_WHITE : ICP_BLACK);
        p.kind = (uint8_t)t_kind(s[0]);
        p.square = (uint8_t)t_square(s + 1);
        *at = s + 3;
        return icp_piece_value(p);
    }
    *at = s + 2;
    return icp_square_value((uint8_t)t_square(s));
}

/* -------------------------------------------------- chess.c operations */

static void op_fen(const char *text)
{
    icp_position p;
    icp_text message = {0, 0, 0};
    if (icp_read_fen(text, &p, &message)) {
        t_start = t_now = p;
        t_plies = 0;
        printf("ok\n");
    } else {
        printf("error %s\n", icp_text_take(&message));
    }
    free(message.text);
}

static void op_fen_query(void)
{
    char fen[ICP_FEN_SIZE];
    icp_position_to_fen(&t_now, fen);
    printf("%s\n", fen);
}

static void op_make(const char *text)
{
    icp_move mv;
    char uci[6];
    if (t_plies >= T_MAX_PLIES || !icp_parse_move(&t_now, text, &mv)) {
        printf("illegal\n");
        return;
    }
    t_before[t_plies] = t_now;
    t_played[t_plies++] = mv;
    icp_play(&t_before[t_plies - 1], mv, &t_now);
    t_move_text(mv, uci);
    printf("ok %s\n", uci);
}

static void op_unmake(void)
{
    if (t_plies == 0) {
        printf("empty\n");
        return;
    }
    t_now = t_before[--t_plies];
    printf("ok\n");
}

static void op_parse(const char *text)
{
    icp_move mv;
    char uci[6];
    if (icp_parse_move(&t_now, text, &mv)) {
        t_move_text(mv, uci);
        printf("%s\n", uci);
    } else {
        printf("none\n");
    }
}

/* raw FROM TO PROMOTION: a move of any squares (0..255) and promotion
 * kind code (0 none), legal or not. */
static void op_raw(const char *args)
{
    unsigned from = 0, to = 0, promotion = 0;
    icp_move mv;
    icp_position next;
    char fen[ICP_FEN_SIZE];
    if (sscanf(args, "%u %u %u", &from, &to, &promotion) != 3)
        return;
    mv.from = (uint8_t)from;
    mv.to = (uint8_t)to;
    mv.promotion = (uint8_t)promotion;
    icp_play(&t_now, mv, &next);
    icp_position_to_fen(&next, fen);
    printf("legal %d capture %d gives %d irreversible %d fen %s\n", icp_is_legal(&t_now, mv) ? 1 : 0,
           icp_is_capture(&t_now, mv) ? 1 : 0, icp_gives_check(&t_now, mv) ? 1 : 0,
           icp_is_irreversible(&t_now, mv) ? 1 : 0, fen);
}

static void op_check(void)
{
    uint8_t squares[16];
    int n = icp_checkers(&t_now, squares), i;
    printf("check %d checkers", icp_in_check(&t_now) ? 1 : 0);
    for (i = 0; i < n; i++) {
        char name[3];
        icp_square_name(squares[i], name);
        printf(" %s", name);
    }
    printf("\n");
}

static void op_key(void)
{
    printf("key %016" PRIx64 " rep %016" PRIx64 " ep %d side %d\n", icp_position_key(&t_now),
           icp_repetition_key(&t_now), icp_en_passant_capturable(&t_now) ? 1 : 0, icp_side_to_move(&t_now));
}

/* The positions of the game: which are the position now (§7.5), which
 * the history of the game holds. */
static void op_same(void)
{
    icp_history history;
    icp_position root;
    char fen[ICP_FEN_SIZE], now[ICP_FEN_SIZE];
    int i;
    icp_history_game(&t_start, t_played, (size_t)t_plies, &root, &history);
    icp_position_to_fen(&root, fen);
    icp_position_to_fen(&t_now, now);
    printf("same ");
    for (i = 0; i < t_plies; i++)
        printf("%d", icp_same_game_position(&t_now, &t_before[i]) ? 1 : 0);
    printf(" history %lu ", (unsigned long)history.count);
    for (i = 0; i < t_plies; i++)
        printf("%d", icp_history_contains(&history, &t_before[i]) ? 1 : 0);
    printf(" %d root %d\n", icp_history_contains(&history, &t_now) ? 1 : 0, strcmp(fen, now) == 0 ? 1 : 0);
    free(history.entries);
}

/* piece_at of every square (and 64), the counts, the piece variables. */
static void op_pieces(void)
{
    static const char letters[] = ".KQRBNP";
    int sq, colour, kind, index;
    icp_piece piece;
    for (sq = 0; sq <= 64; sq++) {
        if (icp_piece_at(&t_now, sq, &piece))
            putchar(piece.colour == ICP_WHITE ? letters[piece.kind] : tolower(letters[piece.kind]));
        else
            putchar('.');
    }
    for (colour = 0; colour < 2; colour++)
        for (kind = ICP_KING; kind <= ICP_PAWN; kind++)
            printf(" %u", icp_count(&t_now, colour, kind));
    printf(" vars");
    for (colour = 0; colour < 2; colour++)
        for (kind = ICP_KING; kind <= ICP_PAWN; kind++) {
            putchar(' ');
            for (index = 0; index <= icp_variable_count(kind); index++) {
                char name[3] = "--";
                if (icp_piece_variable(&t_now, colour, kind, index, &piece))
                    icp_square_name(piece.square, name);
                printf("%s", name);
            }
        }
    printf("\n");
}

/* -------------------------------------------------- engine.c operations */

/* search DEPTH FROM NODES ENDGAME: the game's position searched with its
 * history, nodes 0 for no node limit, endgame 1 to consult the program. */
static void op_search(const char *args)
{
    unsigned depth = 1, from = 1, endgame = 0;
    unsigned long long nodes = 0;
    icp_limits limits;
    icp_search_result r;
    icp_history history;
    icp_position root;
    char uci[6] = "0000";
    int i;
    if (sscanf(args, "%u %u %llu %u", &depth, &from, &nodes, &endgame) != 4)
        return;
    limits.depth = depth;
    limits.from = from;
    limits.has_nodes = nodes != 0;
    limits.nodes = nodes;
    limits.exact = 1;
    icp_history_game(&t_start, t_played, (size_t)t_plies, &root, &history);
    if (icp_search_run(&t_now, limits, endgame ? T_PROGRAM : NULL, &t_table, &history, NULL, &r)) {
        icp_text t = {0, 0, 0};
        icp_runtime_error_text(&t);
        printf("%s\n", icp_text_take(&t));
        free(t.text);
        free(history.entries);
        return;
    }
    if (r.has_best)
        t_move_text(r.best, uci);
    printf("best %s score %" PRId64 " nodes %" PRIu64 " depth %u stopped %d pv", uci, r.score, r.nodes, r.depth,
           r.stopped ? 1 : 0);
    for (i = 0; i < r.pv_len; i++) {
        t_move_text(r.pv[i], uci);
        printf(" %s", uci);
    }
    printf("\n");
    free(history.entries);
}

static void op_hash(const char *args)
{
    unsigned megabytes = 0;
    if (sscanf(args, "%u", &megabytes) != 1)
        return;
    icp_table_free(&t_table);
    if (!icp_table_init(&t_table, megabytes)) {
        printf("no memory\n");
        return;
    }
    printf("entries %lu\n", (unsigned long)icp_table_entries(megabytes));
}

static void op_eval(void)
{
    icp_node node;
    node.position = t_now;
    node.depth = 1;
    node.plies = 0;
    printf("%" PRId64 "\n", icp_static_eval(&node));
}

/* val A B: both values' text and keys, and whether they are equal. */
static void op_val(const char *args)
{
    const char *at = args;
    icp_value a, b;
    icp_text t = {0, 0, 0};
    a = t_value(&at);
    while (*at == ' ')
        at++;
    b = t_value(&at);
    icp_text_value(&t, &a);
    icp_text_str(&t, " ");
    icp_text_value(&t, &b);
    printf("%s eq %d key %016" PRIx64 " %016" PRIx64 "\n", icp_text_take(&t), icp_equal(&a, &b) ? 1 : 0,
           icp_value_key(&a), icp_value_key(&b));
    free(t.text);
    icp_drop(&a);
    icp_drop(&b);
}

static void op_convert(const char *args)
{
    long long w, l, c, d;
    if (sscanf(args, "%lld %lld %lld %lld", &w, &l, &c, &d) != 4)
        return;
    printf("%" PRId64 "\n", icp_convert((int64_t)w, (int64_t)l, (int64_t)c, (int64_t)d));
}

static void op_squares(const char *args)
{
    int a, b;
    if (sscanf(args, "%d %d", &a, &b) != 2)
        return;
    printf("distance %" PRId64 " opposition %d\n", icp_king_distance(a, b), icp_opposition(a, b) ? 1 : 0);
}

/* The instructions' computations (§4, §5.1) run inside an invocation at
 * the position now (DEPTH 1, PLIES 2) of the program without ENTRY lines,
 * with two user variables; a fault prints `fault MESSAGE`. The codes are
 * the C names of runtime/api.rs (the Rust half finds each one's variant
 * there). */
static const struct {
    const char *name;
    int code;
} t_codes[] = {
    {"ICP_B_SET_SQ", ICP_B_SET_SQ}, {"ICP_B_SET_MOV", ICP_B_SET_MOV}, {"ICP_B_PAIR", ICP_B_PAIR},
    {"ICP_B_MEMBER", ICP_B_MEMBER}, {"ICP_B_MEM_NUM", ICP_B_MEM_NUM}, {"ICP_B_INTERS", ICP_B_INTERS},
    {"ICP_B_UNION", ICP_B_UNION}, {"ICP_B_DIFFER", ICP_B_DIFFER}, {"ICP_B_APPEND", ICP_B_APPEND},
    {"ICP_B_GET_EL", ICP_B_GET_EL}, {"ICP_B_MV_DIST", ICP_B_MV_DIST}, {"ICP_B_IN_SQ", ICP_B_IN_SQ},
    {"ICP_B_OPP", ICP_B_OPP}, {"ICP_B_SQ_RANK", ICP_B_SQ_RANK}, {"ICP_B_NOR", ICP_B_NOR},
    {"ICP_B_AND", ICP_B_AND}, {"ICP_B_OR", ICP_B_OR}, {"ICP_B_ADD", ICP_B_ADD}, {"ICP_B_SUB", ICP_B_SUB},
    {"ICP_B_MUL", ICP_B_MUL}, {"ICP_B_DIV", ICP_B_DIV}, {"ICP_B_MOD", ICP_B_MOD}, {"ICP_B_DIF", ICP_B_DIF},
    {"ICP_B_MIN", ICP_B_MIN}, {"ICP_B_MAX", ICP_B_MAX}, {"ICP_U_SET_V", ICP_U_SET_V},
    {"ICP_U_CARD", ICP_U_CARD}, {"ICP_U_PIECE", ICP_U_PIECE}, {"ICP_U_SQUARE", ICP_U_SQUARE},
    {"ICP_U_SIDE", ICP_U_SIDE}, {"ICP_U_RANK", ICP_U_RANK}, {"ICP_U_FILE", ICP_U_FILE},
    {"ICP_U_S_COLOR", ICP_U_S_COLOR}, {"ICP_U_P_COLOR", ICP_U_P_COLOR}, {"ICP_U_ABS", ICP_U_ABS},
    {"ICP_T_DEFD", ICP_T_DEFD}, {"ICP_T_ZERO", ICP_T_ZERO}, {"ICP_T_NEGATIVE", ICP_T_NEGATIVE},
    {"ICP_T_POSITIVE", ICP_T_POSITIVE}, {"ICP_T_ODD", ICP_T_ODD}, {"ICP_T_TRUE", ICP_T_TRUE},
    {"ICP_T_EMPTY", ICP_T_EMPTY}, {"ICP_T_FAR", ICP_T_FAR}, {"ICP_T_ROOK_FILE", ICP_T_ROOK_FILE},
    {"ICP_T_KNIGHT_FILE", ICP_T_KNIGHT_FILE}, {"ICP_T_NNF", ICP_T_NNF}, {"ICP_T_LIGHT_SQUARE", ICP_T_LIGHT_SQUARE},
    {"ICP_T_KIND", ICP_T_KIND}, {"ICP_T_MOVER_PIECE", ICP_T_MOVER_PIECE}, {"ICP_T_PASSED", ICP_T_PASSED},
    {"ICP_T_PAWN_DEFENDED", ICP_T_PAWN_DEFENDED}, {"ICP_T_CAPTURE", ICP_T_CAPTURE}, {"ICP_T_CHECK", ICP_T_CHECK},
    {"ICP_T_SAFE", ICP_T_SAFE}, {"ICP_T_OPPOSITION", ICP_T_OPPOSITION},
    {"ICP_T_KEEPS_KING_RANK", ICP_T_KEEPS_KING_RANK}, {"ICP_CMP_LT", ICP_CMP_LT}, {"ICP_CMP_EQ", ICP_CMP_EQ},
    {"ICP_CMP_GT", ICP_CMP_GT}, {"ICP_CMP_NOT_LT", ICP_CMP_NOT_LT}, {"ICP_CMP_NE", ICP_CMP_NE},
    {"ICP_CMP_NOT_GT", ICP_CMP_NOT_GT}, {"ICP_ORDER_AS_GIVEN", ICP_ORDER_AS_GIVEN},
    {"ICP_ORDER_DEEP", ICP_ORDER_DEEP}, {"ICP_ORDER_SHALLOW", ICP_ORDER_SHALLOW},
};

static icp_search t_search;
static icp_inv t_inv;
static icp_value t_vars[2];

/* The code of the name at *at (which moves past it and a blank), or -1. */
static int t_code(const char **at)
{
    size_t i, n = strcspn(*at, " ");
    for (i = 0; i < sizeof t_codes / sizeof t_codes[0]; i++)
        if (strlen(t_codes[i].name) == n && !strncmp(t_codes[i].name, *at, n)) {
            *at += n;
            while (**at == ' ')
                (*at)++;
            return t_codes[i].code;
        }
    return -1;
}

/* The next value of the arguments at *at. */
static icp_value t_arg(const char **at)
{
    icp_value v = t_value(at);
    while (**at == ' ')
        (*at)++;
    return v;
}

/* A fresh invocation at the position now. */
static void t_inv_reset(void)
{
    memset(&t_search, 0, sizeof t_search);
    t_search.program = &t_program;
    memset(&t_inv, 0, sizeof t_inv);
    t_inv.node.position = t_now;
    t_inv.node.depth = 1;
    t_inv.node.plies = 2;
    t_inv.x = icp_undefined();
    t_inv.side = icp_undefined();
    t_vars[0] = icp_undefined();
    t_vars[1] = icp_undefined();
    t_inv.vars = t_vars;
    t_inv.var_count = 2;
    t_inv.search = &t_search;
    icp_current = &t_inv;
}

/* The two user variables' text, then both let go. */
static void t_print_vars(void)
{
    icp_text t = {0, 0, 0};
    icp_text_value(&t, &t_vars[0]);
    icp_text_str(&t, " ");
    icp_text_value(&t, &t_vars[1]);
    printf("%s\n", icp_text_take(&t));
    free(t.text);
    icp_drop(&t_vars[0]);
    icp_drop(&t_vars[1]);
    icp_drop(&t_inv.side);
}

/* A fault: its message; everything the invocation held is freed. */
static void t_print_fault(void)
{
    printf("fault %s\n", icp_error.message ? icp_error.message : "");
    icp_release_all();
    t_vars[0] = t_vars[1] = icp_undefined();
}

/* bin NAME A B, un NAME V, cmp NAME A B, test NAME NEGATED KIND V SIDE,
 * order NAME SET, edit WHAT A B C: see tests/it/cheg_twins.rs. */
static void t_execute(const char *op, const char *args)
{
    const char *at = args;
    int code = t_code(&at);
    if (!strcmp(op, "bin")) {
        icp_value a = t_arg(&at), b = t_arg(&at);
        icp_do_binary(&t_inv, code, ICP_USER(1), a, b);
    } else if (!strcmp(op, "un")) {
        icp_do_unary(&t_inv, code, ICP_USER(1), t_arg(&at));
    } else if (!strcmp(op, "cmp")) {
        icp_value a = t_arg(&at), b = t_arg(&at);
        int step = icp_do_jump(&t_inv, code, a, b, 1);
        icp_write(&t_inv, ICP_USER(1), icp_logical(step == ICP_STEP_GOTO));
    } else if (!strcmp(op, "test")) {
        char *end;
        int negated = (int)strtol(at, &end, 10), kind = (int)strtol(end, &end, 10);
        icp_value v;
        at = end + 1;
        v = t_arg(&at);
        t_inv.side = t_arg(&at);
        icp_write(&t_inv, ICP_USER(1), icp_logical(icp_test(icp_cond_make(negated, code, kind), v)));
    } else if (!strcmp(op, "order")) {
        icp_value set = t_arg(&at);
        icp_order_items(set.as.set, code);
        icp_write(&t_inv, ICP_USER(1), set);
    } else {
        /* edit setel|insert|unsert|exchwe|exchel A B C */
        size_t n = strcspn(args, " ");
        icp_value a, c;
        at = args + n + 1;
        a = t_arg(&at);
        t_vars[1] = t_arg(&at);
        c = t_arg(&at);
        if (!strncmp(args, "setel", n))
            icp_do_setel(&t_inv, a, ICP_USER(1), c);
        else if (!strncmp(args, "insert", n))
            icp_do_insert(&t_inv, a, ICP_USER(1), c);
        else if (!strncmp(args, "unsert", n)) {
            icp_drop(&a);
            icp_do_unsert(&t_inv, ICP_USER(0), ICP_USER(1), c);
        } else if (!strncmp(args, "exchwe", n)) {
            t_vars[0] = a;
            icp_do_exchwe(&t_inv, ICP_USER(0), ICP_USER(1), c);
        } else {
            icp_do_exchel(&t_inv, ICP_USER(1), a, c);
        }
    }
}

static void op_instruction(const char *op, const char *args)
{
    jmp_buf here;
    t_inv_reset();
    icp_error_jump = &here;
    if (setjmp(here)) {
        t_print_fault();
        return;
    }
    t_execute(op, args);
    t_print_vars();
}

/* The variables LM, PG and every piece variable at the position now. */
static void op_node_vars(void)
{
    icp_node node;
    icp_value v;
    icp_text t = {0, 0, 0};
    int mover, kind, index;
    node.position = t_now;
    node.depth = 1;
    node.plies = 2;
    v = icp_legal_moves_value(&node);
    icp_text_value(&t, &v);
    icp_drop(&v);
    icp_text_str(&t, " ");
    v = icp_pawn_groups(&node);
    icp_text_value(&t, &v);
    icp_drop(&v);
    for (mover = 1; mover >= 0; mover--)
        for (kind = ICP_KING; kind <= ICP_PAWN; kind++)
            for (index = 0; index < icp_variable_count(kind); index++) {
                icp_text_str(&t, " ");
                v = icp_piece_variable_value(&node, mover, kind, index);
                icp_text_value(&t, &v);
                icp_drop(&v);
            }
    printf("%s\n", icp_text_take(&t));
    free(t.text);
}

/* ---------------------------------------------------- uci.c operations */

static void op_score(const char *args)
{
    long long v;
    char text[48];
    if (sscanf(args, "%lld", &v) != 1)
        return;
    icp_score_text((int64_t)v, text);
    printf("%s\n", text);
}

static void op_utf8(const char *args)
{
    size_t n, i = 0;
    unsigned char *bytes = t_unhex(args, &n);
    printf("%lu:", (unsigned long)n);
    while (i < n) {
        uint32_t c;
        i += icp_utf8_next(bytes + i, n - i, &c);
        printf(" %lX", (unsigned long)c);
    }
    printf("\n");
    free(bytes);
}

static void op_words(const char *args)
{
    size_t n, i;
    unsigned char *bytes = t_unhex(args, &n);
    icp_words w;
    icp_words_split(&w, bytes, n);
    printf("%lu", (unsigned long)w.count);
    for (i = 0; i < w.count; i++) {
        icp_text shown = {0, 0, 0};
        icp_text_printable(&shown, w.words[i]);
        printf(" %s", icp_text_take(&shown));
        free(shown.text);
    }
    printf("\n");
    icp_words_free(&w);
    free(bytes);
}

/* uci HEX: one UCI command line (its bytes in hex) through the session;
 * its output, then a line ".". */
static void op_uci(const char *args)
{
    size_t n;
    unsigned char *bytes = t_unhex(args, &n);
    icp_words w;
    icp_words_split(&w, bytes, n);
    icp_command(&t_session, &w);
    icp_words_free(&w);
    free(bytes);
    printf(".\n");
}

static void op_display(void)
{
    icp_display(&t_now, stdout);
    printf(".\n");
}

/* ------------------------------------------------------------ the loop */

/* The next line of standard input without its newline (malloc'd), or
 * NULL at the end. */
static char *t_line(FILE *in)
{
    size_t len = 0, cap = 256;
    int c;
    char *line = malloc(cap);
    if (!line)
        exit(3);
    while ((c = getc(in)) != EOF && c != '\n') {
        if (len + 1 == cap) {
            char *grown = realloc(line, cap *= 2);
            if (!grown)
                exit(3);
            line = grown;
        }
        line[len++] = (char)c;
    }
    if (c == EOF && len == 0) {
        free(line);
        return NULL;
    }
    line[len] = '\0';
    return line;
}

int main(void)
{
    char **lines = NULL;
    size_t count = 0, cap = 0, i;
    char *line;
    /* The whole script first: a search's watch then finds nothing on
     * standard input (and could not take a line of the script). */
    while ((line = t_line(stdin)) != NULL) {
        if (count == cap) {
            char **grown = realloc(lines, (cap = cap ? cap * 2 : 256) * sizeof *lines);
            if (!grown)
                exit(3);
            lines = grown;
        }
        lines[count++] = line;
    }
    icp_position_start(&t_start);
    t_now = t_start;
    if (!icp_table_init(&t_table, 1))
        exit(3);
    icp_session_start(&t_session, T_PROGRAM);
    for (i = 0; i < count; i++) {
        char *op = lines[i], *args = strchr(op, ' ');
        if (args)
            *args++ = '\0';
        else
            args = op + strlen(op);
        if (!strcmp(op, "fen"))
            op_fen(args);
        else if (!strcmp(op, "fen?"))
            op_fen_query();
        else if (!strcmp(op, "moves") || !strcmp(op, "gen")) {
            icp_move_list list;
            if (!strcmp(op, "moves"))
                icp_legal_moves(&t_now, &list);
            else
                icp_generate(&t_now, &list);
            t_print_moves(&list);
        } else if (!strcmp(op, "count"))
            printf("%" PRIu64 "\n", icp_count_legal(&t_now));
        else if (!strcmp(op, "perft"))
            printf("%" PRIu64 "\n", icp_perft(&t_now, (unsigned)atoi(args)));
        else if (!strcmp(op, "make"))
            op_make(args);
        else if (!strcmp(op, "unmake"))
            op_unmake();
        else if (!strcmp(op, "parse"))
            op_parse(args);
        else if (!strcmp(op, "raw"))
            op_raw(args);
        else if (!strcmp(op, "check"))
            op_check();
        else if (!strcmp(op, "key"))
            op_key();
        else if (!strcmp(op, "same"))
            op_same();
        else if (!strcmp(op, "pieces"))
            op_pieces();
        else if (!strcmp(op, "display"))
            op_display();
        else if (!strcmp(op, "search"))
            op_search(args);
        else if (!strcmp(op, "hash"))
            op_hash(args);
        else if (!strcmp(op, "eval"))
            op_eval();
        else if (!strcmp(op, "val"))
            op_val(args);
        else if (!strcmp(op, "convert"))
            op_convert(args);
        else if (!strcmp(op, "squares"))
            op_squares(args);
        else if (!strcmp(op, "score"))
            op_score(args);
        else if (!strcmp(op, "utf8"))
            op_utf8(args);
        else if (!strcmp(op, "words"))
            op_words(args);
        else if (!strcmp(op, "uci"))
            op_uci(args);
        else if (!strcmp(op, "bin") || !strcmp(op, "un") || !strcmp(op, "cmp") || !strcmp(op, "test") ||
                 !strcmp(op, "order") || !strcmp(op, "edit"))
            op_instruction(op, args);
        else if (!strcmp(op, "nodevars"))
            op_node_vars();
        else
            printf("unknown operation %s\n", op);
        fflush(stdout);
        free(lines[i]);
    }
    free(lines);
    icp_table_free(&t_table);
    return 0;
}
