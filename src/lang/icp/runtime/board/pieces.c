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
