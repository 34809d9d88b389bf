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
