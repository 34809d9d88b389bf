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
