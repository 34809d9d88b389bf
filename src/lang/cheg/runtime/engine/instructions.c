/* ---------------------------------------------- the program's language */

/* A variable (§3), as generated code names it: ICP_USER(slot),
 * ICP_VAR(ICP_VAR_X), ICP_PIECE_VAR(mover, kind, index) (mover 1: W, the
 * side to move). Bits 0-7 the variable, 8-15 the mover, 16-23 the kind,
 * 24-31 the index, 32-63 the slot: a constant, cheap for gcc at -O0. */
typedef uint64_t icp_var;

/* @section var */
#define ICP_VAR_MAKE(var, mover, kind, index, slot)                                            \
    ((icp_var)(var) | (icp_var)(mover) << 8 | (icp_var)(kind) << 16 | (icp_var)(index) << 24 | \
     (icp_var)(slot) << 32)
#define ICP_VAR_OF(v) ((int)((v) & 0xff))
#define ICP_VAR(var) ICP_VAR_MAKE((var), 0, 0, 0, 0)
/* @end var */
/* @section var_user: var */
#define ICP_VAR_USER 0
#define ICP_USER(slot) ICP_VAR_MAKE(ICP_VAR_USER, 0, 0, 0, (slot))
#define ICP_VAR_SLOT(v) ((uint32_t)((v) >> 32))
/* @end var_user */
/* @section var_x: var */
#define ICP_VAR_X 1
/* @end var_x */
/* @section var_depth: var val_integer */
#define ICP_VAR_DEPTH 2
/* @end var_depth */
/* @section var_plies: var val_integer */
#define ICP_VAR_PLIES 3
/* @end var_plies */
/* @section var_lm: var */
#define ICP_VAR_LM 4
/* @end var_lm */
/* @section var_pg: var */
#define ICP_VAR_PG 5
/* @end var_pg */
/* @section var_side: var */
#define ICP_VAR_SIDE 6
/* @end var_side */
/* @section var_piece: var piece_variable */
#define ICP_VAR_PIECE 7
#define ICP_PIECE_VAR(mover, kind, index) ICP_VAR_MAKE(ICP_VAR_PIECE, (mover), (kind), (index), 0)
/* @end var_piece */

/* @section cond_arg */
/* A condition argument (§4): present 0 is the empty one ("always"); else
 * a test (kind for ICP_T_KIND), negated by #. */
typedef struct {
    uint8_t present, negated, test, kind;
} icp_cond;
/* @end cond_arg */

/* @section always: cond_arg */
static icp_cond icp_always(void)
{
    icp_cond c;
    memset(&c, 0, sizeof c);
    return c;
}

/* The empty condition: always true. */
#define ICP_ALWAYS icp_always()
/* @end always */

/* @section condition: cond_arg */
/* A written condition. */
static icp_cond icp_cond_make(int negated, int test, int kind)
{
    icp_cond c;
    c.present = 1;
    c.negated = (uint8_t)negated;
    c.test = (uint8_t)test;
    c.kind = (uint8_t)kind;
    return c;
}
/* @end condition */

/* Conditions (§4). */
/* @section t_defd: condition */
#define ICP_T_DEFD 0
/* @end t_defd */
/* @section t_zero: condition want_integer */
#define ICP_T_ZERO 1
/* @end t_zero */
/* @section t_negative: condition want_integer */
#define ICP_T_NEGATIVE 2
/* @end t_negative */
/* @section t_positive: condition want_integer */
#define ICP_T_POSITIVE 3
/* @end t_positive */
/* @section t_odd: condition want_integer */
#define ICP_T_ODD 4
/* @end t_odd */
/* @section t_true: condition want_logical */
#define ICP_T_TRUE 5
/* @end t_true */
/* @section t_empty: condition want_set */
#define ICP_T_EMPTY 6
/* @end t_empty */
/* @section t_far: condition coerce_square side_int side_of */
#define ICP_T_FAR 7
/* @end t_far */
/* @section t_rf: condition coerce_square */
#define ICP_T_ROOK_FILE 8
/* @end t_rf */
/* @section t_nf: condition coerce_square */
#define ICP_T_KNIGHT_FILE 9
/* @end t_nf */
/* @section t_nnf: condition coerce_square side_int side_of */
#define ICP_T_NNF 10
/* @end t_nnf */
/* @section t_wsq: condition coerce_square */
#define ICP_T_LIGHT_SQUARE 11
/* @end t_wsq */
/* @section t_kind: condition coerce_piece */
#define ICP_T_KIND 12
/* @end t_kind */
/* @section t_wpc: condition coerce_piece mover */
#define ICP_T_MOVER_PIECE 13
/* @end t_wpc */
/* @section t_passd: condition abs64 want_pawn piece_at */
#define ICP_T_PASSED 14
/* @end t_passd */
/* @section t_pdp: condition want_pawn piece_at */
#define ICP_T_PAWN_DEFENDED 15
/* @end t_pdp */
/* @section t_capt: condition board_move want_move piece_at */
#define ICP_T_CAPTURE 16
/* @end t_capt */
/* @section t_check: condition node_legal want_move */
#define ICP_T_CHECK 17
/* @end t_check */
/* @section t_safe: condition king_distance needed want_move */
#define ICP_T_SAFE 18
/* @end t_safe */
/* @section t_opp: condition needed opposition want_move */
#define ICP_T_OPPOSITION 19
/* @end t_opp */
/* @section t_rwk: condition needed want_move */
#define ICP_T_KEEPS_KING_RANK 20
/* @end t_rwk */

/* Comparisons of JUMP... (§5.1). */
/* @section cmp_lt: jump want_integer */
#define ICP_CMP_LT 0
/* @end cmp_lt */
/* @section cmp_eq: jump equal */
#define ICP_CMP_EQ 1
/* @end cmp_eq */
/* @section cmp_gt: jump want_integer */
#define ICP_CMP_GT 2
/* @end cmp_gt */
/* @section cmp_not_lt: jump want_integer */
#define ICP_CMP_NOT_LT 3
/* @end cmp_not_lt */
/* @section cmp_ne: jump equal */
#define ICP_CMP_NE 4
/* @end cmp_ne */
/* @section cmp_not_gt: jump want_integer */
#define ICP_CMP_NOT_GT 5
/* @end cmp_not_gt */

/* Orderings (§4). */
/* @section ordering */
#define ICP_ORDER_AS_GIVEN 0
/* @end ordering */
/* @section deep: ordering sort rank want_move */
#define ICP_ORDER_DEEP 1
/* @end deep */
/* @section shallow: ordering sort rank want_move */
#define ICP_ORDER_SHALLOW 2
/* @end shallow */

/* OP w,a,b (§5.1). */
/* @section op_setsq: binary square_at val_square want_integer */
#define ICP_B_SET_SQ 0
/* @end op_setsq */
/* @section op_setmov: binary coerce_piece coerce_square val_move */
#define ICP_B_SET_MOV 1
/* @end op_setmov */
/* @section op_pair: binary val_set */
#define ICP_B_PAIR 2
/* @end op_pair */
/* @section op_member: binary contains val_logical want_set */
#define ICP_B_MEMBER 3
/* @end op_member */
/* @section op_memnum: binary equal val_integer want_set */
#define ICP_B_MEM_NUM 4
/* @end op_memnum */
/* @section op_inters: binary contains val_set want_set */
#define ICP_B_INTERS 5
/* @end op_inters */
/* @section op_union: binary equal set_own val_set want_set */
#define ICP_B_UNION 6
/* @end op_union */
/* @section op_differ: binary contains val_set want_set */
#define ICP_B_DIFFER 7
/* @end op_differ */
/* @section op_append: binary set_own val_set want_set */
#define ICP_B_APPEND 8
/* @end op_append */
/* @section op_getel: binary index want_integer want_set */
#define ICP_B_GET_EL 9
/* @end op_getel */
/* @section op_mvdist: binary coerce_square king_distance val_integer */
#define ICP_B_MV_DIST 10
/* @end op_mvdist */
/* @section op_insq: binary coerce_piece king_distance val_logical val_piece value_text mover */
#define ICP_B_IN_SQ 11
/* @end op_insq */
/* @section op_opp: binary coerce_square opposition val_logical */
#define ICP_B_OPP 12
/* @end op_opp */
/* @section op_sqrank: binary coerce_square file rank square_at val_square want_integer */
#define ICP_B_SQ_RANK 13
/* @end op_sqrank */
/* @section op_nor: binary val_logical want_logical */
#define ICP_B_NOR 14
/* @end op_nor */
/* @section op_and: binary val_logical want_logical */
#define ICP_B_AND 15
/* @end op_and */
/* @section op_or: binary val_logical want_logical */
#define ICP_B_OR 16
/* @end op_or */
/* @section op_add: binary val_integer want_integer */
#define ICP_B_ADD 17
/* @end op_add */
/* @section op_sub: binary val_integer want_integer */
#define ICP_B_SUB 18
/* @end op_sub */
/* @section op_mul: binary val_integer want_integer */
#define ICP_B_MUL 19
/* @end op_mul */
/* @section op_div: binary nonzero val_integer want_integer */
#define ICP_B_DIV 20
/* @end op_div */
/* @section op_mod: binary nonzero val_integer want_integer */
#define ICP_B_MOD 21
/* @end op_mod */
/* @section op_dif: binary val_integer want_integer */
#define ICP_B_DIF 22
/* @end op_dif */
/* @section op_min: binary val_integer want_integer */
#define ICP_B_MIN 23
/* @end op_min */
/* @section op_max: binary val_integer want_integer */
#define ICP_B_MAX 24
/* @end op_max */

/* OP w,v (§5.1). */
/* @section op_setv: unary */
#define ICP_U_SET_V 0
/* @end op_setv */
/* @section op_card: unary val_integer want_set */
#define ICP_U_CARD 1
/* @end op_card */
/* @section op_piece: unary coerce_piece val_piece */
#define ICP_U_PIECE 2
/* @end op_piece */
/* @section op_square: unary coerce_square val_square */
#define ICP_U_SQUARE 3
/* @end op_square */
/* @section op_side: unary coerce_square side_of val_integer */
#define ICP_U_SIDE 4
/* @end op_side */
/* @section op_rank: unary coerce_square rank val_integer */
#define ICP_U_RANK 5
/* @end op_rank */
/* @section op_file: unary coerce_square file val_integer */
#define ICP_U_FILE 6
/* @end op_file */
/* @section op_scolor: unary coerce_square val_integer */
#define ICP_U_S_COLOR 7
/* @end op_scolor */
/* @section op_pcolor: unary coerce_piece val_integer mover */
#define ICP_U_P_COLOR 8
/* @end op_pcolor */
/* @section op_abs: unary val_integer want_integer */
#define ICP_U_ABS 9
/* @end op_abs */

/* PLAY, PLAYB, TRY (§6.3). */
/* @section play_play: play board_move static_eval want_move */
#define ICP_PLAY_PLAY 0
/* @end play_play */
/* @section play_playb: play search_move want_move */
#define ICP_PLAY_PLAY_B 1
/* @end play_playb */
/* @section play_try: play try_moves */
#define ICP_PLAY_TRY 2
/* @end play_try */

/* VALRET, VALRUT, VALON, RETBET (§6.2, §6.3). */
/* @section valret: value */
#define ICP_VALUE_VAL_RET 0
/* @end valret */
/* @section valrut: value */
#define ICP_VALUE_VAL_RUT 1
/* @end valrut */
/* @section valon: value */
#define ICP_VALUE_VAL_ON 2
/* @end valon */
/* @section retbet: value done_outcome */
#define ICP_VALUE_RET_BET 3
/* @end retbet */

/* SELECT, MAP (§5.1). */
/* @section select: each type_name val_set value_text */
#define ICP_CALL_SELECT 1
/* @end select */
/* @section map: each val_set */
#define ICP_CALL_MAP 2
/* @end map */

/* An ENTRY line as the runtime matches it (§6.1): counts of queens,
 * rooks, bishops, knights and pawns (-1: any) of the side to move and of
 * the other side; how the pawn difference compares with diff_m ('<', '=',
 * '>'; 0: no condition). */
typedef struct {
    size_t start;
    int mover[5], other[5];
    int diff_cmp, diff_m;
} icp_entry_spec;

/* Step codes: where control goes after a statement. */
/* @section next */
#define ICP_STEP_NEXT 0
/* @end next */
/* @section branch */
#define ICP_STEP_GOTO 1
/* @end branch */
/* @section call: frames push_frame */
#define ICP_STEP_CALL 2
/* @end call */
/* @section each: frames val_set want_set write push_frame */
#define ICP_STEP_EACH 3
/* @end each */
/* @section return: frames */
#define ICP_STEP_RETURN 4
/* @end return */
#define ICP_STEP_FENCE 5
/* @section leave */
#define ICP_STEP_LEAVE 6
/* @end leave */
/* @section outcome: next leave */
#define ICP_STEP_OUTCOME 7
/* @end outcome */
/* @section stray */
#define ICP_STEP_STRAY 8
/* @end stray */
/* @section enter: entered max_calls */
#define ICP_STEP_ENTER 9
/* @end enter */
/* @section enter_each: entered val_set want_set write max_calls */
#define ICP_STEP_ENTER_EACH 10
/* @end enter_each */
/* What a call does with its result. */
/* @section set: call write */
#define ICP_THEN_STORE 0
/* @end set */
/* @section cond: call cond_arg */
#define ICP_THEN_COND 1
/* @end cond */
/* @section condtf: call type_name value_text */
#define ICP_THEN_CONDTF 2
/* @end condtf */
/* @section each */
#define ICP_THEN_EACH 3
/* @end each */
/* An invocation's outcome (§6.3). */
enum { ICP_OUTCOME_NONE, ICP_OUTCOME_LEAVE, ICP_OUTCOME_VALUE, ICP_OUTCOME_MOVE };

typedef struct {
    int kind;
    icp_move move;
    int64_t value;
} icp_outcome;

/* The endgame program as the search sees it (the generated code). */
typedef struct {
    const icp_entry_spec *entries;
    size_t entry_count;
    const uint32_t *lines;
    size_t statement_count;
    size_t user_vars;
    int (*step)(icp_inv *inv, size_t pc);
    /* The engine's name (UCI id name): the program's file stem. */
    const char *name;
} icp_program;

/* A plan (§6.4): the tag's statement, the plan variable, and the plan's
 * part of the transposition table's node keys (icp_plan_key). */
typedef struct {
    int active;
    size_t tag;
    icp_value value;
    uint64_t key;
} icp_plan;

/* How many nodes and program statements a search runs between two
 * questions to its watch (§7.5). */
#define ICP_POLL_INTERVAL 256
/* The deepest search (§7.3). */
#define ICP_MAX_DEPTH 20
/* DEPTHs below this keep a principal variation and killer moves. */
#define ICP_MAX_PLY 64

/* One completed depth (§7.5: one UCI info line). */
typedef struct {
    unsigned depth;
    int64_t score;
    uint64_t nodes;
    int pv_len;
    const icp_move *pv;
} icp_report;

/* The caller's eyes on a running search (engine.rs Watch): poll is asked
 * every ICP_POLL_INTERVAL nodes and statements (nonzero stops the search
 * at once); completed is told each completed depth (zero: no next one).
 * NULL: a search that only its limits end. */
typedef struct icp_watch {
    int (*poll)(struct icp_watch *watch);
    int (*completed)(struct icp_watch *watch, const icp_report *report);
} icp_watch;

/* The game history (§7.5, engine.rs History), sorted by key. */
typedef struct {
    uint64_t key;
    icp_position position;
} icp_history_entry;

typedef struct {
    icp_history_entry *entries;
    size_t count;
} icp_history;

/* The transposition table (§7.5, engine.rs Table): count entries of three
 * words (key, value, move | plies + 2 << 16 | DEPTH << 24 | bound << 32 |
 * generation << 40). */
typedef struct {
    uint64_t *slots;
    size_t count;
    uint64_t generation;
} icp_table;

typedef struct {
    const icp_program *program;
    uint64_t nodes;
    /* go nodes N: no node beyond it. */
    uint64_t node_limit;
    icp_watch *watch;
    unsigned ticks;
    icp_table *table;
    const icp_history *history;
    /* The Endgame switch's part of the node keys. */
    uint64_t endgame_key;
    /* The principal variation of each node with plies left, by DEPTH. */
    icp_move pv[ICP_MAX_PLY][ICP_MAX_PLY];
    int pv_len[ICP_MAX_PLY];
    /* Two quiet moves per DEPTH that cut off a search (from == to: none). */
    icp_move killers[ICP_MAX_PLY][2];
} icp_search;

/* @section frames */
/* One call frame. */
typedef struct {
    size_t return_to;
    icp_value saved_x;
    int then;
/* @section set */
    icp_var var;
/* @end set */
/* @section cond */
    icp_cond cond;
/* @end cond */
/* @section condtf */
    int flag;
/* @end condtf */
    size_t target;
/* @section each */
    /* ICP_THEN_EACH: the kind, the destination, sub, the elements, the
     * next one, the results so far. */
    int each_kind;
    icp_var each_var;
    size_t sub;
    icp_value items;
    size_t next;
    icp_set *acc;
/* @end each */
} icp_frame;
/* @end frames */

/* One invocation (§6.1). */
struct icp_inv {
    icp_node node;
    icp_value x, side;
    icp_value *vars;
    size_t var_count;
    int root;
    icp_plan plans[2];
    int has_best;
    icp_move best_move;
    int64_t best_value;
    int has_remembered;
    int64_t remembered;
    icp_search *search;
    /* The statement being executed, for errors. */
    size_t pc;
    /* Filled by the step functions for the run loop. */
    size_t step_target, step_sub;
    icp_value step_value;
    int step_then, step_flag, step_kind;
    icp_var step_var;
/* @section cond */
    icp_cond step_cond;
/* @end cond */
    icp_outcome step_outcome;
};

/* The invocation whose statement is running: the node the conditions and
 * orderings look at, and the line and FEN of their runtime errors. */
static icp_inv *icp_current;

/* The FEN is the invocation's node's (engine.rs takes it when the
 * invocation starts; the node does not change, so C writes it only here). */
ICP_COLD static void icp_fault(const icp_inv *inv, char *message)
{
    uint32_t line = inv->pc < inv->search->program->statement_count ? inv->search->program->lines[inv->pc] : 0;
    char fen[ICP_FEN_SIZE];
    icp_position_to_fen(&inv->node.position, fen);
    icp_raise(line, fen, message);
}

/* @section read */
/* Reads a variable (§3): an owned value. */
ICP_LIGHT static icp_value icp_read(icp_inv *inv, icp_var v)
{
    switch (ICP_VAR_OF(v)) {
/* @section var_user */
    case ICP_VAR_USER:
        return ICP_VAR_SLOT(v) < inv->var_count ? icp_ref(&inv->vars[ICP_VAR_SLOT(v)]) : icp_undefined();
/* @end var_user */
/* @section var_x */
    case ICP_VAR_X:
        return icp_ref(&inv->x);
/* @end var_x */
/* @section var_depth */
    case ICP_VAR_DEPTH:
        return icp_integer(inv->node.depth);
/* @end var_depth */
/* @section var_plies */
    case ICP_VAR_PLIES:
        return icp_integer(inv->node.plies);
/* @end var_plies */
/* @section var_lm */
    case ICP_VAR_LM:
        return icp_legal_moves_value(&inv->node);
/* @end var_lm */
/* @section var_pg */
    case ICP_VAR_PG:
        return icp_pawn_groups(&inv->node);
/* @end var_pg */
/* @section var_side */
    case ICP_VAR_SIDE:
        return icp_ref(&inv->side);
/* @end var_side */
/* @section var_piece */
    case ICP_VAR_PIECE:
        return icp_piece_variable_value(&inv->node, (int)(v >> 8 & 0xff), (int)(v >> 16 & 0xff),
                                        (int)(v >> 24 & 0xff));
/* @end var_piece */
    default:
        return icp_undefined();
    }
}
/* @end read */

/* @section write */
/* Writes a variable (value consumed): user variables and SIDE. */
ICP_LIGHT static void icp_write(icp_inv *inv, icp_var v, icp_value value)
{
    switch (ICP_VAR_OF(v)) {
/* @section var_user */
    case ICP_VAR_USER:
        if (ICP_VAR_SLOT(v) < inv->var_count) {
            icp_drop(&inv->vars[ICP_VAR_SLOT(v)]);
            inv->vars[ICP_VAR_SLOT(v)] = value;
            return;
        }
        break;
/* @end var_user */
/* @section var_side */
    case ICP_VAR_SIDE:
        icp_drop(&inv->side);
        inv->side = value;
        return;
/* @end var_side */
    default:
        break;
    }
    icp_drop(&value);
}
/* @end write */

/* @section take: read write */
/* Takes the value of a U argument (§4) to change it, leaving the variable
 * undefined until it is written back: a set that only the variable held
 * is then changed in place, not copied (§2, copy on write). A runtime
 * error in between ends the search, so nothing sees it undefined. */
ICP_LIGHT static icp_value icp_take(icp_inv *inv, icp_var v)
{
    icp_value value = icp_read(inv, v);
    icp_write(inv, v, icp_undefined());
    return value;
}
/* @end take */

/* @section needed: piece_variable */
ICP_LIGHT static int icp_needed(icp_inv *inv, int mover, int kind, const char *name)
{
    icp_value v = icp_piece_variable_value(&inv->node, mover, kind, 0);
    icp_text t = {0, 0, 0};
    if (v.tag == ICP_V_PIECE)
        return v.as.piece.square;
    icp_text_str(&t, name);
    icp_text_str(&t, " is undefined");
    icp_fault(inv, icp_text_take(&t));
    return 0;
}
/* @end needed */

/* @section want_pawn: coerce_piece val_piece value_text */
ICP_LIGHT static icp_piece icp_want_pawn(icp_inv *inv, const icp_value *v)
{
    icp_piece p = icp_coerce_piece(inv, &inv->node, v);
    if (p.kind != ICP_PAWN) {
        icp_text t = {0, 0, 0};
        icp_value pv = icp_piece_value(p);
        icp_text_str(&t, "expected a pawn, got ");
        icp_text_value(&t, &pv);
        icp_fault(inv, icp_text_take(&t));
    }
    return p;
}
/* @end want_pawn */

/* @section t_passd */
/* No enemy pawn ahead of p on its file or an adjacent file. */
ICP_LIGHT static int icp_passed(const icp_node *node, icp_piece p)
{
    int64_t file = p.square % 8, rank = p.square / 8;
    int sq;
    for (sq = 0; sq < 64; sq++) {
        icp_piece q;
        int64_t qf = sq % 8, qr = sq / 8;
        int ahead;
        if (!icp_piece_at(&node->position, sq, &q))
            continue;
        if (q.kind != ICP_PAWN || q.colour == p.colour)
            continue;
        ahead = p.colour == ICP_WHITE ? qr > rank : qr < rank;
        if (ahead && icp_abs64(qf - file) <= 1)
            return 0;
    }
    return 1;
}
/* @end t_passd */

/* @section t_pdp */
/* A pawn of its own side defends p (stands diagonally behind it). */
ICP_LIGHT static int icp_pawn_defended(const icp_node *node, icp_piece p)
{
    int64_t file = p.square % 8;
    int64_t behind = p.colour == ICP_WHITE ? p.square / 8 - 1 : p.square / 8 + 1;
    int64_t fs[2];
    int i;
    if (behind < 0 || behind >= 8)
        return 0;
    fs[0] = file - 1;
    fs[1] = file + 1;
    for (i = 0; i < 2; i++) {
        icp_piece q;
        if (fs[i] >= 0 && fs[i] < 8 && icp_piece_at(&node->position, (int)(behind * 8 + fs[i]), &q) &&
            q.kind == ICP_PAWN && q.colour == p.colour)
            return 1;
    }
    return 0;
}
/* @end t_pdp */

/* @section side_int: type_name value_text */
ICP_LIGHT static int64_t icp_side_int(icp_inv *inv)
{
    if (inv->side.tag != ICP_V_INTEGER) {
        icp_text t = {0, 0, 0};
        icp_text_str(&t, "SIDE must be an integer here, got ");
        icp_text_str(&t, icp_type_name(&inv->side));
        icp_text_str(&t, " ");
        icp_text_value(&t, &inv->side);
        icp_fault(inv, icp_text_take(&t));
    }
    return inv->side.as.integer;
}
/* @end side_int */

/* @section condition */
/* The test of a written condition applied to a value (§4), at the node of
 * the running invocation. */
ICP_LIGHT static int icp_node_test(icp_cond cond, const icp_value *value)
{
    switch (cond.test) {
/* @section t_defd */
    case ICP_T_DEFD:
        return value->tag != ICP_V_UNDEFINED;
/* @end t_defd */
/* @section t_zero */
    case ICP_T_ZERO:
        return icp_want_integer(icp_current, value) == 0;
/* @end t_zero */
/* @section t_negative */
    case ICP_T_NEGATIVE:
        return icp_want_integer(icp_current, value) < 0;
/* @end t_negative */
/* @section t_positive */
    case ICP_T_POSITIVE:
        return icp_want_integer(icp_current, value) > 0;
/* @end t_positive */
/* @section t_odd */
    case ICP_T_ODD:
        return icp_want_integer(icp_current, value) % 2 != 0;
/* @end t_odd */
/* @section t_true */
    case ICP_T_TRUE:
        return icp_want_logical(icp_current, value);
/* @end t_true */
/* @section t_empty */
    case ICP_T_EMPTY:
        return icp_want_set(icp_current, value)->len == 0;
/* @end t_empty */
/* @section t_far */
    case ICP_T_FAR: {
        int s = icp_coerce_square(icp_current, value);
        return icp_side_of(s) != icp_side_int(icp_current);
    }
/* @end t_far */
/* @section t_rf */
    case ICP_T_ROOK_FILE: {
        int s = icp_coerce_square(icp_current, value);
        return s % 8 == 0 || s % 8 == 7;
    }
/* @end t_rf */
/* @section t_nf */
    case ICP_T_KNIGHT_FILE: {
        int s = icp_coerce_square(icp_current, value);
        return s % 8 == 1 || s % 8 == 6;
    }
/* @end t_nf */
/* @section t_nnf */
    case ICP_T_NNF: {
        int s = icp_coerce_square(icp_current, value);
        return (s % 8 == 1 || s % 8 == 6) && icp_side_of(s) == icp_side_int(icp_current);
    }
/* @end t_nnf */
/* @section t_wsq */
    case ICP_T_LIGHT_SQUARE: {
        int s = icp_coerce_square(icp_current, value);
        return (s % 8 + s / 8) % 2 == 1;
    }
/* @end t_wsq */
/* @section t_kind */
    case ICP_T_KIND:
        return icp_coerce_piece(icp_current, &icp_current->node, value).kind == cond.kind;
/* @end t_kind */
/* @section t_wpc */
    case ICP_T_MOVER_PIECE:
        return icp_coerce_piece(icp_current, &icp_current->node, value).colour == icp_mover(&icp_current->node);
/* @end t_wpc */
/* @section t_passd */
    case ICP_T_PASSED:
        return icp_passed(&icp_current->node, icp_want_pawn(icp_current, value));
/* @end t_passd */
/* @section t_pdp */
    case ICP_T_PAWN_DEFENDED:
        return icp_pawn_defended(&icp_current->node, icp_want_pawn(icp_current, value));
/* @end t_pdp */
/* @section t_capt */
    case ICP_T_CAPTURE: {
        /* §11.5 */
        const icp_node *node = &icp_current->node;
        icp_move_value m = icp_want_move(icp_current, value);
        icp_piece p, target;
        if (icp_piece_at(&node->position, m.to, &target))
            return target.colour != m.piece.colour;
        return icp_piece_at(&node->position, m.piece.square, &p) && p.colour == m.piece.colour &&
               p.kind == m.piece.kind && icp_is_capture(&node->position, icp_board_move(m));
    }
/* @end t_capt */
/* @section t_check */
    case ICP_T_CHECK: {
        icp_move_value m = icp_want_move(icp_current, value);
        icp_move mv;
        return icp_node_legal(&icp_current->node, m, &mv) && icp_gives_check(&icp_current->node.position, mv);
    }
/* @end t_check */
/* @section t_safe */
    case ICP_T_SAFE: {
        int wk, bk, wp;
        icp_move_value m = icp_want_move(icp_current, value);
        wk = icp_needed(icp_current, 1, ICP_KING, "WK");
        bk = icp_needed(icp_current, 0, ICP_KING, "BK");
        wp = icp_needed(icp_current, 1, ICP_PAWN, "WP");
        if (m.piece.kind == ICP_KING)
            return icp_king_distance(m.to, wp) <= icp_king_distance(bk, wp);
        if (m.piece.kind == ICP_PAWN)
            return icp_king_distance(wk, m.to) <= icp_king_distance(bk, m.to);
        return icp_king_distance(wk, wp) <= icp_king_distance(bk, wp);
    }
/* @end t_safe */
/* @section t_opp */
    case ICP_T_OPPOSITION: {
        int wk, bk;
        icp_move_value m = icp_want_move(icp_current, value);
        wk = icp_needed(icp_current, 1, ICP_KING, "WK");
        bk = icp_needed(icp_current, 0, ICP_KING, "BK");
        if (m.piece.kind == ICP_KING)
            wk = m.to;
        return icp_opposition(wk, bk);
    }
/* @end t_opp */
/* @section t_rwk */
    case ICP_T_KEEPS_KING_RANK: {
        icp_move_value m = icp_want_move(icp_current, value);
        if (m.piece.kind == ICP_KING) {
            int wk = icp_needed(icp_current, 1, ICP_KING, "WK");
            return m.to / 8 == wk / 8;
        }
        return 1;
    }
/* @end t_rwk */
    default:
        return 0;
    }
}
/* @end condition */

/* @section cond_arg */
/* Whether value (consumed) satisfies cond (§4): the empty condition
 * always does; a written one is tested at the running invocation's node. */
ICP_LIGHT static int icp_test(icp_cond cond, icp_value value)
{
    int holds = !cond.present;
/* @section condition */
    if (!holds)
        holds = icp_node_test(cond, &value) != cond.negated;
/* @end condition */
    icp_drop(&value);
    return holds;
}
/* @end cond_arg */

/* @section sort */
/* The sort key of a move for an ordering (§4): DEEP puts the more
 * advanced destination rank (at the running invocation's node) first,
 * #DEEP the less advanced. */
ICP_LIGHT static int64_t icp_order_key(const icp_value *v, int ordering)
{
    switch (ordering) {
/* @section deep */
    case ICP_ORDER_DEEP:
        return -icp_rank(&icp_current->node, icp_want_move(icp_current, v).to);
/* @end deep */
/* @section shallow */
    case ICP_ORDER_SHALLOW:
        return icp_rank(&icp_current->node, icp_want_move(icp_current, v).to);
/* @end shallow */
    default:
        return 0;
    }
}
/* @end sort */

/* @section order_items: ordering */
/* Orders the items of a set nobody else holds (§4): by their keys
 * (icp_order_key), stable; as given, they stay. */
ICP_LIGHT static void icp_order_items(icp_set *s, int ordering)
{
    if (ordering == ICP_ORDER_AS_GIVEN || s->len == 0)
        return;
/* @section sort */
    {
        int64_t *keys = icp_alloc(s->len, sizeof *keys);
        size_t i, j;
        for (i = 0; i < s->len; i++)
            keys[i] = icp_order_key(&s->items[i], ordering);
        /* Insertion sort: stable; keys are ranks 1-8 or their negations. */
        for (i = 1; i < s->len; i++) {
            icp_value v = s->items[i];
            int64_t k = keys[i];
            for (j = i; j > 0 && keys[j - 1] > k; j--) {
                s->items[j] = s->items[j - 1];
                keys[j] = keys[j - 1];
            }
            s->items[j] = v;
            keys[j] = k;
        }
        icp_release(keys);
    }
/* @end sort */
}
/* @end order_items */

/* @section op_union */
/* UNION a,b (§5.1): a (consumed) extended by b's elements not among a's
 * own (b's duplicates stay, §11.10), in place when nothing else holds a's
 * set. */
ICP_LIGHT static icp_value icp_union(icp_inv *inv, icp_value a, const icp_value *b)
{
    icp_set *s;
    size_t i, n;
    icp_want_set(inv, &a);
    icp_want_set(inv, b);
    n = a.as.set->len;
    s = icp_set_own(a);
    for (i = 0; i < b->as.set->len; i++) {
        size_t k;
        int found = 0;
        for (k = 0; k < n && !found; k++)
            found = icp_equal(&s->items[k], &b->as.set->items[i]);
        if (!found)
            icp_set_push(s, icp_ref(&b->as.set->items[i]));
    }
    return icp_set_value(s);
}
/* @end op_union */

/* @section op_append */
/* APPEND a,b (§5.1): a (consumed) extended by b's elements (b a set) or
 * by b, in place when nothing else holds a's set. */
ICP_LIGHT static icp_value icp_append(icp_inv *inv, icp_value a, const icp_value *b)
{
    icp_set *s;
    size_t i;
    icp_want_set(inv, &a);
    s = icp_set_own(a);
    if (b->tag == ICP_V_SET) {
        for (i = 0; i < b->as.set->len; i++)
            icp_set_push(s, icp_ref(&b->as.set->items[i]));
    } else {
        icp_set_push(s, icp_ref(b));
    }
    return icp_set_value(s);
}
/* @end op_append */

/* @section nonzero */
/* The divisor of DIV and MOD: not zero. */
static int64_t icp_nonzero(icp_inv *inv, int64_t y)
{
    if (y == 0)
        icp_fault_str(inv, "division by zero");
    return y;
}
/* @end nonzero */
