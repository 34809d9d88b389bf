/* ------------------------------------------------------------------------
 * InfChessPro board runtime of icp2c, plain C99, needing only libc: the C
 * port of board.rs, function for function. Pasted into a generated
 * program cut to the sections it uses (the @section markers; icp2c's
 * table of runtime entry points says which section holds what a program
 * calls; the kinds and colours it places select the move rules it
 * carries). Implements docs/runtime-design.md; the language is the one
 * icp2c's reference docs/infchesspro.md defines, whose sections are cited
 * as §n.
 * ------------------------------------------------------------------------ */
/* @section core: prelude_stdout prelude_write_failure */
/* @end core */

/* Colours and kinds (§3), as a piece keeps them. */
/* @section white */
#define ICP_WHITE 0
/* @end white */
/* @section black */
#define ICP_BLACK 1
/* @end black */
/* @section king: move */
#define ICP_KING 0
/* @end king */
/* @section queen: sliders */
#define ICP_QUEEN 1
/* @end queen */
/* @section rook: sliders */
#define ICP_ROOK 2
/* @end rook */
/* @section bishop: sliders */
#define ICP_BISHOP 3
/* @end bishop */
/* @section knight: move */
#define ICP_KNIGHT 4
/* @end knight */
/* @section pawn: move */
#define ICP_PAWN 5
/* @end pawn */

/* @section squares: board */
/* "No slot / no node": an empty hash entry, the end of a list. */
#define ICP_NIL UINT32_MAX
/* The slot of a square icp_occupy filled: no piece (slots stay below). */
#define ICP_OCCUPIED (UINT32_MAX - 1u)
/* @end squares */
/* @section pieces: board squares */
/* The largest number of piece slots or tree nodes (ICP_NIL stays free). */
#define ICP_MAX_SLOTS (UINT32_MAX - 1u)
/* @end pieces */

/* The API functions the generated code calls are kept out of line under
 * GCC and Clang: a large program calls them from thousands of places, and
 * inlining them everywhere makes `cc -O2` several times slower for no
 * measurable gain (their bodies are loops and calls). Plain C99 elsewhere. */
#if defined(__GNUC__)
#define ICP_API __attribute__((noinline)) static
#else
#define ICP_API static
#endif

static void icp_die_write(void);

/* @section die */
/* The label of the statement being run; the generated code sets it. Used
 * in runtime error lines (§8). */
static int64_t icp_current_label;

static void icp_die(int64_t label, const char *cause);
/* @end die */

/* @section board: die prelude_realloc */
/* Grows (or allocates) an array to count elements of size bytes; memory
 * exhaustion is a runtime error (§8). The old block stays owned by the
 * caller's global until the new one is returned, so icp_die can free it. */
static void *icp_realloc_array(void *old, size_t count, size_t size)
{
    void *p = icp_try_realloc(old, count, size);
    if (p == NULL)
        icp_die(icp_current_label, "memory exhausted (" ICP_SECT "8)");
    return p;
}
/* @end board */

/* @section u2i */
/* uint64_t -> int64_t by two's complement without implementation-defined
 * conversion (compiles to nothing). */
static int64_t icp_u2i(uint64_t x)
{
    return x <= (uint64_t)INT64_MAX ? (int64_t)x
                                    : -(int64_t)(UINT64_MAX - x) - 1;
}
/* @end u2i */

/* Coordinates are computed on uint64_t (differences, steps, edge
 * distances), so no i64 value can cause signed overflow. */
/* @section steps: u2i */
/* x + d*k for d in {-1, 0, 1}; the caller guarantees the result fits. */
static int64_t icp_step(int64_t x, int d, uint64_t k)
{
    if (d > 0)
        return icp_u2i((uint64_t)x + k);
    if (d < 0)
        return icp_u2i((uint64_t)x - k);
    return x;
}

/* How many steps from x in direction d stay inside i64 (d = 0: unlimited). */
static uint64_t icp_room(int64_t x, int d)
{
    if (d > 0)
        return (uint64_t)INT64_MAX - (uint64_t)x;
    if (d < 0)
        return (uint64_t)x - (uint64_t)INT64_MIN;
    return UINT64_MAX;
}
/* @end steps */

/* @section add */
/* *out = a + b; returns 0 (and leaves *out) when the sum leaves i64 (§4.4). */
static int icp_add(int64_t a, int64_t b, int64_t *out)
{
    if (b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b)
        return 0;
    *out = a + b;
    return 1;
}
/* @end add */

/* @section move: board pieces squares die */
/* |b - a| as uint64_t, and the sign of b - a (-1, 0, 1). */
static uint64_t icp_absdiff(int64_t a, int64_t b, int *sign)
{
    *sign = (b > a) - (b < a);
    return b > a ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
}
/* @end move */

/* @section pieces */
/* The pieces: a slot table whose captured slots are reused through a free
 * list (placing and capturing forever uses bounded memory), and per name
 * a doubly linked list of live pieces, newest first: O(1) newest, O(1)
 * unlink on capture (§4.3). */
typedef struct icp_piece {
    int64_t row, col;
    uint32_t name;
    uint32_t prev, next; /* name list (newest first); next: free list */
    uint32_t at;         /* index of its entry in the occupancy table */
    /* @section king: move */
    uint32_t roster_at;  /* index in icp_kings or icp_sliders[colour] */
    /* @end king */
    unsigned char colour, kind, live;
} icp_piece;

static icp_piece *icp_pieces;
static uint32_t icp_pieces_len, icp_pieces_cap;
static uint32_t icp_free_slot = ICP_NIL;

/* Per name (§4.3): newest live piece. */
static uint32_t *icp_name_head;
/* @end pieces */

/* @section board */
/* Per name (§4.7): live count, O(1). */
static uint64_t *icp_name_count;
/* @end board */

/* @section loop */
/* The number of names. */
static uint32_t icp_names;
/* @end loop */

/* @section runs */
/* Live pieces. */
static uint64_t icp_live;
/* @end runs */
/* @section knight_scan */
/* @section knight */
/* Most live pieces a knight's slide looks through (its squares lie on no
 * indexed line); with more, it steps. */
#define ICP_KNIGHT_SCAN 64u
/* @end knight */
/* @end knight_scan */

/* @section king */
/* A list of live pieces (per colour: kings; sliders for the check test)
 * that loses a captured one by swap-remove, O(1). */
typedef struct icp_roster {
    uint32_t *at, len, cap;
} icp_roster;

static icp_roster icp_kings[2];

/* Adds piece s to list r (amortised O(1)). */
static void icp_roster_add(icp_roster *r, uint32_t s)
{
    if (r->len == r->cap) {
        /* At most 2^31 live pieces (the occupancy table): no overflow. */
        r->cap = r->cap < 8u ? 8u : r->cap * 2u;
        r->at = (uint32_t *)icp_realloc_array(r->at, r->cap, sizeof *r->at);
    }
    icp_pieces[s].roster_at = r->len;
    r->at[r->len++] = s;
}

/* Removes piece s from list r. */
static void icp_roster_drop(icp_roster *r, uint32_t s)
{
    uint32_t last = r->at[--r->len];
    r->at[icp_pieces[s].roster_at] = last;
    icp_pieces[last].roster_at = icp_pieces[s].roster_at;
}
/* @end king */

/* @section place */
/* A slot for a new piece: a reused one from the free list, else a new one
 * (amortised O(1)). */
static uint32_t icp_new_slot(void)
{
    uint32_t s = icp_free_slot;
    if (s != ICP_NIL) {
        icp_free_slot = icp_pieces[s].next;
        return s;
    }
    if (icp_pieces_len == icp_pieces_cap) {
        uint32_t cap;
        if (icp_pieces_cap >= ICP_MAX_SLOTS)
            icp_die(icp_current_label, "memory exhausted (" ICP_SECT "8)");
        cap = icp_pieces_cap < 32u ? 32u
              : (icp_pieces_cap > ICP_MAX_SLOTS / 2u ? ICP_MAX_SLOTS
                                                      : icp_pieces_cap * 2u);
        icp_pieces = (icp_piece *)icp_realloc_array(icp_pieces, cap,
                                                    sizeof *icp_pieces);
        icp_pieces_cap = cap;
    }
    return icp_pieces_len++;
}
/* @end place */

/* @section squares */
/* Occupancy: an open-addressing hash table square -> piece slot (for a
 * program that moves no piece, -> ICP_OCCUPIED), power-of-two size, at
 * most half full, linear probing, backward-shift deletion, a fixed
 * multiply/xor hash (no random seed; the same as the Rust runtime) whose
 * top bits it uses. O(1) expected per operation. Each piece keeps its
 * entry index, so a move probes only for its target. */
typedef struct icp_entry {
    int64_t row, col;
    uint32_t slot; /* ICP_NIL: empty entry */
} icp_entry;

static icp_entry *icp_tab;
static size_t icp_tab_cap, icp_tab_used;
static unsigned icp_tab_shift; /* 64 - log2(icp_tab_cap) */

static size_t icp_home(int64_t row, int64_t col)
{
    uint64_t h = ((uint64_t)row * UINT64_C(0x9E3779B97F4A7C15)) ^
                 ((uint64_t)col * UINT64_C(0xD6E8FEB86659FD93));
    return (size_t)(h >> icp_tab_shift) & (icp_tab_cap - 1);
}

/* The slot on (row, col) or ICP_NIL, and in *end the index where the
 * probe stopped: the square's entry, or the first empty entry of its probe
 * run (where it would be inserted). */
static uint32_t icp_find(int64_t row, int64_t col, size_t *end)
{
    size_t i = icp_home(row, col);
    while (icp_tab[i].slot != ICP_NIL &&
           (icp_tab[i].row != row || icp_tab[i].col != col))
        i = (i + 1) & (icp_tab_cap - 1);
    *end = i;
    return icp_tab[i].slot;
}

/* Stores (row, col) -> slot in entry i, the first empty entry of the
 * square's probe run. */
static void icp_tab_store(size_t i, int64_t row, int64_t col, uint32_t slot)
{
    icp_tab[i].row = row;
    icp_tab[i].col = col;
    icp_tab[i].slot = slot;
    icp_tab_used++;
}

/* Allocates an empty table of cap (a power of two, >= 16) entries. */
static void icp_tab_alloc(size_t cap)
{
    icp_tab = (icp_entry *)icp_realloc_array(NULL, cap, sizeof *icp_tab);
    memset(icp_tab, 0xFF, cap * sizeof *icp_tab); /* slot = ICP_NIL */
    icp_tab_cap = cap;
    icp_tab_used = 0;
    for (icp_tab_shift = 64; cap > 1; cap >>= 1)
        icp_tab_shift--;
}
/* @end squares */

/* @section pieces */
/* icp_tab_store, and the piece records its entry. */
static void icp_tab_put_at(size_t i, int64_t row, int64_t col, uint32_t slot)
{
    icp_tab_store(i, row, col, slot);
    icp_pieces[slot].at = (uint32_t)i;
}
/* @end pieces */

/* @section squares_grow: squares die */
/* Makes room for one more entry, keeping the table at most half full:
 * doubles and rehashes (amortised O(1)); returns 1 if it did. At most
 * 2^32 entries (a piece keeps its entry index in 32 bits). */
static int icp_tab_reserve(void)
{
    icp_entry *old = icp_tab;
    size_t cap = icp_tab_cap, i, j;
    if ((icp_tab_used + 1) <= icp_tab_cap / 2)
        return 0;
    if (cap > SIZE_MAX / 2 / sizeof *icp_tab || (uint64_t)cap >= UINT64_C(0x100000000))
        icp_die(icp_current_label, "memory exhausted (" ICP_SECT "8)");
    /* On failure icp_die frees the old table, still in icp_tab. */
    icp_tab_alloc(cap * 2);
    for (i = 0; i < cap; i++)
        if (old[i].slot != ICP_NIL) {
            (void)icp_find(old[i].row, old[i].col, &j);
            icp_tab_store(j, old[i].row, old[i].col, old[i].slot);
            /* @section pieces */
            if (old[i].slot != ICP_OCCUPIED)
                icp_pieces[old[i].slot].at = (uint32_t)j;
            /* @end pieces */
        }
    free(old);
    return 1;
}
/* @end squares_grow */

/* @section move */
/* Empties entry hole (a piece's `at`, so no probe is needed) by
 * backward-shift deletion: later entries of the probe run move back into
 * the hole when it lies on their own probe run; their pieces' `at`
 * follow. O(1) expected. */
static void icp_tab_remove_at(size_t hole)
{
    size_t mask = icp_tab_cap - 1, j = (hole + 1) & mask;
    while (icp_tab[j].slot != ICP_NIL) {
        size_t home = icp_home(icp_tab[j].row, icp_tab[j].col);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            icp_tab[hole] = icp_tab[j];
            icp_pieces[icp_tab[hole].slot].at = (uint32_t)hole;
            hole = j;
        }
        j = (j + 1) & mask;
    }
    icp_tab[hole].slot = ICP_NIL;
    icp_tab_used--;
}
/* @end move */

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

/* @section read: die u2i */
/* ------------------------------------------------------------ stdin, out */

static unsigned char icp_in_buf[65536];
static size_t icp_in_pos, icp_in_len;
static int icp_in_eof; /* no more bytes after the buffer (sticky, §6) */
static int icp_in_err; /* a read error after the buffer */

/* The next input byte without consuming it, or -1 at end of input. Input
 * is read with fread in 64 KiB blocks; a read error is a runtime error
 * (§8). End of input is sticky: once seen, stdin is not read again. */
static int icp_in_peek(void)
{
    if (icp_in_pos == icp_in_len) {
        size_t n;
        if (icp_in_err)
            icp_die(icp_current_label, "cannot read standard input (" ICP_SECT "8)");
        if (icp_in_eof)
            return -1;
        n = fread(icp_in_buf, 1, sizeof icp_in_buf, stdin);
        if (n < sizeof icp_in_buf) {
            if (ferror(stdin))
                icp_in_err = 1;
            else
                icp_in_eof = 1;
        }
        icp_in_pos = 0;
        icp_in_len = n;
        if (n == 0)
            return icp_in_peek();
    }
    return icp_in_buf[icp_in_pos];
}

/* Reads one integer (§6): skips ' ' '\t' '\r' '\n'; at end of input
 * returns 0. Then an optional '-' or '+' and one or more digits (else the
 * runtime error "input is not a number"); the number ends at the first
 * non-digit, which is left unread. Outside i64: a runtime error. */
static int icp_read_one(int64_t *out)
{
    int ch, neg = 0;
    uint64_t v = 0, lim;
    for (;;) {
        ch = icp_in_peek();
        if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
            break;
        icp_in_pos++;
    }
    if (ch < 0)
        return 0;
    if (ch == '-' || ch == '+') {
        neg = ch == '-';
        icp_in_pos++;
        ch = icp_in_peek();
    }
    if (ch < '0' || ch > '9')
        icp_die(icp_current_label, "input is not a number (" ICP_SECT "6)");
    lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    do {
        unsigned d = (unsigned)(ch - '0');
        if (v > (lim - d) / 10u)
            icp_die(icp_current_label,
                    "input number is outside the signed 64-bit range (" ICP_SECT "6)");
        v = v * 10u + d;
        icp_in_pos++;
        ch = icp_in_peek();
    } while (ch >= '0' && ch <= '9');
    *out = neg ? icp_u2i(0u - v) : (int64_t)v;
    return 1;
}

/* @end read */



/* @section read */
/* §6: reads up to n integers left to right, stopping at the first end of
 * input; returns how many were read. Bad text or out of range: runtime
 * error (§8) with the current label. */
ICP_API int icp_read(int64_t *values, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!icp_read_one(&values[i]))
            return i;
    return n;
}
/* @end read */

/* @section die */
/* §8: flushes stdout, prints "error: statement <label>: <cause>" on stderr,
 * frees the board (in a program that has one) and exits with status 1. */
static void icp_die(int64_t label, const char *cause)
{
    fflush(stdout);
    fprintf(stderr, "error: statement %" PRId64 ": %s\n", label, cause);
    fflush(stderr);
    /* @section board */
    icp_free_all();
    /* @end board */
    exit(1);
}
/* @end die */

/* §8: standard output failed. Buffered output reaches the system at times
 * that differ between back ends, so the line names no statement
 * (docs/infchesspro.md): "error: cannot write standard output (§8)". */
static void icp_die_write(void)
{
    icp_report_write_failure("cannot write standard output (" ICP_SECT "8)");
    /* @section board */
    icp_free_all();
    /* @end board */
    exit(1);
}

/* @section text */
/* §4.6: writes exactly len bytes (NUL bytes included). A write failure is
 * a runtime error (§8). */
ICP_API void icp_write_text(const char *bytes, size_t len)
{
    if (len != 0 && fwrite(bytes, 1, len, stdout) != len)
        icp_die_write();
}
/* @end text */

/* @section count: board text */
/* §4.7: live pieces called name. O(1). */
static uint64_t icp_count(uint32_t name)
{
    return icp_name_count[name];
}

/* §4.7: n in decimal and '\n'. */
ICP_API void icp_write_count(uint64_t n)
{
    char buf[24];
    size_t i = sizeof buf;
    buf[--i] = '\n';
    do {
        buf[--i] = (char)('0' + (int)(n % 10u));
        n /= 10u;
    } while (n != 0);
    icp_write_text(buf + i, sizeof buf - i);
}
/* @end count */

/* @section no_label: die */
/* §5: a `*` jump to a label no statement has. */
static void icp_die_no_label(int64_t label, int64_t target)
{
    char cause[96];
    sprintf(cause, "no statement is labelled %" PRId64 " (" ICP_SECT "5)", target);
    icp_die(label, cause);
}
/* @end no_label */

/* @section end_of_input: die */
/* §6: a `*` jump target that must be taken found end of input. */
static void icp_die_end_of_input(int64_t label)
{
    icp_die(label, "end of input in a `*` jump target (" ICP_SECT "6)");
}
/* @end end_of_input */

/* End of the program: flushes stdout (a failure is a runtime error, §8),
 * frees the board (in a program that has one) and returns the exit status
 * 0. */
static int icp_finish(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        icp_die_write();
    /* @section board */
    icp_free_all();
    /* @end board */
    return 0;
}
/* ---------------------------------------------- end of the board runtime */
