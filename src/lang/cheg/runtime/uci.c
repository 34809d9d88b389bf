/* ---------------------------------------------------------------------
 * The engine's command line and the UCI protocol (docs/cheg.md §7.4,
 * §7.5): the C port of runtime/uci.rs, pasted into generated C after
 * engine.c. Its doc comment lists the decisions where §7.4 and §7.5 are
 * silent; this file makes the same ones, byte for byte. Input text is read
 * as Rust reads it: invalid UTF-8 becomes U+FFFD (one per maximal invalid
 * sequence), words are split at Unicode white space, control characters in
 * error messages are shown as '?'.
 *
 * Commands during a search (§7.5): with POSIX (ICP_POSIX, set at the top
 * of the file on Unix-like systems unless ICP_NO_POSIX is defined), the
 * engine reads standard input with read() and asks poll() whether a
 * command has arrived, and times its searches with
 * clock_gettime(CLOCK_MONOTONIC). A plain C99 build has neither: it reads
 * commands only between searches (isready and stop wait for the search to
 * end; go infinite searches to depth 20, then waits for stop) and times
 * searches with clock(), the processor time the engine has used.
 * --------------------------------------------------------------------- */
#ifdef ICP_POSIX
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#endif
#include <time.h>

/* The default search depth (§7.3). */
#define ICP_DEFAULT_DEPTH 4
/* Deepest --perft / go perft accepted. */
#define ICP_MAX_PERFT 64
/* The default size of the transposition table, MB (UCI option Hash). */
#define ICP_DEFAULT_HASH 16
/* The largest Hash accepted, MB. */
#define ICP_MAX_HASH 1024
/* The longest UCI command line or engine argument, in bytes (1 MB). */
#define ICP_MAX_LINE 1048576
/* Commands read during a search that wait for it to end. */
#define ICP_MAX_PENDING 64
/* Milliseconds kept back from every time limit. */
#define ICP_MOVE_OVERHEAD 30 /* the default of Move Overhead, ms */
#define ICP_MAX_MOVE_OVERHEAD 5000

static const char icp_usage[] =
    "usage: ENGINE [--fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft N]]  (no arguments: UCI)";

static const char icp_help[] =
    "usage: ENGINE [--fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft N]]\n"
    "  --fen FEN      search the position FEN; prints 'bestmove MOVE score VALUE'\n"
    "  --moves MOVES  first play these moves from FEN (UCI form, blank-separated,\n"
    "                 one argument): their positions are the game's history\n"
    "  --depth N      search depth in plies, 1 to 20 (default 4)\n"
    "  --no-endgame   search without the endgame program\n"
    "  --perft N      print the number of leaf nodes of the move tree to depth N\n"
    "  --help         print this help\n"
    "With no arguments the engine speaks UCI on standard input and output.\n";

/* Decodes one UTF-8 sequence at s[0..n): its length, the code point in
 * *cp, or 0xFFFD with the length of the maximal invalid prefix. */
ICP_COLD static size_t icp_utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned b = s[0];
    size_t need, i;
    unsigned lo = 0x80, hi = 0xBF;
    uint32_t c;
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
        c = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        c = b & 0x0F;
        if (b == 0xE0)
            lo = 0xA0;
        if (b == 0xED)
            hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        c = b & 0x07;
        if (b == 0xF0)
            lo = 0x90;
        if (b == 0xF4)
            hi = 0x8F;
    } else {
        *cp = 0xFFFD;
        return 1;
    }
    for (i = 1; i <= need; i++) {
        unsigned t;
        if (i >= n) {
            *cp = 0xFFFD;
            return i;
        }
        t = s[i];
        if (t < lo || t > hi) {
            *cp = 0xFFFD;
            return i;
        }
        lo = 0x80;
        hi = 0xBF;
        c = (c << 6) | (t & 0x3F);
    }
    *cp = c;
    return need + 1;
}

ICP_COLD static void icp_text_code_point(icp_text *t, uint32_t c)
{
    char b[4];
    if (c < 0x80) {
        b[0] = (char)c;
        icp_text_put(t, b, 1);
    } else if (c < 0x800) {
        b[0] = (char)(0xC0 | (c >> 6));
        b[1] = (char)(0x80 | (c & 0x3F));
        icp_text_put(t, b, 2);
    } else if (c < 0x10000) {
        b[0] = (char)(0xE0 | (c >> 12));
        b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (char)(0x80 | (c & 0x3F));
        icp_text_put(t, b, 3);
    } else {
        b[0] = (char)(0xF0 | (c >> 18));
        b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
        b[3] = (char)(0x80 | (c & 0x3F));
        icp_text_put(t, b, 4);
    }
}

/* Rust's char::is_whitespace. */
ICP_COLD static int icp_is_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000;
}

/* Rust's char::is_control (category Cc). */
ICP_COLD static int icp_is_control(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F);
}

/* The words of bytes[0..n) as Rust's from_utf8_lossy + split_whitespace
 * gives them, each a NUL-terminated malloc'd string (a NUL byte inside a
 * word becomes 0x01: both are control characters, shown as '?'). */
typedef struct {
    char **words;
    size_t count, cap;
} icp_words;

ICP_COLD static void icp_words_split(icp_words *w, const unsigned char *bytes, size_t n)
{
    size_t i = 0;
    icp_text word = {0, 0, 0};
    int in_word = 0;
    w->words = NULL;
    w->count = w->cap = 0;
    for (;;) {
        uint32_t c = 0x20;
        size_t len = 0;
        if (i < n) {
            len = icp_utf8_next(bytes + i, n - i, &c);
            if (c == 0)
                c = 1;
        }
        if (i >= n || icp_is_space(c)) {
            if (in_word) {
                if (w->count == w->cap) {
                    size_t cap = w->cap ? w->cap * 2 : 8;
                    char **grown = icp_try_realloc(w->words, cap, sizeof *grown);
                    if (!grown)
                        icp_memory_exhausted();
                    w->words = grown;
                    w->cap = cap;
                }
                w->words[w->count++] = icp_text_take(&word);
                word.text = NULL;
                word.len = word.cap = 0;
                in_word = 0;
            }
            if (i >= n)
                break;
        } else {
            icp_text_code_point(&word, c);
            in_word = 1;
        }
        i += len;
    }
}

ICP_COLD static void icp_words_free(icp_words *w)
{
    size_t i;
    for (i = 0; i < w->count; i++)
        free(w->words[i]);
    free(w->words);
}

/* Words from..to-1 joined with one blank (malloc'd). */
ICP_COLD static char *icp_words_join(const icp_words *w, size_t from, size_t to)
{
    icp_text t = {0, 0, 0};
    size_t i;
    for (i = from; i < to; i++) {
        if (i > from)
            icp_text_str(&t, " ");
        icp_text_str(&t, w->words[i]);
    }
    return icp_text_take(&t);
}

/* text (valid UTF-8) with control characters as '?'. */
ICP_COLD static void icp_text_printable(icp_text *t, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n = strlen(text), i = 0;
    while (i < n) {
        uint32_t c;
        size_t len = icp_utf8_next(s + i, n - i, &c);
        if (icp_is_control(c))
            icp_text_str(t, "?");
        else
            icp_text_put(t, text + i, len);
        i += len;
    }
}

/* A decimal integer in min..max, or -1. */
ICP_COLD static long icp_parse_number(const char *text, long min, long max)
{
    unsigned long n = 0;
    const char *p;
    if (!*text)
        return -1;
    for (p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        n = n * 10 + (unsigned long)(*p - '0');
        if (n > 4294967295UL)
            return -1;
    }
    if ((long)n < min || (long)n > max)
        return -1;
    return (long)n;
}

/* Reads a FEN from the command line or a UCI line; message as Rust's. */
ICP_COLD static int icp_read_fen(const char *fen, icp_position *out, icp_text *message)
{
    char *buf;
    size_t size;
    icp_text normal = {0, 0, 0};
    const unsigned char *s = (const unsigned char *)fen;
    size_t n = strlen(fen), i = 0;
    int ok;
    /* Unicode white space as ' ': the fields split the same way. */
    while (i < n) {
        uint32_t c;
        size_t len = icp_utf8_next(s + i, n - i, &c);
        if (icp_is_space(c))
            icp_text_str(&normal, " ");
        else
            icp_text_code_point(&normal, c);
        i += len;
    }
    /* Room for any message quoting the text. */
    size = 3 * normal.len + 512;
    buf = malloc(size);
    if (!buf)
        icp_memory_exhausted();
    ok = icp_position_from_fen(icp_text_take(&normal), out, buf, size);
    if (!ok)
        icp_text_printable(message, buf);
    free(buf);
    free(normal.text);
    return ok;
}

/* A decimal count (digits only), saturating at UINT64_MAX; 0 if not one. */
ICP_COLD static int icp_parse_count(const char *text, uint64_t *out)
{
    uint64_t n = 0;
    const char *p;
    if (!*text)
        return 0;
    for (p = text; *p; p++) {
        uint64_t d;
        if (*p < '0' || *p > '9')
            return 0;
        d = (uint64_t)(*p - '0');
        n = n > (UINT64_MAX - d) / 10 ? UINT64_MAX : n * 10 + d;
    }
    *out = n;
    return 1;
}

/* Milliseconds: a count, or a negative one (counts as 0). */
ICP_COLD static int icp_parse_millis(const char *text, uint64_t *out)
{
    if (text[0] == '-') {
        uint64_t ignored;
        if (!icp_parse_count(text + 1, &ignored))
            return 0;
        *out = 0;
        return 1;
    }
    return icp_parse_count(text, out);
}

/* The UCI score of a value (§11.20): cp C, C = VALUE * 100 / 128
 * truncated, or mate M when 28416 < |VALUE| <= 28672. */
ICP_COLD static void icp_score_text(int64_t value, char out[48])
{
    int64_t magnitude = value == INT64_MIN ? INT64_MAX : (value < 0 ? -value : value);
    if (magnitude > 28416 && magnitude <= 28672) {
        int64_t moves = (28672 - magnitude + 1) / 2;
        snprintf(out, 48, "mate %" PRId64, value < 0 ? -moves : moves);
    } else {
        /* value * 25 / 32 without overflow: value = 32q + r. */
        int64_t q = value / 32, r = value % 32;
        snprintf(out, 48, "cp %" PRId64, q * 25 + (r * 25) / 32);
    }
}

ICP_COLD static void icp_print_error(void)
{
    icp_text t = {0, 0, 0};
    char *text;
    icp_runtime_error_text(&t);
    text = icp_text_take(&t);
    fprintf(stderr, "%s\n", text);
    fflush(stderr);
    free(text);
}

/* Plays the blank-separated UCI moves text from start (§7.5): the position
 * after them and the game's history; 0 with a message at the first move
 * that is not legal where it is played. */
ICP_COLD static int icp_play_moves(const icp_position *start, const char *text, icp_position *out,
                                   icp_history *history, icp_text *message)
{
    icp_words w;
    icp_move *moves;
    icp_position position = *start;
    size_t i;
    icp_words_split(&w, (const unsigned char *)text, strlen(text));
    moves = icp_try_realloc(NULL, w.count, sizeof *moves);
    if (!moves)
        icp_memory_exhausted();
    for (i = 0; i < w.count; i++) {
        icp_position next;
        if (!icp_parse_move(&position, w.words[i], &moves[i])) {
            char fen[ICP_FEN_SIZE];
            icp_position_to_fen(&position, fen);
            icp_text_str(message, "illegal move '");
            icp_text_str(message, w.words[i]);
            icp_text_str(message, "' in ");
            icp_text_str(message, fen);
            /* The moves before it are played (§7.5). */
            icp_history_game(start, moves, i, out, history);
            free(moves);
            icp_words_free(&w);
            return 0;
        }
        icp_play(&position, moves[i], &next);
        position = next;
    }
    icp_history_game(start, moves, w.count, out, history);
    free(moves);
    icp_words_free(&w);
    return 1;
}

/* One --fen query: 0, 1 (runtime error §9), 2 (usage, bad FEN or move). */
ICP_COLD static int icp_query(int argc, char **argv, const icp_program *program)
{
    const char *fen = NULL, *moves = NULL;
    long depth = -1, perft = -1;
    int no_endgame = 0, i = 0;
    icp_text message = {0, 0, 0};
    icp_position start, position;
    icp_history history;
    history.entries = NULL;
    history.count = 0;
    for (i = 0; i < argc && !message.text; i++)
        if (strlen(argv[i]) > ICP_MAX_LINE) {
            icp_text_str(&message, "argument ");
            icp_text_int(&message, i + 1);
            icp_text_str(&message, " is longer than 1048576 bytes");
        }
    i = 0;
    while (i < argc && !message.text) {
        const char *arg = argv[i++];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            icp_text shown = {0, 0, 0};
            icp_text_printable(&shown, program->name);
            printf("%s (icp2c CHEG engine)\n%s", icp_text_take(&shown), icp_help);
            fflush(stdout);
            free(shown.text);
            return 0;
        }
        if (!strcmp(arg, "--fen") || !strcmp(arg, "--depth") || !strcmp(arg, "--perft") || !strcmp(arg, "--moves")) {
            const char *value;
            if (i >= argc) {
                icp_text_str(&message, arg);
                icp_text_str(&message, " needs a value");
                break;
            }
            value = argv[i++];
            if (!strcmp(arg, "--fen")) {
                if (fen)
                    icp_text_str(&message, "--fen given twice");
                fen = value;
            } else if (!strcmp(arg, "--moves")) {
                if (moves)
                    icp_text_str(&message, "--moves given twice");
                moves = value;
            } else if (!strcmp(arg, "--depth")) {
                long n = icp_parse_number(value, 1, 20);
                if (n < 0) {
                    icp_text_str(&message, "--depth ");
                    icp_text_str(&message, value);
                    icp_text_str(&message, ": expected 1 to 20");
                } else if (depth >= 0) {
                    icp_text_str(&message, "--depth given twice");
                }
                depth = n;
            } else {
                long n = icp_parse_number(value, 0, ICP_MAX_PERFT);
                if (n < 0) {
                    icp_text_str(&message, "--perft ");
                    icp_text_str(&message, value);
                    icp_text_str(&message, ": expected 0 to 64");
                } else if (perft >= 0) {
                    icp_text_str(&message, "--perft given twice");
                }
                perft = n;
            }
        } else if (!strcmp(arg, "--no-endgame")) {
            if (no_endgame)
                icp_text_str(&message, "--no-endgame given twice");
            no_endgame = 1;
        } else {
            icp_text_str(&message, "unknown argument '");
            icp_text_str(&message, arg);
            icp_text_str(&message, "'");
        }
    }
    if (!message.text && !fen)
        icp_text_str(&message, "--fen FEN is required");
    if (message.text) {
        icp_text shown = {0, 0, 0};
        icp_text_printable(&shown, message.text);
        fprintf(stderr, "error: %s\n%s\n", icp_text_take(&shown), icp_usage);
        fflush(stderr);
        free(shown.text);
        free(message.text);
        return 2;
    }
    if (!icp_read_fen(fen, &start, &message) || !icp_play_moves(&start, moves ? moves : "", &position, &history,
                                                                 &message)) {
        icp_text shown = {0, 0, 0};
        icp_text_printable(&shown, icp_text_take(&message));
        fprintf(stderr, "error: %s\n", icp_text_take(&shown));
        fflush(stderr);
        free(shown.text);
        free(message.text);
        free(history.entries);
        return 2;
    }
    if (perft >= 0) {
        printf("%" PRIu64 "\n", icp_perft(&position, (unsigned)perft));
        fflush(stdout);
        free(history.entries);
        return 0;
    }
    {
        icp_table table;
        icp_limits limits;
        icp_search_result answer;
        char best[6] = "0000";
        int failed;
        icp_table_init(&table, ICP_DEFAULT_HASH);
        limits.depth = depth < 0 ? ICP_DEFAULT_DEPTH : (unsigned)depth;
        limits.from = limits.depth;
        limits.has_nodes = 0;
        limits.nodes = 0;
        limits.exact = 1;
        failed = icp_search_run(&position, limits, no_endgame ? NULL : program, &table, &history, NULL, &answer);
        icp_table_free(&table);
        free(history.entries);
        if (failed) {
            icp_print_error();
            return 1;
        }
        if (answer.has_best)
            icp_move_uci(answer.best, best);
        printf("bestmove %s score %" PRId64 "\n", best, answer.score);
        fflush(stdout);
    }
    return 0;
}

/* ------------------------------------------------------------ commands */

/* What reading the command stream gives (uci.rs Input). */
enum { ICP_IN_LINE, ICP_IN_TOO_LONG, ICP_IN_NOTHING, ICP_IN_END };

/* Standard input, read in place: a buffer, the line so far (at most
 * ICP_MAX_LINE bytes of it), and whether the input has ended. */
static struct {
    unsigned char buf[65536];
    size_t start, end;
    icp_text line;
    int any, too_long, ended;
} icp_in;

/* More input into the buffer: 1 bytes came, 0 none has arrived (only when
 * not waiting), -1 the end of the input. */
ICP_COLD static int icp_input_fill(int wait)
{
#ifdef ICP_POSIX
    ssize_t n;
    if (!wait) {
        struct pollfd p;
        p.fd = 0;
        p.events = POLLIN;
        p.revents = 0;
        if (poll(&p, 1, 0) <= 0)
            return 0;
    }
    do
        n = read(0, icp_in.buf, sizeof icp_in.buf);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return -1;
    icp_in.start = 0;
    icp_in.end = (size_t)n;
    return 1;
#else
    int c;
    if (!wait)
        return 0;
    icp_in.start = icp_in.end = 0;
    while (icp_in.end < sizeof icp_in.buf && (c = getchar()) != EOF) {
        icp_in.buf[icp_in.end++] = (unsigned char)c;
        if (c == '\n')
            break;
    }
    return icp_in.end > 0 ? 1 : -1;
#endif
}

/* The line read (in *line, malloc'd, the caller frees it) or too long. */
ICP_COLD static int icp_input_take(icp_text *line)
{
    int kind = icp_in.too_long ? ICP_IN_TOO_LONG : ICP_IN_LINE;
    *line = icp_in.line;
    if (kind == ICP_IN_TOO_LONG) {
        free(line->text);
        line->text = NULL;
        line->len = line->cap = 0;
    }
    icp_in.line.text = NULL;
    icp_in.line.len = icp_in.line.cap = 0;
    icp_in.any = icp_in.too_long = 0;
    return kind;
}

/* The next line of standard input (uci.rs read_line, Commands::next):
 * waits for one when wait, else ICP_IN_NOTHING when none has arrived. */
ICP_COLD static int icp_input_next(int wait, icp_text *line)
{
    line->text = NULL;
    line->len = line->cap = 0;
    if (icp_in.ended)
        return ICP_IN_END;
    for (;;) {
        int got;
        if (icp_in.start < icp_in.end) {
            const unsigned char *b = icp_in.buf + icp_in.start;
            size_t n = icp_in.end - icp_in.start;
            const unsigned char *nl = memchr(b, '\n', n);
            size_t part = nl ? (size_t)(nl - b) : n;
            icp_in.any = 1;
            if (!icp_in.too_long) {
                if (icp_in.line.len + part > ICP_MAX_LINE) {
                    icp_in.too_long = 1;
                    free(icp_in.line.text);
                    icp_in.line.text = NULL;
                    icp_in.line.len = icp_in.line.cap = 0;
                } else {
                    icp_text_put(&icp_in.line, (const char *)b, part);
                }
            }
            icp_in.start += nl ? part + 1 : n;
            if (nl)
                return icp_input_take(line);
            continue;
        }
        got = icp_input_fill(wait);
        if (got == 0)
            return ICP_IN_NOTHING;
        if (got < 0) {
            if (icp_in.any)
                return icp_input_take(line);
            icp_in.ended = 1;
            return ICP_IN_END;
        }
    }
}

/* Milliseconds from a fixed start (uci.rs Clock). */
ICP_COLD static uint64_t icp_now_ms(void)
{
#ifdef ICP_POSIX
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t) != 0)
        return 0;
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
#else
    clock_t c = clock();
    if (c == (clock_t)-1)
        return 0;
    return (uint64_t)((double)c * 1000.0 / (double)CLOCKS_PER_SEC);
#endif
}

/* ----------------------------------------------------------------- UCI */

/* An input read during a search, to handle after it. */
typedef struct {
    int kind;
    icp_text line;
} icp_pending;

/* The UCI session's state (uci.rs Engine). */
typedef struct {
    const icp_program *program;
    icp_position position;
    icp_history history;
    int has_position; /* 0 after a refused position line (§7.5) */
    unsigned depth;
    int endgame;
    unsigned hash;
    uint64_t move_overhead; /* Move Overhead, ms */
    int has_table;
    icp_table table;
    icp_pending *pending;
    size_t pending_count, pending_cap;
    int ended;
} icp_session;

ICP_COLD static void icp_pending_push(icp_session *session, int kind, icp_text line)
{
    if (session->pending_count == session->pending_cap) {
        size_t cap = session->pending_cap ? session->pending_cap * 2 : 8;
        icp_pending *grown = icp_try_realloc(session->pending, cap, sizeof *grown);
        if (!grown)
            icp_memory_exhausted();
        session->pending = grown;
        session->pending_cap = cap;
    }
    session->pending[session->pending_count].kind = kind;
    session->pending[session->pending_count].line = line;
    session->pending_count++;
}

ICP_COLD static void icp_error_line(const char *message)
{
    icp_text shown = {0, 0, 0};
    icp_text_printable(&shown, message);
    printf("info string error: %s\n", icp_text_take(&shown));
    free(shown.text);
}

/* The depth that proves a mate in moves moves: 2 moves - 1 plies, at
 * most the deepest search (go mate M, §7.5; uci.rs mate_depth). */
ICP_COLD static unsigned icp_mate_depth(uint64_t moves)
{
    uint64_t plies = moves > UINT64_MAX / 2 ? UINT64_MAX : moves * 2;
    plies = plies > 0 ? plies - 1 : 0;
    return plies < 1 ? 1 : plies > ICP_MAX_DEPTH ? ICP_MAX_DEPTH : (unsigned)plies;
}

/* True when value is a mate for the side to move in at most moves moves
 * (uci.rs mates_within). */
static int icp_mates_within(int64_t value, uint64_t moves)
{
    return value > 28416 && value <= 28672 && (uint64_t)((28672 - value + 1) / 2) <= moves;
}

/* A go command's parameters (§7.5). */
typedef struct {
    long depth, perft;
    int has_nodes, has_movetime, has_wtime, has_btime, has_winc, has_binc, has_movestogo;
    uint64_t nodes, movetime, wtime, btime, winc, binc, movestogo;
    int infinite, ponder;
    int has_mate; /* go mate M: stop at a proven mate in at most M moves */
    uint64_t mate;
    int has_deeper; /* go depth N with N above 20 (searched at 20) */
    uint64_t deeper;
} icp_go;

/* How long a timed search may take, ms (uci.rs TimePlan). */
typedef struct {
    int active;
    uint64_t soft, hard;
} icp_time_plan;

ICP_COLD static int icp_go_parse(const icp_words *w, icp_go *go, icp_text *message)
{
    size_t i = 1;
    memset(go, 0, sizeof *go);
    go->depth = -1;
    go->perft = -1;
    while (i < w->count) {
        const char *word = w->words[i++];
        const char *value = i < w->count ? w->words[i] : "";
        if (!strcmp(word, "infinite")) {
            go->infinite = 1;
        } else if (!strcmp(word, "ponder")) {
            go->ponder = 1;
        } else if (!strcmp(word, "depth")) {
            uint64_t n;
            i++;
            if (!icp_parse_count(value, &n) || n < 1) {
                icp_text_str(message, "go depth '");
                icp_text_str(message, value);
                icp_text_str(message, "': expected a depth from 1");
                return 0;
            }
            /* Above 20: depth 20, said in an info string (§7.5). */
            go->has_deeper = n > ICP_MAX_DEPTH;
            go->deeper = n;
            go->depth = n > ICP_MAX_DEPTH ? ICP_MAX_DEPTH : (long)n;
        } else if (!strcmp(word, "perft")) {
            long n = icp_parse_number(value, 0, ICP_MAX_PERFT);
            i++;
            if (n < 0) {
                icp_text_str(message, "go perft '");
                icp_text_str(message, value);
                icp_text_str(message, "': expected 0 to 64");
                return 0;
            }
            go->perft = n;
        } else if (!strcmp(word, "nodes") || !strcmp(word, "movestogo") || !strcmp(word, "mate")) {
            uint64_t n;
            i++;
            if (!icp_parse_count(value, &n)) {
                icp_text_str(message, "go ");
                icp_text_str(message, word);
                icp_text_str(message, " '");
                icp_text_str(message, value);
                icp_text_str(message, "': expected a number");
                return 0;
            }
            if (!strcmp(word, "nodes")) {
                go->has_nodes = 1;
                go->nodes = n;
            } else if (!strcmp(word, "movestogo")) {
                go->has_movestogo = 1;
                go->movestogo = n;
            } else {
                go->has_mate = 1;
                go->mate = n;
            }
        } else if (!strcmp(word, "movetime") || !strcmp(word, "wtime") || !strcmp(word, "btime") ||
                   !strcmp(word, "winc") || !strcmp(word, "binc")) {
            uint64_t n;
            i++;
            if (!icp_parse_millis(value, &n)) {
                icp_text_str(message, "go ");
                icp_text_str(message, word);
                icp_text_str(message, " '");
                icp_text_str(message, value);
                icp_text_str(message, "': expected milliseconds");
                return 0;
            }
            if (!strcmp(word, "movetime")) {
                go->has_movetime = 1;
                go->movetime = n;
            } else if (!strcmp(word, "wtime")) {
                go->has_wtime = 1;
                go->wtime = n;
            } else if (!strcmp(word, "btime")) {
                go->has_btime = 1;
                go->btime = n;
            } else if (!strcmp(word, "winc")) {
                go->has_winc = 1;
                go->winc = n;
            } else {
                go->has_binc = 1;
                go->binc = n;
            }
        }
        /* searchmoves and its moves, and unknown words: ignored */
    }
    return 1;
}

static int icp_go_limited_otherwise(const icp_go *go)
{
    return go->has_nodes || go->has_mate || go->has_movetime || go->has_wtime || go->has_btime || go->infinite ||
           go->ponder;
}

/* The time the side to move may think (uci.rs Go::time_plan). */
ICP_COLD static icp_time_plan icp_go_time_plan(const icp_go *go, int white, uint64_t overhead)
{
    icp_time_plan plan;
    int has_time = white ? go->has_wtime : go->has_btime;
    plan.active = 0;
    plan.soft = plan.hard = 0;
    if (go->has_movetime) {
        uint64_t t = go->movetime > overhead ? go->movetime - overhead : 0;
        if (t < 1)
            t = 1;
        plan.active = 1;
        plan.soft = plan.hard = t;
    }
    if (has_time) {
        uint64_t time = white ? go->wtime : go->btime;
        uint64_t inc = white ? (go->has_winc ? go->winc : 0) : (go->has_binc ? go->binc : 0);
        uint64_t safety = overhead + 10 + time / 20;
        uint64_t usable = time > safety ? time - safety : 0;
        uint64_t moves = go->has_movestogo ? go->movestogo : 30, soft, hard, extra;
        if (moves < 1)
            moves = 1;
        if (moves > 50)
            moves = 50;
        soft = usable / moves;
        extra = inc / 4 * 3;
        soft = soft > UINT64_MAX - extra ? UINT64_MAX : soft + extra;
        if (soft > usable)
            soft = usable;
        if (soft < 1)
            soft = 1;
        hard = soft > UINT64_MAX / 4 ? UINT64_MAX : soft * 4;
        if (hard > usable)
            hard = usable;
        if (hard < soft)
            hard = soft;
        if (plan.active) {
            if (soft < plan.soft)
                plan.soft = soft;
            if (hard < plan.hard)
                plan.hard = hard;
        } else {
            plan.active = 1;
            plan.soft = soft;
            plan.hard = hard;
        }
    }
    return plan;
}

/* What a UCI search watches while it runs (uci.rs Watcher). */
typedef struct {
    icp_watch watch; /* first: the search calls through it */
    icp_session *session;
    uint64_t start, plan_start;
    icp_time_plan plan, ponder_plan;
    int pondering, infinite, stop, quit;
    int has_mate; /* go mate M: M */
    uint64_t mate;
} icp_watcher;

/* Handles one input during a search; 0 when nothing had arrived. */
ICP_COLD static int icp_watcher_handle(icp_watcher *w, int kind, icp_text line)
{
    if (kind == ICP_IN_NOTHING)
        return 0;
    if (kind == ICP_IN_END) {
        /* Standard input is live: its end stops any search (§7.5). */
        w->session->ended = 1;
        w->stop = 1;
    } else if (kind == ICP_IN_TOO_LONG) {
        icp_pending_push(w->session, kind, line);
    } else {
        icp_words words;
        const char *first;
        icp_words_split(&words, (const unsigned char *)(line.text ? line.text : ""), line.len);
        first = words.count ? words.words[0] : "";
        if (!strcmp(first, "isready")) {
            printf("readyok\n");
            fflush(stdout);
            free(line.text);
        } else if (!strcmp(first, "stop")) {
            w->stop = 1;
            free(line.text);
        } else if (!strcmp(first, "quit")) {
            w->quit = 1;
            w->stop = 1;
            free(line.text);
        } else if (!strcmp(first, "ponderhit")) {
            if (w->pondering) {
                w->pondering = 0;
                w->plan = w->ponder_plan;
                w->ponder_plan.active = 0;
                w->plan_start = icp_now_ms();
            }
            free(line.text);
        } else {
            icp_pending_push(w->session, kind, line);
        }
        icp_words_free(&words);
    }
    return 1;
}

/* Handles the commands that have arrived. */
ICP_COLD static void icp_watcher_read(icp_watcher *w)
{
    while (w->session->pending_count < ICP_MAX_PENDING && !w->session->ended) {
        icp_text line;
        int kind = icp_input_next(0, &line);
        if (!icp_watcher_handle(w, kind, line))
            break;
    }
}

static uint64_t icp_watcher_planned(const icp_watcher *w)
{
    uint64_t now = icp_now_ms();
    return now > w->plan_start ? now - w->plan_start : 0;
}

/* After the search of a go infinite or go ponder: waits for stop. */
ICP_COLD static void icp_watcher_wait(icp_watcher *w)
{
    while (!w->stop && (w->infinite || w->pondering) && !w->session->ended) {
        icp_text line;
        int kind = icp_input_next(1, &line);
        icp_watcher_handle(w, kind, line);
        if (!w->pondering && !w->infinite)
            break;
    }
}

/* Prints one info line (§7.5). */
ICP_COLD static void icp_watcher_info(icp_watcher *w, const icp_report *r)
{
    uint64_t now = icp_now_ms(), time = now > w->start ? now - w->start : 0, div = time ? time : 1, nps;
    char score[48];
    int i;
    nps = r->nodes <= UINT64_MAX / 1000 ? r->nodes * 1000 / div : r->nodes / div * 1000;
    icp_score_text(r->score, score);
    printf("info depth %u score %s nodes %" PRIu64 " nps %" PRIu64 " time %" PRIu64, r->depth, score, r->nodes, nps,
           time);
    if (r->pv_len > 0) {
        printf(" pv");
        for (i = 0; i < r->pv_len; i++) {
            char uci[6];
            icp_move_uci(r->pv[i], uci);
            printf(" %s", uci);
        }
    }
    printf("\n");
    fflush(stdout);
}

ICP_COLD static int icp_watcher_poll(icp_watch *watch)
{
    icp_watcher *w = (icp_watcher *)watch;
    icp_watcher_read(w);
    return w->stop || (w->plan.active && icp_watcher_planned(w) >= w->plan.hard);
}

ICP_COLD static int icp_watcher_completed(icp_watch *watch, const icp_report *report)
{
    icp_watcher *w = (icp_watcher *)watch;
    uint64_t planned;
    icp_watcher_info(w, report);
    icp_watcher_read(w);
    if (w->stop || (w->has_mate && icp_mates_within(report->score, w->mate)))
        return 0;
    if (!w->plan.active)
        return 1;
    planned = icp_watcher_planned(w);
    return (planned > UINT64_MAX / 2 ? UINT64_MAX : planned * 2) < w->plan.soft;
}

ICP_COLD static int icp_ascii_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return 0;
    }
    return *a == *b;
}

/* true/false for a check option; 0 with a message otherwise. */
ICP_COLD static int icp_check_value(const char *what, const char *value, int *out, icp_text *message)
{
    if (icp_ascii_ieq(value, "true")) {
        *out = 1;
        return 1;
    }
    if (icp_ascii_ieq(value, "false")) {
        *out = 0;
        return 1;
    }
    icp_text_str(message, what);
    icp_text_str(message, " ");
    icp_text_str(message, value);
    icp_text_str(message, ": expected true or false");
    return 0;
}

/* One option, its name and value (value NULL when the line has none). */
ICP_COLD static int icp_set_named_option(icp_session *session, const char *name, const char *value,
                                         icp_text *message)
{
    int flag;
    if (!*name) {
        icp_text_str(message, "expected 'setoption name NAME [value VALUE]'");
        return 1;
    }
    if (icp_ascii_ieq(name, "clear hash")) {
        /* A button: the table is made anew at the next go. */
        if (session->has_table)
            icp_table_free(&session->table);
        session->has_table = 0;
        return 0;
    }
    if (!value || !*value) {
        icp_text_str(message, "expected 'setoption name NAME [value VALUE]'");
        return 1;
    }
    if (icp_ascii_ieq(name, "depth")) {
        long n = icp_parse_number(value, 1, 20);
        if (n < 0) {
            icp_text_str(message, "Depth ");
            icp_text_str(message, value);
            icp_text_str(message, ": expected 1 to 20");
            return 1;
        }
        session->depth = (unsigned)n;
        return 0;
    }
    if (icp_ascii_ieq(name, "endgame")) {
        if (!icp_check_value("Endgame", value, &flag, message))
            return 1;
        session->endgame = flag;
        return 0;
    }
    if (icp_ascii_ieq(name, "hash")) {
        long n = icp_parse_number(value, 1, ICP_MAX_HASH);
        if (n < 0) {
            icp_text_str(message, "Hash ");
            icp_text_str(message, value);
            icp_text_str(message, ": expected 1 to 1024");
            return 1;
        }
        session->hash = (unsigned)n;
        if (session->has_table)
            icp_table_free(&session->table);
        session->has_table = 0;
        return 0;
    }
    if (icp_ascii_ieq(name, "move overhead")) {
        long n = icp_parse_number(value, 0, ICP_MAX_MOVE_OVERHEAD);
        if (n < 0) {
            icp_text_str(message, "Move Overhead ");
            icp_text_str(message, value);
            icp_text_str(message, ": expected 0 to 5000");
            return 1;
        }
        session->move_overhead = (uint64_t)n;
        return 0;
    }
    if (icp_ascii_ieq(name, "threads")) {
        if (icp_parse_number(value, 1, 1) < 0) {
            icp_text_str(message, "Threads ");
            icp_text_str(message, value);
            icp_text_str(message, ": expected 1");
            return 1;
        }
        return 0;
    }
    if (icp_ascii_ieq(name, "ponder"))
        return !icp_check_value("Ponder", value, &flag, message);
    icp_text_str(message, "unknown option '");
    icp_text_str(message, name);
    icp_text_str(message, "' (options: Depth, Endgame, Hash, Clear Hash, Threads, Ponder, Move Overhead)");
    return 1;
}

/* setoption name NAME [value VALUE] (uci.rs set_option): NAME may contain
 * blanks, compared without case; 0 ok, else an error in message. */
ICP_COLD static int icp_set_option(icp_session *session, const icp_words *w, icp_text *message)
{
    size_t value_at = w->count, i;
    char *name, *value;
    int failed;
    if (w->count < 2 || strcmp(w->words[1], "name")) {
        icp_text_str(message, "expected 'setoption name NAME [value VALUE]'");
        return 1;
    }
    for (i = 2; i < w->count; i++)
        if (!strcmp(w->words[i], "value")) {
            value_at = i;
            break;
        }
    name = icp_words_join(w, 2, value_at);
    value = value_at < w->count ? icp_words_join(w, value_at + 1, w->count) : NULL;
    failed = icp_set_named_option(session, name, value, message);
    free(name);
    free(value);
    return failed;
}

/* position startpos|fen FEN [moves ...] */
ICP_COLD static int icp_set_position(icp_session *session, const icp_words *w, icp_text *message)
{
    size_t moves_at = w->count;
    icp_position start, position;
    icp_history history;
    char *moves;
    size_t i;
    int ok;
    for (i = 1; i < w->count; i++)
        if (!strcmp(w->words[i], "moves")) {
            moves_at = i;
            break;
        }
    /* A refused line leaves no position (§7.5): a later go never answers
     * for an older one. */
    session->has_position = 0;
    free(session->history.entries);
    session->history.entries = NULL;
    session->history.count = 0;
    if (moves_at == 2 && !strcmp(w->words[1], "startpos")) {
        icp_position_start(&start);
    } else if (moves_at >= 2 && !strcmp(w->words[1], "fen")) {
        char *fen = icp_words_join(w, 2, moves_at);
        ok = icp_read_fen(fen, &start, message);
        free(fen);
        if (!ok)
            return 1;
    } else {
        icp_text_str(message, "expected 'position startpos|fen FEN [moves \xe2\x80\xa6]'");
        return 1;
    }
    moves = icp_words_join(w, moves_at + 1 < w->count ? moves_at + 1 : w->count, w->count);
    /* The moves before the first bad one are played (§7.5). */
    ok = icp_play_moves(&start, moves, &position, &history, message);
    free(moves);
    session->history = history;
    session->position = position;
    session->has_position = 1;
    return !ok;
}

/* The perft of p to depth, reading the input before each subtree of
 * depth 3 or more (uci.rs perft_watched): 0 when quit or the end of the
 * input came (stop is not a perft's: it is read and ignored). */
ICP_COLD static int icp_perft_watched(const icp_position *p, unsigned depth, icp_watcher *w, uint64_t *count)
{
    icp_move_list moves;
    int k;
    if (depth < 3) {
        *count = icp_perft(p, depth);
        return 1;
    }
    icp_watcher_read(w);
    if (w->quit || w->session->ended)
        return 0;
    *count = 0;
    icp_legal_moves(p, &moves);
    for (k = 0; k < moves.count; k++) {
        icp_position child;
        uint64_t sub;
        icp_play(p, moves.moves[k], &child);
        if (!icp_perft_watched(&child, depth - 1, w, &sub))
            return 0;
        *count += sub;
    }
    return 1;
}

/* go perft N; quit, or the end of the input, abandons it (no Nodes
 * searched line) and returns 1: the engine ends. */
ICP_COLD static int icp_go_perft(icp_session *session, long perft)
{
    uint64_t total = 0;
    icp_watcher watcher;
    memset(&watcher, 0, sizeof watcher);
    watcher.session = session;
    if (perft > 0) {
        icp_move_list moves;
        int k;
        icp_legal_moves(&session->position, &moves);
        for (k = 0; k < moves.count; k++) {
            icp_position child;
            uint64_t count;
            char uci[6];
            icp_play(&session->position, moves.moves[k], &child);
            if (!icp_perft_watched(&child, (unsigned)perft - 1, &watcher, &count))
                return 1;
            total += count;
            icp_move_uci(moves.moves[k], uci);
            printf("%s: %" PRIu64 "\n", uci, count);
        }
    } else {
        total = 1;
    }
    printf("\nNodes searched: %" PRIu64 "\n", total);
    return watcher.quit;
}

/* go ... (§7.4, §7.5); returns 1 when quit came during the search. */
ICP_COLD static int icp_do_go(icp_session *session, const icp_words *w)
{
    icp_text message = {0, 0, 0};
    icp_go go;
    icp_limits limits;
    icp_time_plan plan;
    icp_watcher watcher;
    icp_search_result answer;
    uint64_t start;
    char best[6] = "0000";
    int failed;
    if (!icp_go_parse(w, &go, &message)) {
        size_t i;
        int perft = 0;
        icp_error_line(icp_text_take(&message));
        free(message.text);
        for (i = 1; i < w->count; i++)
            if (!strcmp(w->words[i], "perft"))
                perft = 1;
        if (!perft)
            printf("bestmove 0000\n");
        return 0;
    }
    if (!session->has_position) {
        icp_error_line("no position");
        if (go.perft < 0)
            printf("bestmove 0000\n");
        return 0;
    }
    if (go.perft >= 0)
        return icp_go_perft(session, go.perft);
    /* The other side's clock is no limit of this search: go btime T with
     * White to move searches as a bare go does (§7.5). */
    if (session->position.side == ICP_WHITE)
        go.has_btime = 0;
    else
        go.has_wtime = 0;
    if (go.has_deeper)
        printf("info string go depth %" PRIu64 ": searching depth %d, the deepest\n", go.deeper, ICP_MAX_DEPTH);
    start = icp_now_ms();
    limits.depth = go.depth >= 0 ? (unsigned)go.depth : icp_go_limited_otherwise(&go) ? ICP_MAX_DEPTH : session->depth;
    /* go mate M: a mate in M moves is found at depth 2M - 1. */
    if (go.has_mate && icp_mate_depth(go.mate) < limits.depth)
        limits.depth = icp_mate_depth(go.mate);
    limits.from = 1;
    limits.has_nodes = go.has_nodes;
    limits.nodes = go.nodes;
    limits.exact = !icp_go_limited_otherwise(&go);
    plan = icp_go_time_plan(&go, session->position.side == ICP_WHITE, session->move_overhead);
    if (!session->has_table) {
        if (!icp_table_init(&session->table, session->hash)) {
            icp_error_line("no memory for the Hash table: searching without one");
            icp_table_init(&session->table, 0);
        }
        session->has_table = 1;
    }
    memset(&watcher, 0, sizeof watcher);
    watcher.watch.poll = icp_watcher_poll;
    watcher.watch.completed = icp_watcher_completed;
    watcher.session = session;
    watcher.start = watcher.plan_start = start;
    if (go.ponder)
        watcher.ponder_plan = plan;
    else
        watcher.plan = plan;
    watcher.pondering = go.ponder;
    watcher.infinite = go.infinite;
    watcher.has_mate = go.has_mate;
    watcher.mate = go.mate;
    /* A go read before the end of the input: stopped at once. */
    watcher.stop = session->ended;
    failed = icp_search_run(&session->position, limits, session->endgame ? session->program : NULL, &session->table,
                            &session->history, &watcher.watch, &answer);
    if (failed) {
        icp_text t = {0, 0, 0};
        char *text;
        icp_print_error();
        icp_runtime_error_text(&t);
        text = icp_text_take(&t);
        printf("info string %s\nbestmove 0000\n", text);
        free(text);
        return watcher.quit;
    }
    if (!answer.has_best) {
        icp_report report;
        report.depth = go.depth >= 0 || !icp_go_limited_otherwise(&go) ? limits.depth : 1;
        report.score = answer.score;
        report.nodes = answer.nodes;
        report.pv_len = 0;
        report.pv = NULL;
        icp_watcher_info(&watcher, &report);
    }
    if (watcher.infinite || watcher.pondering)
        icp_watcher_wait(&watcher);
    if (answer.has_best)
        icp_move_uci(answer.best, best);
    /* The move the engine expects in reply (§7.5): the principal
     * variation's second, when it starts with the best move. */
    if (answer.has_best && answer.pv_len >= 2 && answer.pv[0].from == answer.best.from &&
        answer.pv[0].to == answer.best.to && answer.pv[0].promotion == answer.best.promotion) {
        char reply[6];
        icp_move_uci(answer.pv[1], reply);
        printf("bestmove %s ponder %s\n", best, reply);
    } else {
        printf("bestmove %s\n", best);
    }
    return watcher.quit;
}

/* Handles one UCI line; returns 1 on quit. */
ICP_COLD static int icp_command(icp_session *session, const icp_words *w)
{
    const char *name;
    icp_text message = {0, 0, 0};
    int failed = 0;
    if (w->count == 0)
        return 0;
    name = w->words[0];
    if (!strcmp(name, "quit")) {
        return 1;
    } else if (!strcmp(name, "uci")) {
        icp_text shown = {0, 0, 0};
        icp_text_printable(&shown, session->program->name);
        printf("id name %s (icp2c CHEG engine)\nid author icp2c\n"
               "option name Depth type spin default %d min 1 max 20\n"
               "option name Endgame type check default true\n"
               "option name Hash type spin default %d min 1 max %d\n"
               "option name Clear Hash type button\n"
               "option name Threads type spin default 1 min 1 max 1\n"
               "option name Ponder type check default false\n"
               "option name Move Overhead type spin default %d min 0 max %d\nuciok\n",
               icp_text_take(&shown), ICP_DEFAULT_DEPTH, ICP_DEFAULT_HASH, ICP_MAX_HASH, ICP_MOVE_OVERHEAD,
               ICP_MAX_MOVE_OVERHEAD);
        free(shown.text);
    } else if (!strcmp(name, "isready")) {
        printf("readyok\n");
    } else if (!strcmp(name, "ucinewgame")) {
        icp_position_start(&session->position);
        session->has_position = 1;
        free(session->history.entries);
        session->history.entries = NULL;
        session->history.count = 0;
    } else if (!strcmp(name, "stop") || !strcmp(name, "ponderhit") || !strcmp(name, "debug")) {
        /* nothing to stop */
    } else if (!strcmp(name, "setoption")) {
        failed = icp_set_option(session, w, &message);
    } else if (!strcmp(name, "position")) {
        failed = icp_set_position(session, w, &message);
    } else if (!strcmp(name, "d") && w->count == 1) {
        if (session->has_position) {
            icp_display(&session->position, stdout);
        } else {
            icp_text_str(&message, "no position");
            failed = 1;
        }
    } else if (!strcmp(name, "go")) {
        return icp_do_go(session, w);
    } else {
        char *all = icp_words_join(w, 0, w->count);
        icp_text_str(&message, "unknown command '");
        icp_text_str(&message, all);
        icp_text_str(&message, "'");
        free(all);
        failed = 1;
    }
    if (failed)
        icp_error_line(icp_text_take(&message));
    free(message.text);
    return 0;
}

/* A new session: the start position, every option at its default. */
ICP_COLD static void icp_session_start(icp_session *session, const icp_program *program)
{
    memset(session, 0, sizeof *session);
    session->program = program;
    icp_position_start(&session->position);
    session->has_position = 1;
    session->depth = ICP_DEFAULT_DEPTH;
    session->endgame = 1;
    session->hash = ICP_DEFAULT_HASH;
    session->move_overhead = ICP_MOVE_OVERHEAD;
}

ICP_COLD static void icp_uci_loop(const icp_program *program)
{
    icp_session session;
    size_t i;
    icp_session_start(&session, program);
    for (;;) {
        int kind, quit = 0;
        icp_text line;
        if (session.pending_count > 0) {
            kind = session.pending[0].kind;
            line = session.pending[0].line;
            session.pending_count--;
            memmove(session.pending, session.pending + 1, session.pending_count * sizeof *session.pending);
        } else if (session.ended) {
            kind = ICP_IN_END;
            line.text = NULL;
            line.len = line.cap = 0;
        } else {
            kind = icp_input_next(1, &line);
        }
        if (kind == ICP_IN_END) {
            quit = 1;
        } else if (kind == ICP_IN_TOO_LONG) {
            icp_error_line("command longer than 1048576 bytes, skipped");
        } else if (kind == ICP_IN_LINE) {
            icp_words w;
            icp_words_split(&w, (const unsigned char *)(line.text ? line.text : ""), line.len);
            quit = icp_command(&session, &w);
            icp_words_free(&w);
        }
        free(line.text);
        fflush(stdout);
        if (quit)
            break;
    }
    for (i = 0; i < session.pending_count; i++)
        free(session.pending[i].line.text);
    free(session.pending);
    free(session.history.entries);
    if (session.has_table)
        icp_table_free(&session.table);
    free(icp_in.line.text);
    fflush(stdout);
}

/* The engine's main: argv without the program name. --fen FEN [--moves
 * MOVES] [--depth N] [--no-endgame] [--perft N] answers one query; no
 * arguments speaks UCI. Returns the exit status: 0, 1 (runtime error §9),
 * 2 (bad FEN, move or usage). */
ICP_COLD static int icp_engine_main(int argc, char **argv, const icp_program *program)
{
    int status, i;
    char **args;
    /* Like the Rust engine, a CHEG engine does not stop when standard
     * output fails (a GUI that went away): it reads on until the end of
     * its input, so it never reports a write failure. */
    icp_stdout_setup(1);
    if (argc == 0) {
        icp_uci_loop(program);
        return 0;
    }
    /* Arguments as Rust reads them: invalid UTF-8 as U+FFFD. */
    args = icp_try_realloc(NULL, (size_t)argc, sizeof *args);
    if (!args)
        icp_memory_exhausted();
    for (i = 0; i < argc; i++) {
        icp_text t = {0, 0, 0};
        const unsigned char *s = (const unsigned char *)argv[i];
        size_t n = strlen(argv[i]), k = 0;
        while (k < n) {
            uint32_t c;
            size_t len = icp_utf8_next(s + k, n - k, &c);
            icp_text_code_point(&t, c);
            k += len;
        }
        args[i] = icp_text_take(&t);
    }
    status = icp_query(argc, args, program);
    for (i = 0; i < argc; i++)
        free(args[i]);
    free(args);
    return status;
}
