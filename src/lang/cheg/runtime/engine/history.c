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
