/* ---------------------------------------------------------------------
 * The engine's command line and the UCI protocol (spec/cheg.md §7.4): the
 * C port of runtime/uci.rs, pasted into generated C after engine.c. Its
 * doc comment lists the decisions where §7.4 is silent; this file makes
 * the same ones, byte for byte. Input text is read as Rust reads it:
 * invalid UTF-8 becomes U+FFFD (one per maximal invalid sequence), words
 * are split at Unicode white space, control characters in error messages
 * are shown as '?'.
 * --------------------------------------------------------------------- */

/* The default search depth (§7.3). */
#define ICP_DEFAULT_DEPTH 4
/* Deepest --perft / go perft accepted. */
#define ICP_MAX_PERFT 64

static const char icp_usage[] =
    "usage: ENGINE [--fen FEN [--depth N] [--no-endgame] [--perft N]]  (no arguments: UCI)";

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

/* A search's answer, as the two front ends print it. */
typedef struct {
    int has_best;
    icp_move best;
    int64_t score;
    uint64_t nodes;
} icp_answer;

/* Runs the search (§7.3); a position with no legal move is answered here
 * (§6.2, §11.17). 1 after a runtime error. */
ICP_COLD static int icp_answer_search(const icp_position *position, unsigned depth, const icp_program *program,
                                      icp_answer *answer)
{
    icp_search_result r;
    answer->has_best = 0;
    answer->nodes = 1;
    if (icp_count_legal(position) == 0) {
        answer->score = icp_in_check(position) ? -28671 : 0;
        return 0;
    }
    if (icp_search_root(position, depth, program, &r))
        return 1;
    answer->has_best = r.has_best;
    answer->best = r.best;
    answer->score = r.score;
    answer->nodes = r.nodes;
    return 0;
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

/* One --fen query: 0, 1 (runtime error §9), 2 (usage or bad FEN). */
ICP_COLD static int icp_query(int argc, char **argv, const icp_program *program)
{
    const char *fen = NULL;
    long depth = -1, perft = -1;
    int no_endgame = 0, i = 0;
    icp_text message = {0, 0, 0};
    icp_position position;
    icp_answer answer;
    while (i < argc && !message.text) {
        const char *arg = argv[i++];
        if (!strcmp(arg, "--fen") || !strcmp(arg, "--depth") || !strcmp(arg, "--perft")) {
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
    if (!icp_read_fen(fen, &position, &message)) {
        fprintf(stderr, "error: %s\n", icp_text_take(&message));
        fflush(stderr);
        free(message.text);
        return 2;
    }
    if (perft >= 0) {
        printf("%" PRIu64 "\n", icp_perft(&position, (unsigned)perft));
        fflush(stdout);
        return 0;
    }
    if (icp_answer_search(&position, depth < 0 ? ICP_DEFAULT_DEPTH : (unsigned)depth, no_endgame ? NULL : program,
                          &answer)) {
        icp_print_error();
        return 1;
    }
    {
        char best[6] = "0000";
        if (answer.has_best)
            icp_move_uci(answer.best, best);
        printf("bestmove %s score %" PRId64 "\n", best, answer.score);
        fflush(stdout);
    }
    return 0;
}

/* The UCI session's state. */
typedef struct {
    icp_position position;
    unsigned depth;
    int endgame;
} icp_session;

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

/* setoption name NAME value VALUE; 0 ok, else an error in message. */
ICP_COLD static int icp_set_option(icp_session *session, const icp_words *w, icp_text *message)
{
    const char *name, *value;
    if (w->count != 5 || strcmp(w->words[1], "name") || strcmp(w->words[3], "value")) {
        icp_text_str(message, "expected 'setoption name Depth|Endgame value VALUE'");
        return 1;
    }
    name = w->words[2];
    value = w->words[4];
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
        if (icp_ascii_ieq(value, "true")) {
            session->endgame = 1;
        } else if (icp_ascii_ieq(value, "false")) {
            session->endgame = 0;
        } else {
            icp_text_str(message, "Endgame ");
            icp_text_str(message, value);
            icp_text_str(message, ": expected true or false");
            return 1;
        }
        return 0;
    }
    icp_text_str(message, "unknown option '");
    icp_text_str(message, name);
    icp_text_str(message, "' (options: Depth, Endgame)");
    return 1;
}

/* position startpos|fen FEN [moves ...] */
ICP_COLD static int icp_set_position(icp_session *session, const icp_words *w, icp_text *message)
{
    size_t moves_at = w->count, i;
    icp_position position;
    for (i = 1; i < w->count; i++)
        if (!strcmp(w->words[i], "moves")) {
            moves_at = i;
            break;
        }
    if (moves_at == 2 && !strcmp(w->words[1], "startpos")) {
        icp_position_start(&position);
    } else if (moves_at >= 2 && !strcmp(w->words[1], "fen")) {
        char *fen = icp_words_join(w, 2, moves_at);
        int ok = icp_read_fen(fen, &position, message);
        free(fen);
        if (!ok)
            return 1;
    } else {
        icp_text_str(message, "expected 'position startpos|fen FEN [moves \xe2\x80\xa6]'");
        return 1;
    }
    for (i = moves_at + 1; i < w->count; i++) {
        icp_move mv;
        icp_position next;
        if (!icp_parse_move(&position, w->words[i], &mv)) {
            char fen[ICP_FEN_SIZE];
            icp_position_to_fen(&position, fen);
            icp_text_str(message, "illegal move '");
            icp_text_str(message, w->words[i]);
            icp_text_str(message, "' in ");
            icp_text_str(message, fen);
            return 1;
        }
        icp_play(&position, mv, &next);
        position = next;
    }
    session->position = position;
    return 0;
}

ICP_COLD static int icp_go(icp_session *session, const icp_words *w, const icp_program *program, icp_text *message)
{
    unsigned depth = session->depth;
    long perft = -1;
    size_t i = 1;
    icp_answer answer;
    char score[48], best[6] = "0000";
    while (i < w->count) {
        const char *word = w->words[i++];
        if (!strcmp(word, "depth") || !strcmp(word, "perft")) {
            const char *value = i < w->count ? w->words[i] : "";
            int is_depth = !strcmp(word, "depth");
            long n = icp_parse_number(value, is_depth ? 1 : 0, is_depth ? 20 : ICP_MAX_PERFT);
            i++;
            if (n < 0) {
                icp_text_str(message, is_depth ? "go depth '" : "go perft '");
                icp_text_str(message, value);
                icp_text_str(message, is_depth ? "': expected 1 to 20" : "': expected 0 to 64");
                return 1;
            }
            if (is_depth)
                depth = (unsigned)n;
            else
                perft = n;
        }
        /* other go parameters are accepted and ignored (§7.4) */
    }
    if (perft >= 0) {
        uint64_t total = 0;
        if (perft > 0) {
            icp_move_list moves;
            int k;
            icp_legal_moves(&session->position, &moves);
            for (k = 0; k < moves.count; k++) {
                icp_position child;
                uint64_t count;
                char uci[6];
                icp_play(&session->position, moves.moves[k], &child);
                count = icp_perft(&child, (unsigned)perft - 1);
                total += count;
                icp_move_uci(moves.moves[k], uci);
                printf("%s: %" PRIu64 "\n", uci, count);
            }
        } else {
            total = 1;
        }
        printf("\nNodes searched: %" PRIu64 "\n", total);
        return 0;
    }
    if (icp_answer_search(&session->position, depth, session->endgame ? program : NULL, &answer)) {
        icp_text t = {0, 0, 0};
        char *text;
        icp_print_error();
        icp_runtime_error_text(&t);
        text = icp_text_take(&t);
        printf("info string %s\nbestmove 0000\n", text);
        free(text);
        return 0;
    }
    icp_score_text(answer.score, score);
    if (answer.has_best) {
        icp_move_uci(answer.best, best);
        printf("info depth %u score %s nodes %" PRIu64 " pv %s\nbestmove %s\n", depth, score, answer.nodes, best,
               best);
    } else {
        printf("info depth %u score %s nodes %" PRIu64 "\nbestmove 0000\n", depth, score, answer.nodes);
    }
    return 0;
}

/* Handles one UCI line; returns 1 on quit. */
ICP_COLD static int icp_command(icp_session *session, const icp_words *w, const icp_program *program)
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
        printf("id name icp2c CHEG engine\nid author icp2c\n"
               "option name Depth type spin default %d min 1 max 20\n"
               "option name Endgame type check default true\nuciok\n",
               ICP_DEFAULT_DEPTH);
    } else if (!strcmp(name, "isready")) {
        printf("readyok\n");
    } else if (!strcmp(name, "ucinewgame")) {
        icp_position_start(&session->position);
    } else if (!strcmp(name, "stop") || !strcmp(name, "ponderhit") || !strcmp(name, "debug")) {
        /* accepted; the search is synchronous */
    } else if (!strcmp(name, "setoption")) {
        failed = icp_set_option(session, w, &message);
    } else if (!strcmp(name, "position")) {
        failed = icp_set_position(session, w, &message);
    } else if (!strcmp(name, "d") && w->count == 1) {
        icp_display(&session->position, stdout);
    } else if (!strcmp(name, "go")) {
        failed = icp_go(session, w, program, &message);
    } else {
        char *all = icp_words_join(w, 0, w->count);
        icp_text_str(&message, "unknown command '");
        icp_text_str(&message, all);
        icp_text_str(&message, "'");
        free(all);
        failed = 1;
    }
    if (failed) {
        icp_text shown = {0, 0, 0};
        icp_text_printable(&shown, icp_text_take(&message));
        printf("info string error: %s\n", icp_text_take(&shown));
        free(shown.text);
    }
    free(message.text);
    return 0;
}

ICP_COLD static void icp_uci_loop(const icp_program *program)
{
    icp_session session;
    icp_text line = {0, 0, 0};
    icp_position_start(&session.position);
    session.depth = ICP_DEFAULT_DEPTH;
    session.endgame = 1;
    for (;;) {
        int c, quit;
        icp_words w;
        line.len = 0;
        while ((c = getchar()) != EOF) {
            char b = (char)c;
            icp_text_put(&line, &b, 1);
            if (c == '\n')
                break;
        }
        if (line.len == 0)
            break;
        icp_words_split(&w, (const unsigned char *)line.text, line.len);
        quit = icp_command(&session, &w, program);
        icp_words_free(&w);
        fflush(stdout);
        if (quit)
            break;
    }
    free(line.text);
    fflush(stdout);
}

/* The engine's main: argv without the program name. --fen FEN [--depth N]
 * [--no-endgame] [--perft N] answers one query; no arguments speaks UCI.
 * Returns the exit status: 0, 1 (runtime error §9), 2 (bad FEN or usage). */
ICP_COLD static int icp_engine_main(int argc, char **argv, const icp_program *program)
{
    int status, i;
    char **args;
    /* Like the Rust engine, a CHEG engine does not stop when standard
     * output fails (a GUI that went away): it reads on until the end of
     * its input. */
    (void)icp_report_write_failure;
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
