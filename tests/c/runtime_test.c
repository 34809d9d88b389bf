/* Tests of the C board runtime (src/lang/icp/runtime/board.c and the parts
 * in board/, included in the order generated C pastes them) against the
 * spec (shared/spec/infchesspro.md) and docs/runtime-design.md.
 *
 * Build and run (from the repository root):
 *   cc -std=c99 -O2 -Wall -Wextra -Wpedantic -Werror tests/c/runtime_test.c \
 *      -o /tmp/runtime_test && /tmp/runtime_test
 * Also with -fsanitize=address,undefined -fno-sanitize-recover, and under
 * valgrind. An optional argument scales the random differential test
 * (number of random sequences, default 400).
 *
 * The input and output tests re-run this binary as a child process
 * (`PROG --child MODE ...`) through system() and a POSIX shell, with stdin,
 * stdout and stderr redirected to files next to the binary (PROG.in, ...).
 *
 * The random test compares the runtime with a brute-force reference
 * written here independently: it keeps a plain array of pieces, decides
 * "strictly between" by scanning every piece with 128-bit arithmetic and
 * decides check by simulating the move on a copy and trying every enemy
 * piece against every king. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/codegen/prelude.c"
#include "../../src/lang/icp/runtime/board.c"
#include "../../src/lang/icp/runtime/board/pieces.c"
#include "../../src/lang/icp/runtime/board/table.c"
#include "../../src/lang/icp/runtime/board/rays.c"
#include "../../src/lang/icp/runtime/board/moves.c"
#include "../../src/lang/icp/runtime/board/loops.c"
#include "../../src/lang/icp/runtime/board/io.c"

/* ------------------------------------------------------------ framework */

static long t_passed, t_failed;

#define CHECK(cond) t_check((cond) != 0, #cond, __LINE__)
#define CHECK_EQ(a, b) t_check_eq((int64_t)(a), (int64_t)(b), #a " == " #b, __LINE__)

static void t_check(int ok, const char *what, int line)
{
    if (ok) {
        t_passed++;
    } else {
        t_failed++;
        fprintf(stderr, "FAIL line %d: %s\n", line, what);
    }
}

static void t_check_eq(int64_t a, int64_t b, const char *what, int line)
{
    if (a == b) {
        t_passed++;
    } else {
        t_failed++;
        fprintf(stderr, "FAIL line %d: %s (%" PRId64 " vs %" PRId64 ")\n", line,
                what, a, b);
    }
}

/* The slot on (r, c), or ICP_NIL. */
static uint32_t t_get(int64_t r, int64_t c)
{
    size_t i;
    return icp_find(r, c, &i);
}

/* Shorthands: a fresh board with 8 names. */
static void fresh(void) { icp_board_init(8); }
static int W(uint32_t name, int kind, int64_t r, int64_t c)
{
    return icp_place(name, ICP_WHITE, kind, r, c);
}
static int B(uint32_t name, int kind, int64_t r, int64_t c)
{
    return icp_place(name, ICP_BLACK, kind, r, c);
}
/* Whether (r, c) holds a piece of that colour and kind. */
static int has(int64_t r, int64_t c, int colour, int kind)
{
    uint32_t s = t_get(r, c);
    return s != ICP_NIL && icp_pieces[s].colour == colour &&
           icp_pieces[s].kind == kind;
}
static int empty(int64_t r, int64_t c) { return t_get(r, c) == ICP_NIL; }
static uint64_t live_total(void)
{
    uint64_t n = 0;
    uint32_t i;
    for (i = 0; i < icp_names; i++)
        n += icp_name_count[i];
    return n;
}

/* Checks every built line index: each entry of the hash table is found
 * from its key, and its treap is valid (BST order of positions, heap order
 * of priorities) and holds occupied squares of that line only; together
 * the entries hold exactly the occupied squares. */
static uint64_t t_walk(int l, uint64_t key, uint32_t t, int *ok, uint32_t parent_prio)
{
    uint64_t n = 0;
    while (t != ICP_NIL) {
        const icp_node *x = &icp_nodes[t];
        int64_t r, c, pos;
        if (x->prio > parent_prio)
            *ok = 0;
        if (x->left != ICP_NIL && icp_nodes[x->left].pos >= x->pos)
            *ok = 0;
        if (x->right != ICP_NIL && icp_nodes[x->right].pos <= x->pos)
            *ok = 0;
        /* Back from (key, position) to the square. */
        switch (l) {
        case 0: r = icp_u2i(key); c = x->pos; break;
        case 1: c = icp_u2i(key); r = x->pos; break;
        case 2: r = x->pos; c = icp_u2i((uint64_t)r - key); break;
        default: r = x->pos; c = icp_u2i(key - (uint64_t)r); break;
        }
        if (icp_line_key(l, r, c, &pos) != key || pos != x->pos)
            *ok = 0;
        if (t_get(r, c) == ICP_NIL)
            *ok = 0;
        n++;
        n += t_walk(l, key, x->left, ok, x->prio);
        parent_prio = x->prio;
        t = x->right;
    }
    return n;
}

static int indices_ok(void)
{
    int l, ok = 1;
    for (l = 0; l < 4; l++) {
        size_t i;
        uint64_t n = 0;
        if (!icp_built[l])
            continue;
        for (i = 0; i <= icp_lines_mask[l]; i++) {
            const icp_line *e = &icp_lines[l][i];
            if (e->root == ICP_NIL)
                continue;
            if (icp_line_find(l, e->key) != i)
                ok = 0;
            n += t_walk(l, e->key, e->root, &ok, UINT32_MAX);
        }
        if (n != icp_tab_used)
            ok = 0;
    }
    return ok;
}

/* ------------------------------------------------------- geometry tests */

static int64_t i_abs(int64_t x) { return x < 0 ? -x : x; }

/* Each kind alone on the board (plus a target piece for captures): every
 * target in a 9x9 square around the piece. */
static void test_geometry(void)
{
    int kind, colour, cap;
    int64_t r, c;
    for (colour = 0; colour < 2; colour++)
        for (kind = 0; kind < 6; kind++)
            for (cap = 0; cap < 2; cap++)
                for (r = -4; r <= 4; r++)
                    for (c = -4; c <= 4; c++) {
                        int64_t ar = i_abs(r), ac = i_abs(c);
                        int want, fwd = colour == ICP_WHITE ? 1 : -1;
                        if (r == 0 && c == 0)
                            continue;
                        switch (kind) {
                        case ICP_KING: want = ar <= 1 && ac <= 1; break;
                        case ICP_QUEEN: want = ar == 0 || ac == 0 || ar == ac; break;
                        case ICP_ROOK: want = ar == 0 || ac == 0; break;
                        case ICP_BISHOP: want = ar == ac; break;
                        case ICP_KNIGHT: want = (ar == 1 && ac == 2) || (ar == 2 && ac == 1); break;
                        default:
                            want = r == fwd && (cap ? ac == 1 : ac == 0);
                            break;
                        }
                        fresh();
                        CHECK(icp_place(0, colour, kind, 0, 0));
                        if (cap)
                            CHECK(icp_place(1, 1 - colour, ICP_KNIGHT, r, c));
                        CHECK_EQ(icp_move_squares(0, 0, r, c), want);
                        if (want) {
                            CHECK(empty(0, 0) && has(r, c, colour, kind));
                            CHECK_EQ(icp_count(1), 0);
                        } else {
                            CHECK(has(0, 0, colour, kind));
                            CHECK_EQ(icp_count(1), cap);
                        }
                        /* Own piece on the target: never. */
                        fresh();
                        icp_place(0, colour, kind, 0, 0);
                        icp_place(1, colour, ICP_KNIGHT, r, c);
                        CHECK_EQ(icp_move_squares(0, 0, r, c), 0);
                    }
    fresh();
    CHECK(W(0, ICP_QUEEN, 3, 3));
    CHECK_EQ(icp_move_squares(3, 3, 3, 3), 0); /* rule 1 */
    CHECK_EQ(icp_move_squares(5, 5, 6, 6), 0); /* empty square */
    CHECK_EQ(icp_place(1, ICP_BLACK, ICP_KING, 3, 3), 0); /* occupied */
    CHECK_EQ(icp_count(1), 0);
    CHECK_EQ(icp_count(7), 0); /* never placed */
}

/* Slides blocked by pieces strictly between, short and long. */
static void test_slides(void)
{
    const int64_t E18 = INT64_C(1000000000000000000);
    int64_t k;
    fresh();
    W(0, ICP_ROOK, 0, 0);
    W(1, ICP_PAWN, 0, 5);
    B(2, ICP_PAWN, 5, 0);
    CHECK(!icp_move_squares(0, 0, 0, 6));
    CHECK(!icp_move_squares(0, 0, 0, 5)); /* own piece */
    CHECK(icp_move_squares(0, 0, 0, 4));
    CHECK(icp_move_squares(0, 4, 0, 0));
    CHECK(!icp_move_squares(0, 0, 6, 0));
    CHECK(icp_move_squares(0, 0, 5, 0)); /* capture */
    CHECK_EQ(icp_count(2), 0);
    /* Beyond the probe distance. */
    for (k = 9; k <= 40; k += 7) {
        fresh();
        W(0, ICP_ROOK, 0, 0);
        B(1, ICP_KNIGHT, 0, k);
        CHECK(!icp_move_squares(0, 0, 0, k + 1));
        CHECK(icp_move_squares(0, 0, 0, k - 1));
        CHECK(icp_move_squares(0, k - 1, 0, 0));
        CHECK(icp_move_squares(0, 0, 0, k));
        CHECK(indices_ok());
    }
    /* Each direction of each slider, long range, blocked and free. */
    {
        static const int dr[8] = {0, 0, 1, -1, 1, -1, 1, -1};
        static const int dc[8] = {1, -1, 0, 0, 1, -1, -1, 1};
        int d;
        for (d = 0; d < 8; d++) {
            int kind = d < 4 ? ICP_ROOK : ICP_BISHOP;
            int64_t br = dr[d] * (E18 / 2), bc = dc[d] * (E18 / 2);
            int64_t tr = dr[d] * E18, tc = dc[d] * E18;
            fresh();
            W(0, kind, 0, 0);
            W(0, ICP_QUEEN, -dr[d] * 3, -dc[d] * 3);
            B(1, ICP_PAWN, br, bc);
            CHECK(!icp_move_squares(0, 0, tr, tc));
            CHECK(icp_move_squares(0, 0, br, bc));
            CHECK(icp_move_squares(br, bc, tr, tc));
            CHECK(icp_move_squares(tr, tc, 0, 0));
            /* The queen slides too. */
            CHECK(!icp_move_squares(-dr[d] * 3, -dc[d] * 3, tr, tc));
            CHECK(icp_move_squares(0, 0, -dc[d], dr[d])); /* off the line */
            CHECK(icp_move_squares(-dr[d] * 3, -dc[d] * 3, tr, tc));
            CHECK(indices_ok());
        }
    }
    /* A long slide among many pieces off the line. */
    fresh();
    for (k = 1; k <= 2000; k++) {
        W(1, ICP_PAWN, k, k * 3);
        B(2, ICP_PAWN, -k, k * (E18 / 4000));
    }
    W(0, ICP_ROOK, 0, 0);
    B(3, ICP_BISHOP, 0, 5 * (E18 / 10));
    CHECK(!icp_move_squares(0, 0, 0, E18));
    CHECK(icp_move_name_to(0, 0, 5 * (E18 / 10)));
    CHECK(icp_move_name_to(0, 0, E18));
    CHECK(icp_move_name_by(0, 0, -E18));
    CHECK(!icp_move_name_by(0, 1, 1));
    CHECK(icp_move_name_by(0, E18, 0));
    CHECK(has(E18, 0, ICP_WHITE, ICP_ROOK));
    CHECK(icp_move_name_by(0, -E18 - 1, 0));
    CHECK(has(-1, 0, ICP_WHITE, ICP_ROOK));
    CHECK(W(4, ICP_PAWN, -5, 0));
    CHECK(!icp_move_name_by(0, -E18, 0));
    CHECK(icp_move_name_by(0, -3, 0));
    CHECK(has(-4, 0, ICP_WHITE, ICP_ROOK));
    CHECK(indices_ok());
}

/* Pawns of both colours: no two-step, no backwards, captures diagonal. */
/* icp_slide: a slide loop in one call, by its fast paths (one piece of
 * the name, no king of its colour) or step by step, as that many
 * icp_move_name_by calls would move. */
static void test_slide_calls(void)
{
    int king;
    for (king = 0; king < 2; king++) {
        fresh();
        if (king)
            W(3, ICP_KING, -5, -5); /* step by step */
        W(0, ICP_ROOK, 0, 0);
        W(1, ICP_PAWN, 0, 7);
        CHECK_EQ(icp_slide(0, 0, 1, UINT64_MAX), 6); /* its own pawn stops it */
        CHECK(has(0, 6, ICP_WHITE, ICP_ROOK));
        B(2, ICP_PAWN, 1, 6);
        CHECK_EQ(icp_slide(0, 1, 0, 100), 100); /* a capture, then free */
        CHECK(has(100, 6, ICP_WHITE, ICP_ROOK));
        CHECK_EQ(icp_count(2), 0);
        CHECK_EQ(icp_slide(0, 1, 0, 0), 0);
        CHECK_EQ(icp_slide(5, 1, 0, 10), 0); /* a name without pieces */
        W(4, ICP_KNIGHT, 50, 50);
        B(2, ICP_PAWN, 53, 56);
        CHECK_EQ(icp_slide(4, 1, 2, 3), 3); /* jumps, the third a capture */
        CHECK(has(53, 56, ICP_WHITE, ICP_KNIGHT));
        CHECK_EQ(icp_count(2), 0);
        W(5, ICP_ROOK, INT64_MAX - 5, 0);
        CHECK_EQ(icp_slide(5, 1, 0, UINT64_MAX), 5); /* to the i64 edge */
        CHECK(has(INT64_MAX, 0, ICP_WHITE, ICP_ROOK));
        CHECK(indices_ok());
    }
}

/* icp_occupy: §4.1 for a program that moves no piece; the table grows. */
static void test_occupy(void)
{
    int64_t i;
    icp_board_init(3);
    CHECK(icp_occupy(0, 1, 1));
    CHECK(!icp_occupy(1, 1, 1));
    CHECK_EQ(icp_count(0), 1);
    CHECK_EQ(icp_count(1), 0);
    for (i = 0; i < 1000; i++)
        CHECK(icp_occupy(2, i, -i - 5));
    for (i = 0; i < 1000; i += 97)
        CHECK(!icp_occupy(1, i, -i - 5));
    CHECK(icp_occupy(1, INT64_MIN, INT64_MAX));
    CHECK_EQ(icp_count(2), 1000);
    CHECK_EQ(icp_count(1), 1);
    CHECK(!icp_occupy(0, 1, 1));
}

static void test_pawns(void)
{
    int colour;
    for (colour = 0; colour < 2; colour++) {
        int64_t f = colour == ICP_WHITE ? 1 : -1;
        fresh();
        icp_place(0, colour, ICP_PAWN, 0, 0);
        CHECK(!icp_move_squares(0, 0, 2 * f, 0));
        CHECK(!icp_move_squares(0, 0, -f, 0));
        CHECK(!icp_move_squares(0, 0, f, 1));
        CHECK(!icp_move_squares(0, 0, 0, 1));
        icp_place(1, 1 - colour, ICP_ROOK, f, 0);
        CHECK(!icp_move_squares(0, 0, f, 0)); /* cannot capture straight */
        icp_place(1, 1 - colour, ICP_ROOK, f, -1);
        icp_place(2, colour, ICP_ROOK, f, 1);
        icp_place(1, 1 - colour, ICP_ROOK, -f, 1);
        CHECK(!icp_move_squares(0, 0, f, 1));  /* own piece */
        CHECK(!icp_move_squares(0, 0, -f, 1)); /* backwards capture */
        CHECK(icp_move_squares(0, 0, f, -1));
        CHECK_EQ(icp_count(1), 2);
        CHECK(icp_move_name_by(0, f, 0));
        CHECK(icp_move_name_by(0, f, 0));
        CHECK(has(3 * f, -1, colour, ICP_PAWN));
    }
    /* A pawn at the edge of the board cannot step off it. */
    fresh();
    W(0, ICP_PAWN, INT64_MAX, 0);
    B(1, ICP_PAWN, INT64_MIN, 0);
    CHECK(!icp_move_name_by(0, 1, 0));
    CHECK(!icp_move_name_by(1, -1, 0));
    CHECK(icp_move_squares(INT64_MAX, 0, INT64_MIN, 0) == 0);
}

/* Check: kings can be captured, pins, moving into check, several kings,
 * the opponent's kings ignored, enemy king, knight and pawn attacks. */
static void test_check(void)
{
    const int64_t E18 = INT64_C(1000000000000000000);
    /* King capture; then black has no king to protect. */
    fresh();
    W(0, ICP_ROOK, 0, 0);
    B(1, ICP_KING, 0, 7);
    B(2, ICP_ROOK, 3, 3);
    CHECK(icp_move_squares(0, 0, 0, 7));
    CHECK_EQ(icp_count(1), 0);
    CHECK_EQ(icp_kings[ICP_BLACK].len, 0);
    CHECK(icp_move_squares(3, 3, 3, 4));

    /* Orthogonal pin, long range: the pinned rook moves along the pin line
     * and may capture the pinner, nothing else. */
    fresh();
    W(0, ICP_KING, 0, 0);
    W(1, ICP_ROOK, 0, 3);
    B(2, ICP_ROOK, 0, E18);
    CHECK(!icp_move_squares(0, 3, 1, 3));
    CHECK(!icp_move_squares(0, 3, -5, 3));
    CHECK(icp_move_squares(0, 3, 0, E18 - 1));
    CHECK(icp_move_squares(0, E18 - 1, 0, 2));
    CHECK(icp_move_squares(0, 2, 0, E18));
    CHECK_EQ(icp_count(2), 0);
    CHECK(icp_move_squares(0, E18, 5, E18));
    CHECK(indices_ok());

    /* Diagonal pins from both sides: the bishop slides along its pin line
     * and takes the pinner; the knight pinned on the other side cannot
     * move at all. */
    fresh();
    W(0, ICP_KING, 0, 0);
    W(1, ICP_BISHOP, 2, 2);
    W(3, ICP_KNIGHT, -1, -1);
    B(2, ICP_QUEEN, 30, 30);
    B(4, ICP_QUEEN, -30, -30);
    CHECK(!icp_move_squares(2, 2, 3, 1));
    CHECK(!icp_move_squares(2, 2, 1, 3));
    CHECK(!icp_move_squares(-1, -1, 1, -2));
    CHECK(icp_move_squares(2, 2, 29, 29));
    CHECK(icp_move_squares(29, 29, 30, 30));
    CHECK_EQ(icp_count(2), 0);
    CHECK(icp_move_squares(30, 30, 31, 29)); /* the upper pinner is gone */
    CHECK(!icp_move_squares(-1, -1, 1, -2)); /* still pinned from below */
    CHECK(!icp_move_squares(-1, -1, -3, -2));
    CHECK(indices_ok());

    /* Moving into check, including away along the checking line through
     * the king's own old square (it is vacated, §7 rule 4). */
    fresh();
    W(0, ICP_KING, 0, 0);
    B(1, ICP_ROOK, 0, -20);
    CHECK(!icp_move_squares(0, 0, 0, 1));
    CHECK(!icp_move_squares(0, 0, 0, -1));
    CHECK(icp_move_squares(0, 0, 1, 1));
    CHECK(!icp_move_squares(1, 1, 0, 2));
    fresh();
    W(0, ICP_KING, 0, 0);
    B(1, ICP_BISHOP, 5, 5);
    CHECK(!icp_move_squares(0, 0, -1, -1));
    CHECK(!icp_move_squares(0, 0, 1, 1));
    CHECK(icp_move_squares(0, 0, 1, -1)); /* (1,-1): r-c=2, r+c=0: safe */
    fresh();
    W(0, ICP_KING, 0, 0);
    B(1, ICP_BISHOP, 5, -5); /* anti-diagonal r+c = 0 */
    CHECK(!icp_move_squares(0, 0, -1, 1));
    CHECK(icp_move_squares(0, 0, 0, 1));
    CHECK(icp_move_squares(0, 1, 1, 0));   /* r+c = 1, r-c = 1: safe */
    CHECK(!icp_move_squares(1, 0, 1, -1)); /* r+c = 0 again */

    /* Enemy king attacks its neighbours; a piece it protects cannot be
     * taken by the king. */
    fresh();
    W(0, ICP_KING, 0, 0);
    B(1, ICP_KING, 0, 2);
    B(2, ICP_KNIGHT, 1, 1); /* protected by the black king */
    CHECK(!icp_move_squares(0, 0, 0, 1));
    CHECK(!icp_move_squares(0, 0, 1, 1));
    CHECK(!icp_move_squares(0, 0, -1, 0)); /* the knight covers (-1,0) */
    CHECK(icp_move_squares(0, 0, -1, -1));
    CHECK(icp_move_squares(-1, -1, 0, 0));
    CHECK(icp_move_squares(0, 0, 1, 0));
    CHECK(has(1, 0, ICP_WHITE, ICP_KING));

    /* Pawn attacks: forward diagonals only. */
    fresh();
    W(0, ICP_KING, 0, 0);
    B(1, ICP_PAWN, 3, 1); /* attacks (2, 0) and (2, 2) */
    CHECK(icp_move_squares(0, 0, 1, 0));
    CHECK(!icp_move_squares(1, 0, 2, 0));
    CHECK(icp_move_squares(1, 0, 2, 1)); /* in front of the pawn: safe */
    CHECK(icp_move_squares(2, 1, 3, 1)); /* takes the pawn */
    fresh();
    B(0, ICP_KING, 0, 0);
    W(1, ICP_PAWN, -3, 1); /* attacks (-2, 0) and (-2, 2) */
    CHECK(icp_move_squares(0, 0, -1, 0));
    CHECK(!icp_move_squares(-1, 0, -2, 0));
    CHECK(icp_move_squares(-1, 0, -2, -1)); /* (-2,-1): safe */
    fresh();
    B(0, ICP_KING, 0, 0);
    W(1, ICP_PAWN, 1, 1); /* attacks (2,0), (2,2): not the king's row */
    CHECK(icp_move_squares(0, 0, 0, 1));
    CHECK(icp_move_squares(0, 1, 0, 2));
    W(2, ICP_PAWN, -1, 1); /* attacks (0, 0) and (0, 2) */
    CHECK(icp_move_squares(0, 2, 1, 2)); /* out of check */
    CHECK(!icp_move_squares(1, 2, 0, 2));

    /* Knight attacks. */
    fresh();
    W(0, ICP_KING, 0, 0);
    B(1, ICP_KNIGHT, 3, 1); /* attacks (1,0) (1,2) (2,3) (4,3) (5,2) (5,0)
                               (4,-1) (2,-1) */
    CHECK(!icp_move_squares(0, 0, 1, 0));
    CHECK(icp_move_squares(0, 0, 1, 1));
    CHECK(!icp_move_squares(1, 1, 1, 2));
    CHECK(icp_move_squares(1, 1, 2, 0));
    CHECK(!icp_move_squares(2, 0, 2, -1));
    CHECK(icp_move_squares(2, 0, 3, 1)); /* takes the knight */

    /* Several kings: every king of the mover's colour is protected; the
     * opponent's kings may stay in check. */
    fresh();
    W(0, ICP_KING, 0, 0);
    W(0, ICP_KING, 100, 100);
    W(1, ICP_ROOK, 0, 50);
    B(2, ICP_ROOK, 0, E18);
    B(3, ICP_KING, 200, 100);
    CHECK(!icp_move_squares(0, 50, 1, 50)); /* exposes king (0,0) */
    CHECK(icp_move_squares(0, 50, 0, 60));
    CHECK(icp_move_squares(0, 60, 0, 100)); /* still on row 0 */
    CHECK(W(4, ICP_QUEEN, 150, 0));
    CHECK(icp_move_squares(150, 0, 150, 100)); /* checks the black king */
    CHECK(!icp_move_squares(0, E18, 0, 100)); /* black king stays in check */
    CHECK(icp_move_squares(200, 100, 200, 99));
    CHECK(icp_move_squares(0, E18, 0, 100)); /* checks both white kings */
    CHECK_EQ(icp_count(1), 0);
    CHECK(!icp_move_squares(150, 100, 151, 100));
    CHECK(!icp_move_squares(0, 0, 1, 0));       /* king (100,100) in check */
    CHECK(!icp_move_squares(100, 100, 100, 101)); /* king (0,0) in check */
    CHECK(!icp_move_squares(150, 100, 100, 50));
    CHECK(W(5, ICP_KNIGHT, 2, 101));
    CHECK(icp_move_squares(2, 101, 0, 100)); /* takes the checker */
    CHECK_EQ(icp_count(2), 0);
    CHECK(icp_move_squares(0, 0, 1, 0));
    CHECK(indices_ok());

    /* A king in check from far away along a diagonal. */
    fresh();
    W(0, ICP_KING, 0, 0);
    B(1, ICP_QUEEN, E18, E18);
    W(2, ICP_ROOK, 5, 7);
    CHECK(!icp_move_squares(5, 7, 6, 7)); /* does not help */
    CHECK(icp_move_squares(5, 7, 5, 5));  /* blocks */
    CHECK(icp_move_squares(E18, E18, 6, 6));
    CHECK(icp_move_squares(6, 6, 5, 5)); /* black ignores white's king */
    CHECK(!icp_move_squares(0, 0, 1, 1)); /* still on the diagonal */
    CHECK(icp_move_squares(0, 0, 1, 0));
    CHECK(indices_ok());
}

static void test_check_plain(void)
{
    const int64_t E18 = INT64_C(1000000000000000000);
    /* Black king in check from a white rook: white moves freely. */
    fresh();
    B(0, ICP_KING, 0, 0);
    W(1, ICP_ROOK, 0, 5);
    W(2, ICP_KNIGHT, 9, 9);
    CHECK(icp_move_squares(9, 9, 7, 8));
    CHECK(!icp_move_squares(0, 0, 0, 1)); /* black into the rook's line */
    CHECK(!icp_move_squares(0, 0, 0, -1)); /* through its own square */
    CHECK(icp_move_squares(0, 0, 1, 1));
    /* A far bishop and an interposing own piece. */
    fresh();
    W(0, ICP_KING, 0, 0);
    W(1, ICP_ROOK, 5, 5);
    B(2, ICP_BISHOP, E18, E18);
    CHECK(!icp_move_squares(5, 5, 5, 6));
    B(3, ICP_PAWN, 7, 7);
    CHECK(icp_move_squares(5, 5, 5, 6));
    CHECK(icp_move_squares(7, 7, 6, 7)); /* black opens the line */
    CHECK(!icp_move_squares(5, 6, 5, 7));
    CHECK(icp_move_squares(5, 6, 6, 6)); /* re-block */
    CHECK(!icp_move_squares(6, 7, 5, 6)); /* black pawn: nothing to take */
    CHECK(icp_move_squares(6, 7, 5, 7));
    CHECK(icp_move_squares(E18, E18, 7, 7));
    CHECK(!icp_move_squares(6, 6, 6, 5));
    CHECK(icp_move_squares(6, 6, 7, 6) == 0); /* rook: pinned; (7,6) off line */
    CHECK(icp_move_squares(6, 6, 6, 6) == 0);
    CHECK(icp_move_squares(0, 0, 1, 0));   /* king off the diagonal */
    CHECK(icp_move_squares(6, 6, 6, 100)); /* no longer pinned */
    CHECK(indices_ok());
}

/* Names: newest first, falling back to older pieces; counts. */
static void test_names(void)
{
    fresh();
    CHECK(W(0, ICP_ROOK, 0, 0));  /* oldest */
    CHECK(W(0, ICP_ROOK, 5, 5));
    CHECK(W(0, ICP_BISHOP, 9, 0)); /* newest */
    CHECK_EQ(icp_count(0), 3);
    /* (9,1): the bishop cannot, the rook (5,5) cannot, the rook (0,0)? no.
     * (0,3): only the oldest rook. */
    CHECK(icp_move_name_to(0, 0, 3));
    CHECK(has(0, 3, ICP_WHITE, ICP_ROOK) && empty(0, 0));
    /* (5,9): newest that can: rook (5,5) (the bishop can't). */
    CHECK(icp_move_name_to(0, 5, 9));
    CHECK(has(5, 9, ICP_WHITE, ICP_ROOK) && empty(5, 5));
    /* (8,1): the bishop, newest. Both rooks could not anyway. (10,1) too. */
    CHECK(icp_move_name_by(0, 1, 1));
    CHECK(has(10, 1, ICP_WHITE, ICP_BISHOP));
    /* (0,9): rook (0,3) along row and rook (5,9) along column: newest is
     * (5,9). */
    CHECK(icp_move_name_to(0, 0, 9));
    CHECK(has(0, 9, ICP_WHITE, ICP_ROOK) && empty(5, 9));
    /* Relative: each candidate from its own square. */
    CHECK(icp_move_name_by(0, 0, -2)); /* bishop can't; rook (0,9)->(0,7) */
    CHECK(has(0, 7, ICP_WHITE, ICP_ROOK));
    CHECK(!icp_move_name_by(0, 3, 4));
    CHECK(!icp_move_name_to(1, 0, 0)); /* nobody */
    /* Capture the newest; the next newest is tried first. */
    B(1, ICP_QUEEN, 10, 4);
    CHECK(icp_move_name_to(1, 10, 1));
    CHECK_EQ(icp_count(0), 2);
    CHECK(icp_name_head[0] != ICP_NIL &&
          icp_pieces[icp_name_head[0]].row == 0 && icp_pieces[icp_name_head[0]].col == 7);
    CHECK(icp_move_name_by(0, 1, 0)); /* newest rook (0,7) */
    CHECK(has(1, 7, ICP_WHITE, ICP_ROOK));
    CHECK_EQ(icp_count(1), 1);
    /* Mixed colours under one name. */
    fresh();
    W(2, ICP_PAWN, 0, 0);
    B(2, ICP_PAWN, 0, 1);
    CHECK(icp_move_name_by(2, 1, 0)); /* black pawn can't, white can */
    CHECK(has(1, 0, ICP_WHITE, ICP_PAWN));
    CHECK(icp_move_name_by(2, -1, 0)); /* black pawn */
    CHECK(has(-1, 1, ICP_BLACK, ICP_PAWN));
}

/* Arithmetic at the i64 edges. */
static void test_edges(void)
{
    fresh();
    CHECK(W(0, ICP_ROOK, INT64_MIN, 0));
    CHECK(icp_move_squares(INT64_MIN, 0, INT64_MAX - 1, 0));
    CHECK(icp_move_name_by(0, 1, 0));
    CHECK(has(INT64_MAX, 0, ICP_WHITE, ICP_ROOK));
    CHECK(!icp_move_name_by(0, 1, 0));
    CHECK(!icp_move_name_by(0, INT64_MAX, 0));
    CHECK(icp_move_name_by(0, INT64_MIN, 0)); /* to -1 */
    CHECK(has(-1, 0, ICP_WHITE, ICP_ROOK));
    CHECK(!icp_move_name_by(0, INT64_MIN, 0));
    CHECK(icp_move_name_by(0, INT64_MAX, 0)); /* to MAX-1 */
    CHECK(icp_move_name_by(0, INT64_MIN, 0)); /* to -2 */
    CHECK(icp_move_name_by(0, 0, INT64_MAX));
    CHECK(!icp_move_name_by(0, 0, 1));
    CHECK(icp_move_name_by(0, 0, INT64_MIN)); /* to col -1 */
    CHECK(icp_move_name_by(0, 0, INT64_MIN + 1)); /* col MIN */
    CHECK(!icp_move_name_by(0, 0, -1));
    CHECK(icp_move_squares(-2, INT64_MIN, -2, INT64_MAX));
    /* Blocked across the whole board. */
    CHECK(B(1, ICP_PAWN, -2, 0));
    CHECK(!icp_move_squares(-2, INT64_MAX, -2, INT64_MIN));
    CHECK(icp_move_squares(-2, INT64_MAX, -2, 0));
    CHECK(indices_ok());
    /* Bishop corner to corner, both diagonals. */
    fresh();
    W(0, ICP_BISHOP, INT64_MIN, INT64_MIN);
    W(1, ICP_BISHOP, INT64_MIN, INT64_MAX);
    CHECK(icp_move_squares(INT64_MIN, INT64_MIN, INT64_MAX, INT64_MAX));
    CHECK(icp_move_squares(INT64_MIN, INT64_MAX, INT64_MAX, INT64_MIN));
    B(2, ICP_PAWN, 0, 0);
    B(3, ICP_PAWN, 0, -1);
    CHECK(!icp_move_squares(INT64_MAX, INT64_MAX, INT64_MIN, INT64_MIN));
    CHECK(!icp_move_squares(INT64_MAX, INT64_MIN, INT64_MIN, INT64_MAX));
    CHECK(icp_move_squares(INT64_MAX, INT64_MAX, 0, 0));
    CHECK(icp_move_squares(INT64_MAX, INT64_MIN, 0, -1)); /* r+c = -1 */
    CHECK(indices_ok());
    fresh();
    W(1, ICP_BISHOP, INT64_MAX, INT64_MIN);
    B(3, ICP_PAWN, 0, -1);
    CHECK(icp_move_squares(INT64_MAX, INT64_MIN, 0, -1));
    /* Knights and kings at the corners; attacks probed off the board. */
    fresh();
    W(0, ICP_KING, INT64_MAX, INT64_MAX);
    B(1, ICP_KNIGHT, INT64_MAX - 3, INT64_MAX - 1);
    B(2, ICP_KING, INT64_MIN, INT64_MIN);
    B(3, ICP_PAWN, INT64_MAX, INT64_MIN);
    CHECK(!icp_move_squares(INT64_MAX, INT64_MAX, INT64_MAX - 1, INT64_MAX));
    CHECK(icp_move_squares(INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX - 1));
    CHECK(icp_move_squares(INT64_MIN, INT64_MIN, INT64_MIN + 1, INT64_MIN + 1));
    CHECK(!icp_move_name_by(0, 1, 0));
    CHECK(!icp_move_name_by(0, 0, 2));
    /* A rook guarding a whole column of 2^64 - 1 squares. */
    fresh();
    W(0, ICP_KING, INT64_MAX, INT64_MAX);
    W(1, ICP_ROOK, 0, INT64_MAX);
    B(2, ICP_ROOK, INT64_MIN, INT64_MAX);
    CHECK(!icp_move_squares(0, INT64_MAX, 0, 0));
    CHECK(icp_move_squares(0, INT64_MAX, INT64_MIN + 1, INT64_MAX));
    CHECK(icp_move_squares(INT64_MIN + 1, INT64_MAX, INT64_MIN, INT64_MAX));
    CHECK_EQ(icp_count(2), 0);
    CHECK(icp_move_squares(INT64_MAX, INT64_MAX, INT64_MAX - 1, INT64_MAX - 1));
    /* The anti-diagonal through two corners: r+c = -1. */
    fresh();
    W(0, ICP_KING, INT64_MAX, INT64_MIN);
    B(1, ICP_BISHOP, INT64_MIN, INT64_MAX);
    W(2, ICP_KNIGHT, 0, -1);
    CHECK(!icp_move_squares(0, -1, 2, 0)); /* pinned across 2^64 squares */
    CHECK(icp_move_squares(INT64_MIN, INT64_MAX, 0, -1) == 1);
    CHECK(indices_ok());
}

/* Captured slots are reused: memory stays bounded. */
static void test_slot_reuse(void)
{
    long i;
    fresh();
    W(0, ICP_ROOK, 0, 0);
    for (i = 0; i < 200000; i++) {
        if (!B(1, ICP_PAWN, 0, 1) || !icp_move_squares(0, 0, 0, 1) ||
            !icp_move_squares(0, 1, 0, 0)) {
            CHECK(0);
            break;
        }
    }
    CHECK(icp_pieces_cap <= 64);
    CHECK(icp_tab_cap <= 16);
    CHECK_EQ(icp_count(1), 0);
    CHECK_EQ(icp_count(0), 1);
    /* With every index built, nodes are reused too. Check tests aim rays
     * from the king at the enemy sliders on its lines: one per line kind,
     * each blocked by a white knight beyond ICP_PROBE squares. */
    fresh();
    W(0, ICP_KING, 0, 0);
    B(2, ICP_ROOK, 0, 40);
    B(2, ICP_ROOK, -40, 0);
    B(2, ICP_QUEEN, 40, 40);
    B(2, ICP_BISHOP, -40, 40);
    W(3, ICP_KNIGHT, 0, 20);
    W(3, ICP_KNIGHT, -20, 0);
    W(3, ICP_KNIGHT, 20, 20);
    W(3, ICP_KNIGHT, -20, 20);
    W(0, ICP_QUEEN, 1, 0);
    for (i = 0; i < 100000; i++) {
        if (!B(1, ICP_PAWN, 2, 0) || !icp_move_squares(1, 0, 2, 0) ||
            !icp_move_squares(2, 0, 1, 0)) {
            CHECK(0);
            break;
        }
    }
    CHECK(icp_built[0] && icp_built[1] && icp_built[2] && icp_built[3]);
    CHECK(icp_nodes_cap <= 64);
    CHECK(icp_pieces_cap <= 64);
    CHECK(indices_ok());
    /* Many pieces: tables grow; all found again. */
    fresh();
    for (i = 0; i < 50000; i++)
        CHECK(W((uint32_t)(i % 8), ICP_PAWN, i * 7919, -i));
    for (i = 0; i < 50000; i++)
        if (!has(i * 7919, -i, ICP_WHITE, ICP_PAWN))
            CHECK(0);
    CHECK_EQ(live_total(), 50000);
}

/* ------------------------------------------- random differential test */

__extension__ typedef __int128 ref_i128;

typedef struct {
    int live, colour, kind, name;
    long serial;
    int64_t r, c;
} ref_piece;

#define REF_MAX 64
static ref_piece ref[REF_MAX];
static int ref_n;
static long ref_serial;

static uint64_t rng_state;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static int rnd(int n) { return (int)(rng() % (uint64_t)n); }

static int ref_find(const ref_piece *b, int64_t r, int64_t c)
{
    int i;
    for (i = 0; i < ref_n; i++)
        if (b[i].live && b[i].r == r && b[i].c == c)
            return i;
    return -1;
}

static ref_i128 r_abs(ref_i128 x) { return x < 0 ? -x : x; }
static int r_sign(ref_i128 x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

/* Every square strictly between (r0,c0) and (r1,c1) (on one line) empty in
 * board b: scan every piece. */
static int ref_clear(const ref_piece *b, int64_t r0, int64_t c0, int64_t r1,
                     int64_t c1)
{
    ref_i128 dr = (ref_i128)r1 - r0, dc = (ref_i128)c1 - c0;
    ref_i128 dist = r_abs(dr) > r_abs(dc) ? r_abs(dr) : r_abs(dc);
    int sr = r_sign(dr), sc = r_sign(dc), i;
    for (i = 0; i < ref_n; i++) {
        ref_i128 qr, qc, k;
        if (!b[i].live)
            continue;
        qr = (ref_i128)b[i].r - r0;
        qc = (ref_i128)b[i].c - c0;
        k = sr != 0 ? qr * sr : qc * sc;
        if (qr == k * sr && qc == k * sc && k > 0 && k < dist)
            return 0;
    }
    return 1;
}

/* §7 rule 3 for a piece of colour/kind from (r0,c0) to (r1,c1) in board b;
 * target_full: the target holds a piece of the other colour. */
static int ref_geom(const ref_piece *b, int colour, int kind, int64_t r0,
                    int64_t c0, int64_t r1, int64_t c1, int target_full)
{
    ref_i128 dr = (ref_i128)r1 - r0, dc = (ref_i128)c1 - c0;
    ref_i128 ar = r_abs(dr), ac = r_abs(dc);
    switch (kind) {
    case ICP_KING: return ar <= 1 && ac <= 1 && (ar + ac) > 0;
    case ICP_KNIGHT: return (ar == 1 && ac == 2) || (ar == 2 && ac == 1);
    case ICP_PAWN:
        if (dr != (colour == ICP_WHITE ? 1 : -1))
            return 0;
        return target_full ? ac == 1 : ac == 0;
    case ICP_ROOK:
        return (ar == 0 || ac == 0) && ref_clear(b, r0, c0, r1, c1);
    case ICP_BISHOP:
        return ar == ac && ref_clear(b, r0, c0, r1, c1);
    default:
        return (ar == 0 || ac == 0 || ar == ac) && ref_clear(b, r0, c0, r1, c1);
    }
}

static int ref_legal(int p, int64_t tr, int64_t tc)
{
    static ref_piece after[REF_MAX];
    int t, i, j, colour = ref[p].colour;
    if (ref[p].r == tr && ref[p].c == tc)
        return 0;
    t = ref_find(ref, tr, tc);
    if (t >= 0 && ref[t].colour == colour)
        return 0;
    if (!ref_geom(ref, colour, ref[p].kind, ref[p].r, ref[p].c, tr, tc, t >= 0))
        return 0;
    memcpy(after, ref, sizeof ref);
    if (t >= 0)
        after[t].live = 0;
    after[p].r = tr;
    after[p].c = tc;
    for (i = 0; i < ref_n; i++) {
        if (!after[i].live || after[i].colour != colour || after[i].kind != ICP_KING)
            continue;
        for (j = 0; j < ref_n; j++)
            if (after[j].live && after[j].colour != colour &&
                ref_geom(after, after[j].colour, after[j].kind, after[j].r,
                         after[j].c, after[i].r, after[i].c, 1))
                return 0;
    }
    return 1;
}

static void ref_apply(int p, int64_t tr, int64_t tc)
{
    int t = ref_find(ref, tr, tc);
    if (t >= 0)
        ref[t].live = 0;
    ref[p].r = tr;
    ref[p].c = tc;
}

static int ref_live(void)
{
    int i, n = 0;
    for (i = 0; i < ref_n; i++)
        n += ref[i].live;
    return n;
}

/* Reference name moves: candidates by decreasing serial. by: relative. */
static int ref_move_name(int name, int64_t a, int64_t b, int by)
{
    long below = LONG_MAX;
    for (;;) {
        int i, best = -1;
        for (i = 0; i < ref_n; i++)
            if (ref[i].live && ref[i].name == name && ref[i].serial < below &&
                (best < 0 || ref[i].serial > ref[best].serial))
                best = i;
        if (best < 0)
            return 0;
        below = ref[best].serial;
        if (by) {
            ref_i128 r = (ref_i128)ref[best].r + a, c = (ref_i128)ref[best].c + b;
            if (r < INT64_MIN || r > INT64_MAX || c < INT64_MIN || c > INT64_MAX)
                continue;
            if (ref_legal(best, (int64_t)r, (int64_t)c)) {
                ref_apply(best, (int64_t)r, (int64_t)c);
                return 1;
            }
        } else if (ref_legal(best, a, b)) {
            ref_apply(best, a, b);
            return 1;
        }
    }
}

/* Coordinates of one random sequence. mode 0: a 20x20 area at (base_r,
 * base_c) (bases near 0 or the i64 edges); mode 1: sparse special values. */
static int seq_mode;
static int64_t base_r, base_c;
static const int64_t special[] = {
    INT64_MIN, INT64_MIN + 1, INT64_C(-1000000000000000000), -1000, -12, -3, -1,
    0, 1, 2, 3, 12, 1000, INT64_C(1000000000000000000), INT64_MAX - 1, INT64_MAX};
#define NSPECIAL ((int)(sizeof special / sizeof special[0]))

static int64_t gen_coord(int64_t base)
{
    if (seq_mode == 0)
        return icp_u2i((uint64_t)base + (uint64_t)rnd(20));
    if (rnd(4) == 0)
        return (int64_t)rnd(7) - 3;
    return special[rnd(NSPECIAL)];
}

static void gen_delta(int64_t *dr, int64_t *dc)
{
    static const int kdr[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    static const int kdc[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    int x = rnd(10);
    if (x < 6) {
        int d = rnd(8);
        int64_t k;
        switch (rnd(5)) {
        case 0: k = 1; break;
        case 1: k = 1 + rnd(3); break;
        case 2: k = 1 + rnd(25); break;
        case 3: k = seq_mode ? special[rnd(NSPECIAL)] : 1 + rnd(12); break;
        default: k = seq_mode ? INT64_C(1000000000000000000) + rnd(3) - 1 : 9 + rnd(4); break;
        }
        if (k == INT64_MIN)
            k = INT64_MAX;
        if (k < 0)
            k = -k;
        *dr = icp_ray_dr[d] * k;
        *dc = icp_ray_dc[d] * k;
        /* icp_ray_dr values are -1/0/1 and k >= 0 fits: no overflow. */
    } else if (x < 8) {
        int d = rnd(8);
        *dr = kdr[d];
        *dc = kdc[d];
    } else {
        *dr = seq_mode ? special[rnd(NSPECIAL)] : rnd(21) - 10;
        *dc = seq_mode ? special[rnd(NSPECIAL)] : rnd(21) - 10;
    }
}

/* A target for a piece on (r, c). */
static void gen_target(int64_t r, int64_t c, int64_t *tr, int64_t *tc)
{
    int x = rnd(10);
    if (x < 3) {
        *tr = gen_coord(base_r);
        *tc = gen_coord(base_c);
    } else if (x < 5 && ref_n > 0) {
        int i = rnd(ref_n);
        *tr = ref[i].r;
        *tc = ref[i].c;
    } else {
        int64_t dr, dc;
        gen_delta(&dr, &dc);
        if (!icp_add(r, dr, tr) || !icp_add(c, dc, tc)) {
            *tr = gen_coord(base_r);
            *tc = gen_coord(base_c);
        }
    }
}

static int newest(int name)
{
    int i, best = -1;
    for (i = 0; i < ref_n; i++)
        if (ref[i].live && ref[i].name == name &&
            (best < 0 || ref[i].serial > ref[best].serial))
            best = i;
    return best;
}

/* The runtime's board equals the reference: every reference piece found
 * with its colour, kind and name; the same totals and per-name counts;
 * name lists newest first. */
static int same_board(void)
{
    int i;
    uint32_t name;
    for (i = 0; i < ref_n; i++) {
        uint32_t s;
        if (!ref[i].live)
            continue;
        s = t_get(ref[i].r, ref[i].c);
        if (s == ICP_NIL || icp_pieces[s].colour != ref[i].colour ||
            icp_pieces[s].kind != ref[i].kind ||
            icp_pieces[s].name != (uint32_t)ref[i].name || !icp_pieces[s].live ||
            icp_pieces[s].row != ref[i].r || icp_pieces[s].col != ref[i].c)
            return 0;
    }
    if (icp_tab_used != (size_t)ref_live() || live_total() != (uint64_t)ref_live())
        return 0;
    for (name = 0; name < icp_names; name++) {
        uint32_t p;
        long last = -1;
        uint64_t n = 0;
        for (p = icp_name_head[name]; p != ICP_NIL; p = icp_pieces[p].next) {
            int j = ref_find(ref, icp_pieces[p].row, icp_pieces[p].col);
            if (j < 0 || (last >= 0 && ref[j].serial >= last))
                return 0;
            last = ref[j].serial;
            n++;
        }
        if (n != icp_name_count[name])
            return 0;
    }
    for (i = 0; i < 2; i++) {
        uint32_t k;
        int want = 0, j;
        for (j = 0; j < ref_n; j++)
            want += ref[j].live && ref[j].colour == i && ref[j].kind == ICP_KING;
        if (icp_kings[i].len != (uint32_t)want)
            return 0;
        for (k = 0; k < icp_kings[i].len; k++) {
            uint32_t s = icp_kings[i].at[k];
            if (!icp_pieces[s].live || icp_pieces[s].kind != ICP_KING ||
                icp_pieces[s].colour != i || icp_pieces[s].roster_at != k)
                return 0;
        }
    }
    return 1;
}

static long stat_ok[4], stat_tried[4];

static void random_sequence(int ops)
{
    int op, bad = 0;
    static const int kinds[20] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 2,
                                  3, 3, 3, 3, 4, 4, 4, 5, 5, 5};
    icp_board_init(6);
    ref_n = 0;
    ref_serial = 0;
    seq_mode = rnd(3) == 0;
    base_r = base_c = -2;
    if (seq_mode == 0) {
        int x = rnd(6);
        if (x == 1) base_r = INT64_MAX - 19;
        if (x == 2) base_c = INT64_MIN;
        if (x == 3) { base_r = INT64_MIN; base_c = INT64_MAX - 19; }
    }
    for (op = 0; op < ops && !bad; op++) {
        int what = rnd(10), got, want, name = rnd(6);
        int64_t r, c, tr, tc;
        int64_t dr, dc;
        if (what < 2 || ref_live() == 0) {
            int colour = rnd(2), kind = kinds[rnd(20)];
            if (ref_live() >= 28 || ref_n >= REF_MAX) {
                int i, j = 0;
                /* Compact the reference (dead pieces out). */
                for (i = 0; i < ref_n; i++)
                    if (ref[i].live)
                        ref[j++] = ref[i];
                ref_n = j;
                if (ref_n >= 28)
                    continue;
            }
            r = gen_coord(base_r);
            c = gen_coord(base_c);
            want = ref_find(ref, r, c) < 0;
            got = icp_place((uint32_t)name, colour, kind, r, c);
            if (want) {
                ref[ref_n].live = 1;
                ref[ref_n].colour = colour;
                ref[ref_n].kind = kind;
                ref[ref_n].name = name;
                ref[ref_n].serial = ref_serial++;
                ref[ref_n].r = r;
                ref[ref_n].c = c;
                ref_n++;
            }
            stat_tried[0]++;
            stat_ok[0] += want;
        } else if (what < 5) {
            int p = rnd(ref_n);
            if (!ref[p].live || rnd(10) == 0) {
                r = gen_coord(base_r);
                c = gen_coord(base_c);
                p = ref_find(ref, r, c);
            } else {
                r = ref[p].r;
                c = ref[p].c;
            }
            gen_target(r, c, &tr, &tc);
            want = p >= 0 && ref_legal(p, tr, tc);
            if (want)
                ref_apply(p, tr, tc);
            got = icp_move_squares(r, c, tr, tc);
            stat_tried[1]++;
            stat_ok[1] += want;
        } else if (what < 7) {
            int p = newest(name);
            if (p >= 0 && ref_n > 0 && rnd(3) == 0) {
                /* Aim from an older piece of the name sometimes. */
                int i = rnd(ref_n);
                if (ref[i].live && ref[i].name == name)
                    p = i;
            }
            if (p >= 0)
                gen_target(ref[p].r, ref[p].c, &tr, &tc);
            else {
                tr = gen_coord(base_r);
                tc = gen_coord(base_c);
            }
            want = ref_move_name(name, tr, tc, 0);
            got = icp_move_name_to((uint32_t)name, tr, tc);
            stat_tried[2]++;
            stat_ok[2] += want;
        } else {
            gen_delta(&dr, &dc);
            want = ref_move_name(name, dr, dc, 1);
            got = icp_move_name_by((uint32_t)name, dr, dc);
            stat_tried[3]++;
            stat_ok[3] += want;
        }
        if (got != want) {
            fprintf(stderr, "random: op %d kind %d: runtime %d, reference %d\n",
                    op, what, got, want);
            bad = 1;
        } else if (!same_board()) {
            fprintf(stderr, "random: op %d: boards differ\n", op);
            bad = 1;
        } else if (op % 16 == 0 && !indices_ok()) {
            fprintf(stderr, "random: op %d: line index broken\n", op);
            bad = 1;
        }
    }
    if (!bad && !indices_ok())
        bad = 1;
    CHECK(!bad);
}

static void test_random(int sequences)
{
    int i;
    long built = 0;
    rng_state = 12345;
    for (i = 0; i < sequences; i++) {
        random_sequence(300);
        built += icp_built[0] + icp_built[1] + icp_built[2] + icp_built[3];
    }
    printf("random: %d sequences; place %ld/%ld, squares %ld/%ld, name_to "
           "%ld/%ld, name_by %ld/%ld succeeded; %ld line indices built\n",
           sequences, stat_ok[0], stat_tried[0], stat_ok[1], stat_tried[1],
           stat_ok[2], stat_tried[2], stat_ok[3], stat_tried[3], built);
    CHECK(built > sequences); /* the indices were exercised */
    CHECK(stat_ok[1] > stat_tried[1] / 20 && stat_ok[3] > stat_tried[3] / 20);
}

/* ------------------------------------------------ loops (issue 13) */

/* A loop run as icp_run_loop runs it: one statement at a time (a slide
 * loop's statement is one move). */
static icp_loop_end step_loop(const icp_loop_step *steps, size_t n, size_t start,
                              uint64_t most)
{
    icp_loop_end end;
    size_t at = start;
    uint64_t executed = 0;
    for (;;) {
        size_t next = (at + 1) % n;
        if (executed >= most) {
            end.executed = executed;
            end.at = at;
            end.left = 0;
            return end;
        }
        executed++;
        if (steps[at].kind == ICP_STEP_NOTHING) {
            at = next;
        } else if (!icp_move_name_by(steps[at].name, steps[at].drow, steps[at].dcol)) {
            if (steps[at].kind == ICP_STEP_MOVE) {
                end.executed = executed;
                end.at = at;
                end.left = 1;
                return end;
            }
            at = next;
        } else if (steps[at].kind == ICP_STEP_MOVE) {
            at = next;
        }
    }
}

/* The live pieces as (row, col, colour * 8 + kind, name), sorted. */
typedef struct seen_piece {
    int64_t r, c;
    int what;
    uint32_t name;
} seen_piece;

static int seen_cmp(const void *a, const void *b)
{
    const seen_piece *x = (const seen_piece *)a, *y = (const seen_piece *)b;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return 0;
}

static size_t board_list(seen_piece *out, size_t cap)
{
    size_t n = 0;
    uint32_t i;
    for (i = 0; i < icp_pieces_len && n < cap; i++)
        if (icp_pieces[i].live) {
            out[n].r = icp_pieces[i].row;
            out[n].c = icp_pieces[i].col;
            out[n].what = icp_pieces[i].colour * 8 + icp_pieces[i].kind;
            out[n].name = icp_pieces[i].name;
            n++;
        }
    qsort(out, n, sizeof *out, seen_cmp);
    return n;
}

/* One random board, placed again from the same seed for each run. */
static void loop_board(uint64_t seed, int suited)
{
    int i, pieces, edge, spread = suited ? 12 : 5;
    rng_state = seed;
    icp_free_all();
    icp_board_init(4);
    edge = rnd(8) == 0;
    pieces = 2 + rnd(8);
    for (i = 0; i < pieces; i++) {
        int kind = rnd(6), colour = rnd(2);
        uint32_t name = suited ? (uint32_t)(i < 3 ? i : 3) : (uint32_t)rnd(4);
        int64_t r = rnd(2 * spread + 1) - spread, c = rnd(2 * spread + 1) - spread;
        if (suited && kind == ICP_KING)
            kind = ICP_ROOK;
        if (edge)
            c = INT64_MAX - rnd(9);
        (void)icp_place(name, colour, kind, r, c);
    }
}

/* icp_run_loop ends where stepping ends, with the same board, for random
 * loops on random boards (as board.rs, run_loop_is_stepping); then a
 * transfer of 10^15 and counter's outer loop, which only skipping ends. */
static void test_loops(void)
{
    static const int dirs[11][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1},
                                    {1, -1}, {-1, -1}, {1, 2}, {-2, 1}, {0, 2}};
    static seen_piece a[16], z[16];
    long compared = 0;
    int round;
    for (round = 0; round < 6000; round++) {
        icp_loop_step steps[4];
        icp_loop_end want, got;
        uint64_t seed = 0x100b5u + (uint64_t)round * 7919u, most;
        size_t n, i, start, na, nz;
        int suited = round % 2 == 0;
        loop_board(seed, suited);
        n = 2 + (size_t)rnd(3);
        for (i = 0; i < n; i++) {
            int d = rnd(11), k = rnd(6);
            steps[i].name = suited ? (uint32_t)(i < 2 ? i : 2) : (uint32_t)rnd(4);
            steps[i].drow = dirs[d][0];
            steps[i].dcol = dirs[d][1];
            steps[i].kind = i == 0 || k >= 3 ? ICP_STEP_MOVE
                            : k == 2          ? ICP_STEP_NOTHING
                                              : ICP_STEP_SLIDE;
        }
        start = (size_t)rnd((int)n);
        most = rnd(3) == 0 ? UINT64_MAX : 1 + (uint64_t)rnd(300);
        {
            uint64_t saved = rng_state;
            want = step_loop(steps, n, start, most < 20000 ? most : 20000);
            nz = board_list(z, 16);
            if (!want.left && most > 20000)
                continue;
            loop_board(seed, suited);
            rng_state = saved;
        }
        got = icp_run_loop(steps, n, start, most);
        na = board_list(a, 16);
        CHECK_EQ(got.executed, want.executed);
        CHECK_EQ(got.at, want.at);
        CHECK_EQ(got.left, want.left);
        CHECK_EQ(na, nz);
        for (i = 0; i < na && i < nz; i++)
            CHECK(a[i].r == z[i].r && a[i].c == z[i].c && a[i].what == z[i].what &&
                  a[i].name == z[i].name);
        CHECK(indices_ok());
        compared++;
    }
    CHECK(compared > 3000);
    {
        /* A transfer of 10^15 units between two rooks. */
        icp_loop_step transfer[2] = {{ICP_STEP_MOVE, 0, 0, -1}, {ICP_STEP_MOVE, 1, 0, 1}};
        icp_loop_end end;
        icp_free_all();
        icp_board_init(4);
        CHECK(W(0, ICP_ROOK, 0, INT64_C(1000000000000000)));
        CHECK(W(1, ICP_ROOK, 1, 0));
        CHECK(W(2, ICP_PAWN, 0, -1));
        end = icp_run_loop(transfer, 2, 0, UINT64_MAX);
        CHECK(end.executed == UINT64_C(2000000000000001) && end.at == 0 && end.left);
        CHECK(has(0, 0, ICP_WHITE, ICP_ROOK));
        CHECK(has(1, INT64_C(1000000000000000), ICP_WHITE, ICP_ROOK));
    }
    {
        /* counter.icp's outer loop, 10^6 rounds over 10^12 squares. */
        icp_loop_step outer[3] = {{ICP_STEP_SLIDE, 0, 0, 1},
                                  {ICP_STEP_SLIDE, 0, 0, -1},
                                  {ICP_STEP_MOVE, 1, 0, -1}};
        uint64_t n = UINT64_C(1000000000000), m = 1000000, per = 2 * n + 1;
        int run;
        for (run = 0; run < 2; run++) {
            icp_free_all();
            icp_board_init(4);
            CHECK(W(3, ICP_PAWN, 0, -1));
            CHECK(W(3, ICP_PAWN, 1, -1));
            CHECK(W(0, ICP_ROOK, 0, 0));
            CHECK(W(1, ICP_ROOK, 1, (int64_t)m));
            CHECK(W(2, ICP_PAWN, 0, (int64_t)n));
            if (run == 0)
                CHECK(icp_loop_exit(outer, 3, 0) == 2);
            else
                CHECK(icp_run_loop(outer, 3, 0, UINT64_MAX).executed == (m + 1) * per);
            CHECK(has(1, 0, ICP_WHITE, ICP_ROOK) && has(0, 0, ICP_WHITE, ICP_ROOK));
        }
    }
    printf("loops: %ld random loops compared with stepping\n", compared);
}

/* ------------------------------------------------------ input reading */

static char path_in[1100], path_out[1100], path_err[1100], path_code[1100];
static const char *self;

static void write_file(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(2);
    }
}

static size_t read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n;
    if (f == NULL)
        return 0;
    n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
    return n;
}

/* Points stdin at a file holding text and resets the reader. */
static void set_input(const char *text, size_t len)
{
    write_file(path_in, text, len);
    if (freopen(path_in, "rb", stdin) == NULL) {
        fprintf(stderr, "cannot reopen stdin\n");
        exit(2);
    }
    icp_in_pos = icp_in_len = 0;
    icp_in_eof = icp_in_err = 0;
}

static void test_read_inprocess(void)
{
    int64_t v[4];
    static char big[70000];
    size_t i;
    fresh();
    set_input(" \t\r\n+5\n-0 007\t-9223372036854775808 9223372036854775807 1", 56);
    CHECK_EQ(icp_read(v, 3), 3);
    CHECK(v[0] == 5 && v[1] == 0 && v[2] == 7);
    CHECK_EQ(icp_read(v, 1), 1);
    CHECK(v[0] == INT64_MIN);
    CHECK_EQ(icp_read(v, 4), 2); /* end of input in the middle */
    CHECK(v[0] == INT64_MAX && v[1] == 1);
    CHECK_EQ(icp_read(v, 2), 0);
    CHECK_EQ(icp_read(v, 0), 0);
    /* Sticky: text appended after end of input is never read. */
    {
        FILE *f = fopen(path_in, "ab");
        if (f) {
            fputs(" 8 9", f);
            fclose(f);
        }
    }
    CHECK_EQ(icp_read(v, 1), 0);
    /* Numbers end at the first non-digit, which is left for the next. */
    set_input("12-3+4 0000000000000000000000000009223372036854775807", 53);
    CHECK_EQ(icp_read(v, 4), 4);
    CHECK(v[0] == 12 && v[1] == -3 && v[2] == 4 && v[3] == INT64_MAX);
    /* Across the 64 KiB buffer boundary. */
    for (i = 0; i < sizeof big; i++)
        big[i] = ' ';
    memcpy(big + 65533, "123456789", 9);
    memcpy(big + 69990, "-42", 3);
    set_input(big, sizeof big);
    CHECK_EQ(icp_read(v, 3), 2);
    CHECK(v[0] == 123456789 && v[1] == -42);
    set_input("", 0);
    CHECK_EQ(icp_read(v, 1), 0);
    set_input("   \n\n\t", 6);
    CHECK_EQ(icp_read(v, 2), 0);
}

/* Runs `self --child args` with input, then compares the exit status,
 * stdout and stderr. */
static void run_child(const char *args, const char *input, size_t in_len,
                      const char *redir_out, int want_code, const char *want_out,
                      size_t want_out_len, const char *want_err, int line)
{
    char cmd[16384];
    static char out[1 << 20];
    char err[4096], code[64];
    size_t n;
    int ok;
    write_file(path_in, input, in_len == (size_t)-1 ? 0 : in_len);
    remove(path_out);
    remove(path_err);
    remove(path_code);
    sprintf(cmd, "'%s' --child %s < '%s' > '%s' 2> '%s'; echo $? > '%s'", self,
            args, in_len == (size_t)-1 ? "/" : path_in,
            redir_out ? redir_out : path_out, path_err, path_code);
    fflush(stdout);
    if (system(cmd) != 0) {
        t_check(0, "system()", line);
        return;
    }
    read_file(path_code, code, sizeof code);
    t_check_eq(atoi(code), want_code, args, line);
    if (want_out != NULL) {
        n = read_file(path_out, out, sizeof out);
        ok = n == want_out_len && memcmp(out, want_out, n) == 0;
        t_check(ok, args, line);
        if (!ok)
            fprintf(stderr, "  stdout was [%.*s]\n", (int)(n < 200 ? n : 200), out);
    }
    read_file(path_err, err, sizeof err);
    ok = strcmp(err, want_err) == 0;
    t_check(ok, args, line);
    if (!ok)
        fprintf(stderr, "  stderr was [%s], wanted [%s]\n", err, want_err);
}

#define NOT_A_NUMBER "error: statement 42: input is not a number (\302\2476)\n"
#define OUT_OF_RANGE                                                           \
    "error: statement 42: input number is outside the signed 64-bit range "    \
    "(\302\2476)\n"
#define RUN(args, in, code, out, err)                                          \
    run_child(args, in, strlen(in), NULL, code, out, (out) ? strlen(out) : 0,  \
              err, __LINE__)

static void test_read_children(void)
{
    RUN("read 2", "1 2 3", 0, "2: 1 2\n1: 3\n0:\n", "");
    RUN("read 1", "+7 -0", 0, "1: 7\n1: 0\n0:\n0:\n", "");
    RUN("read 1", "5x", 1, "1: 5\n", NOT_A_NUMBER);
    RUN("read 1", "5 - 5", 1, "1: 5\n", NOT_A_NUMBER);
    RUN("read 1", "-", 1, "", NOT_A_NUMBER);
    RUN("read 1", "+-1", 1, "", NOT_A_NUMBER);
    RUN("read 1", "1.5", 1, "1: 1\n", NOT_A_NUMBER);
    RUN("read 3", "\f1", 1, "", NOT_A_NUMBER);
    RUN("read 1", "9223372036854775808", 1, "", OUT_OF_RANGE);
    RUN("read 1", "-9223372036854775809", 1, "", OUT_OF_RANGE);
    RUN("read 1", "99999999999999999999999", 1, "", OUT_OF_RANGE);
    RUN("read 1", "-9223372036854775808", 0, "1: -9223372036854775808\n0:\n0:\n", "");
    RUN("read 2", "9223372036854775807\r\n-1", 0,
        "2: 9223372036854775807 -1\n0:\n0:\n", "");
    /* Reading a directory fails. */
    run_child("read 1", "", (size_t)-1, NULL, 1, NULL, 0,
              "error: statement 42: cannot read standard input (\302\2478)\n", __LINE__);
    /* Output: bytes with NUL, counts; errors keep what was written. */
    run_child("write", "", 0, NULL, 0, "a\0b\n0\n18446744073709551615\n", 27, "",
              __LINE__);
    RUN("nolabel", "", 1, "before\n",
        "error: statement 7: no statement is labelled -9223372036854775808 "
        "(\302\2475)\n");
    RUN("die", "", 1, "before\n", "error: statement 3: memory exhausted (\302\2478)\n");
    RUN("eof", "", 1, "before\n",
        "error: statement 11: end of input in a `*` jump target (\302\2476)\n");
    run_child("write", "", 0, "/dev/full", 1, NULL, 0,
              "error: cannot write standard output (\302\2478)\n",
              __LINE__);
    run_child("writebig", "", 0, "/dev/full", 1, NULL, 0,
              "error: cannot write standard output (\302\2478)\n",
              __LINE__);
#if !defined(__SANITIZE_ADDRESS__)
    /* Memory exhaustion under a 200 MB address-space limit. */
    {
        char cmd[16384];
        char err[4096], code[64];
        sprintf(cmd, "(ulimit -v 200000; '%s' --child oom) > '%s' 2> '%s'; echo $? > '%s'",
                self, path_out, path_err, path_code);
        fflush(stdout);
        if (system(cmd) == 0) {
            read_file(path_code, code, sizeof code);
            read_file(path_err, err, sizeof err);
            CHECK_EQ(atoi(code), 1);
            CHECK(strcmp(err, "error: statement 9: memory exhausted (\302\2478)\n") == 0);
        } else {
            CHECK(0);
        }
    }
#endif
}

/* The child side of the tests above. */
static int child(int argc, char **argv)
{
    const char *mode = argv[2];
    icp_init();
    if (strcmp(mode, "read") == 0 && argc > 3) {
        int n = atoi(argv[3]), k, i, eofs = 0;
        int64_t v[8];
        char buf[64];
        icp_board_init(0);
        icp_current_label = 42;
        while (eofs < 2) {
            k = icp_read(v, n);
            sprintf(buf, "%d:", k);
            icp_write_text(buf, strlen(buf));
            for (i = 0; i < k; i++) {
                sprintf(buf, " %" PRId64, v[i]);
                icp_write_text(buf, strlen(buf));
            }
            icp_write_text("\n", 1);
            if (k < n)
                eofs++;
        }
        return icp_finish();
    }
    if (strcmp(mode, "write") == 0) {
        icp_board_init(0);
        icp_current_label = 42;
        icp_write_text("a\0b\n", 4);
        icp_write_text("", 0);
        icp_write_count(0);
        icp_write_count(UINT64_MAX);
        return icp_finish();
    }
    if (strcmp(mode, "writebig") == 0) {
        long i;
        icp_board_init(0);
        icp_current_label = 5;
        for (i = 0; i < 1000000; i++)
            icp_write_text("0123456789abcdef", 16);
        return icp_finish();
    }
    if (strcmp(mode, "eof") == 0) {
        icp_board_init(0);
        icp_write_text("before\n", 7);
        icp_die_end_of_input(11);
    }
    if (strcmp(mode, "nolabel") == 0) {
        icp_board_init(0);
        icp_write_text("before\n", 7);
        icp_die_no_label(7, INT64_MIN);
    }
    if (strcmp(mode, "die") == 0) {
        icp_board_init(1);
        W(0, ICP_KING, 0, 0);
        icp_write_text("before\n", 7);
        icp_die(3, "memory exhausted (\302\2478)");
    }
    if (strcmp(mode, "oom") == 0) {
        int64_t i;
        icp_board_init(1);
        icp_current_label = 9;
        W(0, ICP_QUEEN, 0, 0);
        B(0, ICP_QUEEN, 0, -5000);
        for (i = 1;; i++) {
            icp_place(0, ICP_WHITE, ICP_PAWN, i, i * 3);
            if (i % 1000 == 0)
                icp_move_squares(0, 0, 0, 20); /* builds and keeps indices */
        }
    }
    return 3;
}

int main(int argc, char **argv)
{
    int sequences = 400;
    if (argc > 2 && strcmp(argv[1], "--child") == 0)
        return child(argc, argv);
    icp_init();
    if (argc > 1)
        sequences = atoi(argv[1]);
    self = argv[0];
    if (strlen(self) > 1000 || strchr(self, '\'') != NULL) {
        fprintf(stderr, "unusable program path\n");
        return 2;
    }
    sprintf(path_in, "%s.in", self);
    sprintf(path_out, "%s.out", self);
    sprintf(path_err, "%s.err", self);
    sprintf(path_code, "%s.code", self);

    test_geometry();
    test_slides();
    test_slide_calls();
    test_occupy();
    test_pawns();
    test_check();
    test_check_plain();
    test_names();
    test_edges();
    test_slot_reuse();
    test_random(sequences);
    test_loops();
    test_read_inprocess();
    test_read_children();

    remove(path_in);
    remove(path_out);
    remove(path_err);
    remove(path_code);
    icp_free_all();
    printf("%ld passed, %ld failed\n", t_passed, t_failed);
    fflush(stdout);
    return t_failed == 0 ? 0 : 1;
}
