/* -------------------------------------------------------- the search */

/* Ends a stopped search: back to its root (engine.rs stop_signal). */
static void icp_stop(void)
{
    longjmp(*icp_error_jump, 2);
}

/* Counts one tick (a node or a statement); the watch is asked every
 * ICP_POLL_INTERVAL ticks. */
static void icp_tick(icp_search *search)
{
    search->ticks++;
    if (search->ticks >= ICP_POLL_INTERVAL) {
        search->ticks = 0;
        if (search->watch && search->watch->poll(search->watch))
            icp_stop();
    }
}

/* Counts a node (§11.20), within the node budget. */
static void icp_enter(icp_search *search)
{
    if (search->nodes >= search->node_limit)
        icp_stop();
    search->nodes++;
    icp_tick(search);
}

static void icp_clear_pv(icp_search *search, int64_t depth)
{
    if (depth >= 0 && depth < ICP_MAX_PLY)
        search->pv_len[depth] = 0;
}

static void icp_update_pv(icp_search *search, int64_t depth, icp_move mv)
{
    int d = (int)depth, n;
    if (depth < 0 || depth + 1 >= ICP_MAX_PLY)
        return;
    n = search->pv_len[d + 1];
    if (n > ICP_MAX_PLY - 1)
        n = ICP_MAX_PLY - 1;
    search->pv[d][0] = mv;
    memcpy(&search->pv[d][1], search->pv[d + 1], (size_t)n * sizeof(icp_move));
    search->pv_len[d] = n + 1;
}

static const icp_move *icp_killers_at(const icp_search *search, int64_t depth)
{
    return depth >= 0 && depth < ICP_MAX_PLY ? search->killers[depth] : NULL;
}

static void icp_add_killer(icp_search *search, int64_t depth, icp_move mv)
{
    icp_move *slot;
    if (depth < 0 || depth >= ICP_MAX_PLY)
        return;
    slot = search->killers[depth];
    if (!(slot[0].from != slot[0].to && icp_same_move(slot[0], mv))) {
        slot[1] = slot[0];
        slot[0] = mv;
    }
}

static int64_t icp_quiescence(icp_search *search, const icp_position *position, int64_t depth, int64_t alpha,
                              int64_t beta);

/* The quiescence value of a node with legal moves (§7.3 rule 3), the
 * captures most valuable victim first; *best_move the capture that gave
 * it, if one did (engine.rs quiescence_moves). */
static int64_t icp_quiescence_moves(icp_search *search, const icp_position *position, int64_t depth,
                                    const icp_move_list *moves, const icp_move *hint, int64_t alpha, int64_t beta,
                                    int *has_best, icp_move *best_move)
{
    icp_move_list captures;
    int64_t best = icp_static_value(position);
    int i;
    *has_best = 0;
    if (best > alpha)
        alpha = best;
    if (alpha >= beta)
        return best;
    captures.count = 0;
    for (i = 0; i < moves->count; i++)
        if (icp_is_capture(position, moves->moves[i]))
            captures.moves[captures.count++] = moves->moves[i];
    icp_order_moves(position, &captures, hint, NULL);
    for (i = 0; i < captures.count; i++) {
        icp_position child;
        int64_t v;
        icp_play(position, captures.moves[i], &child);
        v = icp_wrap_neg(
            icp_quiescence(search, &child, depth + 1, icp_saturating_neg(beta), icp_saturating_neg(alpha)));
        if (v > best) {
            best = v;
            *has_best = 1;
            *best_move = captures.moves[i];
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* A quiescence node already counted, through the table. */
static int64_t icp_quiescence_node(icp_search *search, const icp_position *position, int64_t depth, int64_t alpha,
                                   int64_t beta)
{
    icp_move_list moves;
    icp_entry entry;
    icp_move best_move = {0, 0, 0};
    uint64_t key = icp_quiescence_key(position, depth);
    int found = icp_table_probe(search->table, key, -1, depth, &entry), has_best;
    int64_t v;
    if (found && icp_entry_cutoff(&entry, alpha, beta))
        return entry.value;
    icp_generate(position, &moves);
    if (moves.count == 0)
        return icp_no_move_value(position, depth);
    v = icp_quiescence_moves(search, position, depth, &moves, found && entry.has_move ? &entry.move : NULL, alpha,
                             beta, &has_best, &best_move);
    icp_table_store(search->table, key, -1, depth, v, icp_bound(v, alpha, beta), has_best, best_move);
    return v;
}

static int64_t icp_quiescence(icp_search *search, const icp_position *position, int64_t depth, int64_t alpha,
                              int64_t beta)
{
    icp_enter(search);
    return icp_quiescence_node(search, position, depth, alpha, beta);
}

/* The value of a node (§7.3, §7.5), fail-soft alpha-beta through the
 * table; see engine.rs value. */
static int64_t icp_value_of(icp_search *search, const icp_position *position, int64_t plies, int64_t depth,
                            const icp_plan *plans, int64_t alpha, int64_t beta)
{
    icp_move_list moves;
    icp_entry entry;
    icp_node node;
    icp_outcome o;
    icp_move best_move = {0, 0, 0};
    const icp_move *hint;
    int64_t best = INT64_MIN, alpha0 = alpha;
    uint64_t key;
    int i, found, has_best = 0;
    icp_enter(search);
    icp_clear_pv(search, depth);
    if (icp_history_contains(search->history, position))
        return 0;
    if (plies < 0)
        return icp_quiescence_node(search, position, depth, alpha, beta);
    key = icp_node_key(search, position, plies, depth, plans);
    found = icp_table_probe(search->table, key, plies, depth, &entry);
    if (found && icp_entry_cutoff(&entry, alpha, beta))
        return entry.value;
    icp_generate(position, &moves);
    if (moves.count == 0)
        return icp_no_move_value(position, depth);
    node.position = *position;
    node.depth = depth;
    node.plies = plies;
    o = icp_consult(search, &node, 0, plans);
    if (o.kind == ICP_OUTCOME_VALUE || o.kind == ICP_OUTCOME_MOVE) {
        icp_table_store(search->table, key, plies, depth, o.value, ICP_BOUND_EXACT, 0, best_move);
        return o.value;
    }
    hint = found && entry.has_move ? &entry.move : NULL;
    if (plies == 0) {
        int64_t v = icp_quiescence_moves(search, position, depth, &moves, hint, alpha, beta, &has_best, &best_move);
        icp_table_store(search->table, key, plies, depth, v, icp_bound(v, alpha0, beta), has_best, best_move);
        return v;
    }
    icp_order_moves(position, &moves, hint, icp_killers_at(search, depth));
    for (i = 0; i < moves.count; i++) {
        icp_position child;
        int64_t v;
        icp_play(position, moves.moves[i], &child);
        v = icp_wrap_neg(icp_value_of(search, &child, plies - 1, depth + 1, plans, icp_saturating_neg(beta),
                                      icp_saturating_neg(alpha)));
        if (v > best || !has_best) {
            if (v > best)
                best = v;
            has_best = 1;
            best_move = moves.moves[i];
        }
        if (v > alpha) {
            alpha = v;
            icp_update_pv(search, depth, moves.moves[i]);
        }
        if (alpha >= beta) {
            if (!icp_is_capture(position, moves.moves[i]))
                icp_add_killer(search, depth, moves.moves[i]);
            break;
        }
    }
    icp_table_store(search->table, key, plies, depth, best, icp_bound(best, alpha0, beta), has_best, best_move);
    return best;
}

/* @section search_move */
static int64_t icp_exact(icp_search *search, const icp_position *position, int64_t plies, int64_t depth,
                         icp_plan *plans)
{
    return icp_value_of(search, position, plies, depth, plans, INT64_MIN + 1, INT64_MAX);
}
/* @end search_move */

/* What a search sets out to do (§7.5, engine.rs Limits): depths from ...
 * depth, no node beyond nodes (has_nodes); exact: an error met before
 * depth goes straight on to depth. */
typedef struct {
    unsigned depth;
    unsigned from;
    int has_nodes;
    uint64_t nodes;
    int exact;
} icp_limits;

/* The result of a search (§7.3, §7.5), engine.rs SearchResult. */
typedef struct {
    int has_best;
    icp_move best;
    int64_t score;
    uint64_t nodes;
    unsigned depth;
    int pv_len;
    icp_move pv[ICP_MAX_PLY];
    int stopped;
} icp_search_result;

/* A search's state that outlives a stop (heap, so that longjmp leaves it
 * defined): the search, the deepest completed depth, the best so far. */
typedef struct {
    icp_search search;
    const icp_position *position;
    icp_move_list moves;
    int has_done;
    icp_move done_move;
    int64_t done_value;
    unsigned done_depth;
    int done_pv_len;
    icp_move done_pv[ICP_MAX_PLY];
    int has_partial;
    icp_move partial_move;
    int64_t partial_value;
    int line_len;
    icp_move line[ICP_MAX_PLY];
    unsigned depth; /* the depth being searched */
} icp_deepening;

/* One depth from the root (engine.rs root): 1 with the best move in
 * done_*, its line in line[]. */
static void icp_root(icp_deepening *d, unsigned depth)
{
    icp_search *search = &d->search;
    icp_plan plans[2];
    icp_node node;
    icp_outcome o;
    int order[ICP_MAX_MOVES], n = 0, i, lead = -1, have = 0, best_at = 0;
    int64_t plies = (int64_t)depth, best_value = 0;
    icp_move best_move = {0, 0, 0};
    icp_enter(search);
    memset(plans, 0, sizeof plans);
    plans[0].value = icp_undefined();
    plans[1].value = icp_undefined();
    node.position = *d->position;
    node.depth = 1;
    node.plies = plies;
    o = icp_consult(search, &node, 1, plans);
    if (o.kind == ICP_OUTCOME_MOVE) {
        d->has_partial = 1;
        d->partial_move = o.move;
        d->partial_value = o.value;
        d->done_move = o.move;
        d->done_value = o.value;
        d->line[0] = o.move;
        d->line_len = 1;
        return;
    }
    if (d->has_done)
        for (i = 0; i < d->moves.count; i++)
            if (icp_same_move(d->moves.moves[i], d->done_move)) {
                lead = i;
                break;
            }
    if (lead >= 0)
        order[n++] = lead;
    for (i = 0; i < d->moves.count; i++)
        if (i != lead)
            order[n++] = i;
    for (i = 0; i < n; i++) {
        int at = order[i], better;
        icp_move mv = d->moves.moves[at];
        icp_position child;
        int64_t alpha, v;
        if (!have)
            alpha = INT64_MIN + 1;
        else if (at < best_at)
            alpha = best_value == INT64_MIN ? INT64_MIN : best_value - 1;
        else
            alpha = best_value;
        icp_play(d->position, mv, &child);
        v = icp_wrap_neg(
            icp_value_of(search, &child, plies - 1, 2, plans, INT64_MIN + 1, icp_saturating_neg(alpha)));
        better = !have || (at < best_at ? v >= best_value : v > best_value);
        if (better) {
            int k, len = search->pv_len[2];
            have = 1;
            best_at = at;
            best_move = mv;
            best_value = v;
            d->has_partial = 1;
            d->partial_move = mv;
            d->partial_value = v;
            if (len > ICP_MAX_PLY - 1)
                len = ICP_MAX_PLY - 1;
            d->line[0] = mv;
            for (k = 0; k < len; k++)
                d->line[k + 1] = search->pv[2][k];
            d->line_len = len + 1;
        }
    }
    d->done_move = best_move;
    d->done_value = best_value;
}

/* Iterative deepening (engine.rs search), below the longjmp target of
 * icp_search_run. */
static void icp_deepen(icp_deepening *d, unsigned from, unsigned max_depth)
{
    unsigned depth;
    for (depth = from; depth <= max_depth; depth++) {
        icp_report report;
        d->depth = depth;
        icp_root(d, depth);
        d->has_done = 1;
        d->done_depth = depth;
        d->done_pv_len = d->line_len;
        memcpy(d->done_pv, d->line, (size_t)d->line_len * sizeof(icp_move));
        report.depth = depth;
        report.score = d->done_value;
        report.nodes = d->search.nodes;
        report.pv_len = d->done_pv_len;
        report.pv = d->done_pv;
        if (d->search.watch && !d->search.watch->completed(d->search.watch, &report))
            break;
    }
}

/* Searches position (§7.3, §7.5) by iterative deepening, as engine.rs
 * search: the program consulted (or not: program NULL, --no-endgame),
 * the table emptied first, history's positions drawn, watch asked as the
 * search goes (NULL: none). Returns 0, or 1 after a runtime error (in
 * icp_error); everything the search allocated is freed either way. */
ICP_COLD static int icp_search_run(const icp_position *position, icp_limits limits,
                                              const icp_program *program, icp_table *table,
                                              const icp_history *history, icp_watch *watch, icp_search_result *out)
{
    jmp_buf here;
    jmp_buf *volatile outer = icp_error_jump;
    icp_deepening *d;
    unsigned max_depth = limits.depth < 1 ? 1 : limits.depth > ICP_MAX_DEPTH ? ICP_MAX_DEPTH : limits.depth;
    volatile unsigned from = limits.from < 1 ? 1 : limits.from > max_depth ? max_depth : limits.from;
    int code, stopped = 0;
    memset(out, 0, sizeof *out);
    d = calloc(1, sizeof *d);
    if (!d)
        icp_memory_exhausted();
    d->position = position;
    icp_legal_moves(position, &d->moves);
    if (d->moves.count == 0) {
        out->score = icp_no_move_value(position, 1);
        out->nodes = 1;
        free(d);
        return 0;
    }
    icp_table_new_search(table);
    d->search.program = program;
    d->search.nodes = 0;
    d->search.node_limit = limits.has_nodes ? limits.nodes : UINT64_MAX;
    d->search.watch = watch;
    d->search.table = table;
    d->search.history = history;
    d->search.endgame_key = program ? icp_mix64(UINT64_C(0x0e96a3e5)) : 0;
    icp_error_jump = &here;
    code = setjmp(here);
    if (code == 1 && limits.exact && d->depth < max_depth) {
        /* An error before the last depth is not the answer's (engine.rs
         * Limits::exact): straight on to the last depth. */
        icp_release_all();
        from = max_depth;
        code = 0;
    }
    if (code == 1) {
        icp_error_jump = outer;
        icp_release_all();
        free(d);
        return 1;
    }
    if (code == 2) {
        icp_release_all();
        stopped = 1;
    } else {
        icp_deepen(d, from, max_depth);
    }
    icp_error_jump = outer;
    out->nodes = d->search.nodes;
    out->stopped = stopped;
    out->has_best = 1;
    if (d->has_done) {
        out->best = d->done_move;
        out->score = d->done_value;
        out->depth = d->done_depth;
        out->pv_len = d->done_pv_len;
        memcpy(out->pv, d->done_pv, (size_t)d->done_pv_len * sizeof(icp_move));
    } else {
        out->best = d->has_partial ? d->partial_move : d->moves.moves[0];
        out->score = d->has_partial ? d->partial_value : 0;
        out->depth = 0;
        out->pv_len = 1;
        out->pv[0] = out->best;
    }
    free(d);
    return 0;
}

/* Prints a runtime error as §9 says: `error: LINE: MESSAGE (fen FEN)`. */
ICP_COLD static void icp_runtime_error_text(icp_text *t)
{
    icp_text_str(t, "error: ");
    icp_text_int(t, icp_error.line);
    icp_text_str(t, ": ");
    icp_text_str(t, icp_error.message ? icp_error.message : "");
    icp_text_str(t, " (fen ");
    icp_text_str(t, icp_error.fen);
    icp_text_str(t, ")");
}
