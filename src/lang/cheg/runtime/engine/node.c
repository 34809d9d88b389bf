/* ------------------------------------------------ the node (§3, §4) */

typedef struct {
    icp_position position;
    /* DEPTH: the node's ply, 1 at the root; PLIES: the plies left. */
    int64_t depth, plies;
} icp_node;

typedef struct icp_inv icp_inv;

/* The fault of the statement being executed: a runtime error at its line
 * with the invocation's FEN. */
static void icp_fault(const icp_inv *inv, char *message);

ICP_COLD static void icp_fault_str(const icp_inv *inv, const char *message)
{
    icp_text t = {0, 0, 0};
    icp_text_str(&t, message);
    icp_fault(inv, icp_text_take(&t));
}

/* @section wrong: type_name value_text */
ICP_COLD static void icp_wrong(const icp_inv *inv, const char *expected, const icp_value *v)
{
    icp_text t = {0, 0, 0};
    icp_text_str(&t, "expected ");
    icp_text_str(&t, expected);
    icp_text_str(&t, ", got ");
    icp_text_str(&t, icp_type_name(v));
    icp_text_str(&t, " ");
    icp_text_value(&t, v);
    icp_fault(inv, icp_text_take(&t));
}
/* @end wrong */

/* @section want_integer: wrong */
static int64_t icp_want_integer(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_INTEGER)
        icp_wrong(inv, "an integer", v);
    return v->as.integer;
}
/* @end want_integer */

/* @section want_logical: wrong */
static int icp_want_logical(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_LOGICAL)
        icp_wrong(inv, "a logical", v);
    return v->as.logical;
}
/* @end want_logical */

/* @section want_set: wrong */
static icp_set *icp_want_set(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_SET)
        icp_wrong(inv, "a set", v);
    return v->as.set;
}
/* @end want_set */

/* @section want_move: wrong */
static icp_move_value icp_want_move(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_MOVE)
        icp_wrong(inv, "a move", v);
    return v->as.move;
}
/* @end want_move */

/* @section abs64 */
static int64_t icp_abs64(int64_t a)
{
    return a < 0 ? -a : a;
}
/* @end abs64 */

/* @section king_distance: abs64 */
/* King distance between two squares. */
ICP_LIGHT static int64_t icp_king_distance(int a, int b)
{
    int64_t df = icp_abs64((int64_t)(a % 8) - (b % 8));
    int64_t dr = icp_abs64((int64_t)(a / 8) - (b / 8));
    return df > dr ? df : dr;
}
/* @end king_distance */

/* @section opposition */
/* Distant opposition (§4): file and rank differences both even, not both
 * zero. */
ICP_LIGHT static int icp_opposition(int a, int b)
{
    int df = a % 8 - b % 8, dr = a / 8 - b / 8;
    return df % 2 == 0 && dr % 2 == 0 && !(df == 0 && dr == 0);
}
/* @end opposition */

/* @section value: want_integer */
/* The value conversion of §6.2 (§11.11). */
ICP_LIGHT static int64_t icp_convert(int64_t w, int64_t l, int64_t c, int64_t depth)
{
    int64_t d = icp_wrap((uint64_t)w - (uint64_t)l);
    if (c < 500) {
        return icp_wrap((uint64_t)d * 128u) / 100;
    } else if (d == 0) {
        return 0;
    } else {
        int64_t sign = d > 0 ? 1 : -1;
        if (d > 500)
            d = 500;
        if (d < -500)
            d = -500;
        return 32 * d + sign * (12416 - depth);
    }
}
/* @end value */

/* @section index */
/* A set index (§5.1, §11.8): 1 first, -1 last; extra allows card+1.
 * Returns the 0-based position. */
ICP_LIGHT static size_t icp_index(const icp_inv *inv, size_t len, int64_t i, int extra)
{
    int64_t n = (int64_t)len;
    int64_t limit = extra ? n + 1 : n;
    icp_text t = {0, 0, 0};
    if (i > 0 && i <= limit)
        return (size_t)(i - 1);
    if (i < 0 && i >= -n)
        return (size_t)(n + i);
    icp_text_str(&t, "index ");
    icp_text_int(&t, i);
    icp_text_str(&t, " out of range for a set of ");
    icp_text_int(&t, n);
    icp_fault(inv, icp_text_take(&t));
    return 0;
}
/* @end index */

/* @section mover */
static int icp_mover(const icp_node *node)
{
    return icp_side_to_move(&node->position);
}
/* @end mover */

/* @section rank: mover */
/* §3 rank (1-8) of a square, from the side to move's first rank. */
static int64_t icp_rank(const icp_node *node, int square)
{
    int64_t r = square / 8;
    return icp_mover(node) == ICP_WHITE ? r + 1 : 8 - r;
}
/* @end rank */

/* @section file */
/* §3 file: h = 1 ... a = 8. */
static int64_t icp_file(int square)
{
    return 8 - square % 8;
}
/* @end file */

/* @section square_at: mover */
/* The square of §3 rank and file, or -1 unless both are 1-8. */
static int icp_square_at(const icp_node *node, int64_t rank, int64_t file)
{
    int64_t abs_rank;
    if (rank < 1 || rank > 8 || file < 1 || file > 8)
        return -1;
    abs_rank = icp_mover(node) == ICP_WHITE ? rank - 1 : 8 - rank;
    return (int)(abs_rank * 8 + (8 - file));
}
/* @end square_at */

/* @section side_of */
/* SIDE of a square: 0 for files h-e, 1 for d-a. */
static int64_t icp_side_of(int square)
{
    return square % 8 >= 4 ? 0 : 1;
}
/* @end side_of */

/* @section coerce_piece: wrong piece_at */
/* The piece a value specifies (§2 coercion, §11.3). */
ICP_LIGHT static icp_piece icp_coerce_piece(const icp_inv *inv, const icp_node *node, const icp_value *v)
{
    icp_piece p;
    char name[3];
    icp_text t = {0, 0, 0};
    switch (v->tag) {
    case ICP_V_PIECE:
        return v->as.piece;
    case ICP_V_MOVE:
        return v->as.move.piece;
    case ICP_V_SQUARE:
        if (icp_piece_at(&node->position, v->as.square, &p))
            return p;
        icp_square_name(v->as.square, name);
        icp_text_str(&t, "no piece on ");
        icp_text_str(&t, name);
        icp_fault(inv, icp_text_take(&t));
        return p;
    default:
        icp_wrong(inv, "a piece", v);
        return v->as.piece;
    }
}
/* @end coerce_piece */

/* @section coerce_square: wrong */
/* The square a value specifies (§2 coercion). */
ICP_LIGHT static int icp_coerce_square(const icp_inv *inv, const icp_value *v)
{
    switch (v->tag) {
    case ICP_V_SQUARE:
        return v->as.square;
    case ICP_V_PIECE:
        return v->as.piece.square;
    case ICP_V_MOVE:
        return v->as.move.to;
    default:
        icp_wrong(inv, "a square", v);
        return 0;
    }
}
/* @end coerce_square */

/* @section move_value: val_move piece_at */
/* The move value of a board move at this node. */
static icp_value icp_node_move_value(const icp_node *node, icp_move mv)
{
    icp_move_value m;
    if (!icp_piece_at(&node->position, mv.from, &m.piece))
        return icp_undefined();
    m.to = mv.to;
    m.promotion = mv.promotion;
    return icp_move_val(m);
}
/* @end move_value */

/* @section var_lm: move_value val_set */
/* LM (§3): the legal moves in §7.2 order. */
ICP_LIGHT static icp_value icp_legal_moves_value(const icp_node *node)
{
    icp_move_list list;
    icp_set *s;
    int i;
    icp_legal_moves(&node->position, &list);
    s = icp_set_new((size_t)list.count);
    for (i = 0; i < list.count; i++)
        icp_set_push(s, icp_node_move_value(node, list.moves[i]));
    return icp_set_value(s);
}
/* @end var_lm */

/* @section piece_variable: val_piece */
/* A piece variable (§3): mover is W, the side to move. */
ICP_LIGHT static icp_value icp_piece_variable_value(const icp_node *node, int mover, int kind, int index)
{
    icp_piece p;
    int colour = mover ? icp_mover(node) : 1 - icp_mover(node);
    if (icp_piece_variable(&node->position, colour, kind, index, &p))
        return icp_piece_value(p);
    return icp_undefined();
}
/* @end piece_variable */

/* @section var_pg: rank val_piece val_set piece_at */
/* PG (§3): pawn groups, files h to a, pawns in §3 rank order. */
ICP_LIGHT static icp_value icp_pawn_groups(const icp_node *node)
{
    icp_set *groups = icp_set_new(4), *group = NULL;
    int file;
    for (file = 7; file >= 0; file--) {
        icp_piece pawns[8];
        int n = 0, r, i, j;
        for (r = 0; r < 8; r++) {
            icp_piece p;
            if (icp_piece_at(&node->position, r * 8 + file, &p) && p.kind == ICP_PAWN)
                pawns[n++] = p;
        }
        if (n == 0) {
            if (group) {
                icp_set_push(groups, icp_set_value(group));
                group = NULL;
            }
            continue;
        }
        /* stable sort by §3 rank */
        for (i = 1; i < n; i++) {
            icp_piece p = pawns[i];
            for (j = i; j > 0 && icp_rank(node, pawns[j - 1].square) > icp_rank(node, p.square); j--)
                pawns[j] = pawns[j - 1];
            pawns[j] = p;
        }
        if (!group)
            group = icp_set_new(8);
        for (i = 0; i < n; i++)
            icp_set_push(group, icp_piece_value(pawns[i]));
    }
    if (group)
        icp_set_push(groups, icp_set_value(group));
    return icp_set_value(groups);
}
/* @end var_pg */

/* Static evaluation (§6.2): material, side to move minus the other. */
static int64_t icp_static_value(const icp_position *p)
{
    int me = icp_side_to_move(p), c;
    int64_t worth[2];
    for (c = 0; c < 2; c++)
        worth[c] = (int64_t)icp_count(p, c, ICP_PAWN) * 128 + (int64_t)icp_count(p, c, ICP_KNIGHT) * 384 +
                   (int64_t)icp_count(p, c, ICP_BISHOP) * 400 + (int64_t)icp_count(p, c, ICP_ROOK) * 640 +
                   (int64_t)icp_count(p, c, ICP_QUEEN) * 1152;
    return worth[me] - worth[1 - me];
}

/* @section static_eval */
static int64_t icp_static_eval(const icp_node *node)
{
    return icp_static_value(&node->position);
}
/* @end static_eval */

/* @section node_legal: board_move piece_at */
/* The board move of a move value if it is legal here (§11.2). */
ICP_LIGHT static int icp_node_legal(const icp_node *node, icp_move_value m, icp_move *out)
{
    icp_piece on;
    if (!icp_piece_at(&node->position, m.piece.square, &on))
        return 0;
    if (on.colour != m.piece.colour || on.kind != m.piece.kind)
        return 0;
    *out = icp_board_move(m);
    return icp_is_legal(&node->position, *out);
}
/* @end node_legal */
