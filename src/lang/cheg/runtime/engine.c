/* ---------------------------------------------------------------------
 * The CHEG engine in C (docs/cheg.md §2, §4, §5, §6, §7.3, §9): values,
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
 *
 * Cut into sections as engine.rs is (runtime/api.rs): a program carries
 * the core and the sections it reaches, so that -Wall -Wextra -Werror,
 * which report an unused static function or parameter, prove it carries
 * nothing unused. Dispatchers therefore use their operands outside any
 * case (icp_do_unary, icp_do_binary, icp_do_jump compute in place; a
 * condition test consumes its value), the constants a section adds are
 * macros of their own, and the conditions and orderings find the node and
 * the line of their errors in the running invocation, icp_current.
 * --------------------------------------------------------------------- */
#include <setjmp.h>
#include <stdarg.h>

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

/* @section regrow */
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
/* @end regrow */

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

/* @section val_logical */
static icp_value icp_logical(int b)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_LOGICAL;
    v.as.logical = b != 0;
    return v;
}
/* @end val_logical */

/* @section val_integer */
static icp_value icp_integer(int64_t n)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_INTEGER;
    v.as.integer = n;
    return v;
}
/* @end val_integer */

/* @section val_square */
static icp_value icp_square_value(uint8_t s)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_SQUARE;
    v.as.square = s;
    return v;
}
/* @end val_square */

/* @section val_piece */
static icp_value icp_piece_value(icp_piece p)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_PIECE;
    v.as.piece = p;
    return v;
}
/* @end val_piece */

/* @section val_move */
static icp_value icp_move_val(icp_move_value m)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_MOVE;
    v.as.move = m;
    return v;
}
/* @end val_move */

/* @section val_set: regrow */
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
/* @end val_set */

/* @section val_set */
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
/* @end val_set */

/* @section val_set */
static icp_value icp_set_value(icp_set *s)
{
    icp_value v = icp_undefined();
    v.tag = ICP_V_SET;
    v.as.set = s;
    return v;
}
/* @end val_set */

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

/* @section lit_set: val_integer val_logical val_set regrow */
/* A set literal (§2) from its text as icp2c writes it: the value text of
 * §9, "(1 -2 (T #) ())", given in parts (each of them a C string literal
 * short enough for C99) that are read as one text. Built with an explicit
 * stack of the sets still open. */
ICP_LIGHT static icp_value icp_set_literal(int parts, ...)
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
/* @end lit_set */

/* @section set_own: val_set */
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
/* @end set_own */

/* @section equal */
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
/* @end equal */

/* @section contains: equal */
ICP_LIGHT static int icp_contains(const icp_set *s, const icp_value *v)
{
    size_t i;
    for (i = 0; i < s->len; i++)
        if (icp_equal(&s->items[i], v))
            return 1;
    return 0;
}
/* @end contains */

/* @section board_move */
static icp_move icp_board_move(icp_move_value m)
{
    icp_move mv;
    mv.from = m.piece.square;
    mv.to = m.to;
    mv.promotion = m.promotion;
    return mv;
}
/* @end board_move */

/* @section value_text: board_move */
static const char icp_kind_letters[] = " KQRBNP";

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
/* @end value_text */

/* @section type_name */
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
/* @end type_name */

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

/* @section wrong: type_name value_text */
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
/* @end wrong */

/* @section want_integer: wrong */
static int64_t icp_want_integer(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_INTEGER)
        icp_wrong(inv, "an integer", v);
    return v->as.integer;
}
/* @end want_integer */

/* @section want_logical: wrong */
static int icp_want_logical(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_LOGICAL)
        icp_wrong(inv, "a logical", v);
    return v->as.logical;
}
/* @end want_logical */

/* @section want_set: wrong */
static icp_set *icp_want_set(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_SET)
        icp_wrong(inv, "a set", v);
    return v->as.set;
}
/* @end want_set */

/* @section want_move: wrong */
static icp_move_value icp_want_move(const icp_inv *inv, const icp_value *v)
{
    if (v->tag != ICP_V_MOVE)
        icp_wrong(inv, "a move", v);
    return v->as.move;
}
/* @end want_move */

/* @section abs64 */
static int64_t icp_abs64(int64_t a)
{
    return a < 0 ? -a : a;
}
/* @end abs64 */

/* @section king_distance: abs64 */
/* King distance between two squares. */
ICP_LIGHT static int64_t icp_king_distance(int a, int b)
{
    int64_t df = icp_abs64((int64_t)(a % 8) - (b % 8));
    int64_t dr = icp_abs64((int64_t)(a / 8) - (b / 8));
    return df > dr ? df : dr;
}
/* @end king_distance */

/* @section opposition */
/* Distant opposition (§4): file and rank differences both even, not both
 * zero. */
ICP_LIGHT static int icp_opposition(int a, int b)
{
    int df = a % 8 - b % 8, dr = a / 8 - b / 8;
    return df % 2 == 0 && dr % 2 == 0 && !(df == 0 && dr == 0);
}
/* @end opposition */

/* @section value: want_integer */
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
/* @end value */

/* @section index */
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
/* @end index */

/* @section mover */
static int icp_mover(const icp_node *node)
{
    return icp_side_to_move(&node->position);
}
/* @end mover */

/* @section rank: mover */
/* §3 rank (1-8) of a square, from the side to move's first rank. */
static int64_t icp_rank(const icp_node *node, int square)
{
    int64_t r = square / 8;
    return icp_mover(node) == ICP_WHITE ? r + 1 : 8 - r;
}
/* @end rank */

/* @section file */
/* §3 file: h = 1 ... a = 8. */
static int64_t icp_file(int square)
{
    return 8 - square % 8;
}
/* @end file */

/* @section square_at: mover */
/* The square of §3 rank and file, or -1 unless both are 1-8. */
static int icp_square_at(const icp_node *node, int64_t rank, int64_t file)
{
    int64_t abs_rank;
    if (rank < 1 || rank > 8 || file < 1 || file > 8)
        return -1;
    abs_rank = icp_mover(node) == ICP_WHITE ? rank - 1 : 8 - rank;
    return (int)(abs_rank * 8 + (8 - file));
}
/* @end square_at */

/* @section side_of */
/* SIDE of a square: 0 for files h-e, 1 for d-a. */
static int64_t icp_side_of(int square)
{
    return square % 8 >= 4 ? 0 : 1;
}
/* @end side_of */

/* @section coerce_piece: wrong piece_at */
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
/* @end coerce_piece */

/* @section coerce_square: wrong */
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
/* @end coerce_square */

/* @section move_value: val_move piece_at */
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
/* @end move_value */

/* @section var_lm: move_value val_set */
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
/* @end var_lm */

/* @section piece_variable: val_piece */
/* A piece variable (§3): mover is W, the side to move. */
ICP_LIGHT static icp_value icp_piece_variable_value(const icp_node *node, int mover, int kind, int index)
{
    icp_piece p;
    int colour = mover ? icp_mover(node) : 1 - icp_mover(node);
    if (icp_piece_variable(&node->position, colour, kind, index, &p))
        return icp_piece_value(p);
    return icp_undefined();
}
/* @end piece_variable */

/* @section var_pg: rank val_piece val_set piece_at */
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
/* @end var_pg */

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

/* @section static_eval */
static int64_t icp_static_eval(const icp_node *node)
{
    return icp_static_value(&node->position);
}
/* @end static_eval */

/* @section node_legal: board_move piece_at */
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
/* @end node_legal */

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

/* ------------------------------------------------- history, table, keys */

/* The game that starts at start and plays moves[0..count) (each legal
 * where it is played): the position after them, and its history (§7.5,
 * engine.rs History::game). The history's entries are malloc'd. */
static int icp_history_order(const void *a, const void *b)
{
    uint64_t x = ((const icp_history_entry *)a)->key, y = ((const icp_history_entry *)b)->key;
    return x < y ? -1 : x > y ? 1 : 0;
}

ICP_COLD static void icp_history_game(const icp_position *start, const icp_move *moves, size_t count,
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
static size_t icp_table_entries(unsigned megabytes)
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
ICP_COLD static int icp_table_init(icp_table *table, unsigned megabytes)
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

ICP_COLD static void icp_table_free(icp_table *table)
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

/* @section plan */
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
/* @end plan */

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
