/* @section check: king at */
/* Per colour and kind: live count. Each part of the check test runs only
 * if the enemy has a piece of a kind that attacks that way. */
static uint64_t icp_kind_count[2][6];

/* @section check_near: check add */
/* Whether enemy piece of kind on (r0+dr, c0+dc) (off the board: no). */
static int icp_enemy_at(int64_t r0, int64_t c0, int dr, int dc, int enemy,
                        int kind)
{
    int64_t r, c;
    uint32_t s;
    if (!icp_add(r0, dr, &r) || !icp_add(c0, dc, &c))
        return 0;
    s = icp_at(r, c);
    return s != ICP_NIL && icp_pieces[s].colour == enemy &&
           icp_pieces[s].kind == kind;
}
/* @end check_near */

/* @section check_sliders: check sliders */
/* Per colour: the live rooks, bishops and queens. Up to ICP_SLIDER_SCAN
 * of them, the check test asks only the rays that point from the king at
 * one of them (runtime-design.md). */
static icp_roster icp_sliders[2];
#define ICP_SLIDER_SCAN 8u

/* The rays from (kr, kc) worth asking about, as bits (bit i: ray direction
 * i): with at most ICP_SLIDER_SCAN enemy sliders, those that point at one
 * of them along a line it moves on, else all. The ray query decides. A
 * slider captured by the move under test may still be listed: asking its
 * ray anyway is harmless, the overlay answers exactly. */
static unsigned icp_slider_rays(int64_t kr, int64_t kc, int enemy)
{
    unsigned rays = 0, i;
    if (icp_sliders[enemy].len > ICP_SLIDER_SCAN)
        return 0xFFu;
    for (i = 0; i < icp_sliders[enemy].len; i++) {
        const icp_piece *p = &icp_pieces[icp_sliders[enemy].at[i]];
        int sr, sc, lines = icp_lines_of(p->kind);
        uint64_t ar = icp_absdiff(kr, p->row, &sr), ac = icp_absdiff(kc, p->col, &sc);
        if ((lines & 1) && sr == 0)
            rays |= sc > 0 ? 0x01u : 0x02u;
        else if ((lines & 1) && sc == 0)
            rays |= sr > 0 ? 0x04u : 0x08u;
        else if ((lines & 2) && ar == ac)
            rays |= sr == sc ? (sr > 0 ? 0x10u : 0x20u) : (sr > 0 ? 0x40u : 0x80u);
    }
    return rays;
}
/* @end check_sliders */

/* Whether (kr, kc) is attacked by a piece of colour enemy (§7 rule 4), as
 * the overlay sees the board: knight jumps, king steps, the two pawn
 * squares (O(1) each), then the rays icp_slider_rays picks (at most 8;
 * each O(1) or O(log k), never a scan over the pieces or the distance). */
static int icp_attacked(int64_t kr, int64_t kc, int enemy)
{
    /* @section check_sliders */
    unsigned rays = icp_slider_rays(kr, kc, enemy), d;
    /* @end check_sliders */
    /* @section check_knight: check check_near knight */
    if (icp_kind_count[enemy][ICP_KNIGHT])
        for (int i = -2; i <= 2; i++)
            for (int j = -2; j <= 2; j++)
                if (i * i + j * j == 5 && icp_enemy_at(kr, kc, i, j, enemy, ICP_KNIGHT))
                    return 1;
    /* @end check_knight */
    /* @section check_king: check check_near */
    if (icp_kind_count[enemy][ICP_KING])
        for (int i = -1; i <= 1; i++)
            for (int j = -1; j <= 1; j++)
                if ((i || j) && icp_enemy_at(kr, kc, i, j, enemy, ICP_KING))
                    return 1;
    /* @end check_king */
    /* @section check_pawn: check check_near pawn */
    /* A white pawn attacks (r+1, c+-1): it stands one row below. */
    if (icp_kind_count[enemy][ICP_PAWN] &&
        (icp_enemy_at(kr, kc, 2 * enemy - 1, -1, enemy, ICP_PAWN) ||
         icp_enemy_at(kr, kc, 2 * enemy - 1, 1, enemy, ICP_PAWN)))
        return 1;
    /* @end check_pawn */
    /* @section check_sliders */
    for (d = 0; rays != 0; d++, rays >>= 1)
        if (rays & 1u) {
            uint32_t s = icp_ray_first(kr, kc, (int)d, UINT64_MAX);
            if (s != ICP_NIL && icp_pieces[s].colour == enemy &&
                (icp_lines_of(icp_pieces[s].kind) & (d < 4 ? 1 : 2)))
                return 1;
        }
    /* @end check_sliders */
    return 0;
}

/* Whether moving piece p to (tr, tc) would leave a king of its colour
 * attacked (§7 rule 4). O(kings) attack tests; the board is unchanged. */
static int icp_leaves_check(uint32_t p, int64_t tr, int64_t tc)
{
    int colour = icp_pieces[p].colour, bad = 0;
    uint32_t i;
    icp_ov_on = 1;
    icp_ov_sr = icp_pieces[p].row;
    icp_ov_sc = icp_pieces[p].col;
    icp_ov_tr = tr;
    icp_ov_tc = tc;
    icp_ov_slot = p;
    for (i = 0; i < icp_kings[colour].len && !bad; i++) {
        uint32_t k = icp_kings[colour].at[i];
        if (k == p)
            bad = icp_attacked(tr, tc, 1 - colour);
        else
            bad = icp_attacked(icp_pieces[k].row, icp_pieces[k].col, 1 - colour);
    }
    icp_ov_on = 0;
    return bad;
}
/* @end check */

/* @section move */
/* Removes captured piece s from its name list, the counts and the lists;
 * its slot goes to the free list. Its square is taken over by the caller. */
static void icp_unlink(uint32_t s)
{
    icp_piece *x = &icp_pieces[s];
    if (x->prev != ICP_NIL)
        icp_pieces[x->prev].next = x->next;
    else
        icp_name_head[x->name] = x->next;
    if (x->next != ICP_NIL)
        icp_pieces[x->next].prev = x->prev;
    icp_name_count[x->name]--;
    /* @section runs */
    icp_live--;
    /* @end runs */
    /* @section check */
    icp_kind_count[x->colour][x->kind]--;
    /* @end check */
    /* @section king */
    if (x->kind == ICP_KING)
        icp_roster_drop(&icp_kings[x->colour], s);
    /* @end king */
    /* @section check_sliders */
    if (icp_lines_of(x->kind))
        icp_roster_drop(&icp_sliders[x->colour], s);
    /* @end check_sliders */
    x->live = 0;
    x->next = icp_free_slot;
    icp_free_slot = s;
}

/* Moves piece p to (tr, tc), capturing target (ICP_NIL: none), whose
 * occupancy entry, or the empty entry ending its probe run, is ti. The
 * move is known legal. No search: the mover's old entry is its `at`; the
 * target is filled first, then the old entry emptied (the table is at
 * most half full, so there is room for both at once). */
static void icp_apply(uint32_t p, int64_t tr, int64_t tc, uint32_t target, size_t ti)
{
    icp_piece *x = &icp_pieces[p];
    size_t si = x->at;
    /* @section rays */
    if (icp_any_built)
        icp_index_move(x->row, x->col, tr, tc, target != ICP_NIL);
    /* @end rays */
    if (target != ICP_NIL) {
        icp_unlink(target);
        icp_tab[ti].slot = p;
        x->at = (uint32_t)ti;
    } else {
        icp_tab_put_at(ti, tr, tc, p);
    }
    icp_tab_remove_at(si);
    x->row = tr;
    x->col = tc;
}

/* Tries to move piece p to (tr, tc): legal iff §7 rules 1-4 hold; then
 * moves it (capturing what is on the target) and returns 1, else 0 with
 * nothing changed. O(1) expected for jumps and steps without kings;
 * slides O(log n) beyond ICP_PROBE squares; the check test as above. */
static int icp_try_move(uint32_t p, int64_t tr, int64_t tc)
{
    icp_piece *x = &icp_pieces[p];
    int sdr, sdc, fits = 0;
    uint64_t adr = icp_absdiff(x->row, tr, &sdr), adc = icp_absdiff(x->col, tc, &sdc);
    size_t ti;
    uint32_t target;
    /* Rule 1: t != s; rule 2: empty or the other colour. */
    if (adr == 0 && adc == 0)
        return 0;
    target = icp_find(tr, tc, &ti);
    if (target != ICP_NIL && icp_pieces[target].colour == x->colour)
        return 0;
    /* Rule 3: geometry. */
    switch (x->kind) {
    /* @section king */
    case ICP_KING:
        fits = adr <= 1 && adc <= 1;
        break;
    /* @end king */
    /* @section knight */
    case ICP_KNIGHT:
        fits = (adr == 1 && adc == 2) || (adr == 2 && adc == 1);
        break;
    /* @end knight */
    /* @section pawn */
    case ICP_PAWN:
        fits = adr == 1 && sdr == 1 - 2 * x->colour &&
               (adc == 0 ? target == ICP_NIL : adc == 1 && target != ICP_NIL);
        break;
    /* @end pawn */
    default:
        /* @section sliders */
        /* Along one of its lines, every square strictly between empty. */
        fits = (icp_lines_of(x->kind) & (adr == 0 || adc == 0 ? 1 : adr == adc ? 2 : 0)) &&
               ((adr > adc ? adr : adc) < 2 ||
                icp_ray_first(x->row, x->col, icp_dir_of(sdr, sdc),
                              (adr > adc ? adr : adc) - 1) == ICP_NIL);
        /* @end sliders */
        break;
    }
    if (!fits)
        return 0;
    /* @section check */
    /* Rule 4: no king of the mover's colour attacked afterwards. */
    if (icp_kings[x->colour].len != 0 && icp_leaves_check(p, tr, tc))
        return 0;
    /* @end check */
    icp_apply(p, tr, tc, target, ti);
    return 1;
}
/* @end move */

/* @section board */
/* Frees the board (all it allocated) and forgets it. */
static void icp_free_all(void)
{
    /* @section pieces */
    free(icp_pieces);
    free(icp_name_head);
    icp_pieces = NULL;
    icp_name_head = NULL;
    icp_pieces_len = icp_pieces_cap = 0;
    icp_free_slot = ICP_NIL;
    /* @end pieces */
    free(icp_name_count);
    icp_name_count = NULL;
    /* @section squares */
    free(icp_tab);
    icp_tab = NULL;
    icp_tab_cap = icp_tab_used = 0;
    /* @end squares */
    /* @section king */
    free(icp_kings[0].at);
    free(icp_kings[1].at);
    memset(icp_kings, 0, sizeof icp_kings);
    /* @end king */
    /* @section check_sliders */
    free(icp_sliders[0].at);
    free(icp_sliders[1].at);
    memset(icp_sliders, 0, sizeof icp_sliders);
    /* @end check_sliders */
    /* @section rays */
    icp_index_free();
    /* @end rays */
}
/* @end board */

/* Sets up standard output: fully buffered in a 64 KiB buffer. */
static void icp_init(void)
{
    icp_stdout_setup(1);
}

/* @section board */
/* Sets up an empty board for names interned names (0..names-1). May be
 * called again to start over with an empty board. */
static void icp_board_init(uint32_t names)
{
    icp_free_all();
    icp_name_count = (uint64_t *)icp_realloc_array(NULL, names, sizeof *icp_name_count);
    memset(icp_name_count, 0, names * sizeof *icp_name_count);
    /* @section pieces */
    icp_name_head = (uint32_t *)icp_realloc_array(NULL, names, sizeof *icp_name_head);
    memset(icp_name_head, 0xFF, names * sizeof *icp_name_head); /* ICP_NIL */
    /* @end pieces */
    /* @section loop */
    icp_names = names;
    /* @end loop */
    /* @section runs */
    icp_live = 0;
    /* @end runs */
    /* @section check */
    memset(icp_kind_count, 0, sizeof icp_kind_count);
    icp_ov_on = 0;
    /* @end check */
    /* @section squares */
    icp_tab_alloc(16);
    /* @end squares */
}
/* @end board */

/* @section place: board pieces squares squares_grow move */
/* §4.1: a new piece on (row, col); succeeds iff the square is empty. Check
 * does not matter. O(1) expected (+ O(log n) per built line index). */
ICP_API int icp_place(uint32_t name, int colour, int kind, int64_t row,
                     int64_t col)
{
    uint32_t s;
    size_t i;
    icp_piece *x;
    if (icp_find(row, col, &i) != ICP_NIL)
        return 0;
    if (icp_tab_reserve())
        (void)icp_find(row, col, &i);
    s = icp_new_slot();
    x = &icp_pieces[s];
    x->row = row;
    x->col = col;
    x->name = name;
    x->colour = (unsigned char)colour;
    x->kind = (unsigned char)kind;
    x->live = 1;
    x->prev = ICP_NIL;
    x->next = icp_name_head[name];
    if (x->next != ICP_NIL)
        icp_pieces[x->next].prev = s;
    icp_name_head[name] = s;
    icp_name_count[name]++;
    /* @section runs */
    icp_live++;
    /* @end runs */
    /* @section check */
    icp_kind_count[colour][kind]++;
    /* @end check */
    /* @section king */
    if (kind == ICP_KING)
        icp_roster_add(&icp_kings[colour], s);
    /* @end king */
    /* @section check_sliders */
    if (icp_lines_of(kind))
        icp_roster_add(&icp_sliders[colour], s);
    /* @end check_sliders */
    icp_tab_put_at(i, row, col, s);
    /* @section rays */
    if (icp_any_built)
        icp_index_add_all(row, col);
    /* @end rays */
    return 1;
}
/* @end place */

/* @section occupy: board squares squares_grow */
/* §4.1 in a program that moves no piece: colour and kind then change
 * nothing, so the square is only marked occupied (no piece slot) and the
 * name counted; succeeds iff the square is empty. O(1) expected. A board
 * is used with icp_place or with icp_occupy, never both. */
ICP_API int icp_occupy(uint32_t name, int64_t row, int64_t col)
{
    size_t i;
    if (icp_find(row, col, &i) != ICP_NIL)
        return 0;
    if (icp_tab_reserve())
        (void)icp_find(row, col, &i);
    icp_tab_store(i, row, col, ICP_OCCUPIED);
    icp_name_count[name]++;
    return 1;
}
/* @end occupy */

/* @section move_squares: move */
/* §4.2: the piece on (r1, c1), of either colour, to (r2, c2) if legal. */
ICP_API int icp_move_squares(int64_t r1, int64_t c1, int64_t r2, int64_t c2)
{
    size_t i;
    uint32_t s = icp_find(r1, c1, &i);
    return s != ICP_NIL && icp_try_move(s, r2, c2);
}
/* @end move_squares */

/* @section move_name_to: move */
/* §4.3: the live pieces called name, newest first; the first that can
 * legally move to (row, col) does. O(candidates tried). */
ICP_API int icp_move_name_to(uint32_t name, int64_t row, int64_t col)
{
    uint32_t p;
    for (p = icp_name_head[name]; p != ICP_NIL; p = icp_pieces[p].next)
        if (icp_try_move(p, row, col))
            return 1;
    return 0;
}
/* @end move_name_to */

/* @section move_name_by: move add */
/* §4.4: as §4.3, each candidate towards (r+drow, c+dcol); a candidate
 * whose target leaves i64 cannot move. */
ICP_API int icp_move_name_by(uint32_t name, int64_t drow, int64_t dcol)
{
    uint32_t p;
    for (p = icp_name_head[name]; p != ICP_NIL; p = icp_pieces[p].next) {
        int64_t r, c;
        if (icp_add(icp_pieces[p].row, drow, &r) &&
            icp_add(icp_pieces[p].col, dcol, &c) && icp_try_move(p, r, c))
            return 1;
    }
    return 0;
}
/* @end move_name_by */

/* @section slide_line: slide_fast rays */
/* Moves piece p k steps in direction dir in one go, capturing what stands
 * on the target (the caller knows the squares between are empty and the
 * move legal). */
static void icp_relocate(uint32_t p, int dir, uint64_t k)
{
    int64_t tr, tc;
    uint32_t target;
    size_t ti;
    if (k == 0)
        return;
    tr = icp_step(icp_pieces[p].row, icp_ray_dr[dir], k);
    tc = icp_step(icp_pieces[p].col, icp_ray_dc[dir], k);
    target = icp_find(tr, tc, &ti);
    icp_apply(p, tr, tc, target, ti);
}

/* A slide along a line (no king of its colour, a unit step along a line of
 * the piece): one ray query per piece met. The moves made (at most most)
 * in *made; 1 when the next one fails, -1 when it does not apply. */
static int icp_line_run(uint32_t p, int64_t dr, int64_t dc, uint64_t most,
                        uint64_t *made)
{
    uint64_t moves = 0;
    int dir = icp_dir_of(dr, dc), push = 0, fits = 0;
    /* @section sliders */
    fits = (icp_lines_of(icp_pieces[p].kind) & (dr == 0 || dc == 0 ? 1 : 2)) != 0;
    /* @end sliders */
    /* @section pawn */
    if (icp_pieces[p].kind == ICP_PAWN) {
        push = 1;
        fits = dc == 0 && dr == 1 - 2 * icp_pieces[p].colour;
    }
    /* @end pawn */
    if (!fits)
        return -1;
    while (moves < most) {
        int64_t r = icp_pieces[p].row, c = icp_pieces[p].col;
        uint64_t left = most - moves, edge, k, ar, ac;
        uint32_t h;
        int sign;
        edge = icp_room(r, (int)dr);
        if (icp_room(c, (int)dc) < edge)
            edge = icp_room(c, (int)dc);
        h = icp_ray_first(r, c, dir, left);
        if (h == ICP_NIL) {
            /* Nothing within reach: run to it, or to the i64 edge. */
            k = left < edge ? left : edge;
            icp_relocate(p, dir, k);
            moves += k;
            if (k < left) {
                *made = moves;
                return 1;
            }
            continue;
        }
        ar = icp_absdiff(r, icp_pieces[h].row, &sign);
        ac = icp_absdiff(c, icp_pieces[h].col, &sign);
        k = ar > ac ? ar : ac;
        if (icp_pieces[h].colour != icp_pieces[p].colour && !push) {
            /* Empty squares, then the capture: k moves. */
            icp_relocate(p, dir, k);
            moves += k;
        } else {
            /* Blocked just before it (own piece, or any piece in a push). */
            icp_relocate(p, dir, k - 1);
            *made = moves + k - 1;
            return 1;
        }
    }
    *made = moves;
    return 0;
}
/* @end slide_line */

/* @section slide_knight: slide_fast runs knight steps knight_scan */
/* Moves knight p k jumps of (dr, dc) in one go (landing squares between
 * are empty), capturing what stands on the last. */
static void icp_jump(uint32_t p, int64_t dr, int64_t dc, uint64_t k)
{
    int64_t tr, tc;
    uint32_t target;
    size_t ti;
    if (k == 0)
        return;
    tr = icp_step(icp_pieces[p].row, dr > 0 ? 1 : -1, k * (uint64_t)(dr > 0 ? dr : -dr));
    tc = icp_step(icp_pieces[p].col, dc > 0 ? 1 : -1, k * (uint64_t)(dc > 0 ? dc : -dc));
    target = icp_find(tr, tc, &ti);
    icp_apply(p, tr, tc, target, ti);
}

/* A knight's slide (no king of its colour): the pieces on its squares
 * s + k*v are found by looking at every piece (at most ICP_KNIGHT_SCAN).
 * The moves made (at most most) in *made; 1 when the next one fails. */
static int icp_knight_run(uint32_t p, int64_t dr, int64_t dc, uint64_t most,
                          uint64_t *made)
{
    uint64_t ks[ICP_KNIGHT_SCAN], at = 0, limit, reach;
    int own[ICP_KNIGHT_SCAN];
    uint32_t i, n = 0;
    uint64_t adr = (uint64_t)(dr > 0 ? dr : -dr), adc = (uint64_t)(dc > 0 ? dc : -dc);
    int64_t r = icp_pieces[p].row, c = icp_pieces[p].col;
    reach = icp_room(r, dr > 0 ? 1 : -1) / adr;
    if (icp_room(c, dc > 0 ? 1 : -1) / adc < reach)
        reach = icp_room(c, dc > 0 ? 1 : -1) / adc;
    limit = most < reach ? most : reach;
    for (i = 0; i < icp_pieces_len; i++) {
        const icp_piece *q = &icp_pieces[i];
        uint64_t ar, ac;
        int sr, sc;
        if (!q->live || i == p)
            continue;
        ar = icp_absdiff(r, q->row, &sr);
        ac = icp_absdiff(c, q->col, &sc);
        if (sr != (dr > 0 ? 1 : -1) || sc != (dc > 0 ? 1 : -1) || ar % adr != 0 ||
            ac % adc != 0 || ar / adr != ac / adc)
            continue;
        {
            /* Insertion by jump count. */
            uint32_t j = n++;
            while (j > 0 && ks[j - 1] > ar / adr) {
                ks[j] = ks[j - 1];
                own[j] = own[j - 1];
                j--;
            }
            ks[j] = ar / adr;
            own[j] = q->colour == icp_pieces[p].colour;
        }
    }
    for (i = 0; i < n && ks[i] <= limit; i++) {
        if (own[i]) {
            icp_jump(p, dr, dc, ks[i] - 1 - at);
            *made = ks[i] - 1;
            return 1;
        }
        /* The jumps before it land on empty squares; this one takes it. */
        icp_jump(p, dr, dc, ks[i] - at);
        at = ks[i];
    }
    icp_jump(p, dr, dc, limit - at);
    *made = limit;
    return limit < most;
}
/* @end slide_knight */

/* @section slide_fast: slide */
/* icp_slide's fast path: -1 when it does not apply (more than one piece
 * of the name, a king of its colour, a step none of the runs takes); else
 * the moves made (at most most) in *made, and 1 when the next move fails,
 * 0 when most were made. */
static int icp_slide_run(uint32_t name, int64_t dr, int64_t dc, uint64_t most,
                         uint64_t *made)
{
    uint32_t p = icp_name_head[name];
    if (icp_name_count[name] != 1 || most == 0)
        return -1;
    /* @section king */
    if (icp_kings[icp_pieces[p].colour].len != 0)
        return -1;
    /* @end king */
    /* @section slide_knight */
    if (icp_pieces[p].kind == ICP_KNIGHT &&
        (((dr == 1 || dr == -1) && (dc == 2 || dc == -2)) ||
         ((dr == 2 || dr == -2) && (dc == 1 || dc == -1))))
        return icp_live <= ICP_KNIGHT_SCAN ? icp_knight_run(p, dr, dc, most, made) : -1;
    /* @end slide_knight */
    /* @section slide_line */
    if (icp_dir_of(dr, dc) >= 0)
        return icp_line_run(p, dr, dc, most, made);
    /* @end slide_line */
    return -1;
}
/* @end slide_fast */

/* @section slide: move move_name_by */
/* §4.4 again and again: a slide loop summarised by the optimiser
 * (docs/infchesspro.md, "The optimiser"). Moves the pieces called name
 * by (drow, dcol) as that many icp_move_name_by calls would, until one
 * fails or most have succeeded; returns how many succeeded. */
ICP_API uint64_t icp_slide(uint32_t name, int64_t drow, int64_t dcol,
                           uint64_t most)
{
    uint64_t moves = 0;
    /* @section slide_fast */
    if (icp_slide_run(name, drow, dcol, most, &moves) >= 0)
        return moves;
    moves = 0;
    /* @end slide_fast */
    /* Step by step, as the loop itself would (its cost, no more). */
    while (moves < most && icp_move_name_by(name, drow, dcol))
        moves++;
    return moves;
}
/* @end slide */
