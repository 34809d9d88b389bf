/* @section sliders: rays */
/* The lines a piece of kind moves along: bit 1 orthogonal, bit 2
 * diagonal; 0 for a king, knight or pawn. */
static int icp_lines_of(int kind)
{
    switch (kind) {
    /* @section queen */
    case ICP_QUEEN:
        return 3;
    /* @end queen */
    /* @section rook */
    case ICP_ROOK:
        return 1;
    /* @end rook */
    /* @section bishop */
    case ICP_BISHOP:
        return 2;
    /* @end bishop */
    default:
        return 0;
    }
}
/* @end sliders */

/* @section check */
/* While a move is tested for check (§7 rule 4), the board is seen through
 * an overlay without being changed: (ov_sr, ov_sc) empty and (ov_tr, ov_tc)
 * holding the mover ov_slot (a captured piece there is gone). */
static int icp_ov_on;
static int64_t icp_ov_sr, icp_ov_sc, icp_ov_tr, icp_ov_tc;
static uint32_t icp_ov_slot;
/* @end check */

/* @section at: move */
/* The slot on (r, c), as the overlay sees it while it is on. */
static uint32_t icp_at(int64_t r, int64_t c)
{
    size_t i;
    /* @section check */
    if (icp_ov_on) {
        if (r == icp_ov_tr && c == icp_ov_tc)
            return icp_ov_slot;
        if (r == icp_ov_sr && c == icp_ov_sc)
            return ICP_NIL;
    }
    /* @end check */
    return icp_find(r, c, &i);
}
/* @end at */
/* @section rays: move steps at */
/* Squares probed directly in the hash table along a ray before the line
 * index is used (runtime-design.md: PROBE = 8). */
#define ICP_PROBE 8u

/* ------------------------------------------------------------ line indices */

/* Four line indices (rows, columns, diagonals r-c, anti-diagonals r+c),
 * each a hash table line key -> treap of the positions on that line, built
 * lazily by the first ray query of its kind that reaches beyond ICP_PROBE
 * squares, then kept up to date by every place / move / capture. O(1) for
 * an empty line, O(log k) for k pieces on the line, per query and update,
 * never proportional to a distance.
 *
 * Line kinds: 0 rows (key row, position col), 1 columns (key col, position
 * row), 2 diagonals (key row-col, position row), 3 anti-diagonals (key
 * row+col, position row).
 *
 * Diagonal keys need 65 bits; they are kept modulo 2^64. Two diagonals d
 * and d - 2^64 then share a key, but their rows are disjoint ranges and
 * every ray stops at the i64 edge, so a query over an in-range ray only
 * ever meets squares of its own diagonal (anything of the twin lies beyond
 * the ray's limit and is ignored). The same as the Rust runtime.
 *
 * Each kind, once built, is a hash table (open addressing, linear probing,
 * backward-shift deletion, at most half full) from line key to the root of
 * a treap of the positions of the pieces on that line. A line with no piece
 * has no entry, so a query about an empty line costs one hash probe, and a
 * query about a line with k pieces costs O(log k) expected, whatever the
 * number of pieces elsewhere and whatever the distance. */
typedef struct icp_node {
    int64_t pos;
    uint32_t left, right; /* left: free list when unused */
    uint32_t prio;
} icp_node;

typedef struct icp_line {
    uint64_t key;
    uint32_t root; /* ICP_NIL: empty entry */
} icp_line;

static icp_node *icp_nodes;
static uint32_t icp_nodes_len, icp_nodes_cap;
static uint32_t icp_free_node = ICP_NIL;
static icp_line *icp_lines[4];
static size_t icp_lines_mask[4], icp_lines_used[4];
static unsigned icp_lines_shift[4];
static int icp_built[4];
static int icp_any_built;
static uint32_t icp_prio_state = 2463534242u;

/* The (key, position) of square (r, c) in line kind l. */
static uint64_t icp_line_key(int l, int64_t r, int64_t c, int64_t *pos)
{
    switch (l) {
    case 0:
        *pos = c;
        return (uint64_t)r;
    case 1:
        *pos = r;
        return (uint64_t)c;
    case 2:
        *pos = r;
        return (uint64_t)r - (uint64_t)c;
    default:
        *pos = r;
        return (uint64_t)r + (uint64_t)c;
    }
}

/* The home entry of a line key in table l (Fibonacci hashing). */
static size_t icp_line_home(int l, uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> icp_lines_shift[l]) &
           icp_lines_mask[l];
}

/* The entry of line key in table l, or the first empty entry of its probe
 * run. O(1) expected. */
static size_t icp_line_find(int l, uint64_t key)
{
    size_t i = icp_line_home(l, key);
    const icp_line *t = icp_lines[l];
    while (t[i].root != ICP_NIL && t[i].key != key)
        i = (i + 1) & icp_lines_mask[l];
    return i;
}

/* Allocates table l empty with cap (a power of two >= 16) entries. */
static void icp_lines_alloc(int l, size_t cap)
{
    unsigned bits = 0;
    icp_lines[l] = (icp_line *)icp_realloc_array(NULL, cap, sizeof *icp_lines[l]);
    memset(icp_lines[l], 0xFF, cap * sizeof *icp_lines[l]); /* root = ICP_NIL */
    icp_lines_mask[l] = cap - 1;
    while (((size_t)1 << bits) < cap)
        bits++;
    icp_lines_shift[l] = 64u - bits;
    icp_lines_used[l] = 0;
}

/* Makes room for one more line in table l (doubling: amortised O(1)). */
static void icp_lines_reserve(int l)
{
    icp_line *old = icp_lines[l], *grown;
    size_t cap = icp_lines_mask[l] + 1, i;
    if (icp_lines_used[l] + 1 <= cap / 2)
        return;
    if (cap > SIZE_MAX / 2 / sizeof *old)
        icp_die(icp_current_label, "memory exhausted (" ICP_SECT "8)");
    /* On failure icp_die frees the old table, still in icp_lines[l]. */
    grown = (icp_line *)icp_realloc_array(NULL, cap * 2, sizeof *grown);
    memset(grown, 0xFF, cap * 2 * sizeof *grown); /* root = ICP_NIL */
    icp_lines[l] = grown;
    icp_lines_mask[l] = cap * 2 - 1;
    icp_lines_shift[l]--;
    icp_lines_used[l] = 0;
    for (i = 0; i < cap; i++)
        if (old[i].root != ICP_NIL) {
            size_t j = icp_line_find(l, old[i].key);
            grown[j] = old[i];
            icp_lines_used[l]++;
        }
    free(old);
}

/* Removes entry hole of table l by backward-shift deletion. */
static void icp_lines_remove_at(int l, size_t hole)
{
    icp_line *t = icp_lines[l];
    size_t mask = icp_lines_mask[l], j = (hole + 1) & mask;
    while (t[j].root != ICP_NIL) {
        size_t home = icp_line_home(l, t[j].key);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            t[hole] = t[j];
            hole = j;
        }
        j = (j + 1) & mask;
    }
    t[hole].root = ICP_NIL;
    icp_lines_used[l]--;
}

/* Splits treap t into the positions below and above pos (pos not in t). */
static void icp_split(uint32_t t, int64_t pos, uint32_t *l, uint32_t *r)
{
    while (t != ICP_NIL) {
        if (icp_nodes[t].pos < pos) {
            *l = t;
            l = &icp_nodes[t].right;
            t = *l;
        } else {
            *r = t;
            r = &icp_nodes[t].left;
            t = *r;
        }
    }
    *l = *r = ICP_NIL;
}

/* Joins treaps a and b, every position of a below every position of b. */
static uint32_t icp_merge(uint32_t a, uint32_t b)
{
    uint32_t root = ICP_NIL, *link = &root;
    for (;;) {
        if (a == ICP_NIL) {
            *link = b;
            return root;
        }
        if (b == ICP_NIL) {
            *link = a;
            return root;
        }
        if (icp_nodes[a].prio > icp_nodes[b].prio) {
            *link = a;
            link = &icp_nodes[a].right;
            a = *link;
        } else {
            *link = b;
            link = &icp_nodes[b].left;
            b = *link;
        }
    }
}

/* Inserts node n (its position absent) into the treap at *link. Expected
 * O(log k): priorities come from a fixed xorshift sequence. */
static void icp_tinsert(uint32_t *link, uint32_t n)
{
    icp_node *x = &icp_nodes[n];
    while (*link != ICP_NIL && icp_nodes[*link].prio >= x->prio)
        link = x->pos < icp_nodes[*link].pos ? &icp_nodes[*link].left
                                            : &icp_nodes[*link].right;
    icp_split(*link, x->pos, &x->left, &x->right);
    *link = n;
}

/* Removes pos from the treap at *link (its node goes to the free list). */
static void icp_terase(uint32_t *link, int64_t pos)
{
    uint32_t t;
    while ((t = *link) != ICP_NIL && icp_nodes[t].pos != pos)
        link = pos < icp_nodes[t].pos ? &icp_nodes[t].left : &icp_nodes[t].right;
    if (t == ICP_NIL)
        return;
    *link = icp_merge(icp_nodes[t].left, icp_nodes[t].right);
    icp_nodes[t].left = icp_free_node;
    icp_free_node = t;
}

/* Adds square (r, c) to line index l. O(log k) expected. */
static void icp_index_add(int l, int64_t r, int64_t c)
{
    uint32_t n = icp_free_node;
    icp_node *x;
    int64_t pos;
    uint64_t key = icp_line_key(l, r, c, &pos);
    size_t i;
    if (n != ICP_NIL) {
        icp_free_node = icp_nodes[n].left;
    } else {
        if (icp_nodes_len == icp_nodes_cap) {
            uint32_t cap;
            if (icp_nodes_cap >= ICP_MAX_SLOTS)
                icp_die(icp_current_label, "memory exhausted (" ICP_SECT "8)");
            cap = icp_nodes_cap < 64u ? 64u
                  : (icp_nodes_cap > ICP_MAX_SLOTS / 2u ? ICP_MAX_SLOTS
                                                         : icp_nodes_cap * 2u);
            icp_nodes = (icp_node *)icp_realloc_array(icp_nodes, cap,
                                                      sizeof *icp_nodes);
            icp_nodes_cap = cap;
        }
        n = icp_nodes_len++;
    }
    x = &icp_nodes[n];
    x->pos = pos;
    x->left = x->right = ICP_NIL;
    icp_prio_state ^= icp_prio_state << 13;
    icp_prio_state ^= icp_prio_state >> 17;
    icp_prio_state ^= icp_prio_state << 5;
    x->prio = icp_prio_state;
    i = icp_line_find(l, key);
    if (icp_lines[l][i].root == ICP_NIL) {
        icp_lines_reserve(l);
        i = icp_line_find(l, key);
        icp_lines[l][i].key = key;
        icp_lines[l][i].root = n;
        icp_lines_used[l]++;
    } else {
        icp_tinsert(&icp_lines[l][i].root, n);
    }
}

/* Removes square (r, c) from line index l; a line left empty loses its
 * entry. O(log k) expected. */
static void icp_index_remove(int l, int64_t r, int64_t c)
{
    int64_t pos;
    uint64_t key = icp_line_key(l, r, c, &pos);
    size_t i = icp_line_find(l, key);
    if (icp_lines[l][i].root == ICP_NIL)
        return;
    icp_terase(&icp_lines[l][i].root, pos);
    if (icp_lines[l][i].root == ICP_NIL)
        icp_lines_remove_at(l, i);
}

/* Moves square (r, c) of line index l to position pos on the same line,
 * when no piece of the line lies between the two positions (a legal step
 * or slide along the line): the order is unchanged, so the node keeps its
 * place in the treap. O(log k) expected, no allocation. */
static void icp_index_shift(int l, int64_t r, int64_t c, int64_t pos)
{
    int64_t old;
    uint64_t key = icp_line_key(l, r, c, &old);
    uint32_t t = icp_lines[l][icp_line_find(l, key)].root;
    while (t != ICP_NIL && icp_nodes[t].pos != old)
        t = old < icp_nodes[t].pos ? icp_nodes[t].left : icp_nodes[t].right;
    if (t != ICP_NIL)
        icp_nodes[t].pos = pos;
}

/* Builds line index l from every live piece: O(n log n), once (lazily, on
 * the first ray query of that kind that reaches beyond ICP_PROBE squares). */
static void icp_index_build(int l)
{
    uint32_t s;
    icp_lines_alloc(l, 16);
    icp_built[l] = 1;
    icp_any_built = 1;
    for (s = 0; s < icp_pieces_len; s++)
        if (icp_pieces[s].live)
            icp_index_add(l, icp_pieces[s].row, icp_pieces[s].col);
}

/* The nearest position on line key of kind l strictly beyond pos in
 * direction d (+1: larger, -1: smaller); returns 0 when there is none.
 * O(1) for a line without pieces, else O(log k) expected. */
static int icp_index_next(int l, uint64_t key, int64_t pos, int d,
                          int64_t *found)
{
    size_t i = icp_line_find(l, key);
    uint32_t t = icp_lines[l][i].root, best = ICP_NIL;
    if (d > 0) {
        while (t != ICP_NIL) {
            if (icp_nodes[t].pos > pos) {
                best = t;
                t = icp_nodes[t].left;
            } else {
                t = icp_nodes[t].right;
            }
        }
    } else {
        while (t != ICP_NIL) {
            if (icp_nodes[t].pos < pos) {
                best = t;
                t = icp_nodes[t].right;
            } else {
                t = icp_nodes[t].left;
            }
        }
    }
    if (best == ICP_NIL)
        return 0;
    *found = icp_nodes[best].pos;
    return 1;
}


/* A new piece on (r, c), in every built line index. */
static void icp_index_add_all(int64_t r, int64_t c)
{
    int l;
    for (l = 0; l < 4; l++)
        if (icp_built[l])
            icp_index_add(l, r, c);
}

/* A move from s to t, in every built line index. A capture keeps t
 * occupied: only s leaves. Else, on the line through s and t (none for a
 * knight's jump) no piece lies between them, so the mover keeps its rank
 * and only its position changes. */
static void icp_index_move(int64_t sr, int64_t sc, int64_t tr, int64_t tc, int capture)
{
    int sdr, sdc, l, along;
    uint64_t adr = icp_absdiff(sr, tr, &sdr), adc = icp_absdiff(sc, tc, &sdc);
    along = sdr == 0 ? 0 : sdc == 0 ? 1 : adr != adc ? -1 : sdr == sdc ? 2 : 3;
    for (l = 0; l < 4; l++)
        if (icp_built[l]) {
            if (l == along && !capture) {
                icp_index_shift(l, sr, sc, l == 0 ? tc : tr);
            } else {
                icp_index_remove(l, sr, sc);
                if (!capture)
                    icp_index_add(l, tr, tc);
            }
        }
}

/* Frees the line indices and forgets them. */
static void icp_index_free(void)
{
    int l;
    for (l = 0; l < 4; l++) {
        free(icp_lines[l]);
        icp_lines[l] = NULL;
        icp_lines_mask[l] = icp_lines_used[l] = 0;
        icp_built[l] = 0;
    }
    free(icp_nodes);
    icp_nodes = NULL;
    icp_nodes_len = icp_nodes_cap = 0;
    icp_free_node = ICP_NIL;
    icp_any_built = 0;
    icp_prio_state = 2463534242u;
}

/* Ray directions: 0,1 along a row; 2,3 along a column; 4,5 diagonal (r-c
 * constant); 6,7 anti-diagonal (r+c constant). Line kind = dir / 2. */
static const int icp_ray_dr[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int icp_ray_dc[8] = {1, -1, 0, 0, 1, -1, -1, 1};

/* The ray direction (index into icp_ray_dr/dc) of the unit step (dr, dc),
 * or -1. */
static int icp_dir_of(int64_t dr, int64_t dc)
{
    int i;
    for (i = 0; i < 8; i++)
        if (icp_ray_dr[i] == dr && icp_ray_dc[i] == dc)
            return i;
    return -1;
}

/* The first piece (slot) along the ray from (r0, c0) in direction dir
 * within at most limit steps (also bounded by the i64 edge), or ICP_NIL.
 * Until the line index of the ray's kind is built, the first ICP_PROBE
 * squares are probed in the hash table, and only a ray reaching further
 * builds it; once built, the index alone answers: O(1) for a line without
 * pieces, O(log k) for k pieces on the line, however long the ray (10^18
 * squares cost the same as 9). Sees the board through the overlay when it
 * is on. */
static uint32_t icp_ray_first(int64_t r0, int64_t c0, int dir, uint64_t limit)
{
    int dr = icp_ray_dr[dir], dc = icp_ray_dc[dir], l = dir >> 1, pd, found;
    uint64_t room, best = 0, key;
    int64_t p0, q;
    room = icp_room(r0, dr);
    if (room < limit)
        limit = room;
    room = icp_room(c0, dc);
    if (room < limit)
        limit = room;
    if (!icp_built[l]) {
        uint64_t k, n = limit < ICP_PROBE ? limit : ICP_PROBE;
        for (k = 1; k <= n; k++) {
            uint32_t s = icp_at(icp_step(r0, dr, k), icp_step(c0, dc, k));
            if (s != ICP_NIL)
                return s;
        }
        if (limit <= ICP_PROBE)
            return ICP_NIL;
        icp_index_build(l);
    }
    if (limit == 0)
        return ICP_NIL;
    key = icp_line_key(l, r0, c0, &p0);
    pd = l == 0 ? dc : dr; /* direction of the position along the line */
    found = icp_index_next(l, key, p0, pd, &q);
    /* @section check */
    if (icp_ov_on) {
        int64_t p2;
        /* The vacated square does not count: look past it. */
        if (found && icp_line_key(l, icp_ov_sr, icp_ov_sc, &p2) == key && p2 == q)
            found = icp_index_next(l, key, q, pd, &q);
        /* The mover's new square, which the index does not hold yet. */
        if (icp_line_key(l, icp_ov_tr, icp_ov_tc, &p2) == key && (pd > 0 ? p2 > p0 : p2 < p0) &&
            (!found || (pd > 0 ? p2 < q : p2 > q))) {
            q = p2;
            found = 1;
        }
    }
    /* @end check */
    if (found)
        best = pd > 0 ? (uint64_t)q - (uint64_t)p0 : (uint64_t)p0 - (uint64_t)q;
    if (best == 0 || best > limit)
        return ICP_NIL;
    return icp_at(icp_step(r0, dr, best), icp_step(c0, dc, best));
}
/* @end rays */
