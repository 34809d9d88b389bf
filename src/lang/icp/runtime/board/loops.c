/* @section loop: move move_name_by runs rays u2i steps add knight_scan */
/* ------------------------------------------------------------ loops */

/* A loop of statements summarised by the optimiser: its members in the
 * order control goes round them. ICP_STEP_MOVE: name;drow,dcol whose
 * success goes on and whose failure leaves the loop; ICP_STEP_SLIDE: a
 * slide loop whose failure goes on; ICP_STEP_NOTHING: a ^. */
#define ICP_STEP_MOVE 0
/* @section loop_slide: loop slide */
#define ICP_STEP_SLIDE 1
/* @end loop_slide */
/* @section loop_nothing: loop */
#define ICP_STEP_NOTHING 2
/* @end loop_nothing */
typedef struct icp_loop_step {
    int kind;
    uint32_t name;
    int64_t drow, dcol;
} icp_loop_step;

/* Most statements in a loop whose rounds icp_run_loop may skip. */
#define ICP_MAX_LOOP 8u

/* A 128-bit two's-complement integer for the exact arithmetic of skipped
 * rounds (C99 has no wider type; Rust uses i128). Values stay well within
 * +-2^70. */
typedef struct icp_wide {
    uint64_t hi, lo;
} icp_wide;

static icp_wide icp_wide_u(uint64_t x)
{
    icp_wide w;
    w.hi = 0;
    w.lo = x;
    return w;
}

static icp_wide icp_wide_of(int64_t x)
{
    icp_wide w;
    w.lo = (uint64_t)x;
    w.hi = x < 0 ? UINT64_MAX : 0;
    return w;
}

static icp_wide icp_wide_add(icp_wide a, icp_wide b)
{
    icp_wide w;
    w.lo = a.lo + b.lo;
    w.hi = a.hi + b.hi + (w.lo < a.lo);
    return w;
}

static icp_wide icp_wide_neg(icp_wide a)
{
    icp_wide w;
    w.lo = ~a.lo + 1u;
    w.hi = ~a.hi + (w.lo == 0);
    return w;
}

static icp_wide icp_wide_sub(icp_wide a, icp_wide b)
{
    return icp_wide_add(a, icp_wide_neg(b));
}

/* a * k for |k| <= 8. */
static icp_wide icp_wide_mul(icp_wide a, int k)
{
    icp_wide w = icp_wide_u(0);
    int i;
    for (i = 0; i < (k < 0 ? -k : k); i++)
        w = icp_wide_add(w, a);
    return k < 0 ? icp_wide_neg(w) : w;
}

/* -1, 0 or 1 as a < b, a == b, a > b. */
static int icp_wide_cmp(icp_wide a, icp_wide b)
{
    int64_t ah = icp_u2i(a.hi), bh = icp_u2i(b.hi);
    if (ah != bh)
        return ah < bh ? -1 : 1;
    if (a.lo != b.lo)
        return a.lo < b.lo ? -1 : 1;
    return 0;
}

/* *q = a / m when m (1 <= |m| <= 8) divides a; returns 0 when it does
 * not. */
static int icp_wide_div(icp_wide a, int m, icp_wide *q)
{
    int neg = (int)(a.hi >> 63);
    icp_wide mag = neg ? icp_wide_neg(a) : a;
    uint64_t d = (uint64_t)(m < 0 ? -m : m), rem = 0, limb[4];
    int i;
    limb[0] = mag.hi >> 32;
    limb[1] = mag.hi & 0xFFFFFFFFu;
    limb[2] = mag.lo >> 32;
    limb[3] = mag.lo & 0xFFFFFFFFu;
    for (i = 0; i < 4; i++) {
        uint64_t cur = (rem << 32) | limb[i];
        limb[i] = cur / d;
        rem = cur % d;
    }
    if (rem != 0)
        return 0;
    q->hi = (limb[0] << 32) | limb[1];
    q->lo = (limb[2] << 32) | limb[3];
    if (neg != (m < 0))
        *q = icp_wide_neg(*q);
    return 1;
}

/* min(x, cap) for x >= 0. */
static uint64_t icp_wide_cap(icp_wide x, uint64_t cap)
{
    return x.hi != 0 || x.lo > cap ? cap : x.lo;
}

/* A piece a loop names, where a round began; dr, dc: the step of the
 * member that moves it (moved), 0 for a slid piece; order: its member's
 * place in the round. */
typedef struct icp_loop_piece {
    uint32_t slot;
    int64_t row, col, dr, dc;
    int moved;
    size_t order;
} icp_loop_piece;

/* The squares (r, c) + u*(dr, dc) for 0 <= u <= made + 1 that a slide
 * loop's run of made moves looked at. */
typedef struct icp_segment {
    int64_t r, c;
    int dr, dc;
    uint64_t made;
} icp_segment;

/* A round of a loop as it began. blind: a slide looked at squares not
 * followed (a step other than a unit step or a jump). */
typedef struct icp_round {
    uint64_t executed, live;
    icp_loop_piece pieces[ICP_MAX_LOOP];
    size_t npieces;
    icp_segment looked[ICP_MAX_LOOP];
    size_t nlooked;
    int blind;
} icp_round;

/* How icp_run_loop stopped: executed statements; left: member at's move
 * failed, control leaves the loop; else the budget is spent and member at
 * runs next. */
typedef struct icp_loop_end {
    uint64_t executed;
    size_t at;
    int left;
} icp_loop_end;

static int icp_is_jump(int64_t dr, int64_t dc)
{
    return ((dr == 1 || dr == -1) && (dc == 2 || dc == -2)) ||
           ((dr == 2 || dr == -2) && (dc == 1 || dc == -1));
}

static int icp_is_unit(int64_t dr, int64_t dc)
{
    return (dr != 0 || dc != 0) && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
}

static int icp_sign(int64_t x)
{
    return x > 0 ? 1 : (x < 0 ? -1 : 0);
}

/* Whether piece p moving by (dr, dc) succeeds whenever its target is
 * empty (no king of its colour assumed). The optimiser makes a loop only
 * when each of its moves' names has a kind that can. */
static int icp_steps_freely(const icp_piece *p, int64_t dr, int64_t dc)
{
    /* @section sliders */
    if (icp_lines_of(p->kind))
        return icp_is_unit(dr, dc) && (icp_lines_of(p->kind) & (dr == 0 || dc == 0 ? 1 : 2));
    /* @end sliders */
    /* @section pawn */
    if (p->kind == ICP_PAWN)
        return dc == 0 && dr == 1 - 2 * p->colour;
    /* @end pawn */
    /* @section knight */
    if (p->kind == ICP_KNIGHT)
        return icp_is_jump(dr, dc) && icp_live <= ICP_KNIGHT_SCAN;
    /* @end knight */
    return 0;
}

/* The state a round starts from, when its rounds may be skipped: 0 when a
 * name of the loop has not exactly one piece, a piece is of a colour with
 * a king, or a piece is moved by two members or moved and slid. */
static int icp_begin_round(const icp_loop_step *steps, size_t n, size_t start,
                           uint64_t executed, icp_round *r)
{
    size_t order, i;
    if (n > ICP_MAX_LOOP)
        return 0;
    r->executed = executed;
    r->live = icp_live;
    r->npieces = r->nlooked = 0;
    r->blind = 0;
    for (order = 0; order < n; order++) {
        const icp_loop_step *s = &steps[(start + order) % n];
        int moved = s->kind == ICP_STEP_MOVE, seen = 0;
        const icp_piece *p;
        uint32_t slot;
        /* @section loop_nothing */
        if (s->kind == ICP_STEP_NOTHING)
            continue;
        /* @end loop_nothing */
        if (s->name >= icp_names || icp_name_count[s->name] != 1)
            return 0;
        slot = icp_name_head[s->name];
        p = &icp_pieces[slot];
        /* @section king */
        if (icp_kings[p->colour].len != 0)
            return 0;
        /* @end king */
        for (i = 0; i < r->npieces; i++)
            if (r->pieces[i].slot == slot) {
                if (moved || r->pieces[i].moved)
                    return 0;
                seen = 1;
            }
        if (seen)
            continue;
        if (moved && !icp_steps_freely(p, s->drow, s->dcol))
            return 0;
        r->pieces[r->npieces].slot = slot;
        r->pieces[r->npieces].row = p->row;
        r->pieces[r->npieces].col = p->col;
        r->pieces[r->npieces].dr = moved ? s->drow : 0;
        r->pieces[r->npieces].dc = moved ? s->dcol : 0;
        r->pieces[r->npieces].moved = moved;
        r->pieces[r->npieces].order = order;
        r->npieces++;
    }
    return 1;
}

static int icp_in_round(const icp_round *r, uint32_t slot)
{
    size_t i;
    for (i = 0; i < r->npieces; i++)
        if (r->pieces[i].slot == slot)
            return 1;
    return 0;
}

/* How many steps of (dr, dc) piece slot can make onto empty squares, at
 * most limit: up to the first piece in its way that the loop does not
 * name, or the i64 edge. */
static uint64_t icp_free_run(uint32_t slot, int64_t dr, int64_t dc,
                             uint64_t limit, const icp_round *r)
{
    int64_t row = icp_pieces[slot].row, col = icp_pieces[slot].col, fr, fc;
    uint64_t walked = 0, room;
    uint32_t i;
    int sr, sc, dir;
    if (icp_is_jump(dr, dc)) {
        uint64_t adr = (uint64_t)(dr > 0 ? dr : -dr), adc = (uint64_t)(dc > 0 ? dc : -dc);
        uint64_t run = icp_room(row, icp_sign(dr)) / adr;
        if (icp_room(col, icp_sign(dc)) / adc < run)
            run = icp_room(col, icp_sign(dc)) / adc;
        if (limit < run)
            run = limit;
        for (i = 0; i < icp_pieces_len; i++) {
            const icp_piece *q = &icp_pieces[i];
            uint64_t ar, ac;
            if (!q->live || icp_in_round(r, i))
                continue;
            ar = icp_absdiff(row, q->row, &sr);
            ac = icp_absdiff(col, q->col, &sc);
            if (sr != icp_sign(dr) || sc != icp_sign(dc) || ar % adr != 0 ||
                ac % adc != 0 || ar / adr != ac / adc)
                continue;
            if (ar / adr - 1 < run)
                run = ar / adr - 1;
        }
        return run;
    }
    room = icp_room(row, (int)dr);
    if (room < limit)
        limit = room;
    room = icp_room(col, (int)dc);
    if (room < limit)
        limit = room;
    dir = icp_dir_of(dr, dc);
    fr = row;
    fc = col;
    while (walked < limit) {
        uint32_t h = icp_ray_first(fr, fc, dir, limit - walked);
        uint64_t ar, ac;
        if (h == ICP_NIL)
            return limit;
        ar = icp_absdiff(row, icp_pieces[h].row, &sr);
        ac = icp_absdiff(col, icp_pieces[h].col, &sc);
        if (!icp_in_round(r, h))
            return (ar > ac ? ar : ac) - 1;
        fr = icp_pieces[h].row;
        fc = icp_pieces[h].col;
        walked = ar > ac ? ar : ac;
    }
    return limit;
}

/* The least s >= -1 with (ar, ac) + s*(vr, vc) on segment g, in *s;
 * returns 0 if there is none. (vr, vc): a unit step or a jump. */
static int icp_first_meeting(const icp_segment *g, int64_t ar, int64_t ac,
                             int vr, int vc, icp_wide *s)
{
    icp_wide dr = icp_wide_sub(icp_wide_of(g->r), icp_wide_of(ar));
    icp_wide dc = icp_wide_sub(icp_wide_of(g->c), icp_wide_of(ac));
    icp_wide len = icp_wide_add(icp_wide_u(g->made), icp_wide_u(1));
    icp_wide u, k, lo, hi, m1 = icp_wide_of(-1);
    int wr = g->dr, wc = g->dc, cross = vr * wc - vc * wr;
    if (cross != 0) {
        /* s*v - u*w = d, by Cramer's rule. */
        icp_wide sn = icp_wide_sub(icp_wide_mul(dr, wc), icp_wide_mul(dc, wr));
        icp_wide un = icp_wide_sub(icp_wide_mul(dr, vc), icp_wide_mul(dc, vr));
        if (!icp_wide_div(sn, cross, s) || !icp_wide_div(un, cross, &u))
            return 0;
        return icp_wide_cmp(*s, m1) >= 0 && !(u.hi >> 63) && icp_wide_cmp(u, len) <= 0;
    }
    /* Parallel steps (v = +-w). */
    lo = icp_wide_sub(icp_wide_mul(dr, wc), icp_wide_mul(dc, wr));
    if (lo.hi != 0 || lo.lo != 0)
        return 0;
    /* On the segment's line: d = k*w. */
    if (!icp_wide_div(wr != 0 ? dr : dc, wr != 0 ? wr : wc, &k))
        return 0;
    if (icp_wide_cmp(icp_wide_mul(k, wr), dr) != 0 || icp_wide_cmp(icp_wide_mul(k, wc), dc) != 0)
        return 0;
    /* s*a = k + u for u in 0..=len, where v = a*w. */
    if (vr == wr && vc == wc) {
        lo = k;
        hi = icp_wide_add(k, len);
    } else {
        lo = icp_wide_sub(icp_wide_neg(k), len);
        hi = icp_wide_neg(k);
    }
    *s = icp_wide_cmp(lo, m1) > 0 ? lo : m1;
    return icp_wide_cmp(*s, hi) <= 0;
}

/* The first round t >= 1 in which a piece on a stepping by v each round
 * lands on a piece on b stepping by w, which steps after (1) or before (0)
 * it in the round, in *t; returns 0 if never (or not within 2^64). */
static int icp_collision(int64_t ar, int64_t ac, int vr, int vc, int64_t br,
                         int64_t bc, int wr, int wc, int after, uint64_t *t)
{
    icp_wide d[2], tk, found = icp_wide_u(0);
    int e[2], i, have = 0;
    /* a + t*v = b + (t - after)*w  <=>  d + t*e = 0. */
    d[0] = icp_wide_add(icp_wide_sub(icp_wide_of(ar), icp_wide_of(br)), icp_wide_of(after ? wr : 0));
    d[1] = icp_wide_add(icp_wide_sub(icp_wide_of(ac), icp_wide_of(bc)), icp_wide_of(after ? wc : 0));
    e[0] = vr - wr;
    e[1] = vc - wc;
    for (i = 0; i < 2; i++) {
        if (e[i] == 0) {
            if (d[i].hi != 0 || d[i].lo != 0)
                return 0;
            continue;
        }
        if (!icp_wide_div(icp_wide_neg(d[i]), e[i], &tk))
            return 0;
        if (have && icp_wide_cmp(tk, found) != 0)
            return 0;
        found = tk;
        have = 1;
    }
    if (!have) {
        /* e = 0: the same square every round, or never. */
        *t = 1;
        return 1;
    }
    if (icp_wide_cmp(found, icp_wide_u(1)) < 0 || found.hi != 0)
        return 0;
    *t = found.lo;
    return 1;
}

/* After the round that began at r ended (executed statements run in
 * all): makes in one go as many further rounds as are certain to repeat
 * it, within most statements in all; returns the statements they count
 * (0 when none can be proven). As board.rs, Board::skip_rounds. */
static uint64_t icp_skip_rounds(const icp_round *r, uint64_t executed, uint64_t most)
{
    uint64_t per = executed - r->executed, rounds;
    size_t i, j, k;
    if (icp_live != r->live || per == 0 || r->blind)
        return 0;
    rounds = (most - executed) / per;
    for (i = 0; i < r->npieces; i++) {
        const icp_loop_piece *lp = &r->pieces[i];
        const icp_piece *p = &icp_pieces[lp->slot];
        int64_t er, ec;
        if (!p->live || !icp_add(lp->row, lp->dr, &er) || !icp_add(lp->col, lp->dc, &ec) ||
            p->row != er || p->col != ec)
            return 0;
    }
    for (i = 0; i < r->npieces; i++) {
        const icp_loop_piece *lp = &r->pieces[i];
        int64_t row, col;
        if (!lp->moved)
            continue;
        if (rounds == 0)
            return 0;
        row = icp_pieces[lp->slot].row;
        col = icp_pieces[lp->slot].col;
        rounds = icp_free_run(lp->slot, lp->dr, lp->dc, rounds, r);
        /* Where it stood during the round, and will stand: off every
         * square a slide looked at. */
        for (k = 0; k < r->nlooked; k++) {
            icp_wide s;
            if (!icp_first_meeting(&r->looked[k], row, col, (int)lp->dr, (int)lp->dc, &s))
                continue;
            if (icp_wide_cmp(s, icp_wide_u(0)) <= 0)
                return 0;
            rounds = icp_wide_cap(icp_wide_sub(s, icp_wide_u(1)), rounds);
        }
        /* Off the square of every other moved piece when it moves. */
        for (j = 0; j < r->npieces; j++) {
            const icp_loop_piece *lq = &r->pieces[j];
            uint64_t t;
            if (!lq->moved || lq->slot == lp->slot)
                continue;
            if (icp_collision(row, col, (int)lp->dr, (int)lp->dc, icp_pieces[lq->slot].row,
                              icp_pieces[lq->slot].col, (int)lq->dr, (int)lq->dc,
                              lq->order > lp->order, &t) &&
                t - 1 < rounds)
                rounds = t - 1;
        }
    }
    if (rounds == 0)
        return 0;
    /* Lift every moved piece, then put each down: one may land where
     * another stood. */
    for (i = 0; i < r->npieces; i++) {
        const icp_piece *p = &icp_pieces[r->pieces[i].slot];
        if (!r->pieces[i].moved)
            continue;
        icp_tab_remove_at(p->at);
        if (icp_any_built)
            icp_index_move(p->row, p->col, p->row, p->col, 1);
    }
    for (i = 0; i < r->npieces; i++) {
        const icp_loop_piece *lp = &r->pieces[i];
        icp_piece *p = &icp_pieces[lp->slot];
        uint64_t adr = (uint64_t)(lp->dr > 0 ? lp->dr : -lp->dr);
        uint64_t adc = (uint64_t)(lp->dc > 0 ? lp->dc : -lp->dc);
        int64_t tr, tc;
        size_t ti;
        if (!lp->moved)
            continue;
        tr = icp_step(p->row, icp_sign(lp->dr), rounds * adr);
        tc = icp_step(p->col, icp_sign(lp->dc), rounds * adc);
        (void)icp_find(tr, tc, &ti);
        icp_tab_put_at(ti, tr, tc, lp->slot);
        if (icp_any_built)
            icp_index_add_all(tr, tc);
        p->row = tr;
        p->col = tc;
    }
    return rounds * per;
}

/* A loop of statements (docs/infchesspro.md, "Loops of statements"):
 * runs steps[0..n) round from member start exactly as that many
 * statements would, until a move fails (left) or most statements have
 * run (a run of a slide loop's statement is one, its failed one
 * included). Each round runs step by step; after it, as many further
 * rounds as can be proven identical are made in one go
 * (icp_skip_rounds). As board.rs, Board::run_loop. */
static icp_loop_end icp_run_loop(const icp_loop_step *steps, size_t n, size_t start,
                                 uint64_t most)
{
    icp_loop_end end;
    icp_round round;
    int recording = 0;
    size_t at = start;
    uint64_t executed = 0;
    round.executed = round.live = 0;
    round.npieces = round.nlooked = 0;
    round.blind = 1;
    for (;;) {
        const icp_loop_step *s;
        if (at == start) {
            if (recording)
                executed += icp_skip_rounds(&round, executed, most);
            recording = icp_begin_round(steps, n, start, executed, &round);
        }
        end.at = at;
        if (at >= n) {
            end.executed = executed;
            end.left = 1;
            return end;
        }
        if (executed >= most) {
            end.executed = executed;
            end.left = 0;
            return end;
        }
        s = &steps[at];
        if (s->kind == ICP_STEP_MOVE) {
            executed++;
            if (!icp_move_name_by(s->name, s->drow, s->dcol)) {
                end.executed = executed;
                end.left = 1;
                return end;
            }
        }
        /* @section loop_slide */
        if (s->kind == ICP_STEP_SLIDE) {
            uint64_t left = most - executed, made;
            uint32_t h = s->name < icp_names ? icp_name_head[s->name] : ICP_NIL;
            int64_t fr = h != ICP_NIL ? icp_pieces[h].row : 0;
            int64_t fc = h != ICP_NIL ? icp_pieces[h].col : 0;
            made = icp_slide(s->name, s->drow, s->dcol, left);
            if (made >= left) {
                end.executed = most;
                end.left = 0;
                return end;
            }
            executed += made + 1;
            if (recording) {
                if (h != ICP_NIL && (icp_is_unit(s->drow, s->dcol) || icp_is_jump(s->drow, s->dcol))) {
                    icp_segment *g = &round.looked[round.nlooked++];
                    g->r = fr;
                    g->c = fc;
                    g->dr = (int)s->drow;
                    g->dc = (int)s->dcol;
                    g->made = made;
                } else {
                    round.blind = 1;
                }
            }
        }
        /* @end loop_slide */
        /* @section loop_nothing */
        if (s->kind == ICP_STEP_NOTHING)
            executed++;
        /* @end loop_nothing */
        at = at + 1 < n ? at + 1 : 0;
    }
}

/* icp_run_loop with no budget, for the program: the member whose move
 * failed (control leaves by its failure target). A loop that never ends
 * never returns, as its statements would not. */
ICP_API size_t icp_loop_exit(const icp_loop_step *steps, size_t n, size_t start)
{
    size_t at = start;
    for (;;) {
        icp_loop_end end = icp_run_loop(steps, n, at, UINT64_MAX);
        if (end.left)
            return end.at;
        at = end.at;
    }
}

/* @end loop */
