/* ---------------------------------------------------------------------
 * The CHEG engine in C (spec/cheg.md §2, §4, §5, §6, §7.3, §9): values,
 * conditions and orderings, the instructions, the endgame program inside
 * the search, runtime errors. The C port of runtime/engine.rs, pasted into
 * generated C after the prelude and chess.c: keep the two in step (the
 * tests run every example, conformance case and random program through
 * both and compare the bytes).
 *
 * Values (§2) have value semantics; sets are shared, reference counted
 * and copied on write: an edit changes a set in place when only the edited
 * variable holds it, and copies it first otherwise, so building a set one
 * PAIR, APPEND or INSERT at a time costs O(1) amortised a step. Freeing,
 * comparing and printing nested sets use explicit stacks, never recursion.
 * Every allocation of a search is tracked in one list, so that a runtime
 * error (§9), which ends the whole search, unwinds with longjmp and frees
 * everything at once.
 *
 * The generated program does control flow only: icp_program_step runs one
 * statement through the icp_do_* functions below and returns a step code.
 * --------------------------------------------------------------------- */
#include <setjmp.h>
#include <stdarg.h>

/* ICP_UNUSED (chess.c) marks the functions a program may not call (which
 * ones depends on its statements), so that -Wall stays quiet. */

/* Statements one invocation may execute (§5.2, §11.16). */
#define ICP_MAX_STATEMENTS 1000000
/* Calls that may be active at once (§5.2, §11.16). */
#define ICP_MAX_CALLS 1000
/* The checkmate value at DEPTH 0 (§6.2). */
#define ICP_MATE 28672

/* ------------------------------------------------- tracked allocation */

typedef union icp_header {
    struct {
        union icp_header *prev, *next;
    } link;
    int64_t align_i;
    double align_d;
    void *align_p;
} icp_header;

static icp_header icp_live = {{&icp_live, &icp_live}};

ICP_COLD static void icp_memory_exhausted(void)
{
    fflush(stdout);
    fprintf(stderr, "error: memory exhausted\n");
    exit(1);
}

static void icp_link(icp_header *h)
{
    h->link.prev = &icp_live;
    h->link.next = icp_live.link.next;
    icp_live.link.next->link.prev = h;
    icp_live.link.next = h;
}

static void icp_unlink(icp_header *h)
{
    h->link.prev->link.next = h->link.next;
    h->link.next->link.prev = h->link.prev;
}

/* count elements of size bytes, tracked; never NULL. */
static void *icp_alloc(size_t count, size_t size)
{
    icp_header *h;
    if (count == 0)
        count = 1;
    if (count > (SIZE_MAX - sizeof *h) / size)
        icp_memory_exhausted();
    h = malloc(sizeof *h + count * size);
    if (!h)
        icp_memory_exhausted();
    icp_link(h);
    return h + 1;
}

/* Grows a tracked block (or allocates one when old is NULL). */
static void *icp_regrow(void *old, size_t count, size_t size)
{
    icp_header *h, *n;
    if (!old)
        return icp_alloc(count, size);
    if (count == 0)
        count = 1;
    if (count > (SIZE_MAX - sizeof *h) / size)
        icp_memory_exhausted();
    h = (icp_header *)old - 1;
    icp_unlink(h);
    n = realloc(h, sizeof *h + count * size);
    if (!n) {
        icp_link(h);
        icp_memory_exhausted();
    }
    icp_link(n);
    return n + 1;
}

static void icp_release(void *p)
{
    icp_header *h;
    if (!p)
        return;
    h = (icp_header *)p - 1;
    icp_unlink(h);
    free(h);
}

/* After a runtime error: everything the search had allocated. */
ICP_COLD static void icp_release_all(void)
{
    while (icp_live.link.next != &icp_live) {
        icp_header *h = icp_live.link.next;
        icp_unlink(h);
        free(h);
    }
}

/* ------------------------------------------------------------ text */

/* A growing string (plain malloc: it never outlives the function that
 * builds it, and nothing longjmps while one is open). */
typedef struct {
    char *text;
    size_t len, cap;
} icp_text;

ICP_COLD static void icp_text_put(icp_text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 64;
        char *grown;
        while (cap < t->len + n + 1) {
            if (cap > SIZE_MAX / 2)
                icp_memory_exhausted();
            cap *= 2;
        }
        grown = realloc(t->text, cap);
        if (!grown)
            icp_memory_exhausted();
        t->text = grown;
        t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->len += n;
    t->text[t->len] = '\0';
}

ICP_COLD static void icp_text_str(icp_text *t, const char *s)
{
    icp_text_put(t, s, strlen(s));
}

ICP_COLD static void icp_text_int(icp_text *t, int64_t n)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, n);
    icp_text_str(t, buf);
}

/* The text so far (never NULL); the caller frees it. */
ICP_COLD static char *icp_text_take(icp_text *t)
{
    if (!t->text)
        icp_text_put(t, "", 0);
    return t->text;
}

/* ---------------------------------------------------------- values (§2) */

enum {
    ICP_V_UNDEFINED,
    ICP_V_LOGICAL,
    ICP_V_INTEGER,
    ICP_V_SET,
    ICP_V_PIECE,
    ICP_V_SQUARE,
    ICP_V_MOVE
};

typedef struct icp_set icp_set;

/* A move as a value: the moving piece as it stood, destination, promotion
 * kind (ICP_NO_KIND for none). */
typedef struct {
    icp_piece piece;
    uint8_t to, promotion;
} icp_move_value;

typedef struct {
    int tag;
    union {
        int logical;
        int64_t integer;
        icp_set *set;
        icp_piece piece;
        uint8_t square;
        icp_move_value move;
    } as;
} icp_value;

struct icp_set {
    size_t refs, len, cap;
    icp_value *items;
    /* While freeing (icp_drop): the next set to free. */
    icp_set *dead;
};

static icp_value icp_undefined(void)
{
    icp_value v;
    memset(&v, 0, sizeof v);
    v.tag = ICP_V_UNDEFINED;
    return v;
}

static icp_value icp_logical(int b)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_LOGICAL;
    v.as.logical = b != 0;
    return v;
}

static icp_value icp_integer(int64_t n)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_INTEGER;
    v.as.integer = n;
    return v;
}

static icp_value icp_square_value(uint8_t s)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_SQUARE;
    v.as.square = s;
    return v;
}

static icp_value icp_piece_value(icp_piece p)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_PIECE;
    v.as.piece = p;
    return v;
}

static icp_value icp_move_val(icp_move_value m)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_MOVE;
    v.as.move = m;
    return v;
}

static icp_set *icp_set_new(size_t cap)
{
    icp_set *s = icp_alloc(1, sizeof *s);
    s->refs = 1;
    s->len = 0;
    s->cap = cap;
    s->items = cap ? icp_alloc(cap, sizeof(icp_value)) : NULL;
    s->dead = NULL;
    return s;
}

/* Appends v (consumed) to a set nobody else holds. */
static void icp_set_push(icp_set *s, icp_value v)
{
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4;
        if (cap < s->cap)
            icp_memory_exhausted();
        s->items = icp_regrow(s->items, cap, sizeof(icp_value));
        s->cap = cap;
    }
    s->items[s->len++] = v;
}

static icp_value icp_set_value(icp_set *s)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_SET;
    v.as.set = s;
    return v;
}

/* Another holder of v. */
static icp_value icp_ref(const icp_value *v)
{
    if (v->tag == ICP_V_SET)
        v->as.set->refs++;
    return *v;
}

/* Gives up v (leaves it undefined). The sets nobody holds any more are
 * freed through a list (linked by their dead field), not by recursion, so
 * a set nested any depth is freed in constant stack. */
static void icp_drop(icp_value *v)
{
    icp_set *dead;
    if (v->tag == ICP_V_SET && --v->as.set->refs == 0) {
        dead = v->as.set;
        dead->dead = NULL;
        while (dead) {
            icp_set *s = dead;
            size_t i;
            dead = s->dead;
            for (i = 0; i < s->len; i++) {
                icp_value *item = &s->items[i];
                if (item->tag == ICP_V_SET && --item->as.set->refs == 0) {
                    item->as.set->dead = dead;
                    dead = item->as.set;
                }
            }
            icp_release(s->items);
            icp_release(s);
        }
    }
    v->tag = ICP_V_UNDEFINED;
}

/* A set literal (§2) from its text as icp2c writes it: the value text of
 * §9, "(1 -2 (T #) ())", given in parts (each of them a C string literal
 * short enough for C99) that are read as one text. Built with an explicit
 * stack of the sets still open. */
ICP_LIGHT ICP_UNUSED static icp_value icp_set_literal(int parts, ...)
{
    va_list ap;
    icp_set **open = NULL;
    size_t depth = 0, cap = 0;
    icp_value done = icp_undefined();
    uint64_t magnitude = 0;
    int in_number = 0, negative = 0, part;
    va_start(ap, parts);
    for (part = 0; part <= parts; part++) {
        /* One more round with an empty text ends the last number. */
        const char *c = part < parts ? va_arg(ap, const char *) : " ";
        for (; *c; c++) {
            icp_value value;
            if (*c == '-' || (*c >= '0' && *c <= '9')) {
                if (*c == '-')
                    negative = 1;
                else
                    magnitude = magnitude * 10u + (uint64_t)(*c - '0');
                in_number = 1;
                continue;
            }
            if (in_number) {
                /* -(m - 1) - 1, so that INT64_MIN's magnitude fits. */
                value = icp_integer(!negative || magnitude == 0 ? (int64_t)magnitude
                                                                : -(int64_t)(magnitude - 1) - 1);
                in_number = negative = 0;
                magnitude = 0;
                if (depth > 0)
                    icp_set_push(open[depth - 1], value);
                else
                    done = value;
            }
            if (*c == '(') {
                if (depth == cap) {
                    cap = cap ? cap * 2 : 16;
                    open = icp_regrow(open, cap, sizeof *open);
                }
                open[depth++] = icp_set_new(0);
                continue;
            }
            if (*c == ')' && depth > 0)
                value = icp_set_value(open[--depth]);
            else if (*c == 'T' || *c == 'F')
                value = icp_logical(*c == 'T');
            else if (*c == '#')
                value = icp_undefined();
            else
                continue;
            if (depth > 0)
                icp_set_push(open[depth - 1], value);
            else
                done = value;
        }
    }
    va_end(ap);
    icp_release(open);
    return done;
}

/* A set of the same items that the caller may change: v (consumed) itself
 * when nobody else holds it, else a copy. */
static icp_set *icp_set_own(icp_value v)
{
    icp_set *s = v.as.set, *copy;
    size_t i;
    if (s->refs == 1)
        return s;
    copy = icp_set_new(s->len);
    for (i = 0; i < s->len; i++)
        icp_set_push(copy, icp_ref(&s->items[i]));
    icp_drop(&v);
    return copy;
}

/* §2 equality of two values that are not both sets. */
ICP_LIGHT static int icp_equal_scalar(const icp_value *a, const icp_value *b)
{
    if (a->tag != b->tag)
        return 0;
    switch (a->tag) {
    case ICP_V_UNDEFINED:
        return 1;
    case ICP_V_LOGICAL:
        return a->as.logical == b->as.logical;
    case ICP_V_INTEGER:
        return a->as.integer == b->as.integer;
    case ICP_V_SQUARE:
        return a->as.square == b->as.square;
    case ICP_V_PIECE:
        return a->as.piece.colour == b->as.piece.colour && a->as.piece.kind == b->as.piece.kind &&
               a->as.piece.square == b->as.piece.square;
    case ICP_V_MOVE:
        return a->as.move.piece.colour == b->as.move.piece.colour &&
               a->as.move.piece.kind == b->as.move.piece.kind &&
               a->as.move.piece.square == b->as.move.piece.square && a->as.move.to == b->as.move.to &&
               a->as.move.promotion == b->as.move.promotion;
    default:
        return 0;
    }
}

/* §2 equality: same type and same contents; nested sets are compared
 * with an explicit stack of the pairs of sets still to compare. */
typedef struct {
    const icp_set *a, *b;
} icp_set_pair;

ICP_LIGHT static int icp_equal(const icp_value *a, const icp_value *b)
{
    icp_set_pair local[32], *pending = local;
    size_t count = 0, cap = 32, i;
    int same = 1;
    if (a->tag != ICP_V_SET || b->tag != ICP_V_SET)
        return icp_equal_scalar(a, b);
    if (a->as.set == b->as.set)
        return 1;
    if (a->as.set->len != b->as.set->len)
        return 0;
    pending[0].a = a->as.set;
    pending[0].b = b->as.set;
    count = 1;
    while (same && count > 0) {
        const icp_set *x = pending[count - 1].a, *y = pending[count - 1].b;
        count--;
        for (i = 0; same && i < x->len; i++) {
            const icp_value *p = &x->items[i], *q = &y->items[i];
            if (p->tag != ICP_V_SET || q->tag != ICP_V_SET) {
                same = icp_equal_scalar(p, q);
            } else if (p->as.set != q->as.set) {
                if (p->as.set->len != q->as.set->len) {
                    same = 0;
                    break;
                }
                if (count == cap) {
                    icp_set_pair *grown;
                    if (cap > SIZE_MAX / 2 / sizeof *pending)
                        icp_memory_exhausted();
                    grown = realloc(pending == local ? NULL : pending, 2 * cap * sizeof *pending);
                    if (!grown)
                        icp_memory_exhausted();
                    if (pending == local)
                        memcpy(grown, local, sizeof local);
                    pending = grown;
                    cap *= 2;
                }
                pending[count].a = p->as.set;
                pending[count++].b = q->as.set;
            }
        }
    }
    if (pending != local)
        free(pending);
    return same;
}

ICP_LIGHT static int icp_contains(const icp_set *s, const icp_value *v)
{
    size_t i;
    for (i = 0; i < s->len; i++)
        if (icp_equal(&s->items[i], v))
            return 1;
    return 0;
}

static const char icp_kind_letters[] = " KQRBNP";

static icp_move icp_board_move(icp_move_value m)
{
    icp_move mv;
    mv.from = m.piece.square;
    mv.to = m.to;
    mv.promotion = m.promotion;
    return mv;
}

/* Value text (§9) of a value that is not a set: # T F, integers, squares
 * e4, pieces Ke1 (upper case white), moves in UCI form. */
ICP_COLD static void icp_text_scalar(icp_text *t, const icp_value *v)
{
    char buf[8];
    switch (v->tag) {
    case ICP_V_UNDEFINED:
        icp_text_str(t, "#");
        break;
    case ICP_V_LOGICAL:
        icp_text_str(t, v->as.logical ? "T" : "F");
        break;
    case ICP_V_INTEGER:
        icp_text_int(t, v->as.integer);
        break;
    case ICP_V_SQUARE:
        icp_square_name(v->as.square, buf);
        icp_text_str(t, buf);
        break;
    case ICP_V_PIECE:
        buf[0] = icp_kind_letters[v->as.piece.kind % 7];
        if (v->as.piece.colour == ICP_BLACK)
            buf[0] = (char)(buf[0] - 'A' + 'a');
        icp_square_name(v->as.piece.square, buf + 1);
        icp_text_str(t, buf);
        break;
    case ICP_V_MOVE:
        icp_move_uci(icp_board_move(v->as.move), buf);
        icp_text_str(t, buf);
        break;
    default:
        break;
    }
}

/* A set being written: the set and its next element. */
typedef struct {
    const icp_set *set;
    size_t next;
} icp_open_set;

/* Value text (§9), sets (a b c); nested sets are written with an explicit
 * stack of the sets still open. */
ICP_COLD static void icp_text_value(icp_text *t, const icp_value *v)
{
    icp_open_set *open;
    size_t depth = 0, cap = 16;
    if (v->tag != ICP_V_SET) {
        icp_text_scalar(t, v);
        return;
    }
    open = malloc(cap * sizeof *open);
    if (!open)
        icp_memory_exhausted();
    icp_text_str(t, "(");
    open[depth].set = v->as.set;
    open[depth++].next = 0;
    while (depth > 0) {
        icp_open_set *top = &open[depth - 1];
        const icp_value *item;
        if (top->next == top->set->len) {
            icp_text_str(t, ")");
            depth--;
            continue;
        }
        if (top->next > 0)
            icp_text_str(t, " ");
        item = &top->set->items[top->next++];
        if (item->tag != ICP_V_SET) {
            icp_text_scalar(t, item);
            continue;
        }
        if (depth == cap) {
            icp_open_set *grown;
            if (cap > SIZE_MAX / 2 / sizeof *open)
                icp_memory_exhausted();
            grown = realloc(open, 2 * cap * sizeof *open);
            if (!grown)
                icp_memory_exhausted();
            open = grown;
            cap *= 2;
        }
        icp_text_str(t, "(");
        open[depth].set = item->as.set;
        open[depth++].next = 0;
    }
    free(open);
}

ICP_COLD static const char *icp_type_name(const icp_value *v)
{
    switch (v->tag) {
    case ICP_V_UNDEFINED:
        return "undefined";
    case ICP_V_LOGICAL:
        return "logical";
    case ICP_V_INTEGER:
        return "integer";
    case ICP_V_SET:
        return "set";
    case ICP_V_PIECE:
        return "piece";
    case ICP_V_SQUARE:
        return "square";
    default:
        return "move";
    }
}

/* Wrapping 64-bit arithmetic (Rust's wrapping_*), without signed overflow. */
static int64_t icp_wrap(uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX)
        return (int64_t)u;
    return -(int64_t)(UINT64_MAX - u) - 1;
}

static int64_t icp_wrap_neg(int64_t a)
{
    return icp_wrap(0u - (uint64_t)a);
}

static int64_t icp_saturating_neg(int64_t a)
{
    return a == INT64_MIN ? INT64_MAX : -a;
}

/* ------------------------------------------------- errors (§9) */

/* A runtime error: `error: LINE: MESSAGE (fen FEN)`. */
typedef struct {
    uint32_t line;
    char *message;
    char fen[ICP_FEN_SIZE];
} icp_runtime_error;

static icp_runtime_error icp_error;
/* Where a runtime error goes: the search's root. */
static jmp_buf *icp_error_jump;

/* Ends the search with a runtime error (message malloc'd, taken over). */
ICP_COLD static void icp_raise(uint32_t line, const char *fen, char *message)
{
    free(icp_error.message);
    icp_error.line = line;
    icp_error.message = message;
    memcpy(icp_error.fen, fen, ICP_FEN_SIZE);
    longjmp(*icp_error_jump, 1);
}

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

static int64_t icp_want_integer(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_INTEGER)
        icp_wrong(inv, "an integer", v);
    return v->as.integer;
}

static int icp_want_logical(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_LOGICAL)
        icp_wrong(inv, "a logical", v);
    return v->as.logical;
}

static icp_set *icp_want_set(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_SET)
        icp_wrong(inv, "a set", v);
    return v->as.set;
}

static icp_move_value icp_want_move(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_MOVE)
        icp_wrong(inv, "a move", v);
    return v->as.move;
}

static int64_t icp_abs64(int64_t a)
{
    return a < 0 ? -a : a;
}

/* King distance between two squares. */
ICP_LIGHT static int64_t icp_king_distance(int a, int b)
{
    int64_t df = icp_abs64((int64_t)(a % 8) - (b % 8));
    int64_t dr = icp_abs64((int64_t)(a / 8) - (b / 8));
    return df > dr ? df : dr;
}

/* Distant opposition (§4): file and rank differences both even, not both
 * zero. */
ICP_LIGHT static int icp_opposition(int a, int b)
{
    int df = a % 8 - b % 8, dr = a / 8 - b / 8;
    return df % 2 == 0 && dr % 2 == 0 && !(df == 0 && dr == 0);
}

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

static int icp_mover(const icp_node *node)
{
    return icp_side_to_move(&node->position);
}

/* §3 rank (1-8) of a square, from the side to move's first rank. */
static int64_t icp_rank(const icp_node *node, int square)
{
    int64_t r = square / 8;
    return icp_mover(node) == ICP_WHITE ? r + 1 : 8 - r;
}

/* §3 file: h = 1 ... a = 8. */
static int64_t icp_file(int square)
{
    return 8 - square % 8;
}

/* The square of §3 rank and file, or -1 unless both are 1-8. */
static int icp_square_at(const icp_node *node, int64_t rank, int64_t file)
{
    int64_t abs_rank;
    if (rank < 1 || rank > 8 || file < 1 || file > 8)
        return -1;
    abs_rank = icp_mover(node) == ICP_WHITE ? rank - 1 : 8 - rank;
    return (int)(abs_rank * 8 + (8 - file));
}

/* SIDE of a square: 0 for files h-e, 1 for d-a. */
static int64_t icp_side_of(int square)
{
    return square % 8 >= 4 ? 0 : 1;
}

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

/* A piece variable (§3): mover is W, the side to move. */
ICP_LIGHT static icp_value icp_piece_variable_value(const icp_node *node, int mover, int kind, int index)
{
    icp_piece p;
    int colour = mover ? icp_mover(node) : 1 - icp_mover(node);
    if (icp_piece_variable(&node->position, colour, kind, index, &p))
        return icp_piece_value(p);
    return icp_undefined();
}

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

static int64_t icp_static_eval(const icp_node *node)
{
    return icp_static_value(&node->position);
}

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

/* ---------------------------------------------- the program's language */

/* Variables (§3). */
enum { ICP_VAR_USER, ICP_VAR_X, ICP_VAR_DEPTH, ICP_VAR_PLIES, ICP_VAR_LM, ICP_VAR_PG, ICP_VAR_SIDE, ICP_VAR_PIECE };

typedef struct {
    uint8_t var, mover, kind, index;
    uint32_t slot;
} icp_var;

ICP_UNUSED static icp_var icp_var_make(int var, int mover, int kind, int index, uint32_t slot)
{
    icp_var v;
    v.var = (uint8_t)var;
    v.mover = (uint8_t)mover;
    v.kind = (uint8_t)kind;
    v.index = (uint8_t)index;
    v.slot = slot;
    return v;
}

/* How generated code names variables: ICP_USER(slot), ICP_VAR(ICP_VAR_X),
 * ICP_PIECE_VAR(mover, kind, index) (mover 1: W, the side to move). */
#define ICP_USER(slot) icp_var_make(ICP_VAR_USER, 0, 0, 0, (slot))
#define ICP_VAR(var) icp_var_make((var), 0, 0, 0, 0)
#define ICP_PIECE_VAR(mover, kind, index) icp_var_make(ICP_VAR_PIECE, (mover), (kind), (index), 0)

/* Conditions (§4). */
enum {
    ICP_T_DEFD,
    ICP_T_ZERO,
    ICP_T_NEGATIVE,
    ICP_T_POSITIVE,
    ICP_T_ODD,
    ICP_T_TRUE,
    ICP_T_EMPTY,
    ICP_T_FAR,
    ICP_T_ROOK_FILE,
    ICP_T_KNIGHT_FILE,
    ICP_T_NNF,
    ICP_T_LIGHT_SQUARE,
    ICP_T_KIND,
    ICP_T_MOVER_PIECE,
    ICP_T_PASSED,
    ICP_T_PAWN_DEFENDED,
    ICP_T_CAPTURE,
    ICP_T_CHECK,
    ICP_T_SAFE,
    ICP_T_OPPOSITION,
    ICP_T_KEEPS_KING_RANK
};

/* A condition argument: present 0 is the empty one ("always"). */
typedef struct {
    uint8_t present, negated, test, kind;
} icp_cond;

/* A written condition: a test (kind for ICP_T_KIND), negated by #. */
ICP_UNUSED static icp_cond icp_cond_make(int negated, int test, int kind)
{
    icp_cond c;
    c.present = 1;
    c.negated = (uint8_t)negated;
    c.test = (uint8_t)test;
    c.kind = (uint8_t)kind;
    return c;
}

static icp_cond icp_always(void)
{
    icp_cond c;
    memset(&c, 0, sizeof c);
    return c;
}

/* The empty condition: always true. */
#define ICP_ALWAYS icp_always()

/* Comparisons of JUMP... (§5.1). */
enum { ICP_CMP_LT, ICP_CMP_EQ, ICP_CMP_GT, ICP_CMP_NOT_LT, ICP_CMP_NE, ICP_CMP_NOT_GT };

/* Orderings (§4). */
enum { ICP_ORDER_AS_GIVEN, ICP_ORDER_DEEP, ICP_ORDER_SHALLOW };

/* OP w,a,b (§5.1). */
enum {
    ICP_B_SET_SQ,
    ICP_B_SET_MOV,
    ICP_B_PAIR,
    ICP_B_MEMBER,
    ICP_B_MEM_NUM,
    ICP_B_INTERS,
    ICP_B_UNION,
    ICP_B_DIFFER,
    ICP_B_APPEND,
    ICP_B_GET_EL,
    ICP_B_MV_DIST,
    ICP_B_IN_SQ,
    ICP_B_OPP,
    ICP_B_SQ_RANK,
    ICP_B_NOR,
    ICP_B_AND,
    ICP_B_OR,
    ICP_B_ADD,
    ICP_B_SUB,
    ICP_B_MUL,
    ICP_B_DIV,
    ICP_B_MOD,
    ICP_B_DIF,
    ICP_B_MIN,
    ICP_B_MAX
};

/* OP w,v (§5.1). */
enum {
    ICP_U_SET_V,
    ICP_U_CARD,
    ICP_U_PIECE,
    ICP_U_SQUARE,
    ICP_U_SIDE,
    ICP_U_RANK,
    ICP_U_FILE,
    ICP_U_S_COLOR,
    ICP_U_P_COLOR,
    ICP_U_ABS
};

enum { ICP_PLAY_PLAY, ICP_PLAY_PLAY_B, ICP_PLAY_TRY };
enum { ICP_VALUE_VAL_RET, ICP_VALUE_VAL_RUT, ICP_VALUE_VAL_ON, ICP_VALUE_RET_BET };
enum { ICP_CALL_SET, ICP_CALL_SELECT, ICP_CALL_MAP };

/* An ENTRY line as the runtime matches it (§6.1): counts of queens,
 * rooks, bishops, knights and pawns (-1: any) of the side to move and of
 * the other side; the pawn difference (cmp -1: none). */
typedef struct {
    size_t start;
    int mover[5], other[5];
    int diff_cmp, diff_m;
} icp_entry_spec;

/* Step codes: where control goes after a statement. */
enum { ICP_STEP_NEXT, ICP_STEP_GOTO, ICP_STEP_CALL, ICP_STEP_EACH, ICP_STEP_RETURN, ICP_STEP_FENCE, ICP_STEP_LEAVE, ICP_STEP_OUTCOME };
/* What a call does with its result. */
enum { ICP_THEN_STORE, ICP_THEN_COND, ICP_THEN_CONDTF, ICP_THEN_EACH };
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

/* One call frame. */
typedef struct {
    size_t return_to;
    icp_value saved_x;
    int then;
    icp_var var;
    icp_cond cond;
    int flag;
    size_t target;
    /* ICP_THEN_EACH: the kind, sub, the elements, the next one, the
     * results so far. */
    int each_kind;
    size_t sub;
    icp_value items;
    size_t next;
    icp_set *acc;
} icp_frame;

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
    icp_cond step_cond;
    icp_outcome step_outcome;
};

/* The FEN is the invocation's node's (engine.rs takes it when the
 * invocation starts; the node does not change, so C writes it only here). */
ICP_COLD static void icp_fault(const icp_inv *inv, char *message)
{
    uint32_t line = inv->pc < inv->search->program->statement_count ? inv->search->program->lines[inv->pc] : 0;
    char fen[ICP_FEN_SIZE];
    icp_position_to_fen(&inv->node.position, fen);
    icp_raise(line, fen, message);
}

/* Reads a variable (§3): an owned value. */
ICP_LIGHT static icp_value icp_read(icp_inv *inv, icp_var v)
{
    switch (v.var) {
    case ICP_VAR_USER:
        return v.slot < inv->var_count ? icp_ref(&inv->vars[v.slot]) : icp_undefined();
    case ICP_VAR_X:
        return icp_ref(&inv->x);
    case ICP_VAR_DEPTH:
        return icp_integer(inv->node.depth);
    case ICP_VAR_PLIES:
        return icp_integer(inv->node.plies);
    case ICP_VAR_LM:
        return icp_legal_moves_value(&inv->node);
    case ICP_VAR_PG:
        return icp_pawn_groups(&inv->node);
    case ICP_VAR_SIDE:
        return icp_ref(&inv->side);
    default:
        return icp_piece_variable_value(&inv->node, v.mover, v.kind, v.index);
    }
}

/* Takes the value of a U argument (§4) to change it, leaving the variable
 * undefined until it is written back: a set that only the variable held
 * is then changed in place, not copied (§2, copy on write). A runtime
 * error in between ends the search, so nothing sees it undefined. */
ICP_LIGHT static icp_value icp_take(icp_inv *inv, icp_var v)
{
    icp_value value;
    if (v.var == ICP_VAR_USER && v.slot < inv->var_count) {
        value = inv->vars[v.slot];
        inv->vars[v.slot] = icp_undefined();
        return value;
    }
    if (v.var == ICP_VAR_SIDE) {
        value = inv->side;
        inv->side = icp_undefined();
        return value;
    }
    return icp_read(inv, v);
}

/* Writes a variable (value consumed): user variables and SIDE. */
ICP_LIGHT static void icp_write(icp_inv *inv, icp_var v, icp_value value)
{
    if (v.var == ICP_VAR_USER && v.slot < inv->var_count) {
        icp_drop(&inv->vars[v.slot]);
        inv->vars[v.slot] = value;
    } else if (v.var == ICP_VAR_SIDE) {
        icp_drop(&inv->side);
        inv->side = value;
    } else {
        icp_drop(&value);
    }
}

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

/* A condition's test applied to a value (§4). */
ICP_LIGHT static int icp_node_test(icp_inv *inv, int test, int kind, const icp_value *value)
{
    const icp_node *node = &inv->node;
    int s;
    icp_piece p, target;
    icp_move_value m;
    icp_move mv;
    switch (test) {
    case ICP_T_DEFD:
        return value->tag != ICP_V_UNDEFINED;
    case ICP_T_ZERO:
        return icp_want_integer(inv, value) == 0;
    case ICP_T_NEGATIVE:
        return icp_want_integer(inv, value) < 0;
    case ICP_T_POSITIVE:
        return icp_want_integer(inv, value) > 0;
    case ICP_T_ODD:
        return icp_want_integer(inv, value) % 2 != 0;
    case ICP_T_TRUE:
        return icp_want_logical(inv, value);
    case ICP_T_EMPTY:
        return icp_want_set(inv, value)->len == 0;
    case ICP_T_FAR:
        s = icp_coerce_square(inv, value);
        return icp_side_of(s) != icp_side_int(inv);
    case ICP_T_ROOK_FILE:
        s = icp_coerce_square(inv, value);
        return s % 8 == 0 || s % 8 == 7;
    case ICP_T_KNIGHT_FILE:
        s = icp_coerce_square(inv, value);
        return s % 8 == 1 || s % 8 == 6;
    case ICP_T_NNF:
        s = icp_coerce_square(inv, value);
        return (s % 8 == 1 || s % 8 == 6) && icp_side_of(s) == icp_side_int(inv);
    case ICP_T_LIGHT_SQUARE:
        s = icp_coerce_square(inv, value);
        return (s % 8 + s / 8) % 2 == 1;
    case ICP_T_KIND:
        return icp_coerce_piece(inv, node, value).kind == kind;
    case ICP_T_MOVER_PIECE:
        return icp_coerce_piece(inv, node, value).colour == icp_mover(node);
    case ICP_T_PASSED:
        return icp_passed(node, icp_want_pawn(inv, value));
    case ICP_T_PAWN_DEFENDED:
        return icp_pawn_defended(node, icp_want_pawn(inv, value));
    case ICP_T_CAPTURE:
        /* §11.5 */
        m = icp_want_move(inv, value);
        if (icp_piece_at(&node->position, m.to, &target))
            return target.colour != m.piece.colour;
        return icp_piece_at(&node->position, m.piece.square, &p) && p.colour == m.piece.colour &&
               p.kind == m.piece.kind && icp_is_capture(&node->position, icp_board_move(m));
    case ICP_T_CHECK:
        m = icp_want_move(inv, value);
        return icp_node_legal(node, m, &mv) && icp_gives_check(&node->position, mv);
    case ICP_T_SAFE: {
        int wk, bk, wp;
        m = icp_want_move(inv, value);
        wk = icp_needed(inv, 1, ICP_KING, "WK");
        bk = icp_needed(inv, 0, ICP_KING, "BK");
        wp = icp_needed(inv, 1, ICP_PAWN, "WP");
        if (m.piece.kind == ICP_KING)
            return icp_king_distance(m.to, wp) <= icp_king_distance(bk, wp);
        if (m.piece.kind == ICP_PAWN)
            return icp_king_distance(wk, m.to) <= icp_king_distance(bk, m.to);
        return icp_king_distance(wk, wp) <= icp_king_distance(bk, wp);
    }
    case ICP_T_OPPOSITION: {
        int wk, bk;
        m = icp_want_move(inv, value);
        wk = icp_needed(inv, 1, ICP_KING, "WK");
        bk = icp_needed(inv, 0, ICP_KING, "BK");
        if (m.piece.kind == ICP_KING)
            wk = m.to;
        return icp_opposition(wk, bk);
    }
    default: /* ICP_T_KEEPS_KING_RANK */
        m = icp_want_move(inv, value);
        if (m.piece.kind == ICP_KING) {
            int wk = icp_needed(inv, 1, ICP_KING, "WK");
            return m.to / 8 == wk / 8;
        }
        return 1;
    }
}

/* A condition applied to a value (§4); the empty one is always true. */
ICP_LIGHT static int icp_test(icp_inv *inv, icp_cond cond, const icp_value *value)
{
    if (!cond.present)
        return 1;
    return icp_node_test(inv, cond.test, cond.kind, value) != cond.negated;
}

/* DEEP order key: the destination's §3 rank. */
ICP_LIGHT static int64_t icp_deep_key(icp_inv *inv, const icp_value *v)
{
    return icp_rank(&inv->node, icp_want_move(inv, v).to);
}

/* Orders the items of a set nobody else holds (stable). */
ICP_LIGHT static void icp_order_items(icp_inv *inv, icp_set *s, int ordering)
{
    int64_t *keys;
    size_t i, j;
    if (ordering == ICP_ORDER_AS_GIVEN || s->len == 0)
        return;
    keys = icp_alloc(s->len, sizeof *keys);
    for (i = 0; i < s->len; i++)
        keys[i] = icp_deep_key(inv, &s->items[i]);
    /* Insertion sort: stable; keys are ranks 1-8. */
    for (i = 1; i < s->len; i++) {
        icp_value v = s->items[i];
        int64_t k = keys[i];
        for (j = i; j > 0 && (ordering == ICP_ORDER_DEEP ? keys[j - 1] < k : keys[j - 1] > k); j--) {
            s->items[j] = s->items[j - 1];
            keys[j] = keys[j - 1];
        }
        s->items[j] = v;
        keys[j] = k;
    }
    icp_release(keys);
}

/* Compares two values (§5.1); a and b are consumed. */
ICP_LIGHT static int icp_compare(icp_inv *inv, int cmp, icp_value a, icp_value b)
{
    int r;
    switch (cmp) {
    case ICP_CMP_EQ:
        r = icp_equal(&a, &b);
        break;
    case ICP_CMP_NE:
        r = !icp_equal(&a, &b);
        break;
    default: {
        int64_t x = icp_want_integer(inv, &a), y = icp_want_integer(inv, &b);
        r = cmp == ICP_CMP_LT ? x < y : cmp == ICP_CMP_GT ? x > y : cmp == ICP_CMP_NOT_LT ? x >= y : x <= y;
        break;
    }
    }
    icp_drop(&a);
    icp_drop(&b);
    return r;
}

/* APPEND / UNION a,b (§5.1): a (consumed) extended by b (borrowed), in
 * place when nothing else holds a's set. */
ICP_LIGHT static icp_value icp_extend(icp_inv *inv, int op, icp_value a, const icp_value *b)
{
    icp_set *s;
    size_t i, n;
    icp_want_set(inv, &a);
    if (op == ICP_B_UNION)
        icp_want_set(inv, b);
    n = a.as.set->len;
    s = icp_set_own(a);
    if (op == ICP_B_UNION) {
        /* b's elements not among a's own (the first n): b's duplicates
         * stay (§11.10). */
        for (i = 0; i < b->as.set->len; i++) {
            size_t k;
            int found = 0;
            for (k = 0; k < n && !found; k++)
                found = icp_equal(&s->items[k], &b->as.set->items[i]);
            if (!found)
                icp_set_push(s, icp_ref(&b->as.set->items[i]));
        }
    } else if (b->tag == ICP_V_SET) {
        for (i = 0; i < b->as.set->len; i++)
            icp_set_push(s, icp_ref(&b->as.set->items[i]));
    } else {
        icp_set_push(s, icp_ref(b));
    }
    return icp_set_value(s);
}

/* OP a,b (§5.1): the result; a and b are borrowed. */
ICP_LIGHT static icp_value icp_binary(icp_inv *inv, int op, const icp_value *a, const icp_value *b)
{
    const icp_node *node = &inv->node;
    icp_set *sa, *sb, *out;
    size_t i;
    switch (op) {
    case ICP_B_SET_SQ: {
        int64_t r = icp_want_integer(inv, a), f = icp_want_integer(inv, b);
        int s = icp_square_at(node, r, f);
        return s < 0 ? icp_undefined() : icp_square_value((uint8_t)s);
    }
    case ICP_B_SET_MOV: {
        icp_move_value m;
        int last;
        m.piece = icp_coerce_piece(inv, node, a);
        m.to = (uint8_t)icp_coerce_square(inv, b);
        last = m.piece.colour == ICP_WHITE ? 7 : 0;
        m.promotion = m.piece.kind == ICP_PAWN && m.to / 8 == last ? ICP_QUEEN : ICP_NO_KIND;
        return icp_move_val(m);
    }
    case ICP_B_PAIR:
        out = icp_set_new(2);
        icp_set_push(out, icp_ref(a));
        icp_set_push(out, icp_ref(b));
        return icp_set_value(out);
    case ICP_B_MEMBER:
        return icp_logical(icp_contains(icp_want_set(inv, b), a));
    case ICP_B_MEM_NUM:
        sb = icp_want_set(inv, b);
        for (i = 0; i < sb->len; i++)
            if (icp_equal(&sb->items[i], a))
                return icp_integer((int64_t)i + 1);
        return icp_integer(0);
    case ICP_B_INTERS:
        sb = icp_want_set(inv, b);
        sa = icp_want_set(inv, a);
        out = icp_set_new(sa->len);
        for (i = 0; i < sa->len; i++)
            if (icp_contains(sb, &sa->items[i]))
                icp_set_push(out, icp_ref(&sa->items[i]));
        return icp_set_value(out);
    case ICP_B_UNION:
    case ICP_B_APPEND:
        return icp_extend(inv, op, icp_ref(a), b);
    case ICP_B_DIFFER:
        sb = icp_want_set(inv, b);
        sa = icp_want_set(inv, a);
        out = icp_set_new(sa->len);
        for (i = 0; i < sa->len; i++)
            if (!icp_contains(sb, &sa->items[i]))
                icp_set_push(out, icp_ref(&sa->items[i]));
        return icp_set_value(out);
    case ICP_B_GET_EL:
        sa = icp_want_set(inv, a);
        return icp_ref(&sa->items[icp_index(inv, sa->len, icp_want_integer(inv, b), 0)]);
    case ICP_B_MV_DIST: {
        int x = icp_coerce_square(inv, a), y = icp_coerce_square(inv, b);
        return icp_integer(icp_king_distance(x, y));
    }
    case ICP_B_IN_SQ: {
        icp_piece k = icp_coerce_piece(inv, node, a), p = icp_coerce_piece(inv, node, b);
        int64_t r, n, t;
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
        r = p.colour == ICP_WHITE ? p.square / 8 + 1 : 8 - p.square / 8;
        n = 8 - r < 5 ? 8 - r : 5;
        q = p.colour == ICP_WHITE ? 56 + p.square % 8 : p.square % 8;
        t = k.colour == icp_mover(node);
        return icp_logical(icp_king_distance(k.square, q) - t <= n);
    }
    case ICP_B_OPP: {
        int x = icp_coerce_square(inv, a), y = icp_coerce_square(inv, b);
        return icp_logical(icp_opposition(x, y));
    }
    case ICP_B_SQ_RANK: {
        int s = icp_coerce_square(inv, a), t;
        int64_t k = icp_want_integer(inv, b);
        t = icp_square_at(node, icp_wrap((uint64_t)icp_rank(node, s) + (uint64_t)k), icp_file(s));
        return t < 0 ? icp_undefined() : icp_square_value((uint8_t)t);
    }
    case ICP_B_NOR: {
        int x = icp_want_logical(inv, a);
        int y = x ? 1 : icp_want_logical(inv, b);
        return icp_logical(!(x || y));
    }
    case ICP_B_AND: {
        int x = icp_want_logical(inv, a);
        int y = x ? icp_want_logical(inv, b) : 0;
        return icp_logical(x && y);
    }
    case ICP_B_OR: {
        int x = icp_want_logical(inv, a);
        int y = x ? 1 : icp_want_logical(inv, b);
        return icp_logical(x || y);
    }
    default: {
        int64_t x = icp_want_integer(inv, a), y = icp_want_integer(inv, b);
        switch (op) {
        case ICP_B_ADD:
            return icp_integer(icp_wrap((uint64_t)x + (uint64_t)y));
        case ICP_B_SUB:
            return icp_integer(icp_wrap((uint64_t)x - (uint64_t)y));
        case ICP_B_MUL:
            return icp_integer(icp_wrap((uint64_t)x * (uint64_t)y));
        case ICP_B_DIV:
        case ICP_B_MOD:
            if (y == 0)
                icp_fault_str(inv, "division by zero");
            if (y == -1)
                return icp_integer(op == ICP_B_DIV ? icp_wrap_neg(x) : 0);
            return icp_integer(op == ICP_B_DIV ? x / y : x % y);
        case ICP_B_DIF: {
            int64_t d = icp_wrap((uint64_t)x - (uint64_t)y);
            return icp_integer(d < 0 ? icp_wrap_neg(d) : d);
        }
        case ICP_B_MIN:
            return icp_integer(x < y ? x : y);
        default:
            return icp_integer(x > y ? x : y);
        }
    }
    }
}

/* OP v (§5.1): the result; v is borrowed. */
ICP_LIGHT static icp_value icp_unary(icp_inv *inv, int op, const icp_value *v)
{
    const icp_node *node = &inv->node;
    int s;
    switch (op) {
    case ICP_U_SET_V:
        return icp_ref(v);
    case ICP_U_CARD:
        return icp_integer((int64_t)icp_want_set(inv, v)->len);
    case ICP_U_PIECE:
        return icp_piece_value(icp_coerce_piece(inv, node, v));
    case ICP_U_SQUARE:
        return icp_square_value((uint8_t)icp_coerce_square(inv, v));
    case ICP_U_SIDE:
        return icp_integer(icp_side_of(icp_coerce_square(inv, v)));
    case ICP_U_RANK:
        return icp_integer(icp_rank(node, icp_coerce_square(inv, v)));
    case ICP_U_FILE:
        return icp_integer(icp_file(icp_coerce_square(inv, v)));
    case ICP_U_S_COLOR:
        s = icp_coerce_square(inv, v);
        return icp_integer((s % 8 + s / 8) % 2 == 1 ? 0 : 1);
    case ICP_U_P_COLOR:
        return icp_integer(icp_coerce_piece(inv, node, v).colour != icp_mover(node));
    default: {
        int64_t n = icp_want_integer(inv, v);
        return icp_integer(n < 0 ? icp_wrap_neg(n) : n);
    }
    }
}

/* ------------------------------------------------------------ the search */

static uint64_t icp_plan_key(int side, size_t tag, const icp_value *value);
static void icp_tick(icp_search *search);

static int64_t icp_exact(icp_search *search, const icp_position *position, int64_t plies, int64_t depth,
                         icp_plan *plans);

/* The value of a node without a legal move (§6.2): checkmated
 * -(28672 - DEPTH), stalemate 0. */
static int64_t icp_no_move_value(const icp_position *position, int64_t depth)
{
    return icp_in_check(position) ? -(ICP_MATE - depth) : 0;
}

/* The legal moves of set (borrowed) satisfying cond, ordered (§6.3). */
ICP_LIGHT static icp_set *icp_moves_of(icp_inv *inv, const icp_value *set, icp_cond cond, int ordering)
{
    icp_set *items = icp_want_set(inv, set), *out = icp_set_new(items->len);
    size_t i;
    for (i = 0; i < items->len; i++) {
        icp_move mv;
        icp_move_value m = icp_want_move(inv, &items->items[i]);
        if (icp_node_legal(&inv->node, m, &mv) && icp_test(inv, cond, &items->items[i]))
            icp_set_push(out, icp_ref(&items->items[i]));
    }
    icp_order_items(inv, out, ordering);
    return out;
}

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

/* DONE (§6.3). */
ICP_LIGHT static icp_outcome icp_done_outcome(const icp_inv *inv)
{
    icp_outcome o;
    o.move = inv->best_move;
    o.value = inv->best_value;
    o.kind = !inv->has_best ? ICP_OUTCOME_LEAVE : inv->root ? ICP_OUTCOME_MOVE : ICP_OUTCOME_VALUE;
    return o;
}

/* ---------------------------------------------- statements (generated code) */

ICP_LIGHT static int icp_outcome_step(icp_inv *inv, icp_outcome o)
{
    if (o.kind == ICP_OUTCOME_NONE)
        return ICP_STEP_NEXT;
    if (o.kind == ICP_OUTCOME_LEAVE)
        return ICP_STEP_LEAVE;
    inv->step_outcome = o;
    return ICP_STEP_OUTCOME;
}

ICP_LIGHT static int icp_branch(icp_inv *inv, int taken, size_t target)
{
    if (!taken)
        return ICP_STEP_NEXT;
    inv->step_target = target;
    return ICP_STEP_GOTO;
}

/* BREAK v1,v2,v3 at line: `break LINE: v1 v2 v3` on standard error. */
ICP_COLD ICP_UNUSED static int icp_do_break(icp_inv *inv, uint32_t line, icp_value a, icp_value b, icp_value c)
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
    (void)inv;
    return ICP_STEP_NEXT;
}

ICP_LIGHT ICP_UNUSED static int icp_do_return(icp_inv *inv, icp_value v)
{
    inv->step_value = v;
    return ICP_STEP_RETURN;
}

/* A call of sub with X = arg; then says what to do with its result. */
ICP_LIGHT ICP_UNUSED static int icp_do_call(icp_inv *inv, size_t sub, icp_value arg, int then)
{
    inv->step_sub = sub;
    inv->step_value = arg;
    inv->step_then = then;
    return ICP_STEP_CALL;
}

/* COND c,t1,t2 */
ICP_LIGHT ICP_UNUSED static int icp_do_cond(icp_inv *inv, icp_cond cond, size_t sub, size_t target)
{
    inv->step_cond = cond;
    inv->step_target = target;
    return icp_do_call(inv, sub, icp_ref(&inv->x), ICP_THEN_COND);
}

/* CONDV c,v,t */
ICP_LIGHT ICP_UNUSED static int icp_do_condv(icp_inv *inv, icp_cond cond, icp_value v, size_t target)
{
    int taken = icp_test(inv, cond, &v);
    icp_drop(&v);
    return icp_branch(inv, taken, target);
}

/* CONDT / CONDF t1,v,t2 */
ICP_LIGHT ICP_UNUSED static int icp_do_condtf(icp_inv *inv, int on_true, size_t sub, icp_value arg, size_t target)
{
    inv->step_flag = on_true;
    inv->step_target = target;
    return icp_do_call(inv, sub, arg, ICP_THEN_CONDTF);
}

/* JUMP... a,b,t */
ICP_LIGHT ICP_UNUSED static int icp_do_jump(icp_inv *inv, int cmp, icp_value a, icp_value b, size_t target)
{
    return icp_branch(inv, icp_compare(inv, cmp, a, b), target);
}

/* SET w,t,v */
ICP_LIGHT ICP_UNUSED static int icp_do_set(icp_inv *inv, icp_var dst, size_t sub, icp_value arg)
{
    inv->step_var = dst;
    return icp_do_call(inv, sub, arg, ICP_THEN_STORE);
}

/* SELECT / MAP w,t,v */
ICP_LIGHT ICP_UNUSED static int icp_do_each(icp_inv *inv, int kind, icp_var dst, size_t sub, icp_value set)
{
    inv->step_kind = kind;
    inv->step_var = dst;
    inv->step_sub = sub;
    inv->step_value = set;
    return ICP_STEP_EACH;
}

ICP_LIGHT ICP_UNUSED static int icp_do_unary(icp_inv *inv, int op, icp_var dst, icp_value v)
{
    icp_value r = icp_unary(inv, op, &v);
    icp_drop(&v);
    icp_write(inv, dst, r);
    return ICP_STEP_NEXT;
}

/* OP w,a,b: w's old value is let go first (a runtime error ends the
 * search, so nothing can see it missing): when a is the set w held and
 * nothing else holds it, APPEND w,w,b and UNION w,w,b extend it in place. */
ICP_LIGHT ICP_UNUSED static int icp_do_binary(icp_inv *inv, int op, icp_var dst, icp_value a, icp_value b)
{
    icp_value r;
    icp_write(inv, dst, icp_undefined());
    if (op == ICP_B_APPEND || op == ICP_B_UNION) {
        r = icp_extend(inv, op, a, &b);
    } else {
        r = icp_binary(inv, op, &a, &b);
        icp_drop(&a);
    }
    icp_drop(&b);
    icp_write(inv, dst, r);
    return ICP_STEP_NEXT;
}

/* EXCH u1,u2 */
ICP_LIGHT ICP_UNUSED static int icp_do_exch(icp_inv *inv, icp_var u1, icp_var u2)
{
    icp_value a = icp_read(inv, u1), b = icp_read(inv, u2);
    icp_write(inv, u1, b);
    icp_write(inv, u2, a);
    return ICP_STEP_NEXT;
}

/* ORDER u1,u2,o */
ICP_LIGHT ICP_UNUSED static int icp_do_order(icp_inv *inv, icp_var u1, icp_var u2, int ordering)
{
    icp_value a = icp_read(inv, u1), b = icp_read(inv, u2);
    int64_t ka, kb;
    int swap;
    if (ordering == ICP_ORDER_AS_GIVEN) {
        icp_drop(&a);
        icp_drop(&b);
        return ICP_STEP_NEXT;
    }
    ka = icp_deep_key(inv, &a);
    kb = icp_deep_key(inv, &b);
    swap = ordering == ICP_ORDER_DEEP ? kb > ka : kb < ka;
    if (swap) {
        icp_write(inv, u1, b);
        icp_write(inv, u2, a);
    } else {
        icp_drop(&a);
        icp_drop(&b);
    }
    return ICP_STEP_NEXT;
}

/* SELECC w,c,v */
ICP_LIGHT ICP_UNUSED static int icp_do_selecc(icp_inv *inv, icp_var dst, icp_cond cond, icp_value v)
{
    icp_set *items = icp_want_set(inv, &v), *kept = icp_set_new(items->len);
    size_t i;
    for (i = 0; i < items->len; i++)
        if (icp_test(inv, cond, &items->items[i]))
            icp_set_push(kept, icp_ref(&items->items[i]));
    icp_drop(&v);
    icp_write(inv, dst, icp_set_value(kept));
    return ICP_STEP_NEXT;
}

/* SETEL v,u,i */
ICP_LIGHT ICP_UNUSED static int icp_do_setel(icp_inv *inv, icp_value v, icp_var u, icp_value i)
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

/* INSERT v,u,i: v before the i-th element (i = card+1: at the end). */
ICP_LIGHT ICP_UNUSED static int icp_do_insert(icp_inv *inv, icp_value v, icp_var u, icp_value i)
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

/* UNSERT w,u,i: all read first, then written left to right (§11.9). */
ICP_LIGHT ICP_UNUSED static int icp_do_unsert(icp_inv *inv, icp_var w, icp_var u, icp_value i)
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

/* EXCHWE u1,u2,i (§11.9) */
ICP_LIGHT ICP_UNUSED static int icp_do_exchwe(icp_inv *inv, icp_var u1, icp_var u2, icp_value i)
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

/* EXCHEL u,i,j */
ICP_LIGHT ICP_UNUSED static int icp_do_exchel(icp_inv *inv, icp_var u, icp_value i, icp_value j)
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

/* PLAY / PLAYB / TRY s,c,o (§6.3) */
ICP_LIGHT ICP_UNUSED static int icp_do_play(icp_inv *inv, int kind, icp_value set, icp_cond cond, int ordering)
{
    icp_set *moves = icp_moves_of(inv, &set, cond, ordering);
    icp_value held = icp_set_value(moves);
    icp_outcome o;
    size_t i;
    icp_drop(&set);
    o.kind = ICP_OUTCOME_NONE;
    o.value = 0;
    o.move.from = o.move.to = o.move.promotion = 0;
    if (kind == ICP_PLAY_PLAY) {
        if (moves->len > 0) {
            icp_node node = inv->node;
            o.value = inv->has_remembered ? inv->remembered : icp_static_eval(&node);
            o.move = icp_board_move(icp_want_move(inv, &moves->items[0]));
            o.kind = inv->root ? ICP_OUTCOME_MOVE : ICP_OUTCOME_VALUE;
        }
    } else if (kind == ICP_PLAY_PLAY_B) {
        int have = 0;
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
    } else {
        icp_try_moves(inv, moves);
    }
    icp_drop(&held);
    return icp_outcome_step(inv, o);
}

/* PLAN t,s,v (§6.4) */
ICP_LIGHT ICP_UNUSED static int icp_do_plan(icp_inv *inv, size_t tag, icp_value set, icp_value value)
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

/* UNPLAN (§6.4) */
ICP_LIGHT ICP_UNUSED static int icp_do_unplan(icp_inv *inv)
{
    int me = icp_mover(&inv->node);
    icp_drop(&inv->plans[me].value);
    inv->plans[me].active = 0;
    return ICP_STEP_NEXT;
}

/* DONE (§6.3) */
ICP_LIGHT ICP_UNUSED static int icp_do_done(icp_inv *inv)
{
    return icp_outcome_step(inv, icp_done_outcome(inv));
}

/* VALRET / VALRUT / VALON / RETBET w,l,c (§6.2, §6.3) */
ICP_LIGHT ICP_UNUSED static int icp_do_value(icp_inv *inv, int kind, icp_value w, icp_value l, icp_value c)
{
    int64_t x = icp_want_integer(inv, &w), y = icp_want_integer(inv, &l), z = icp_want_integer(inv, &c);
    int64_t v = icp_convert(x, y, z, inv->node.depth);
    icp_outcome o;
    o.kind = ICP_OUTCOME_NONE;
    o.value = v;
    o.move.from = o.move.to = o.move.promotion = 0;
    switch (kind) {
    case ICP_VALUE_VAL_RET:
        o.kind = inv->root ? ICP_OUTCOME_LEAVE : ICP_OUTCOME_VALUE;
        break;
    case ICP_VALUE_VAL_RUT:
    case ICP_VALUE_VAL_ON:
        if (kind == ICP_VALUE_VAL_RUT && !inv->root) {
            o.kind = ICP_OUTCOME_VALUE;
        } else {
            inv->has_remembered = 1;
            inv->remembered = v;
        }
        break;
    default:
        if (inv->has_best && inv->best_value > v)
            o = icp_done_outcome(inv);
        break;
    }
    return icp_outcome_step(inv, o);
}

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
        if (ok && e->diff_cmp >= 0) {
            if (e->diff_cmp == ICP_CMP_LT)
                ok = diff < e->diff_m;
            else if (e->diff_cmp == ICP_CMP_GT)
                ok = diff > e->diff_m;
            else
                ok = diff == e->diff_m;
        }
        if (ok)
            return (long)e->start;
    }
    return -1;
}

ICP_COLD static void icp_frame_error(icp_inv *inv, size_t pc, const char *what)
{
    inv->pc = pc;
    icp_fault_str(inv, what);
}

/* Starts a call: X = arg, the frame remembers what to do after. */
ICP_LIGHT static icp_frame *icp_push_frame(icp_inv *inv, icp_frame **frames, size_t *count, size_t *cap, size_t pc)
{
    icp_frame *f;
    if (*count >= ICP_MAX_CALLS) {
        char message[64];
        snprintf(message, sizeof message, "calls nested more than %d deep (" ICP_SECT "5.2)", ICP_MAX_CALLS);
        icp_frame_error(inv, pc, message);
    }
    if (*count == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *frames = icp_regrow(*frames, *cap, sizeof **frames);
    }
    f = &(*frames)[(*count)++];
    memset(f, 0, sizeof *f);
    f->saved_x = icp_undefined();
    f->items = icp_undefined();
    return f;
}

/* Runs one invocation of the program at node (§6.1, §5.2). */
ICP_LIGHT static icp_outcome icp_run_invocation(icp_search *search, const icp_node *node, int root,
                                                const icp_plan *plans, size_t start, icp_value x)
{
    const icp_program *program = search->program;
    icp_inv *inv = icp_alloc(1, sizeof *inv);
    icp_frame *frames = NULL;
    size_t count = 0, cap = 0, pc = start, k;
    uint64_t executed = 0;
    icp_outcome result;
    int c;
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
    result.kind = ICP_OUTCOME_LEAVE;
    result.value = 0;
    result.move.from = result.move.to = result.move.promotion = 0;
    for (;;) {
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
        if (step == ICP_STEP_NEXT) {
            pc++;
        } else if (step == ICP_STEP_GOTO) {
            pc = inv->step_target;
        } else if (step == ICP_STEP_CALL) {
            icp_frame *f = icp_push_frame(inv, &frames, &count, &cap, pc);
            f->return_to = pc + 1;
            f->saved_x = inv->x;
            inv->x = inv->step_value;
            f->then = inv->step_then;
            f->var = inv->step_var;
            f->cond = inv->step_cond;
            f->flag = inv->step_flag;
            f->target = inv->step_target;
            pc = inv->step_sub;
        } else if (step == ICP_STEP_EACH) {
            icp_value items = inv->step_value;
            icp_frame *f;
            icp_want_set(inv, &items);
            if (items.as.set->len == 0) {
                icp_drop(&items);
                icp_write(inv, inv->step_var, icp_set_value(icp_set_new(0)));
                pc++;
                continue;
            }
            f = icp_push_frame(inv, &frames, &count, &cap, pc);
            f->return_to = pc + 1;
            f->saved_x = inv->x;
            inv->x = icp_ref(&items.as.set->items[0]);
            f->then = ICP_THEN_EACH;
            f->each_kind = inv->step_kind;
            f->var = inv->step_var;
            f->sub = inv->step_sub;
            f->items = items;
            f->next = 0;
            f->acc = icp_set_new(items.as.set->len);
            pc = inv->step_sub;
        } else if (step == ICP_STEP_RETURN) {
            icp_value value = inv->step_value;
            icp_frame *f;
            size_t call_pc;
            if (count == 0)
                icp_fault_str(inv, "RETURN outside a subroutine (" ICP_SECT "5.2)");
            f = &frames[count - 1];
            icp_drop(&inv->x);
            inv->x = f->saved_x;
            f->saved_x = icp_undefined();
            call_pc = f->return_to - 1;
            if (f->then == ICP_THEN_STORE) {
                icp_var var = f->var;
                pc = f->return_to;
                count--;
                icp_write(inv, var, value);
            } else if (f->then == ICP_THEN_COND) {
                int yes;
                inv->pc = call_pc;
                yes = icp_test(inv, f->cond, &value);
                icp_drop(&value);
                pc = yes ? f->target : f->return_to;
                count--;
            } else if (f->then == ICP_THEN_CONDTF) {
                if (value.tag != ICP_V_LOGICAL) {
                    icp_text t = {0, 0, 0};
                    icp_text_str(&t, "the call must return a logical, got ");
                    icp_text_str(&t, icp_type_name(&value));
                    icp_text_str(&t, " ");
                    icp_text_value(&t, &value);
                    inv->pc = call_pc;
                    icp_fault(inv, icp_text_take(&t));
                }
                pc = value.as.logical == f->flag ? f->target : f->return_to;
                count--;
            } else {
                size_t next;
                if (f->each_kind == ICP_CALL_SELECT) {
                    if (value.tag != ICP_V_LOGICAL) {
                        icp_text t = {0, 0, 0};
                        icp_text_str(&t, "SELECT's subroutine must return a logical, got ");
                        icp_text_str(&t, icp_type_name(&value));
                        icp_text_str(&t, " ");
                        icp_text_value(&t, &value);
                        inv->pc = call_pc;
                        icp_fault(inv, icp_text_take(&t));
                    }
                    if (value.as.logical)
                        icp_set_push(f->acc, icp_ref(&f->items.as.set->items[f->next]));
                } else {
                    icp_set_push(f->acc, value);
                }
                next = f->next + 1;
                if (next >= f->items.as.set->len) {
                    icp_var var = f->var;
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
            }
        } else if (step == ICP_STEP_FENCE) {
            if (count == 0)
                break;
            icp_fault_str(inv, "a subroutine fell into an ENTRY or END line (" ICP_SECT "5.2)");
        } else if (step == ICP_STEP_LEAVE) {
            break;
        } else {
            result = inv->step_outcome;
            break;
        }
    }
    /* The invocation is over: give back what it holds. */
    for (k = 0; k < count; k++) {
        icp_drop(&frames[k].saved_x);
        icp_drop(&frames[k].items);
        if (frames[k].then == ICP_THEN_EACH) {
            icp_value acc = icp_set_value(frames[k].acc);
            icp_drop(&acc);
        }
    }
    icp_release(frames);
    for (k = 0; k < inv->var_count; k++)
        icp_drop(&inv->vars[k]);
    icp_release(inv->vars);
    icp_drop(&inv->x);
    icp_drop(&inv->side);
    for (c = 0; c < 2; c++)
        icp_drop(&inv->plans[c].value);
    icp_release(inv);
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

/* ------------------------------------------------- history, table, keys */

/* The game that starts at start and plays moves[0..count) (each legal
 * where it is played): the position after them, and its history (§7.5,
 * engine.rs History::game). The history's entries are malloc'd. */
static int icp_history_order(const void *a, const void *b)
{
    uint64_t x = ((const icp_history_entry *)a)->key, y = ((const icp_history_entry *)b)->key;
    return x < y ? -1 : x > y ? 1 : 0;
}

ICP_COLD ICP_UNUSED static void icp_history_game(const icp_position *start, const icp_move *moves, size_t count,
                                                 icp_position *out, icp_history *history)
{
    icp_position *positions = icp_try_realloc(NULL, count + 1, sizeof *positions);
    size_t n = 0, i;
    if (!positions)
        icp_memory_exhausted();
    positions[n++] = *start;
    *out = *start;
    for (i = 0; i < count; i++) {
        icp_position next;
        if (icp_is_irreversible(out, moves[i]))
            n = 0;
        icp_play(out, moves[i], &next);
        *out = next;
        positions[n++] = next;
    }
    n--; /* the root */
    history->count = n;
    history->entries = icp_try_realloc(NULL, n, sizeof *history->entries);
    if (!history->entries)
        icp_memory_exhausted();
    for (i = 0; i < n; i++) {
        history->entries[i].key = icp_repetition_key(&positions[i]);
        history->entries[i].position = positions[i];
    }
    qsort(history->entries, n, sizeof *history->entries, icp_history_order);
    free(positions);
}

/* True when position is one of the game's positions (§7.5). */
static int icp_history_contains(const icp_history *history, const icp_position *position)
{
    size_t lo = 0, hi;
    uint64_t key;
    if (!history || history->count == 0)
        return 0;
    key = icp_repetition_key(position);
    hi = history->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (history->entries[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < history->count && history->entries[lo].key == key; lo++)
        if (icp_same_game_position(&history->entries[lo].position, position))
            return 1;
    return 0;
}

/* Bytes one table entry counts for in the size rule (engine.rs). */
#define ICP_ENTRY_BYTES 24
#define ICP_BOUND_UPPER 1
#define ICP_BOUND_LOWER 2
#define ICP_BOUND_EXACT 3

/* The entries a table of megabytes MB has: the largest power of two whose
 * entries fit, 0 below two. */
ICP_UNUSED static size_t icp_table_entries(unsigned megabytes)
{
    uint64_t entries = ((uint64_t)megabytes << 20) / ICP_ENTRY_BYTES, power = 1;
    if (entries < 2)
        return 0;
    while (power * 2 <= entries)
        power *= 2;
    return (size_t)power == power ? (size_t)power : 0;
}

/* A table of megabytes MB (0: one that holds nothing); 0 when the memory
 * cannot be had. */
ICP_COLD ICP_UNUSED static int icp_table_init(icp_table *table, unsigned megabytes)
{
    size_t count = icp_table_entries(megabytes);
    table->slots = NULL;
    table->count = 0;
    table->generation = 0;
    if (count == 0)
        return 1;
    if (count > SIZE_MAX / (3 * sizeof(uint64_t)))
        return 0;
    table->slots = calloc(count * 3, sizeof(uint64_t));
    if (!table->slots)
        return 0;
    table->count = count;
    return 1;
}

ICP_COLD ICP_UNUSED static void icp_table_free(icp_table *table)
{
    free(table->slots);
    table->slots = NULL;
    table->count = 0;
}

/* Starts a search with the table empty: a new generation. */
static void icp_table_new_search(icp_table *table)
{
    if (table->generation >= 255) {
        if (table->slots)
            memset(table->slots, 0, table->count * 3 * sizeof(uint64_t));
        table->generation = 0;
    }
    table->generation++;
}

typedef struct {
    int64_t value;
    uint64_t bound;
    int has_move;
    icp_move move;
} icp_entry;

static uint64_t icp_encode_move(int has, icp_move mv)
{
    uint64_t promotion = mv.promotion == ICP_QUEEN    ? 1
                         : mv.promotion == ICP_ROOK   ? 2
                         : mv.promotion == ICP_BISHOP ? 3
                         : mv.promotion == ICP_KNIGHT ? 4
                                                      : 0;
    if (!has)
        return 0;
    return 0x8000 | (uint64_t)(mv.from & 63) | (uint64_t)(mv.to & 63) << 6 | promotion << 12;
}

static int icp_decode_move(uint64_t bits, icp_move *mv)
{
    static const uint8_t kinds[8] = {ICP_NO_KIND, ICP_QUEEN, ICP_ROOK, ICP_BISHOP, ICP_KNIGHT, 0, 0, 0};
    if (!(bits & 0x8000))
        return 0;
    mv->from = (uint8_t)(bits & 63);
    mv->to = (uint8_t)((bits >> 6) & 63);
    mv->promotion = kinds[(bits >> 12) & 7];
    return 1;
}

static size_t icp_table_bucket(const icp_table *table, uint64_t key)
{
    return (size_t)key & (table->count - 1) & ~(size_t)1;
}

static int icp_table_current(const icp_table *table, const uint64_t *slot)
{
    return ((slot[2] >> 40) & 0xff) == table->generation;
}

/* The entry of the node with key, plies left at depth: 1 if found. */
static int icp_table_probe(const icp_table *table, uint64_t key, int64_t plies, int64_t depth, icp_entry *out)
{
    size_t base, i;
    if (table->count == 0)
        return 0;
    base = icp_table_bucket(table, key);
    for (i = base; i < base + 2; i++) {
        const uint64_t *slot = table->slots + 3 * i;
        uint64_t info = slot[2];
        if (slot[0] == key && icp_table_current(table, slot) && ((info >> 16) & 0xff) == (uint64_t)(plies + 2) &&
            ((info >> 24) & 0xff) == (uint64_t)depth) {
            out->value = icp_wrap(slot[1]);
            out->bound = (info >> 32) & 3;
            out->has_move = icp_decode_move(info, &out->move);
            return 1;
        }
    }
    return 0;
}

static void icp_table_store(icp_table *table, uint64_t key, int64_t plies, int64_t depth, int64_t value,
                            uint64_t bound, int has_move, icp_move mv)
{
    uint64_t info, *first, *second, *slot;
    size_t base;
    if (table->count == 0 || plies < -1 || plies > 253 || depth < 0 || depth > 255)
        return;
    info = icp_encode_move(has_move, mv) | (uint64_t)(plies + 2) << 16 | (uint64_t)depth << 24 | bound << 32 |
           table->generation << 40;
    base = icp_table_bucket(table, key);
    first = table->slots + 3 * base;
    second = first + 3;
    if (first[0] == key && icp_table_current(table, first))
        slot = first;
    else if (second[0] == key && icp_table_current(table, second))
        slot = second;
    else if (!icp_table_current(table, first))
        slot = first;
    else if (!icp_table_current(table, second))
        slot = second;
    else if ((uint64_t)(plies + 2) >= ((first[2] >> 16) & 0xff))
        slot = first;
    else
        slot = second;
    slot[0] = key;
    slot[1] = (uint64_t)value;
    slot[2] = info;
}

/* The node's value when the entry settles it in the window. */
static int icp_entry_cutoff(const icp_entry *e, int64_t alpha, int64_t beta)
{
    return e->bound == ICP_BOUND_EXACT || (e->bound == ICP_BOUND_LOWER && e->value >= beta) ||
           (e->bound == ICP_BOUND_UPPER && e->value <= alpha);
}

static uint64_t icp_bound(int64_t value, int64_t alpha, int64_t beta)
{
    return value <= alpha ? ICP_BOUND_UPPER : value >= beta ? ICP_BOUND_LOWER : ICP_BOUND_EXACT;
}

static uint64_t icp_piece_code(icp_piece p)
{
    return (uint64_t)(p.colour == ICP_BLACK) | (uint64_t)p.kind << 1 | (uint64_t)(p.square & 63) << 4;
}

/* The hash of a value (§2), engine.rs value_key: its type and contents,
 * sets element by element, with an explicit stack of sets. */
ICP_LIGHT static uint64_t icp_value_key(const icp_value *value)
{
    typedef struct {
        const icp_set *set;
        size_t next;
    } icp_key_frame;
    icp_key_frame *stack = NULL;
    size_t depth = 0, cap = 0;
    uint64_t h = UINT64_C(0x0c4e619730000000);
    const icp_value *v = value;
    for (;;) {
        if (v) {
            switch (v->tag) {
            case ICP_V_UNDEFINED:
                h = icp_mix64(h ^ 1);
                break;
            case ICP_V_LOGICAL:
                h = icp_mix64(h ^ 2);
                h = icp_mix64(h ^ (uint64_t)(v->as.logical != 0));
                break;
            case ICP_V_INTEGER:
                h = icp_mix64(h ^ 3);
                h = icp_mix64(h ^ (uint64_t)v->as.integer);
                break;
            case ICP_V_SET:
                h = icp_mix64(h ^ 4);
                h = icp_mix64(h ^ (uint64_t)v->as.set->len);
                if (depth == cap) {
                    cap = cap ? cap * 2 : 8;
                    stack = icp_regrow(stack, cap, sizeof *stack);
                }
                stack[depth].set = v->as.set;
                stack[depth].next = 0;
                depth++;
                break;
            case ICP_V_PIECE:
                h = icp_mix64(h ^ 6);
                h = icp_mix64(h ^ icp_piece_code(v->as.piece));
                break;
            case ICP_V_SQUARE:
                h = icp_mix64(h ^ 7);
                h = icp_mix64(h ^ (uint64_t)(v->as.square & 63));
                break;
            default: {
                icp_move mv = icp_board_move(v->as.move);
                h = icp_mix64(h ^ 8);
                h = icp_mix64(h ^ icp_piece_code(v->as.move.piece));
                h = icp_mix64(h ^ (uint64_t)(v->as.move.to & 63));
                h = icp_mix64(h ^ (icp_encode_move(1, mv) >> 12));
                break;
            }
            }
            v = NULL;
        }
        if (depth == 0)
            break;
        if (stack[depth - 1].next < stack[depth - 1].set->len) {
            v = &stack[depth - 1].set->items[stack[depth - 1].next++];
        } else {
            h = icp_mix64(h ^ 5);
            depth--;
        }
    }
    icp_release(stack);
    return h;
}

/* A plan's part of the node keys: its side, its tag, its value. */
static uint64_t icp_plan_key(int side, size_t tag, const icp_value *value)
{
    return icp_mix64(icp_value_key(value) ^ icp_mix64((uint64_t)tag << 1 | (uint64_t)(side & 1)));
}

/* The key of a quiescence node at depth (no plies, no plans). */
static uint64_t icp_quiescence_key(const icp_position *position, int64_t depth)
{
    return icp_position_key(position) ^ icp_mix64((uint64_t)1 << 32 | ((uint64_t)depth & 0xffffffffu));
}

static uint64_t icp_node_key(const icp_search *search, const icp_position *position, int64_t plies, int64_t depth,
                             const icp_plan *plans)
{
    uint64_t key = icp_position_key(position) ^
                   icp_mix64((uint64_t)(plies + 2) << 32 | ((uint64_t)depth & 0xffffffffu)) ^ search->endgame_key;
    int c;
    for (c = 0; c < 2; c++)
        if (plans[c].active)
            key ^= plans[c].key;
    return key;
}

/* ------------------------------------------------------ move ordering */

/* The worth rank of a piece code's kind: pawn 1 ... king 6. */
static uint32_t icp_kind_rank(int code)
{
    switch (code & 7) {
    case ICP_PAWN:
        return 1;
    case ICP_KNIGHT:
        return 2;
    case ICP_BISHOP:
        return 3;
    case ICP_ROOK:
        return 4;
    case ICP_QUEEN:
        return 5;
    case ICP_KING:
        return 6;
    default:
        return 0;
    }
}

static int icp_same_move(icp_move a, icp_move b)
{
    return a.from == b.from && a.to == b.to && a.promotion == b.promotion;
}

/* A move's place in the search order, engine.rs move_score. */
static uint32_t icp_move_score(const icp_position *p, icp_move mv, const icp_move *hint, const icp_move killers[2])
{
    uint32_t score = 0;
    if (hint && icp_same_move(mv, *hint))
        return 0x10000;
    if (icp_is_capture(p, mv)) {
        int victim = icp_at(p, icp_to88(mv.to));
        uint32_t v = victim ? icp_kind_rank(victim) : 1;
        uint32_t a = icp_kind_rank(icp_at(p, icp_to88(mv.from)));
        score = 0x1000 + v * 16 + (8 - a);
    }
    if (mv.promotion == ICP_QUEEN)
        score += 0x800;
    if (score == 0 && killers) {
        if (killers[0].from != killers[0].to && icp_same_move(killers[0], mv))
            score = 0x401;
        else if (killers[1].from != killers[1].to && icp_same_move(killers[1], mv))
            score = 0x400;
    }
    return score;
}

/* Sorts moves by icp_move_score, greater first, ties in the order given
 * (a stable insertion sort: the order of Rust's stable sort). */
static void icp_order_moves(const icp_position *p, icp_move_list *moves, const icp_move *hint,
                            const icp_move killers[2])
{
    uint32_t scores[ICP_MAX_MOVES];
    int i, j;
    for (i = 0; i < moves->count; i++)
        scores[i] = icp_move_score(p, moves->moves[i], hint, killers);
    for (i = 1; i < moves->count; i++) {
        uint32_t s = scores[i];
        icp_move m = moves->moves[i];
        for (j = i; j > 0 && scores[j - 1] < s; j--) {
            scores[j] = scores[j - 1];
            moves->moves[j] = moves->moves[j - 1];
        }
        scores[j] = s;
        moves->moves[j] = m;
    }
}

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

static int64_t icp_exact(icp_search *search, const icp_position *position, int64_t plies, int64_t depth,
                         icp_plan *plans)
{
    return icp_value_of(search, position, plies, depth, plans, INT64_MIN + 1, INT64_MAX);
}

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
ICP_COLD ICP_UNUSED static int icp_search_run(const icp_position *position, icp_limits limits,
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
