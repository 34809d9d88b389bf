/* Finvara board runtime of icp2c (C99, libc only). A port of its Rust
 * board runtime with the same data layout, algorithms and messages: see that file for
 * the path program format. The language: icp2c's reference
 * docs/finvara.md, whose sections are cited as §n (§2.1 paths, §4 holes
 * and stacks, §5 moves, §5.4 attacks and the end of the game).
 * Cut into the same sections as the Rust runtime (see its module doc). */
/* @section core: prelude_stdout prelude_write_failure prelude_realloc */
/* @end core */

#define ICP_OP_END 0
#define ICP_OP_LEAP 1
#define ICP_OP_FORK 2
#define ICP_OP_JUMP 3
#define ICP_OP_RANK 4
#define ICP_OP_NOT_RANK 5
#define ICP_OP_ENEMY 6
#define ICP_OP_EMPTY 7
#define ICP_OP_TAKE 8
#define ICP_OP_PROMOTE 9
#define ICP_OP_RESET 10
#define ICP_OP_CALL 11
#define ICP_OP_PROMOTE_ANY 12

#define ICP_HOLE (-1)
#define ICP_EMPTY 0
#define ICP_VALUE_X 1
#define ICP_VALUE_Y 2

#define ICP_S_PC 0
#define ICP_S_SQ 1
#define ICP_S_FLAGS 2
#define ICP_S_KIND 3
#define ICP_S_HOLE 4
#define ICP_S_HOLE_NCAP 5
#define ICP_S_HOLE_KIND 6
#define ICP_S_CODE 7
#define ICP_S_CTX 8
#define ICP_S_NREGS 9

#define ICP_F_NULL 1
#define ICP_F_PROMOTED 2

/* "\302\247" is the section sign in UTF-8. */
/* @section input */
#define ICP_NOT_A_NUMBER "input is not a number (\302\2474)"
#define ICP_OUT_OF_RANGE "input number is outside the signed 64-bit range (\302\2474)"
#define ICP_CANNOT_READ "cannot read standard input"
/* @end input */
#define ICP_CANNOT_WRITE "cannot write standard output"
#define ICP_NO_MEMORY "memory exhausted"
/* @section act_add */
/* Section 4 action 0: the top two numbers (popped) are added, the sum pushed. */
#define ICP_ACT_ADD 0
/* @end act_add */
/* @section act_sub */
/* Section 4 action 1: the top number minus the next (both popped) is pushed. */
#define ICP_ACT_SUB 1
/* @end act_sub */
/* @section act_eq */
/* Section 4 action 2: 1 is pushed when the top two (popped) are equal, else 0. */
#define ICP_ACT_EQ 2
/* @end act_eq */
/* @section act_read */
/* Section 4 action 3: a number read from the input is pushed (-1 at its end). */
#define ICP_ACT_READ 3
/* @end act_read */
/* @section act_print */
/* Section 4 action 4: the top number is printed, and stays. */
#define ICP_ACT_PRINT 4
/* @end act_print */
/* @section act_pop */
/* Section 4 action 5: the top number is popped. */
#define ICP_ACT_POP 5
/* @end act_pop */

typedef struct {
    int64_t value;
    int value_of;
    int royal;
    const int32_t *code[2];
} icp_kind;

typedef struct {
    int32_t *data;
    size_t len;
    size_t cap;
} icp_vec;

typedef struct {
    int64_t *data;
    size_t len;
    size_t cap;
} icp_stack;

typedef struct {
    const icp_kind *kinds;
    int32_t nkinds;
    int32_t width;
    int32_t height;
    int32_t ncells;
    int32_t *board;
    int32_t *next_board;
    icp_stack stacks[2];
    int over; /* -1: unknown for this board */
    int eof;
    uint64_t turn; /* of the move being made, for error lines */
    int colour;
    /* search scratch, reused */
    icp_vec arena;   /* visited states: [len, words...] */
    icp_vec todo;    /* offsets of states still to run */
    icp_vec cur;     /* the state being run */
    icp_vec next;    /* a successor being built */
    icp_vec best;    /* best outcome of a move search */
    int has_best;
    int32_t *slots;  /* hash table: arena offsets */
    uint32_t *gens;  /* slot in use when equal to gen */
    size_t nslots;
    size_t used;
    uint32_t gen;
    /* call contexts (see the Rust runtime): per context, the heads of its
     * callers' and exits' lists in links; a caller is [next, context,
     * program, pc], an exit [next, arena offset]; -1 ends a list. The
     * entry states are in the hash table too (context field -1), followed
     * in the arena by their context. */
    icp_vec contexts;
    icp_vec links;
} icp_game;

typedef struct {
    const int32_t *board;
    int32_t kind; /* the moving piece's */
    int32_t colour;
    int32_t from;
    int royal;
    int attack;
    int32_t target;
    int32_t promo;
} icp_search;

static void icp_fail(icp_game *g, const char *cause) {
    if (strcmp(cause, ICP_CANNOT_WRITE) == 0) {
        /* When buffered output fails differs between back ends: the line
         * names no move (docs/finvara.md). */
        icp_report_write_failure(cause);
        exit(1);
    }
    fflush(stdout);
    fprintf(stderr, "error: turn %" PRIu64 " %s: %s\n", g->turn, g->colour == 0 ? "W" : "B", cause);
    exit(1);
}

static void icp_vec_reserve(icp_game *g, icp_vec *v, size_t extra) {
    if (v->len + extra <= v->cap) {
        return;
    }
    size_t cap = v->cap ? v->cap : 64;
    while (cap < v->len + extra) {
        if (cap > ((size_t)-1) / 8) {
            icp_fail(g, ICP_NO_MEMORY);
        }
        cap *= 2;
    }
    int32_t *data = (int32_t *)icp_try_realloc(v->data, cap, sizeof(int32_t));
    if (!data) {
        icp_fail(g, ICP_NO_MEMORY);
    }
    v->data = data;
    v->cap = cap;
}

static void icp_vec_push(icp_game *g, icp_vec *v, int32_t x) {
    icp_vec_reserve(g, v, 1);
    v->data[v->len++] = x;
}

static void icp_vec_copy(icp_game *g, icp_vec *dst, const int32_t *src, size_t n) {
    dst->len = 0;
    icp_vec_reserve(g, dst, n);
    memcpy(dst->data, src, n * sizeof(int32_t));
    dst->len = n;
}

/* @section step */
static void icp_stack_push(icp_game *g, icp_stack *s, int64_t x) {
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        if (cap > ((size_t)-1) / 16) {
            icp_fail(g, ICP_NO_MEMORY);
        }
        int64_t *data = (int64_t *)realloc(s->data, cap * sizeof(int64_t));
        if (!data) {
            icp_fail(g, ICP_NO_MEMORY);
        }
        s->data = data;
        s->cap = cap;
    }
    s->data[s->len++] = x;
}

static int64_t icp_top(const icp_game *g, int colour) {
    const icp_stack *s = &g->stacks[colour];
    return s->len ? s->data[s->len - 1] : 0;
}

/* @end step */
/* @section pop */

static int64_t icp_pop(icp_game *g, int colour) {
    icp_stack *s = &g->stacks[colour];
    return s->len ? s->data[--s->len] : 0;
}
/* @end pop */
/* @section wrap */

/* Two's complement wrap without relying on implementation-defined casts. */
static int64_t icp_wrap(uint64_t u) {
    if (u <= (uint64_t)INT64_MAX) {
        return (int64_t)u;
    }
    return -(int64_t)(~u) - 1;
}
/* @end wrap */

static uint32_t icp_hash(const int32_t *w, size_t n) {
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= (uint32_t)w[i];
        h *= 16777619u;
        h ^= h >> 15;
    }
    return h;
}

static void icp_table_grow(icp_game *g);

/* The arena offset of the state in g->next in the hash table, added when
 * missing (then *added is 1). */
static int32_t icp_intern(icp_game *g, int *added) {
    const int32_t *w = g->next.data;
    size_t n = g->next.len;
    *added = 0;
    if ((g->used + 1) * 2 > g->nslots) {
        icp_table_grow(g);
    }
    size_t mask = g->nslots - 1;
    size_t i = icp_hash(w, n) & mask;
    for (;;) {
        if (g->gens[i] != g->gen) {
            break;
        }
        const int32_t *o = g->arena.data + g->slots[i];
        if ((size_t)o[0] == n && memcmp(o + 1, w, n * sizeof(int32_t)) == 0) {
            return g->slots[i];
        }
        i = (i + 1) & mask;
    }
    if (g->arena.len > (size_t)INT32_MAX - n - 1) {
        icp_fail(g, ICP_NO_MEMORY);
    }
    int32_t at = (int32_t)g->arena.len;
    icp_vec_reserve(g, &g->arena, n + 1);
    g->arena.data[g->arena.len++] = (int32_t)n;
    memcpy(g->arena.data + g->arena.len, w, n * sizeof(int32_t));
    g->arena.len += n;
    g->slots[i] = at;
    g->gens[i] = g->gen;
    g->used++;
    *added = 1;
    return at;
}

/* Adds the state in g->next to the visited set; queues it when new. */
static void icp_offer(icp_game *g) {
    int added;
    int32_t at = icp_intern(g, &added);
    if (added) {
        icp_vec_push(g, &g->todo, at);
    }
}

static void icp_table_grow(icp_game *g) {
    size_t old = g->nslots;
    int32_t *old_slots = g->slots;
    uint32_t *old_gens = g->gens;
    size_t n = old ? old * 2 : 256;
    size_t i;
    if (n > ((size_t)-1) / 16) {
        icp_fail(g, ICP_NO_MEMORY);
    }
    g->slots = (int32_t *)malloc(n * sizeof(int32_t));
    g->gens = (uint32_t *)calloc(n, sizeof(uint32_t));
    if (!g->slots || !g->gens) {
        icp_fail(g, ICP_NO_MEMORY);
    }
    g->nslots = n;
    for (i = 0; i < old; i++) {
        if (old_gens[i] == g->gen) {
            const int32_t *o = g->arena.data + old_slots[i];
            size_t j = icp_hash(o + 1, (size_t)o[0]) & (n - 1);
            while (g->gens[j] == g->gen) {
                j = (j + 1) & (n - 1);
            }
            g->slots[j] = old_slots[i];
            g->gens[j] = g->gen;
        }
    }
    free(old_slots);
    free(old_gens);
}

static void icp_search_begin(icp_game *g) {
    g->arena.len = 0;
    g->todo.len = 0;
    /* context 0: the moving kind's own program */
    g->contexts.len = 0;
    g->links.len = 0;
    icp_vec_push(g, &g->contexts, -1);
    icp_vec_push(g, &g->contexts, -1);
    g->used = 0;
    g->has_best = 0;
    g->gen++;
    if (g->gen == 0) {
        /* wrapped: forget every slot */
        if (g->gens) {
            memset(g->gens, 0, g->nslots * sizeof(uint32_t));
        }
        g->gen = 1;
    }
    if (g->nslots == 0) {
        icp_table_grow(g);
    }
}

/* Where the captures start in state st: after its registers, (register,
 * vector) pairs in register order. */
static size_t icp_caps_start(const int32_t *st) {
    return (size_t)ICP_S_NREGS + 1 + 2 * (size_t)st[ICP_S_NREGS];
}

/* Where register reg is (*found 1) or would go among the pairs of st. */
static size_t icp_reg_slot(const int32_t *st, int32_t reg, int *found) {
    size_t lo = 0, hi = (size_t)st[ICP_S_NREGS];
    *found = 0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int32_t r = st[ICP_S_NREGS + 1 + 2 * mid];
        if (r == reg) {
            *found = 1;
            return ICP_S_NREGS + 1 + 2 * mid;
        }
        if (r < reg) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return ICP_S_NREGS + 1 + 2 * lo;
}

/* The vector register reg holds in st, or -1 when it is unset. */
static int32_t icp_reg_get(const int32_t *st, int32_t reg) {
    int found;
    size_t at = icp_reg_slot(st, reg, &found);
    return found ? st[at + 1] : -1;
}

/* Sets register reg of the state in v to value. */
static void icp_reg_set(icp_game *g, icp_vec *v, int32_t reg, int32_t value) {
    int found;
    size_t at = icp_reg_slot(v->data, reg, &found);
    if (found) {
        v->data[at + 1] = value;
        return;
    }
    icp_vec_reserve(g, v, 2);
    memmove(v->data + at + 2, v->data + at, (v->len - at) * sizeof(int32_t));
    v->data[at] = reg;
    v->data[at + 1] = value;
    v->len += 2;
    v->data[ICP_S_NREGS]++;
}

/* Unsets registers first .. first + count - 1 of the state in v. */
static void icp_reg_reset(icp_vec *v, int32_t first, int32_t count) {
    int found;
    size_t from = icp_reg_slot(v->data, first, &found);
    size_t to = icp_reg_slot(v->data, count > INT32_MAX - first ? INT32_MAX : first + count, &found);
    if (to > from) {
        memmove(v->data + from, v->data + to, (v->len - to) * sizeof(int32_t));
        v->len -= to - from;
        v->data[ICP_S_NREGS] -= (int32_t)((to - from) / 2);
    }
}

static int icp_captured(const icp_search *s, const icp_game *g, int32_t sq) {
    size_t i;
    (void)s;
    for (i = icp_caps_start(g->cur.data); i < g->cur.len; i++) {
        if (g->cur.data[i] == sq) {
            return 1;
        }
    }
    return 0;
}

static int icp_occupied(const icp_search *s, const icp_game *g, int32_t sq) {
    return sq != s->from && s->board[sq] > 0 && !icp_captured(s, g, sq);
}

static int icp_enemy(const icp_search *s, const icp_game *g, int32_t sq) {
    int32_t cell = s->board[sq];
    return sq != s->from && cell > 0 && (cell - 1) % 2 != s->colour && !icp_captured(s, g, sq);
}

static int icp_friendly(const icp_search *s, int32_t sq) {
    int32_t cell = s->board[sq];
    return sq != s->from && cell > 0 && (cell - 1) % 2 == s->colour;
}

/* A path ends (section 2.1, 5.1). */
static int icp_end(const icp_search *s, icp_game *g) {
    const int32_t *st = g->cur.data;
    int32_t sq = st[ICP_S_SQ];
    size_t first = icp_caps_start(st);
    size_t ncaps = g->cur.len - first;
    const int32_t *caps = st + first;
    int promoted;
    if (sq != s->target || icp_friendly(s, sq)) {
        return 0;
    }
    if (s->attack) {
        return 1;
    }
    if (sq == s->from && (st[ICP_S_FLAGS] & (ICP_F_NULL | ICP_F_PROMOTED)) == 0) {
        return 0;
    }
    promoted = (st[ICP_S_FLAGS] & ICP_F_PROMOTED) != 0;
    if (s->promo >= 0) {
        if (!promoted || st[ICP_S_KIND] != s->promo) {
            return 0;
        }
    } else if (promoted) {
        return 0;
    }
    /* outcome: [hole, ncaps, caps..., kind] in g->next */
    g->next.len = 0;
    icp_vec_push(g, &g->next, st[ICP_S_HOLE]);
    if (st[ICP_S_HOLE] >= 0) {
        size_t n = (size_t)st[ICP_S_HOLE_NCAP];
        size_t i;
        icp_vec_push(g, &g->next, (int32_t)n);
        for (i = 0; i < n; i++) {
            icp_vec_push(g, &g->next, caps[i]);
        }
        icp_vec_push(g, &g->next, st[ICP_S_HOLE_KIND]);
    } else {
        int last = icp_enemy(s, g, sq);
        size_t i;
        icp_vec_push(g, &g->next, (int32_t)ncaps + last);
        for (i = 0; i < ncaps; i++) {
            icp_vec_push(g, &g->next, g->cur.data[first + i]);
        }
        if (last) {
            icp_vec_push(g, &g->next, sq);
        }
        icp_vec_push(g, &g->next, g->cur.data[ICP_S_KIND]);
    }
    {
        int better = !g->has_best;
        if (!better) {
            size_t i;
            size_t n = g->next.len < g->best.len ? g->next.len : g->best.len;
            better = 0;
            for (i = 0; i < n; i++) {
                if (g->next.data[i] != g->best.data[i]) {
                    better = g->next.data[i] < g->best.data[i];
                    break;
                }
            }
            if (i == n) {
                better = g->next.len < g->best.len;
            }
        }
        if (better) {
            icp_vec_copy(g, &g->best, g->next.data, g->next.len);
            g->has_best = 1;
        }
    }
    return 0;
}

/* The state at arena offset `exit`, where a called program ended, going on
 * in its caller (context, program, pc) = links[caller..caller+2]. */
static void icp_resume(icp_game *g, int32_t exit, int32_t caller) {
    int32_t *ns;
    icp_vec_copy(g, &g->next, g->arena.data + exit + 1, (size_t)g->arena.data[exit]);
    ns = g->next.data;
    ns[ICP_S_CTX] = g->links.data[caller];
    ns[ICP_S_CODE] = g->links.data[caller + 1];
    ns[ICP_S_PC] = g->links.data[caller + 2];
    icp_offer(g);
}

/* CALL kind in state g->cur, going on at `back` in the caller's program:
 * the called program is entered in the same state (a context explored
 * once however many paths make the same call), and every state it has
 * ended in, or will end in, goes on at `back`. */
static void icp_call(icp_game *g, int32_t kind, int32_t back) {
    int added;
    int32_t at, ctx, link;
    icp_vec_copy(g, &g->next, g->cur.data, g->cur.len);
    g->next.data[ICP_S_PC] = 1;
    g->next.data[ICP_S_CODE] = kind;
    g->next.data[ICP_S_CTX] = -1;
    at = icp_intern(g, &added);
    if (added) {
        ctx = (int32_t)(g->contexts.len / 2);
        icp_vec_push(g, &g->arena, ctx);
        icp_vec_push(g, &g->contexts, -1);
        icp_vec_push(g, &g->contexts, -1);
        g->next.data[ICP_S_CTX] = ctx;
        icp_offer(g);
    } else {
        ctx = g->arena.data[at + 1 + g->arena.data[at]];
    }
    if (g->links.len > (size_t)INT32_MAX - 4) {
        icp_fail(g, ICP_NO_MEMORY);
    }
    link = (int32_t)g->links.len;
    icp_vec_push(g, &g->links, g->contexts.data[2 * ctx]);
    icp_vec_push(g, &g->links, g->cur.data[ICP_S_CTX]);
    icp_vec_push(g, &g->links, g->cur.data[ICP_S_CODE]);
    icp_vec_push(g, &g->links, back);
    g->contexts.data[2 * ctx] = link;
    for (at = g->contexts.data[2 * ctx + 1]; at >= 0; at = g->links.data[at]) {
        icp_resume(g, g->links.data[at + 1], link + 1);
    }
}

/* A path of a called program ends in g->cur: it goes on after every call
 * of its context, made so far or later. */
static void icp_leave(icp_game *g) {
    int32_t ctx = g->cur.data[ICP_S_CTX], exit, link;
    if (g->arena.len > (size_t)INT32_MAX - g->cur.len - 1 || g->links.len > (size_t)INT32_MAX - 2) {
        icp_fail(g, ICP_NO_MEMORY);
    }
    exit = (int32_t)g->arena.len;
    icp_vec_push(g, &g->arena, (int32_t)g->cur.len);
    icp_vec_reserve(g, &g->arena, g->cur.len);
    memcpy(g->arena.data + g->arena.len, g->cur.data, g->cur.len * sizeof(int32_t));
    g->arena.len += g->cur.len;
    link = (int32_t)g->links.len;
    icp_vec_push(g, &g->links, g->contexts.data[2 * ctx + 1]);
    icp_vec_push(g, &g->links, exit);
    g->contexts.data[2 * ctx + 1] = link;
    for (link = g->contexts.data[2 * ctx]; link >= 0; link = g->links.data[link]) {
        icp_resume(g, exit, link + 1);
    }
}

/* Runs g->cur until it ends or branches; 1 when an attack reached its target. */
static int icp_run_state(const icp_search *s, icp_game *g) {
    const int32_t *code = g->kinds[g->cur.data[ICP_S_CODE]].code[s->colour];
    for (;;) {
        int32_t *st = g->cur.data;
        int32_t pc = st[ICP_S_PC];
        int32_t sq = st[ICP_S_SQ];
        switch (code[pc]) {
        case ICP_OP_LEAP: {
            int32_t reg = code[pc + 1];
            int32_t n = code[pc + 2];
            int32_t next = pc + 3 + 2 * n;
            int32_t fixed = reg >= 0 ? icp_reg_get(st, reg) : -1;
            int32_t lo = fixed >= 0 ? fixed : 0;
            int32_t hi = fixed >= 0 ? fixed + 1 : n;
            int32_t col = sq % g->width;
            int32_t row = sq / g->width;
            int32_t i;
            if (icp_occupied(s, g, sq)) {
                return 0;
            }
            for (i = lo; i < hi; i++) {
                int32_t dx = code[pc + 3 + 2 * i];
                int32_t dy = code[pc + 4 + 2 * i];
                int32_t c = col + dx;
                int32_t r = row + dy;
                int32_t nsq;
                int32_t *ns;
                if (c < 0 || c >= g->width || r < 0 || r >= g->height) {
                    continue;
                }
                nsq = r * g->width + c;
                if (s->board[nsq] == ICP_HOLE && (s->royal || s->attack)) {
                    continue;
                }
                icp_vec_copy(g, &g->next, g->cur.data, g->cur.len);
                ns = g->next.data;
                ns[ICP_S_PC] = next;
                ns[ICP_S_SQ] = nsq;
                if (dx == 0 && dy == 0) {
                    ns[ICP_S_FLAGS] |= ICP_F_NULL;
                }
                if (s->board[nsq] == ICP_HOLE && ns[ICP_S_HOLE] < 0) {
                    ns[ICP_S_HOLE] = nsq;
                    ns[ICP_S_HOLE_NCAP] = (int32_t)(g->cur.len - icp_caps_start(g->cur.data));
                    ns[ICP_S_HOLE_KIND] = ns[ICP_S_KIND];
                }
                if (reg >= 0) {
                    icp_reg_set(g, &g->next, reg, i);
                }
                icp_offer(g);
            }
            return 0;
        }
        case ICP_OP_FORK: {
            int32_t reg = code[pc + 1];
            int32_t n = code[pc + 2];
            int32_t fixed = reg >= 0 ? icp_reg_get(st, reg) : -1;
            int32_t lo = fixed >= 0 ? fixed : 0;
            int32_t hi = fixed >= 0 ? fixed + 1 : n;
            int32_t i;
            for (i = lo; i < hi; i++) {
                icp_vec_copy(g, &g->next, g->cur.data, g->cur.len);
                g->next.data[ICP_S_PC] = code[pc + 3 + i];
                if (reg >= 0) {
                    icp_reg_set(g, &g->next, reg, i);
                }
                icp_offer(g);
            }
            return 0;
        }
        case ICP_OP_JUMP:
            st[ICP_S_PC] = code[pc + 1];
            break;
        case ICP_OP_RANK:
        case ICP_OP_NOT_RANK: {
            int32_t row = sq / g->width + 1;
            int inside = row >= code[pc + 1] && row <= code[pc + 2];
            if (inside == (code[pc] == ICP_OP_RANK)) {
                st[ICP_S_PC] = pc + 4;
            } else {
                st[ICP_S_PC] = code[pc + 3];
            }
            break;
        }
        case ICP_OP_ENEMY:
            if (!icp_enemy(s, g, sq)) {
                return 0;
            }
            st[ICP_S_PC] = pc + 1;
            break;
        case ICP_OP_EMPTY:
            if (icp_occupied(s, g, sq)) {
                return 0;
            }
            st[ICP_S_PC] = pc + 1;
            break;
        case ICP_OP_TAKE:
            if (!icp_enemy(s, g, sq)) {
                return 0;
            }
            st[ICP_S_PC] = pc + 1;
            icp_vec_push(g, &g->cur, sq);
            if (s->attack) {
                /* Only the set matters to an attack: keep it sorted. */
                size_t first = icp_caps_start(g->cur.data);
                size_t i = g->cur.len - 1;
                while (i > first && g->cur.data[i - 1] > sq) {
                    g->cur.data[i] = g->cur.data[i - 1];
                    i--;
                }
                g->cur.data[i] = sq;
            }
            break;
        case ICP_OP_PROMOTE:
        case ICP_OP_PROMOTE_ANY: {
            int any = code[pc] == ICP_OP_PROMOTE_ANY;
            int32_t n = any ? 0 : code[pc + 1];
            int32_t next = any ? pc + 1 : pc + 2 + n;
            int32_t count = any ? g->nkinds : n;
            int32_t i;
            if (s->attack) {
                st[ICP_S_PC] = next;
                break;
            }
            for (i = 0; i < count; i++) {
                int32_t k = any ? i : code[pc + 2 + i];
                if (k < 0 || k >= g->nkinds || (any && k == s->kind)) {
                    continue;
                }
                icp_vec_copy(g, &g->next, g->cur.data, g->cur.len);
                g->next.data[ICP_S_PC] = next;
                g->next.data[ICP_S_KIND] = k;
                g->next.data[ICP_S_FLAGS] |= ICP_F_PROMOTED;
                icp_offer(g);
            }
            st[ICP_S_PC] = next;
            icp_vec_copy(g, &g->next, g->cur.data, g->cur.len);
            icp_offer(g);
            return 0;
        }
        case ICP_OP_RESET:
            icp_reg_reset(&g->cur, code[pc + 1], code[pc + 2]);
            g->cur.data[ICP_S_PC] = pc + 3;
            break;
        case ICP_OP_CALL:
            icp_call(g, code[pc + 1], pc + 2);
            return 0;
        default:
            if (st[ICP_S_CTX] != 0) {
                icp_leave(g);
                return 0;
            }
            return icp_end(s, g);
        }
    }
}

/* Explores every path; returns 1 when an attack search reached its target.
 * A move search leaves its best outcome in g->best (g->has_best). */
static int icp_explore(const icp_search *s, icp_game *g, int32_t kind) {
    icp_search_begin(g);
    g->next.len = 0;
    icp_vec_push(g, &g->next, 1);
    icp_vec_push(g, &g->next, s->from);
    icp_vec_push(g, &g->next, 0);
    icp_vec_push(g, &g->next, kind);
    icp_vec_push(g, &g->next, -1);
    icp_vec_push(g, &g->next, 0);
    icp_vec_push(g, &g->next, kind);
    icp_vec_push(g, &g->next, kind);
    icp_vec_push(g, &g->next, 0);
    icp_vec_push(g, &g->next, 0);
    icp_offer(g);
    while (g->todo.len > 0) {
        int32_t at = g->todo.data[--g->todo.len];
        icp_vec_copy(g, &g->cur, g->arena.data + at + 1, (size_t)g->arena.data[at]);
        if (icp_run_state(s, g)) {
            return 1;
        }
    }
    return 0;
}

/* @section step */
static int64_t icp_value(const icp_game *g, int32_t kind, int32_t sq) {
    const icp_kind *k = &g->kinds[kind];
    if (k->value_of == ICP_VALUE_X) {
        return (int64_t)(sq % g->width + 1);
    }
    if (k->value_of == ICP_VALUE_Y) {
        return (int64_t)(sq / g->width + 1);
    }
    return k->value;
}
/* @end step */

/* Whether a piece of colour `by` attacks `sq` on `board` (section 5.4). */
static int icp_attacked(icp_game *g, const int32_t *board, int32_t sq, int32_t by) {
    int32_t s;
    for (s = 0; s < g->ncells; s++) {
        int32_t cell = board[s];
        int32_t kind;
        icp_search se;
        if (cell <= 0 || (cell - 1) % 2 != by) {
            continue;
        }
        kind = (cell - 1) / 2;
        se.board = board;
        se.kind = kind;
        se.colour = by;
        se.from = s;
        se.royal = g->kinds[kind].royal;
        se.attack = 1;
        se.target = sq;
        se.promo = -1;
        if (icp_explore(&se, g, kind)) {
            return 1;
        }
    }
    return 0;
}

/* @section step */
static int icp_royal_attacked(icp_game *g, const int32_t *board, int32_t colour) {
    int32_t s;
    for (s = 0; s < g->ncells; s++) {
        int32_t cell = board[s];
        if (cell > 0 && (cell - 1) % 2 == colour && g->kinds[(cell - 1) / 2].royal &&
            icp_attacked(g, board, s, 1 - colour)) {
            return 1;
        }
    }
    return 0;
}
/* @end step */

static void icp_game_init(icp_game *g, const icp_kind *kinds, int32_t nkinds, int32_t width, int32_t height,
                   const int32_t *cells) {
    memset(g, 0, sizeof *g);
    icp_stdout_setup(0);
    g->kinds = kinds;
    g->nkinds = nkinds;
    g->width = width;
    g->height = height;
    g->ncells = width * height;
    g->board = (int32_t *)malloc((size_t)g->ncells * sizeof(int32_t));
    g->next_board = (int32_t *)malloc((size_t)g->ncells * sizeof(int32_t));
    g->over = -1;
    if (!g->board || !g->next_board) {
        icp_fail(g, ICP_NO_MEMORY);
    }
    memcpy(g->board, cells, (size_t)g->ncells * sizeof(int32_t));
}

/* Section 5.4: a player whose royal pieces are all attacked, or who has none,
 * has lost. */
static int icp_game_over(icp_game *g) {
    int32_t colour;
    int over = 0;
    if (g->over >= 0) {
        return g->over;
    }
    for (colour = 0; colour < 2; colour++) {
        int32_t royals = 0;
        int32_t attacked = 0;
        int32_t s;
        for (s = 0; s < g->ncells; s++) {
            int32_t cell = g->board[s];
            if (cell > 0 && (cell - 1) % 2 == colour && g->kinds[(cell - 1) / 2].royal) {
                royals++;
                if (icp_attacked(g, g->board, s, 1 - colour)) {
                    attacked++;
                } else {
                    break;
                }
            }
        }
        if (royals == attacked) {
            over = 1;
        }
    }
    g->over = over;
    return over;
}

/* @section step */

/* Section 5.1: an invalid move skips the next one when both tops are non-zero. */
static int icp_skip(const icp_game *g) {
    return icp_top(g, 0) != 0 && icp_top(g, 1) != 0;
}
/* @end step */
/* @section place */

/* Section 5.3: puts a piece on an empty square. */
static void icp_place(icp_game *g, int colour, int32_t kind, int32_t sq) {
    if (g->board[sq] == ICP_EMPTY) {
        g->board[sq] = 1 + 2 * kind + colour;
        g->over = -1;
    }
}
/* @end place */
/* @section input: wrap */

static int icp_is_blank(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == 0x0c;
}

/* Section 4 action 3: one whitespace-separated integer; -1 at end of input. */
static int64_t icp_read_number(icp_game *g) {
    int c;
    int negative = 0;
    int first = 1;
    int bad = 0;
    int overflow = 0;
    uint64_t digits = 0;
    uint64_t magnitude = 0;
    uint64_t limit;
    if (fflush(stdout) != 0) {
        icp_fail(g, ICP_CANNOT_WRITE);
    }
    if (g->eof) {
        return -1;
    }
    do {
        c = getchar();
    } while (c != EOF && icp_is_blank(c));
    if (c == EOF) {
        if (ferror(stdin)) {
            icp_fail(g, ICP_CANNOT_READ);
        }
        g->eof = 1;
        return -1;
    }
    while (c != EOF && !icp_is_blank(c)) {
        if (first && (c == '-' || c == '+')) {
            negative = c == '-';
        } else if (c >= '0' && c <= '9') {
            uint64_t d = (uint64_t)(c - '0');
            digits++;
            if (magnitude > (UINT64_MAX - d) / 10) {
                overflow = 1;
            } else {
                magnitude = magnitude * 10 + d;
            }
        } else {
            bad = 1;
        }
        first = 0;
        c = getchar();
    }
    if (c == EOF) {
        if (ferror(stdin)) {
            icp_fail(g, ICP_CANNOT_READ);
        }
        g->eof = 1;
    } else {
        ungetc(c, stdin);
    }
    if (bad || digits == 0) {
        icp_fail(g, ICP_NOT_A_NUMBER);
    }
    limit = negative ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1;
    if (overflow || magnitude > limit) {
        icp_fail(g, ICP_OUT_OF_RANGE);
    }
    return negative ? icp_wrap(0 - magnitude) : (int64_t)magnitude;
}

/* @end input */
/* @section output */

/* Section 4 action 4: prints v and a newline on standard output. */
static void icp_print_number(icp_game *g, int64_t v) {
    if (printf("%" PRId64 "\n", v) < 0) {
        icp_fail(g, ICP_CANNOT_WRITE);
    }
}
/* @end output */
/* @section holes: step */

/* Section 4: the stack action of a piece that fell into a hole (the
 * piece's value mod 6); colour is the mover's. A program carries the
 * actions its pieces' values can give. */
static void icp_hole_action(icp_game *g, int64_t action, int colour) {
    switch (action) {
    /* @section act_add: holes pop wrap */
    case ICP_ACT_ADD: {
        int64_t a = icp_pop(g, colour);
        int64_t b = icp_pop(g, colour);
        icp_stack_push(g, &g->stacks[colour], icp_wrap((uint64_t)a + (uint64_t)b));
        break;
    }
    /* @end act_add */
    /* @section act_sub: holes pop wrap */
    case ICP_ACT_SUB: {
        int64_t a = icp_pop(g, colour);
        int64_t b = icp_pop(g, colour);
        icp_stack_push(g, &g->stacks[colour], icp_wrap((uint64_t)a - (uint64_t)b));
        break;
    }
    /* @end act_sub */
    /* @section act_eq: holes pop */
    case ICP_ACT_EQ: {
        int64_t a = icp_pop(g, colour);
        int64_t b = icp_pop(g, colour);
        icp_stack_push(g, &g->stacks[colour], a == b ? 1 : 0);
        break;
    }
    /* @end act_eq */
    /* @section act_read: holes input */
    case ICP_ACT_READ:
        icp_stack_push(g, &g->stacks[colour], icp_read_number(g));
        break;
    /* @end act_read */
    /* @section act_print: holes output */
    case ICP_ACT_PRINT:
        icp_print_number(g, icp_top(g, colour));
        break;
    /* @end act_print */
    /* @section act_pop: holes pop */
    case ICP_ACT_POP:
        icp_pop(g, colour);
        break;
    /* @end act_pop */
    default:
        break;
    }
}
/* @end holes */
/* @section step */

/* Section 5.1: the move `kind from -> to` (`= promo` when promo >= 0).
 * Returns 1 when valid (and made), 0 when invalid (nothing changed). */
static int icp_step(icp_game *g, uint64_t turn, int colour, int32_t kind, int32_t from, int32_t to, int32_t promo) {
    icp_search se;
    int32_t hole;
    int32_t ncaps;
    int32_t new_kind;
    int32_t i;
    int32_t *swap;
    g->turn = turn;
    g->colour = colour;
    if (g->board[from] != 1 + 2 * kind + colour) {
        return 0;
    }
    se.board = g->board;
    se.kind = kind;
    se.colour = colour;
    se.from = from;
    se.royal = g->kinds[kind].royal;
    se.attack = 0;
    se.target = to;
    se.promo = promo;
    icp_explore(&se, g, kind);
    if (!g->has_best) {
        return 0;
    }
    hole = g->best.data[0];
    ncaps = g->best.data[1];
    new_kind = g->best.data[2 + ncaps];
    memcpy(g->next_board, g->board, (size_t)g->ncells * sizeof(int32_t));
    g->next_board[from] = ICP_EMPTY;
    for (i = 0; i < ncaps; i++) {
        g->next_board[g->best.data[2 + i]] = ICP_EMPTY;
    }
    if (hole < 0) {
        g->next_board[to] = 1 + 2 * new_kind + colour;
    }
    /* Section 5.1: after a valid move no royal piece of the mover is attacked.
     * (Attack searches leave g->best alone.) */
    if (icp_royal_attacked(g, g->next_board, colour)) {
        return 0;
    }
    /* Section 5.2: captures push the captured piece's value on its colour's stack. */
    for (i = 0; i < ncaps; i++) {
        int32_t c = g->best.data[2 + i];
        int32_t cell = g->board[c];
        int32_t ck = (cell - 1) / 2;
        int32_t cc = (cell - 1) % 2;
        if (!g->kinds[ck].royal) {
            icp_stack_push(g, &g->stacks[cc], icp_value(g, ck, c));
        }
    }
    swap = g->board;
    g->board = g->next_board;
    g->next_board = swap;
    g->over = -1;
    /* @section holes */
    if (hole >= 0) {
        int64_t v = icp_value(g, new_kind, hole) % 6;
        if (v < 0) {
            v += 6;
        }
        icp_hole_action(g, v, colour);
    }
    /* @end holes */
    return 1;
}

/* Section 5.1: makes move pc and returns the number of the move to make
 * next: pc + 2 when it was invalid and the skip rule holds, else pc + 1.
 * What a generated program's moves call, one call each. */
static long icp_play(icp_game *g, long pc, uint64_t turn, int colour, int32_t kind, int32_t from,
                     int32_t to, int32_t promo) {
    return (!icp_step(g, turn, colour, kind, from, to, promo) && icp_skip(g)) ? pc + 2 : pc + 1;
}
/* @end step */
