/* ------------------------------------------------------------ the search */

static void icp_tick(icp_search *search);

/* @section search_move: board_move */
static int64_t icp_exact(icp_search *search, const icp_position *position, int64_t plies, int64_t depth,
                         icp_plan *plans);
/* @end search_move */

/* The value of a node without a legal move (§6.2): checkmated
 * -(28672 - DEPTH), stalemate 0. */
static int64_t icp_no_move_value(const icp_position *position, int64_t depth)
{
    return icp_in_check(position) ? -(ICP_MATE - depth) : 0;
}

/* @section moves_of: cond_arg node_legal ordering val_set want_move want_set order_items */
/* The legal moves of set (borrowed) satisfying cond, ordered (§6.3). */
ICP_LIGHT static icp_set *icp_moves_of(icp_inv *inv, const icp_value *set, icp_cond cond, int ordering)
{
    icp_set *items = icp_want_set(inv, set), *out = icp_set_new(items->len);
    size_t i;
    for (i = 0; i < items->len; i++) {
        icp_move mv;
        icp_move_value m = icp_want_move(inv, &items->items[i]);
        if (icp_node_legal(&inv->node, m, &mv) && icp_test(cond, icp_ref(&items->items[i])))
            icp_set_push(out, icp_ref(&items->items[i]));
    }
    icp_order_items(out, ordering);
    return out;
}
/* @end moves_of */

/* @section search_move */
/* Searches one move with one ply less, carrying this invocation's plans:
 * -(value after it). */
ICP_LIGHT static int64_t icp_search_move(icp_inv *inv, icp_move_value m, icp_move *mv)
{
    icp_position child;
    icp_plan plans[2];
    int64_t v;
    int c;
    *mv = icp_board_move(m);
    icp_play(&inv->node.position, *mv, &child);
    for (c = 0; c < 2; c++) {
        plans[c] = inv->plans[c];
        plans[c].value = icp_ref(&inv->plans[c].value);
    }
    v = icp_exact(inv->search, &child, inv->node.plies - 1, inv->node.depth + 1, plans);
    for (c = 0; c < 2; c++)
        icp_drop(&plans[c].value);
    return icp_wrap_neg(v);
}
/* @end search_move */

/* @section try_moves: search_move want_move */
ICP_LIGHT static void icp_try_moves(icp_inv *inv, const icp_set *moves)
{
    size_t i;
    for (i = 0; i < moves->len; i++) {
        icp_move mv;
        icp_move_value m = icp_want_move(inv, &moves->items[i]);
        int64_t v = icp_search_move(inv, m, &mv);
        if (!inv->has_best || v > inv->best_value) {
            inv->has_best = 1;
            inv->best_move = mv;
            inv->best_value = v;
        }
    }
}
/* @end try_moves */

/* @section done_outcome */
/* DONE (§6.3). */
ICP_LIGHT static icp_outcome icp_done_outcome(const icp_inv *inv)
{
    icp_outcome o;
    o.move = inv->best_move;
    o.value = inv->best_value;
    o.kind = !inv->has_best ? ICP_OUTCOME_LEAVE : inv->root ? ICP_OUTCOME_MOVE : ICP_OUTCOME_VALUE;
    return o;
}
/* @end done_outcome */

/* ---------------------------------------------- statements (generated code) */

/* @section outcome */
ICP_LIGHT static int icp_outcome_step(icp_inv *inv, icp_outcome o)
{
    if (o.kind == ICP_OUTCOME_NONE)
        return ICP_STEP_NEXT;
    if (o.kind == ICP_OUTCOME_LEAVE)
        return ICP_STEP_LEAVE;
    inv->step_outcome = o;
    return ICP_STEP_OUTCOME;
}
/* @end outcome */

/* @section branch: next */
ICP_LIGHT static int icp_branch(icp_inv *inv, int taken, size_t target)
{
    if (!taken)
        return ICP_STEP_NEXT;
    inv->step_target = target;
    return ICP_STEP_GOTO;
}
/* @end branch */

/* @section break: next value_text */
/* BREAK v1,v2,v3 at line: `break LINE: v1 v2 v3` on standard error. */
ICP_COLD static int icp_do_break(uint32_t line, icp_value a, icp_value b, icp_value c)
{
    icp_text t = {0, 0, 0};
    char *text;
    icp_text_str(&t, "break ");
    icp_text_int(&t, line);
    icp_text_str(&t, ": ");
    icp_text_value(&t, &a);
    icp_text_str(&t, " ");
    icp_text_value(&t, &b);
    icp_text_str(&t, " ");
    icp_text_value(&t, &c);
    icp_text_str(&t, "\n");
    text = icp_text_take(&t);
    fputs(text, stderr);
    free(text);
    icp_drop(&a);
    icp_drop(&b);
    icp_drop(&c);
    return ICP_STEP_NEXT;
}
/* @end break */

/* @section return */
ICP_LIGHT static int icp_do_return(icp_inv *inv, icp_value v)
{
    inv->step_value = v;
    return ICP_STEP_RETURN;
}
/* @end return */

/* @section call */
/* A call of sub with X = arg; then says what to do with its result. */
ICP_LIGHT static int icp_do_call(icp_inv *inv, size_t sub, icp_value arg, int then)
{
    inv->step_sub = sub;
    inv->step_value = arg;
    inv->step_then = then;
    return ICP_STEP_CALL;
}
/* @end call */

/* @section enter */
/* A call in a program without RETURN: the subroutine never comes back,
 * so only X and the depth of calls matter (engine.rs Step::Enter). */
ICP_LIGHT static int icp_do_enter(icp_inv *inv, size_t sub, icp_value arg)
{
    inv->step_sub = sub;
    inv->step_value = arg;
    return ICP_STEP_ENTER;
}
/* @end enter */

/* @section enter_each */
/* SELECT / MAP w,t,v in a program without RETURN (engine.rs
 * Step::EnterEach). */
ICP_LIGHT static int icp_do_enter_each(icp_inv *inv, icp_var dst, size_t sub, icp_value set)
{
    inv->step_var = dst;
    inv->step_sub = sub;
    inv->step_value = set;
    return ICP_STEP_ENTER_EACH;
}
/* @end enter_each */

/* @section cond */
/* COND c,t1,t2 */
ICP_LIGHT static int icp_do_cond(icp_inv *inv, icp_cond cond, size_t sub, size_t target)
{
    inv->step_cond = cond;
    inv->step_target = target;
    return icp_do_call(inv, sub, icp_ref(&inv->x), ICP_THEN_COND);
}
/* @end cond */

/* @section condv: branch cond_arg */
/* CONDV c,v,t */
ICP_LIGHT static int icp_do_condv(icp_inv *inv, icp_cond cond, icp_value v, size_t target)
{
    return icp_branch(inv, icp_test(cond, v), target);
}
/* @end condv */

/* @section condtf */
/* CONDT / CONDF t1,v,t2 */
ICP_LIGHT static int icp_do_condtf(icp_inv *inv, int on_true, size_t sub, icp_value arg, size_t target)
{
    inv->step_flag = on_true;
    inv->step_target = target;
    return icp_do_call(inv, sub, arg, ICP_THEN_CONDTF);
}
/* @end condtf */

/* @section jump: branch */
/* JUMP... a,b,t (§5.1): = and #= compare any values, the others
 * integers; a and b are consumed. */
ICP_LIGHT static int icp_do_jump(icp_inv *inv, int cmp, icp_value a, icp_value b, size_t target)
{
    int taken = 0;
    switch (cmp) {
/* @section cmp_lt */
    case ICP_CMP_LT: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        taken = x < y;
        break;
    }
/* @end cmp_lt */
/* @section cmp_eq */
    case ICP_CMP_EQ:
        taken = icp_equal(&a, &b);
        break;
/* @end cmp_eq */
/* @section cmp_gt */
    case ICP_CMP_GT: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        taken = x > y;
        break;
    }
/* @end cmp_gt */
/* @section cmp_not_lt */
    case ICP_CMP_NOT_LT: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        taken = x >= y;
        break;
    }
/* @end cmp_not_lt */
/* @section cmp_ne */
    case ICP_CMP_NE:
        taken = !icp_equal(&a, &b);
        break;
/* @end cmp_ne */
/* @section cmp_not_gt */
    case ICP_CMP_NOT_GT: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        taken = x <= y;
        break;
    }
/* @end cmp_not_gt */
    default:
        break;
    }
    icp_drop(&a);
    icp_drop(&b);
    return icp_branch(inv, taken, target);
}
/* @end jump */

/* @section set */
/* SET w,t,v */
ICP_LIGHT static int icp_do_set(icp_inv *inv, icp_var dst, size_t sub, icp_value arg)
{
    inv->step_var = dst;
    return icp_do_call(inv, sub, arg, ICP_THEN_STORE);
}
/* @end set */

/* @section each */
/* SELECT / MAP w,t,v */
ICP_LIGHT static int icp_do_each(icp_inv *inv, int kind, icp_var dst, size_t sub, icp_value set)
{
    inv->step_kind = kind;
    inv->step_var = dst;
    inv->step_sub = sub;
    inv->step_value = set;
    return ICP_STEP_EACH;
}
/* @end each */

/* @section unary: next write */
/* OP w,v (§5.1); v is consumed. */
ICP_LIGHT static int icp_do_unary(icp_inv *inv, int op, icp_var dst, icp_value v)
{
    icp_value r = icp_undefined();
    switch (op) {
/* @section op_setv */
    case ICP_U_SET_V:
        r = icp_ref(&v);
        break;
/* @end op_setv */
/* @section op_card */
    case ICP_U_CARD:
        r = icp_integer((int64_t)icp_want_set(inv, &v)->len);
        break;
/* @end op_card */
/* @section op_piece */
    case ICP_U_PIECE:
        r = icp_piece_value(icp_coerce_piece(inv, &inv->node, &v));
        break;
/* @end op_piece */
/* @section op_square */
    case ICP_U_SQUARE:
        r = icp_square_value((uint8_t)icp_coerce_square(inv, &v));
        break;
/* @end op_square */
/* @section op_side */
    case ICP_U_SIDE:
        r = icp_integer(icp_side_of(icp_coerce_square(inv, &v)));
        break;
/* @end op_side */
/* @section op_rank */
    case ICP_U_RANK:
        r = icp_integer(icp_rank(&inv->node, icp_coerce_square(inv, &v)));
        break;
/* @end op_rank */
/* @section op_file */
    case ICP_U_FILE:
        r = icp_integer(icp_file(icp_coerce_square(inv, &v)));
        break;
/* @end op_file */
/* @section op_scolor */
    case ICP_U_S_COLOR: {
        int s = icp_coerce_square(inv, &v);
        r = icp_integer((s % 8 + s / 8) % 2 == 1 ? 0 : 1);
        break;
    }
/* @end op_scolor */
/* @section op_pcolor */
    case ICP_U_P_COLOR:
        r = icp_integer(icp_coerce_piece(inv, &inv->node, &v).colour != icp_mover(&inv->node));
        break;
/* @end op_pcolor */
/* @section op_abs */
    case ICP_U_ABS: {
        int64_t n = icp_want_integer(inv, &v);
        r = icp_integer(n < 0 ? icp_wrap_neg(n) : n);
        break;
    }
/* @end op_abs */
    default:
        break;
    }
    icp_drop(&v);
    icp_write(inv, dst, r);
    return ICP_STEP_NEXT;
}
/* @end unary */

/* @section binary: next write */
/* OP w,a,b (§5.1); a and b are consumed. w's old value is let go first (a
 * runtime error ends the search, so nothing can see it missing): when a
 * is the set w held and nothing else holds it, APPEND w,w,b and UNION
 * w,w,b extend it in place. */
ICP_LIGHT static int icp_do_binary(icp_inv *inv, int op, icp_var dst, icp_value a, icp_value b)
{
    icp_value r = icp_undefined();
    icp_write(inv, dst, icp_undefined());
    switch (op) {
/* @section op_setsq */
    case ICP_B_SET_SQ: {
        int64_t rank = icp_want_integer(inv, &a), file = icp_want_integer(inv, &b);
        int s = icp_square_at(&inv->node, rank, file);
        r = s < 0 ? icp_undefined() : icp_square_value((uint8_t)s);
        break;
    }
/* @end op_setsq */
/* @section op_setmov */
    case ICP_B_SET_MOV: {
        icp_move_value m;
        int last;
        m.piece = icp_coerce_piece(inv, &inv->node, &a);
        m.to = (uint8_t)icp_coerce_square(inv, &b);
        last = m.piece.colour == ICP_WHITE ? 7 : 0;
        m.promotion = m.piece.kind == ICP_PAWN && m.to / 8 == last ? ICP_QUEEN : ICP_NO_KIND;
        r = icp_move_val(m);
        break;
    }
/* @end op_setmov */
/* @section op_pair */
    case ICP_B_PAIR: {
        icp_set *out = icp_set_new(2);
        icp_set_push(out, icp_ref(&a));
        icp_set_push(out, icp_ref(&b));
        r = icp_set_value(out);
        break;
    }
/* @end op_pair */
/* @section op_member */
    case ICP_B_MEMBER:
        r = icp_logical(icp_contains(icp_want_set(inv, &b), &a));
        break;
/* @end op_member */
/* @section op_memnum */
    case ICP_B_MEM_NUM: {
        icp_set *sb = icp_want_set(inv, &b);
        size_t i = 0;
        while (i < sb->len && !icp_equal(&sb->items[i], &a))
            i++;
        r = icp_integer(i < sb->len ? (int64_t)i + 1 : 0);
        break;
    }
/* @end op_memnum */
/* @section op_inters */
    case ICP_B_INTERS: {
        icp_set *sb = icp_want_set(inv, &b), *sa = icp_want_set(inv, &a), *out = icp_set_new(sa->len);
        size_t i;
        for (i = 0; i < sa->len; i++)
            if (icp_contains(sb, &sa->items[i]))
                icp_set_push(out, icp_ref(&sa->items[i]));
        r = icp_set_value(out);
        break;
    }
/* @end op_inters */
/* @section op_union */
    case ICP_B_UNION:
        r = icp_union(inv, a, &b);
        a = icp_undefined();
        break;
/* @end op_union */
/* @section op_differ */
    case ICP_B_DIFFER: {
        icp_set *sb = icp_want_set(inv, &b), *sa = icp_want_set(inv, &a), *out = icp_set_new(sa->len);
        size_t i;
        for (i = 0; i < sa->len; i++)
            if (!icp_contains(sb, &sa->items[i]))
                icp_set_push(out, icp_ref(&sa->items[i]));
        r = icp_set_value(out);
        break;
    }
/* @end op_differ */
/* @section op_append */
    case ICP_B_APPEND:
        r = icp_append(inv, a, &b);
        a = icp_undefined();
        break;
/* @end op_append */
/* @section op_getel */
    case ICP_B_GET_EL: {
        icp_set *sa = icp_want_set(inv, &a);
        r = icp_ref(&sa->items[icp_index(inv, sa->len, icp_want_integer(inv, &b), 0)]);
        break;
    }
/* @end op_getel */
/* @section op_mvdist */
    case ICP_B_MV_DIST: {
        int x = icp_coerce_square(inv, &a), y = icp_coerce_square(inv, &b);
        r = icp_integer(icp_king_distance(x, y));
        break;
    }
/* @end op_mvdist */
/* @section op_insq */
    case ICP_B_IN_SQ: {
        icp_piece k = icp_coerce_piece(inv, &inv->node, &a), p = icp_coerce_piece(inv, &inv->node, &b);
        int64_t rank, n, t;
        int q;
        icp_text text = {0, 0, 0};
        icp_value shown;
        if (k.kind != ICP_KING) {
            shown = icp_piece_value(k);
            icp_text_str(&text, "INSQ needs a king, got ");
            icp_text_value(&text, &shown);
            icp_fault(inv, icp_text_take(&text));
        }
        if (p.kind != ICP_PAWN) {
            shown = icp_piece_value(p);
            icp_text_str(&text, "INSQ needs a pawn, got ");
            icp_text_value(&text, &shown);
            icp_fault(inv, icp_text_take(&text));
        }
        if (k.colour == p.colour)
            icp_fault_str(inv, "INSQ needs a king and a pawn of different sides");
        rank = p.colour == ICP_WHITE ? p.square / 8 + 1 : 8 - p.square / 8;
        n = 8 - rank < 5 ? 8 - rank : 5;
        q = p.colour == ICP_WHITE ? 56 + p.square % 8 : p.square % 8;
        t = k.colour == icp_mover(&inv->node);
        r = icp_logical(icp_king_distance(k.square, q) - t <= n);
        break;
    }
/* @end op_insq */
/* @section op_opp */
    case ICP_B_OPP: {
        int x = icp_coerce_square(inv, &a), y = icp_coerce_square(inv, &b);
        r = icp_logical(icp_opposition(x, y));
        break;
    }
/* @end op_opp */
/* @section op_sqrank */
    case ICP_B_SQ_RANK: {
        int s = icp_coerce_square(inv, &a), t;
        int64_t k = icp_want_integer(inv, &b);
        t = icp_square_at(&inv->node, icp_wrap((uint64_t)icp_rank(&inv->node, s) + (uint64_t)k), icp_file(s));
        r = t < 0 ? icp_undefined() : icp_square_value((uint8_t)t);
        break;
    }
/* @end op_sqrank */
/* @section op_nor */
    case ICP_B_NOR: {
        int x = icp_want_logical(inv, &a);
        int y = x ? 1 : icp_want_logical(inv, &b);
        r = icp_logical(!(x || y));
        break;
    }
/* @end op_nor */
/* @section op_and */
    case ICP_B_AND: {
        int x = icp_want_logical(inv, &a);
        int y = x ? icp_want_logical(inv, &b) : 0;
        r = icp_logical(x && y);
        break;
    }
/* @end op_and */
/* @section op_or */
    case ICP_B_OR: {
        int x = icp_want_logical(inv, &a);
        int y = x ? 1 : icp_want_logical(inv, &b);
        r = icp_logical(x || y);
        break;
    }
/* @end op_or */
/* @section op_add */
    case ICP_B_ADD: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        r = icp_integer(icp_wrap((uint64_t)x + (uint64_t)y));
        break;
    }
/* @end op_add */
/* @section op_sub */
    case ICP_B_SUB: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        r = icp_integer(icp_wrap((uint64_t)x - (uint64_t)y));
        break;
    }
/* @end op_sub */
/* @section op_mul */
    case ICP_B_MUL: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        r = icp_integer(icp_wrap((uint64_t)x * (uint64_t)y));
        break;
    }
/* @end op_mul */
/* @section op_div */
    case ICP_B_DIV: {
        int64_t x = icp_want_integer(inv, &a), y = icp_nonzero(inv, icp_want_integer(inv, &b));
        r = icp_integer(y == -1 ? icp_wrap_neg(x) : x / y);
        break;
    }
/* @end op_div */
/* @section op_mod */
    case ICP_B_MOD: {
        int64_t x = icp_want_integer(inv, &a), y = icp_nonzero(inv, icp_want_integer(inv, &b));
        r = icp_integer(y == -1 ? 0 : x % y);
        break;
    }
/* @end op_mod */
/* @section op_dif */
    case ICP_B_DIF: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        int64_t d = icp_wrap((uint64_t)x - (uint64_t)y);
        r = icp_integer(d < 0 ? icp_wrap_neg(d) : d);
        break;
    }
/* @end op_dif */
/* @section op_min */
    case ICP_B_MIN: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        r = icp_integer(x < y ? x : y);
        break;
    }
/* @end op_min */
/* @section op_max */
    case ICP_B_MAX: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        r = icp_integer(x > y ? x : y);
        break;
    }
/* @end op_max */
    default:
        break;
    }
    icp_drop(&a);
    icp_drop(&b);
    icp_write(inv, dst, r);
    return ICP_STEP_NEXT;
}
/* @end binary */

/* @section exch: next read write */
/* EXCH u1,u2 */
ICP_LIGHT static int icp_do_exch(icp_inv *inv, icp_var u1, icp_var u2)
{
    icp_value a = icp_read(inv, u1), b = icp_read(inv, u2);
    icp_write(inv, u1, b);
    icp_write(inv, u2, a);
    return ICP_STEP_NEXT;
}
/* @end exch */

/* @section order: next read write ordering */
/* ORDER u1,u2,o: u2 goes first when its key is less than u1's
 * (icp_order_key); as given, nothing changes. */
ICP_LIGHT static int icp_do_order(icp_inv *inv, icp_var u1, icp_var u2, int ordering)
{
    icp_value a = icp_read(inv, u1), b = icp_read(inv, u2);
    int swap = ordering != ICP_ORDER_AS_GIVEN;
/* @section sort */
    if (swap) {
        int64_t ka = icp_order_key(&a, ordering);
        swap = icp_order_key(&b, ordering) < ka;
    }
/* @end sort */
    if (swap) {
        icp_write(inv, u1, b);
        icp_write(inv, u2, a);
    } else {
        icp_drop(&a);
        icp_drop(&b);
    }
    return ICP_STEP_NEXT;
}
/* @end order */

/* @section selecc: next write cond_arg val_set want_set */
/* SELECC w,c,v */
ICP_LIGHT static int icp_do_selecc(icp_inv *inv, icp_var dst, icp_cond cond, icp_value v)
{
    icp_set *items = icp_want_set(inv, &v), *kept = icp_set_new(items->len);
    size_t i;
    for (i = 0; i < items->len; i++)
        if (icp_test(cond, icp_ref(&items->items[i])))
            icp_set_push(kept, icp_ref(&items->items[i]));
    icp_drop(&v);
    icp_write(inv, dst, icp_set_value(kept));
    return ICP_STEP_NEXT;
}
/* @end selecc */

/* @section setel: next take write index set_own val_set want_integer want_set */
/* SETEL v,u,i */
ICP_LIGHT static int icp_do_setel(icp_inv *inv, icp_value v, icp_var u, icp_value i)
{
    icp_value set = icp_take(inv, u);
    icp_set *s;
    size_t at;
    icp_want_set(inv, &set);
    at = icp_index(inv, set.as.set->len, icp_want_integer(inv, &i), 0);
    s = icp_set_own(set);
    icp_drop(&s->items[at]);
    s->items[at] = v;
    icp_write(inv, u, icp_set_value(s));
    return ICP_STEP_NEXT;
}
/* @end setel */

/* @section insert: next take write index set_own val_set want_integer want_set */
/* INSERT v,u,i: v before the i-th element (i = card+1: at the end). */
ICP_LIGHT static int icp_do_insert(icp_inv *inv, icp_value v, icp_var u, icp_value i)
{
    icp_value set = icp_take(inv, u);
    icp_set *s;
    size_t at, k;
    icp_want_set(inv, &set);
    at = icp_index(inv, set.as.set->len, icp_want_integer(inv, &i), 1);
    s = icp_set_own(set);
    icp_set_push(s, icp_undefined());
    for (k = s->len - 1; k > at; k--)
        s->items[k] = s->items[k - 1];
    s->items[at] = v;
    icp_write(inv, u, icp_set_value(s));
    return ICP_STEP_NEXT;
}
/* @end insert */

/* @section unsert: next take write index set_own val_set want_integer want_set */
/* UNSERT w,u,i: all read first, then written left to right (§11.9). */
ICP_LIGHT static int icp_do_unsert(icp_inv *inv, icp_var w, icp_var u, icp_value i)
{
    icp_value set = icp_take(inv, u), removed;
    icp_set *s;
    size_t at, k;
    icp_want_set(inv, &set);
    at = icp_index(inv, set.as.set->len, icp_want_integer(inv, &i), 0);
    s = icp_set_own(set);
    removed = s->items[at];
    for (k = at; k + 1 < s->len; k++)
        s->items[k] = s->items[k + 1];
    s->len--;
    icp_write(inv, w, removed);
    icp_write(inv, u, icp_set_value(s));
    return ICP_STEP_NEXT;
}
/* @end unsert */

/* @section exchwe: next read take write index set_own val_set want_integer want_set */
/* EXCHWE u1,u2,i (§11.9) */
ICP_LIGHT static int icp_do_exchwe(icp_inv *inv, icp_var u1, icp_var u2, icp_value i)
{
    icp_value a = icp_read(inv, u1), set = icp_take(inv, u2), old;
    icp_set *s;
    size_t at;
    icp_want_set(inv, &set);
    at = icp_index(inv, set.as.set->len, icp_want_integer(inv, &i), 0);
    s = icp_set_own(set);
    old = s->items[at];
    s->items[at] = a;
    icp_write(inv, u1, old);
    icp_write(inv, u2, icp_set_value(s));
    return ICP_STEP_NEXT;
}
/* @end exchwe */

/* @section exchel: next take write index set_own val_set want_integer want_set */
/* EXCHEL u,i,j */
ICP_LIGHT static int icp_do_exchel(icp_inv *inv, icp_var u, icp_value i, icp_value j)
{
    icp_value set = icp_take(inv, u), tmp;
    icp_set *s;
    size_t a, b;
    icp_want_set(inv, &set);
    a = icp_index(inv, set.as.set->len, icp_want_integer(inv, &i), 0);
    b = icp_index(inv, set.as.set->len, icp_want_integer(inv, &j), 0);
    s = icp_set_own(set);
    tmp = s->items[a];
    s->items[a] = s->items[b];
    s->items[b] = tmp;
    icp_write(inv, u, icp_set_value(s));
    return ICP_STEP_NEXT;
}
/* @end exchel */

/* @section play: outcome moves_of cond_arg val_set */
/* PLAY / PLAYB / TRY s,c,o (§6.3) */
ICP_LIGHT static int icp_do_play(icp_inv *inv, int kind, icp_value set, icp_cond cond, int ordering)
{
    icp_set *moves = icp_moves_of(inv, &set, cond, ordering);
    icp_value held = icp_set_value(moves);
    icp_outcome o;
    icp_drop(&set);
    o.kind = ICP_OUTCOME_NONE;
    o.value = 0;
    o.move.from = o.move.to = o.move.promotion = 0;
    switch (kind) {
/* @section play_play */
    case ICP_PLAY_PLAY:
        if (moves->len > 0) {
            icp_node node = inv->node;
            o.value = inv->has_remembered ? inv->remembered : icp_static_eval(&node);
            o.move = icp_board_move(icp_want_move(inv, &moves->items[0]));
            o.kind = inv->root ? ICP_OUTCOME_MOVE : ICP_OUTCOME_VALUE;
        }
        break;
/* @end play_play */
/* @section play_playb */
    case ICP_PLAY_PLAY_B: {
        int have = 0;
        size_t i;
        for (i = 0; i < moves->len; i++) {
            icp_move mv;
            icp_move_value m = icp_want_move(inv, &moves->items[i]);
            int64_t v = icp_search_move(inv, m, &mv);
            if (!have || v > o.value) {
                have = 1;
                o.move = mv;
                o.value = v;
            }
        }
        if (have)
            o.kind = inv->root ? ICP_OUTCOME_MOVE : ICP_OUTCOME_VALUE;
        break;
    }
/* @end play_playb */
/* @section play_try */
    case ICP_PLAY_TRY:
        icp_try_moves(inv, moves);
        break;
/* @end play_try */
    default:
        break;
    }
    icp_drop(&held);
    return icp_outcome_step(inv, o);
}
/* @end play */

/* @section plan: next always ordering moves_of try_moves board_move cond_arg val_set mover regrow */
static uint64_t icp_plan_key(int side, size_t tag, const icp_value *value);

/* PLAN t,s,v (§6.4) */
ICP_LIGHT static int icp_do_plan(icp_inv *inv, size_t tag, icp_value set, icp_value value)
{
    int me = icp_mover(&inv->node);
    icp_cond always = icp_always();
    icp_set *moves;
    icp_value held;
    icp_drop(&inv->plans[me].value);
    inv->plans[me].active = 1;
    inv->plans[me].tag = tag;
    inv->plans[me].value = value;
    inv->plans[me].key = icp_plan_key(me, tag, &value);
    moves = icp_moves_of(inv, &set, always, ICP_ORDER_AS_GIVEN);
    held = icp_set_value(moves);
    icp_drop(&set);
    icp_try_moves(inv, moves);
    icp_drop(&held);
    return ICP_STEP_NEXT;
}
/* @end plan */

/* @section unplan: next mover */
/* UNPLAN (§6.4) */
ICP_LIGHT static int icp_do_unplan(icp_inv *inv)
{
    int me = icp_mover(&inv->node);
    icp_drop(&inv->plans[me].value);
    inv->plans[me].active = 0;
    return ICP_STEP_NEXT;
}
/* @end unplan */

/* @section done: outcome done_outcome */
/* DONE (§6.3) */
ICP_LIGHT static int icp_do_done(icp_inv *inv)
{
    return icp_outcome_step(inv, icp_done_outcome(inv));
}
/* @end done */

/* @section value: outcome */
/* VALRET / VALRUT / VALON / RETBET w,l,c (§6.2, §6.3) */
ICP_LIGHT static int icp_do_value(icp_inv *inv, int kind, icp_value w, icp_value l, icp_value c)
{
    int64_t x = icp_want_integer(inv, &w), y = icp_want_integer(inv, &l), z = icp_want_integer(inv, &c);
    int64_t v = icp_convert(x, y, z, inv->node.depth);
    icp_outcome o;
    o.kind = ICP_OUTCOME_NONE;
    o.value = v;
    o.move.from = o.move.to = o.move.promotion = 0;
    switch (kind) {
/* @section valret */
    case ICP_VALUE_VAL_RET:
        o.kind = inv->root ? ICP_OUTCOME_LEAVE : ICP_OUTCOME_VALUE;
        break;
/* @end valret */
/* @section valrut */
    case ICP_VALUE_VAL_RUT:
        if (!inv->root) {
            o.kind = ICP_OUTCOME_VALUE;
        } else {
            inv->has_remembered = 1;
            inv->remembered = v;
        }
        break;
/* @end valrut */
/* @section valon */
    case ICP_VALUE_VAL_ON:
        inv->has_remembered = 1;
        inv->remembered = v;
        break;
/* @end valon */
/* @section retbet */
    case ICP_VALUE_RET_BET:
        if (inv->has_best && inv->best_value > v)
            o = icp_done_outcome(inv);
        break;
/* @end retbet */
    default:
        break;
    }
    return icp_outcome_step(inv, o);
}
/* @end value */

/* ------------------------------------------------------- invocations */

ICP_LIGHT static int icp_side_matches(const int spec[5], const int have[5])
{
    return spec[0] == have[0] && spec[1] == have[1] && spec[2] == have[2] && spec[3] == have[3] &&
           (spec[4] < 0 || spec[4] == have[4]);
}

ICP_LIGHT static void icp_material(const icp_position *p, int colour, int out[5])
{
    static const int kinds[5] = {ICP_QUEEN, ICP_ROOK, ICP_BISHOP, ICP_KNIGHT, ICP_PAWN};
    int i;
    for (i = 0; i < 5; i++) {
        unsigned n = icp_count(p, colour, kinds[i]);
        out[i] = n > 255 ? 255 : (int)n;
    }
}

/* The first ENTRY matching the position (§6.1), or -1. */
ICP_LIGHT static long icp_match_entry(const icp_program *program, const icp_position *p)
{
    int me[5], them[5];
    int mover = icp_side_to_move(p);
    int64_t diff;
    size_t i;
    icp_material(p, mover, me);
    icp_material(p, 1 - mover, them);
    diff = (int64_t)me[4] - them[4];
    for (i = 0; i < program->entry_count; i++) {
        const icp_entry_spec *e = &program->entries[i];
        int ok = icp_side_matches(e->mover, me) && icp_side_matches(e->other, them);
        if (ok && e->diff_cmp == '<')
            ok = diff < e->diff_m;
        else if (ok && e->diff_cmp == '>')
            ok = diff > e->diff_m;
        else if (ok && e->diff_cmp == '=')
            ok = diff == e->diff_m;
        if (ok)
            return (long)e->start;
    }
    return -1;
}

/* @section max_calls */
/* A call nested too deep (§5.2), at statement pc. */
ICP_COLD static void icp_calls_too_deep(icp_inv *inv, size_t pc)
{
    char message[64];
    snprintf(message, sizeof message, "calls nested more than %d deep (" ICP_SECT "5.2)", ICP_MAX_CALLS);
    inv->pc = pc;
    icp_fault_str(inv, message);
}
/* @end max_calls */

/* @section push_frame: frames regrow max_calls */

/* Starts a call: X = arg, the frame remembers what to do after. */
ICP_LIGHT static icp_frame *icp_push_frame(icp_inv *inv, icp_frame **frames, size_t *count, size_t *cap, size_t pc)
{
    icp_frame *f;
    if (*count >= ICP_MAX_CALLS)
        icp_calls_too_deep(inv, pc);
    if (*count == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *frames = icp_regrow(*frames, *cap, sizeof **frames);
    }
    f = &(*frames)[(*count)++];
    memset(f, 0, sizeof *f);
    f->saved_x = icp_undefined();
/* @section each */
    f->items = icp_undefined();
/* @end each */
    return f;
}
/* @end push_frame */

/* Runs one invocation of the program at node (§6.1, §5.2). */
ICP_LIGHT static icp_outcome icp_run_invocation(icp_search *search, const icp_node *node, int root,
                                                const icp_plan *plans, size_t start, icp_value x)
{
    const icp_program *program = search->program;
    icp_inv *inv = icp_alloc(1, sizeof *inv), *outer = icp_current;
/* @section frames */
    icp_frame *frames = NULL;
    size_t count = 0;
/* @end frames */
/* @section push_frame */
    size_t cap = 0;
/* @end push_frame */
/* @section entered: max_calls */
    /* Calls entered (in a program without RETURN, none comes back). */
    size_t entered = 0;
/* @end entered */
    size_t pc = start, k;
    uint64_t executed = 0;
    icp_outcome result;
    int c, over = 0;
    memset(inv, 0, sizeof *inv);
    inv->node = *node;
    inv->x = x;
    inv->side = icp_undefined();
    inv->var_count = program->user_vars;
    inv->vars = icp_alloc(program->user_vars, sizeof(icp_value));
    for (k = 0; k < program->user_vars; k++)
        inv->vars[k] = icp_undefined();
    inv->root = root;
    for (c = 0; c < 2; c++) {
        inv->plans[c] = plans[c];
        inv->plans[c].value = icp_ref(&plans[c].value);
    }
    inv->search = search;
    icp_current = inv;
    result.kind = ICP_OUTCOME_LEAVE;
    result.value = 0;
    result.move.from = result.move.to = result.move.promotion = 0;
    while (!over) {
        int step;
        icp_tick(search);
        inv->pc = pc;
        executed++;
        if (executed > ICP_MAX_STATEMENTS) {
            char message[96];
            snprintf(message, sizeof message, "more than %d statements in one invocation (" ICP_SECT "5.2)",
                     ICP_MAX_STATEMENTS);
            icp_fault_str(inv, message);
        }
        step = pc < program->statement_count ? program->step(inv, pc) : ICP_STEP_FENCE;
        switch (step) {
/* @section next */
        case ICP_STEP_NEXT:
            pc++;
            break;
/* @end next */
/* @section branch */
        case ICP_STEP_GOTO:
            pc = inv->step_target;
            break;
/* @end branch */
/* @section call */
        case ICP_STEP_CALL: {
            icp_frame *f = icp_push_frame(inv, &frames, &count, &cap, pc);
            f->return_to = pc + 1;
            f->saved_x = inv->x;
            inv->x = inv->step_value;
            f->then = inv->step_then;
/* @section set */
            f->var = inv->step_var;
/* @end set */
/* @section cond */
            f->cond = inv->step_cond;
/* @end cond */
/* @section condtf */
            f->flag = inv->step_flag;
/* @end condtf */
            f->target = inv->step_target;
            pc = inv->step_sub;
            break;
        }
/* @end call */
/* @section each */
        case ICP_STEP_EACH: {
            icp_value items = inv->step_value;
            icp_frame *f;
            icp_want_set(inv, &items);
            if (items.as.set->len == 0) {
                icp_drop(&items);
                icp_write(inv, inv->step_var, icp_set_value(icp_set_new(0)));
                pc++;
                break;
            }
            f = icp_push_frame(inv, &frames, &count, &cap, pc);
            f->return_to = pc + 1;
            f->saved_x = inv->x;
            inv->x = icp_ref(&items.as.set->items[0]);
            f->then = ICP_THEN_EACH;
            f->each_kind = inv->step_kind;
            f->each_var = inv->step_var;
            f->sub = inv->step_sub;
            f->items = items;
            f->next = 0;
            f->acc = icp_set_new(items.as.set->len);
            pc = inv->step_sub;
            break;
        }
/* @end each */
/* @section return */
        case ICP_STEP_RETURN: {
            /* The value returned is inv->step_value; the call's statement
             * is f->return_to - 1. */
            icp_frame *f;
            if (count == 0)
                icp_fault_str(inv, "RETURN outside a subroutine (" ICP_SECT "5.2)");
            f = &frames[count - 1];
            icp_drop(&inv->x);
            inv->x = f->saved_x;
            f->saved_x = icp_undefined();
            switch (f->then) {
/* @section set */
            case ICP_THEN_STORE: {
                icp_var var = f->var;
                pc = f->return_to;
                count--;
                icp_write(inv, var, inv->step_value);
                break;
            }
/* @end set */
/* @section cond */
            case ICP_THEN_COND: {
                int yes;
                inv->pc = f->return_to - 1;
                yes = icp_test(f->cond, inv->step_value);
                pc = yes ? f->target : f->return_to;
                count--;
                break;
            }
/* @end cond */
/* @section condtf */
            case ICP_THEN_CONDTF: {
                const icp_value *value = &inv->step_value;
                if (value->tag != ICP_V_LOGICAL) {
                    icp_text t = {0, 0, 0};
                    icp_text_str(&t, "the call must return a logical, got ");
                    icp_text_str(&t, icp_type_name(value));
                    icp_text_str(&t, " ");
                    icp_text_value(&t, value);
                    inv->pc = f->return_to - 1;
                    icp_fault(inv, icp_text_take(&t));
                }
                pc = value->as.logical == f->flag ? f->target : f->return_to;
                count--;
                break;
            }
/* @end condtf */
/* @section each */
            case ICP_THEN_EACH: {
                size_t next;
/* @section select */
                if (f->each_kind == ICP_CALL_SELECT) {
                    const icp_value *value = &inv->step_value;
                    if (value->tag != ICP_V_LOGICAL) {
                        icp_text t = {0, 0, 0};
                        icp_text_str(&t, "SELECT's subroutine must return a logical, got ");
                        icp_text_str(&t, icp_type_name(value));
                        icp_text_str(&t, " ");
                        icp_text_value(&t, value);
                        inv->pc = f->return_to - 1;
                        icp_fault(inv, icp_text_take(&t));
                    }
                    if (value->as.logical)
                        icp_set_push(f->acc, icp_ref(&f->items.as.set->items[f->next]));
                }
/* @end select */
/* @section map */
                if (f->each_kind == ICP_CALL_MAP)
                    icp_set_push(f->acc, inv->step_value);
/* @end map */
                next = f->next + 1;
                if (next >= f->items.as.set->len) {
                    icp_var var = f->each_var;
                    icp_set *acc = f->acc;
                    pc = f->return_to;
                    icp_drop(&f->items);
                    count--;
                    icp_write(inv, var, icp_set_value(acc));
                } else {
                    /* the next element: the same frame, X rebound */
                    f->next = next;
                    f->saved_x = inv->x;
                    inv->x = icp_ref(&f->items.as.set->items[next]);
                    pc = f->sub;
                }
                break;
            }
/* @end each */
            default:
                break;
            }
            break;
        }
/* @end return */
/* @section enter */
        case ICP_STEP_ENTER:
            if (entered >= ICP_MAX_CALLS)
                icp_calls_too_deep(inv, pc);
            entered++;
            icp_drop(&inv->x);
            inv->x = inv->step_value;
            pc = inv->step_sub;
            break;
/* @end enter */
/* @section enter_each */
        case ICP_STEP_ENTER_EACH: {
            icp_value items = inv->step_value;
            icp_want_set(inv, &items);
            if (items.as.set->len == 0) {
                icp_drop(&items);
                icp_write(inv, inv->step_var, icp_set_value(icp_set_new(0)));
                pc++;
                break;
            }
            if (entered >= ICP_MAX_CALLS)
                icp_calls_too_deep(inv, pc);
            entered++;
            icp_drop(&inv->x);
            inv->x = icp_ref(&items.as.set->items[0]);
            icp_drop(&items);
            pc = inv->step_sub;
            break;
        }
/* @end enter_each */
/* @section stray */
        case ICP_STEP_STRAY:
            icp_fault_str(inv, "RETURN outside a subroutine (" ICP_SECT "5.2)");
            break;
/* @end stray */
        case ICP_STEP_FENCE:
/* @section frames */
            if (count > 0)
                icp_fault_str(inv, "a subroutine fell into an ENTRY or END line (" ICP_SECT "5.2)");
/* @end frames */
/* @section entered */
            if (entered > 0)
                icp_fault_str(inv, "a subroutine fell into an ENTRY or END line (" ICP_SECT "5.2)");
/* @end entered */
            over = 1;
            break;
/* @section leave */
        case ICP_STEP_LEAVE:
            over = 1;
            break;
/* @end leave */
/* @section outcome */
        case ICP_STEP_OUTCOME:
            result = inv->step_outcome;
            over = 1;
            break;
/* @end outcome */
        default:
            break;
        }
    }
    /* The invocation is over: give back what it holds. */
/* @section frames */
    for (k = 0; k < count; k++) {
        icp_drop(&frames[k].saved_x);
/* @section each */
        icp_drop(&frames[k].items);
        if (frames[k].then == ICP_THEN_EACH) {
            icp_value acc = icp_set_value(frames[k].acc);
            icp_drop(&acc);
        }
/* @end each */
    }
    icp_release(frames);
/* @end frames */
    for (k = 0; k < inv->var_count; k++)
        icp_drop(&inv->vars[k]);
    icp_release(inv->vars);
    icp_drop(&inv->x);
    icp_drop(&inv->side);
    for (c = 0; c < 2; c++)
        icp_drop(&inv->plans[c].value);
    icp_release(inv);
    icp_current = outer;
    return result;
}

/* Consults the program at a node with a legal move (§6.1): from the plan
 * of the side to move, or the first matching ENTRY. */
ICP_LIGHT static icp_outcome icp_consult(icp_search *search, const icp_node *node, int root, const icp_plan *plans)
{
    icp_outcome leave;
    int me;
    leave.kind = ICP_OUTCOME_LEAVE;
    leave.value = 0;
    leave.move.from = leave.move.to = leave.move.promotion = 0;
    if (!search->program)
        return leave;
    me = icp_side_to_move(&node->position);
    if (plans[me].active)
        return icp_run_invocation(search, node, root, plans, plans[me].tag, icp_ref(&plans[me].value));
    {
        long start = icp_match_entry(search->program, &node->position);
        if (start < 0)
            return leave;
        return icp_run_invocation(search, node, root, plans, (size_t)start, icp_undefined());
    }
}
