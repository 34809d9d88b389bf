/* Reads and validates a FEN (§7.4, §11.18); see chess.rs from_fen for the
 * rules. 1 ok; 0 with the message (as chess.rs words it, control
 * characters as '?') in message. fen is UTF-8 text. */
ICP_COLD static int icp_fen_error(char *message, size_t size, const char *text)
{
    /* control characters as '?' (text is UTF-8; C1 controls are C2 80-9F) */
    size_t i = 0, o = 0;
    if (size == 0)
        return 0;
    while (text[i] && o + 1 < size) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == 0x7f) {
            message[o++] = '?';
            i++;
        } else if (c == 0xc2 && (unsigned char)text[i + 1] >= 0x80 && (unsigned char)text[i + 1] <= 0x9f) {
            message[o++] = '?';
            i += 2;
        } else {
            message[o++] = (char)c;
            i++;
        }
    }
    message[o] = '\0';
    return 0;
}

/* The length of the UTF-8 character at s (valid text). */
ICP_COLD static size_t icp_char_len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    return c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

/* A non-negative decimal (Rust's u32 parse: an optional '+', digits). */
/* A FEN counter (an optional '+', digits; leading zeros are fine): 1 and
 * *out; 0 when it is not a number; -1 past UINT64_MAX, the largest counter. */
ICP_COLD static int icp_parse_counter(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    int big = 0;
    if (n > 0 && s[0] == '+')
        i = 1;
    if (i >= n)
        return 0;
    for (; i < n; i++) {
        uint64_t d;
        if (s[i] < '0' || s[i] > '9')
            return 0;
        d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            big = 1;
        else
            v = v * 10 + d;
    }
    *out = v;
    return big ? -1 : 1;
}

ICP_COLD static int icp_is_ascii_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

ICP_COLD static int icp_position_from_fen(const char *fen, icp_position *out, char *message, size_t size)
{
    const char *field[6];
    size_t len[6], nfields = 0, i;
    char *buf;
    size_t cap = strlen(fen) + 256;
    icp_position pos;
    const char *s = fen;
    int rank, row, ok = 0;
    icp_position_empty(&pos);
    buf = malloc(cap);
    if (!buf) {
        fputs("error: memory exhausted\n", stderr);
        exit(1);
    }
    /* fields split at white space (the caller has made all of it ASCII) */
    while (*s) {
        while (*s && icp_is_ascii_space(*s))
            s++;
        if (!*s)
            break;
        if (nfields < 6) {
            field[nfields] = s;
        }
        while (*s && !icp_is_ascii_space(*s))
            s++;
        if (nfields < 6)
            len[nfields] = (size_t)(s - field[nfields]);
        nfields++;
    }
    if (nfields < 4 || nfields > 6) {
        snprintf(buf, cap,
                 "bad FEN: %lu fields, expected 4 to 6 (board, side, castling, en passant, [halfmove, fullmove])",
                 (unsigned long)nfields);
        goto fail;
    }
    /* the board: 8 ranks separated by '/' */
    {
        size_t ranks = 1;
        for (i = 0; i < len[0]; i++)
            if (field[0][i] == '/')
                ranks++;
        if (ranks != 8) {
            snprintf(buf, cap, "bad FEN: the board has %lu ranks, expected 8", (unsigned long)ranks);
            goto fail;
        }
    }
    s = field[0];
    for (row = 0; row < 8; row++) {
        unsigned file = 0;
        rank = 7 - row;
        while (s < field[0] + len[0] && *s != '/') {
            char c = *s;
            size_t clen = icp_char_len(s);
            int code;
            if (c >= '0' && c <= '9') {
                if (c == '0' || c == '9') {
                    snprintf(buf, cap, "bad FEN: digit %c in rank %d", c, rank + 1);
                    goto fail;
                }
                file += (unsigned)(c - '0');
                if (file > 255)
                    file = 255;
                s++;
                continue;
            }
            switch (c) {
            case 'K':
                code = ICP_KING;
                break;
            case 'Q':
                code = ICP_QUEEN;
                break;
            case 'R':
                code = ICP_ROOK;
                break;
            case 'B':
                code = ICP_BISHOP;
                break;
            case 'N':
                code = ICP_KNIGHT;
                break;
            case 'P':
                code = ICP_PAWN;
                break;
            case 'k':
                code = ICP_KING | ICP_BLACK_BIT;
                break;
            case 'q':
                code = ICP_QUEEN | ICP_BLACK_BIT;
                break;
            case 'r':
                code = ICP_ROOK | ICP_BLACK_BIT;
                break;
            case 'b':
                code = ICP_BISHOP | ICP_BLACK_BIT;
                break;
            case 'n':
                code = ICP_KNIGHT | ICP_BLACK_BIT;
                break;
            case 'p':
                code = ICP_PAWN | ICP_BLACK_BIT;
                break;
            default:
                snprintf(buf, cap, "bad FEN: unexpected character '%.*s' in the board", (int)clen, s);
                goto fail;
            }
            if (file >= 8) {
                snprintf(buf, cap, "bad FEN: rank %d has more than 8 squares", rank + 1);
                goto fail;
            }
            if ((code & 7) == ICP_PAWN && (rank == 0 || rank == 7)) {
                snprintf(buf, cap,
                         "bad FEN: a pawn on rank %d (pawns cannot stand on the first or last rank)", rank + 1);
                goto fail;
            }
            if ((code & 7) == ICP_KING && icp_count_code(&pos, code) > 0) {
                snprintf(buf, cap, "bad FEN: more than one %s king", (code & ICP_BLACK_BIT) ? "black" : "white");
                goto fail;
            }
            icp_put(&pos, rank * 16 + (int)file, code);
            file++;
            s += clen;
        }
        if (file != 8) {
            snprintf(buf, cap, "bad FEN: rank %d has %u squares, expected 8", rank + 1, file);
            goto fail;
        }
        s++; /* the '/' */
    }
    if (icp_count_code(&pos, ICP_KING) != 1) {
        snprintf(buf, cap, "bad FEN: no white king");
        goto fail;
    }
    if (icp_count_code(&pos, ICP_KING | ICP_BLACK_BIT) != 1) {
        snprintf(buf, cap, "bad FEN: no black king");
        goto fail;
    }
    if (len[1] == 1 && field[1][0] == 'w') {
        pos.side = ICP_WHITE;
    } else if (len[1] == 1 && field[1][0] == 'b') {
        pos.side = ICP_BLACK;
    } else {
        snprintf(buf, cap, "bad FEN: side to move '%.*s', expected 'w' or 'b'", (int)len[1], field[1]);
        goto fail;
    }
    if (!(len[2] == 1 && field[2][0] == '-')) {
        for (i = 0; i < len[2]; i += icp_char_len(field[2] + i)) {
            int right;
            switch (field[2][i]) {
            case 'K':
                right = ICP_WHITE_KINGSIDE;
                break;
            case 'Q':
                right = ICP_WHITE_QUEENSIDE;
                break;
            case 'k':
                right = ICP_BLACK_KINGSIDE;
                break;
            case 'q':
                right = ICP_BLACK_QUEENSIDE;
                break;
            default:
                snprintf(buf, cap, "bad FEN: castling field '%.*s', expected '-' or letters from KQkq",
                         (int)len[2], field[2]);
                goto fail;
            }
            if (pos.castling & right) {
                snprintf(buf, cap, "bad FEN: castling right '%c' given twice", field[2][i]);
                goto fail;
            }
            pos.castling |= (uint8_t)right;
        }
    }
    /* §11.18: rights that no longer fit the king and rook are dropped */
    {
        static const int fits[4][5] = {
            {ICP_WHITE_KINGSIDE, 0x04, ICP_KING, 0x07, ICP_ROOK},
            {ICP_WHITE_QUEENSIDE, 0x04, ICP_KING, 0x00, ICP_ROOK},
            {ICP_BLACK_KINGSIDE, 0x74, ICP_KING | ICP_BLACK_BIT, 0x77, ICP_ROOK | ICP_BLACK_BIT},
            {ICP_BLACK_QUEENSIDE, 0x74, ICP_KING | ICP_BLACK_BIT, 0x70, ICP_ROOK | ICP_BLACK_BIT},
        };
        int k;
        for (k = 0; k < 4; k++)
            if (icp_at(&pos, fits[k][1]) != fits[k][2] || icp_at(&pos, fits[k][3]) != fits[k][4])
                pos.castling &= (uint8_t)~fits[k][0];
    }
    if (!(len[3] == 1 && field[3][0] == '-')) {
        int square, wanted;
        if (len[3] != 2 || field[3][0] < 'a' || field[3][0] > 'h' || field[3][1] < '1' || field[3][1] > '8') {
            snprintf(buf, cap, "bad FEN: en-passant field '%.*s', expected '-' or a square", (int)len[3], field[3]);
            goto fail;
        }
        square = (field[3][1] - '1') * 8 + (field[3][0] - 'a');
        wanted = pos.side == ICP_WHITE ? 5 : 2;
        if (square / 8 != wanted) {
            snprintf(buf, cap, "bad FEN: en-passant square %.*s is not on the %s rank", (int)len[3], field[3],
                     wanted == 5 ? "6th" : "3rd");
            goto fail;
        }
        pos.en_passant = icp_to88(square);
    }
    for (i = 4; i < nfields; i++) {
        const char *what = i == 4 ? "halfmove clock" : "fullmove number";
        int ok = icp_parse_counter(field[i], len[i], i == 4 ? &pos.halfmove : &pos.fullmove);
        if (ok > 0)
            continue;
        if (ok == 0)
            snprintf(buf, cap, "bad FEN: %s '%.*s', expected a non-negative integer", what, (int)len[i], field[i]);
        else
            snprintf(buf, cap, "bad FEN: %s '%.*s' is past the largest counter, 18446744073709551615", what,
                     (int)len[i], field[i]);
        goto fail;
    }
    if (icp_attacked(&pos, pos.kings[1 - pos.side], pos.side, -1)) {
        snprintf(buf, cap, "bad FEN: the side not to move (%s) is in check",
                 1 - pos.side == ICP_WHITE ? "white" : "black");
        goto fail;
    }
    *out = pos;
    ok = 1;
    if (size > 0)
        message[0] = '\0';
    free(buf);
    return ok;
fail:
    icp_fen_error(message, size, buf);
    free(buf);
    return 0;
}

ICP_COLD static void icp_position_start(icp_position *out)
{
    char message[8];
    if (!icp_position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", out, message,
                               sizeof message))
        icp_position_empty(out);
}

ICP_COLD static char icp_piece_char(int code)
{
    static const char letters[] = " KQRBNP ";
    char c = letters[code & 7];
    if ((code & ICP_BLACK_BIT) && c != ' ')
        c = (char)(c - 'A' + 'a');
    return c;
}

/* The position as a 6-field FEN. */
ICP_COLD static void icp_position_to_fen(const icp_position *p, char out[ICP_FEN_SIZE])
{
    int rank, file, n = 0;
    char ep[3];
    for (rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (file = 0; file < 8; file++) {
            int code = icp_at(p, rank * 16 + file);
            if (code == 0) {
                empty++;
                continue;
            }
            if (empty > 0) {
                out[n++] = (char)('0' + empty);
                empty = 0;
            }
            out[n++] = icp_piece_char(code);
        }
        if (empty > 0)
            out[n++] = (char)('0' + empty);
        if (rank > 0)
            out[n++] = '/';
    }
    out[n++] = ' ';
    out[n++] = p->side == ICP_WHITE ? 'w' : 'b';
    out[n++] = ' ';
    if (p->castling == 0) {
        out[n++] = '-';
    } else {
        if (p->castling & ICP_WHITE_KINGSIDE)
            out[n++] = 'K';
        if (p->castling & ICP_WHITE_QUEENSIDE)
            out[n++] = 'Q';
        if (p->castling & ICP_BLACK_KINGSIDE)
            out[n++] = 'k';
        if (p->castling & ICP_BLACK_QUEENSIDE)
            out[n++] = 'q';
    }
    out[n++] = ' ';
    if (p->en_passant != ICP_NO_SQUARE) {
        icp_square_name(icp_from88(p->en_passant), ep);
        out[n++] = ep[0];
        out[n++] = ep[1];
    } else {
        out[n++] = '-';
    }
    snprintf(out + n, (size_t)(ICP_FEN_SIZE - n), " %" PRIu64 " %" PRIu64, p->halfmove, p->fullmove);
}

static int icp_side_to_move(const icp_position *p)
{
    return p->side;
}

/* @section piece_at */
/* What stands on square; 0 for an empty square or one outside 0..63. */
static int icp_piece_at(const icp_position *p, int square, icp_piece *out)
{
    int code;
    if (square < 0 || square >= 64)
        return 0;
    code = icp_at(p, icp_to88(square));
    if ((code & 7) == 0 || (code & 7) == 7)
        return 0;
    out->colour = (uint8_t)icp_colour_of(code);
    out->kind = (uint8_t)(code & 7);
    out->square = (uint8_t)square;
    return 1;
}
/* @end piece_at */

/* The squares of mask in variable order (§3, §11.1): file h first, then
 * g ... a; within a file the lower rank first, ranks counted from the side
 * to move's first rank. Returns how many. */
static int icp_variable_order(const icp_position *p, uint64_t mask, uint8_t out[64])
{
    const uint64_t file_a = 0x0101010101010101u;
    int n = 0, file, i;
    for (file = 7; file >= 0; file--) {
        if (!((mask >> file) & file_a))
            continue;
        for (i = 0; i < 8; i++) {
            int rank = p->side == ICP_WHITE ? i : 7 - i;
            int square = rank * 8 + file;
            if (mask & ((uint64_t)1 << square))
                out[n++] = (uint8_t)square;
        }
    }
    return n;
}

static int icp_variable_count(int kind)
{
    return kind == ICP_KING || kind == ICP_QUEEN ? 1 : kind == ICP_PAWN ? 8 : 2;
}

/* For each square, the position of its piece of colour in the §7.2 order
 * (255 for other squares). */
static void icp_order_ranks(const icp_position *p, int colour, uint8_t ranks[64])
{
    static const int kinds[6] = {ICP_KING, ICP_QUEEN, ICP_ROOK, ICP_BISHOP, ICP_KNIGHT, ICP_PAWN};
    uint8_t squares[64];
    int next = 0, k, i;
    uint64_t extra = 0;
    memset(ranks, 255, 64);
    for (k = 0; k < 6; k++) {
        uint64_t mask = p->kinds[kinds[k]] & p->occupied[colour];
        int n = icp_variable_order(p, mask, squares);
        for (i = 0; i < n; i++) {
            if (i < icp_variable_count(kinds[k])) {
                ranks[squares[i] & 63] = (uint8_t)next;
                if (next < 255)
                    next++;
            } else {
                extra |= (uint64_t)1 << (squares[i] & 63);
            }
        }
    }
    while (extra) {
        int square = icp_ctz(extra);
        extra &= extra - 1;
        ranks[square] = (uint8_t)next;
        if (next < 255)
            next++;
    }
}

/* @section piece_variable: mover */
/* The piece bound to the piece variable (colour, kind, 0-based index). */
static int icp_piece_variable(const icp_position *p, int colour, int kind, int index, icp_piece *out)
{
    uint8_t squares[64];
    int n;
    if (kind < ICP_KING || kind > ICP_PAWN || index < 0 || index >= icp_variable_count(kind))
        return 0;
    n = icp_variable_order(p, p->kinds[kind] & p->occupied[colour], squares);
    if (index >= n)
        return 0;
    out->colour = (uint8_t)colour;
    out->kind = (uint8_t)kind;
    out->square = squares[index];
    return 1;
}
/* @end piece_variable */

/* ------------------------------------------------------ legal moves */

/* Where generated moves go: a list, or (list NULL) a counter. */
typedef struct {
    icp_move_list *list;
    uint64_t count;
} icp_sink;

static void icp_sink_add(icp_sink *out, int from, int to, int promotion)
{
    if (out->list) {
        if (out->list->count < ICP_MAX_MOVES) {
            icp_move *m = &out->list->moves[out->list->count++];
            m->from = (uint8_t)from;
            m->to = (uint8_t)to;
            m->promotion = (uint8_t)promotion;
        }
    } else {
        out->count++;
    }
}

/* Pawn moves to each square of targets from the square delta behind it
 * (mod 64); four promotions each if promote. */
static void icp_sink_pawn_targets(icp_sink *out, uint64_t targets, int delta, int promote)
{
    if (!out->list) {
        uint64_t n = (uint64_t)icp_popcount(targets);
        out->count += promote ? 4 * n : n;
        return;
    }
    while (targets) {
        int to = icp_ctz(targets), k;
        int from = (to - delta) & 63;
        targets &= targets - 1;
        if (promote) {
            for (k = 0; k < 4; k++)
                icp_sink_add(out, from, to, icp_promotions[k]);
        } else {
            icp_sink_add(out, from, to, ICP_NO_KIND);
        }
    }
}

static void icp_sink_targets(icp_sink *out, int from, uint64_t targets)
{
    if (!out->list) {
        out->count += (uint64_t)icp_popcount(targets);
        return;
    }
    while (targets) {
        int to = icp_ctz(targets);
        targets &= targets - 1;
        icp_sink_add(out, from, to, ICP_NO_KIND);
    }
}

/* Checks and pins of the side to move. */
typedef struct {
    int checkers;
    uint64_t target, pinned;
    uint8_t pin_square[8];
    uint64_t pin_line[8];
    int pin_count;
} icp_restrictions;

static uint64_t icp_pin_line(const icp_restrictions *r, int s88)
{
    int i;
    for (i = 0; i < r->pin_count; i++)
        if (r->pin_square[i] == s88)
            return r->pin_line[i];
    return ~(uint64_t)0;
}

/* One scan from the side to move's king: checkers and pins. */
static void icp_restrictions_of(const icp_position *p, icp_restrictions *r)
{
    int us = p->side, king = p->kings[us], k64 = icp_from88(king), d;
    uint64_t them = p->occupied[1 - us];
    uint64_t pawn_attacks = us == ICP_WHITE ? icp_white_pawn_attacks[k64] : icp_black_pawn_attacks[k64];
    uint64_t leapers = ((pawn_attacks & p->kinds[ICP_PAWN]) | (icp_knight_attacks[k64] & p->kinds[ICP_KNIGHT])) & them;
    uint64_t queens = p->kinds[ICP_QUEEN];
    uint64_t straight = (p->kinds[ICP_ROOK] | queens) & them;
    uint64_t diagonal = (p->kinds[ICP_BISHOP] | queens) & them;
    r->checkers = icp_popcount(leapers);
    r->target = leapers;
    r->pinned = 0;
    r->pin_count = 0;
    for (d = 0; d < 8; d++) {
        int step = icp_king_steps[d], s = king, t, own = -1;
        int orthogonal = step == -16 || step == 16 || step == -1 || step == 1;
        uint64_t candidates = orthogonal ? straight : diagonal, line = 0;
        if (!(icp_rays[d][k64] & candidates))
            continue;
        while ((t = icp_step88(s, step)) >= 0) {
            uint64_t b = icp_bit(t);
            line |= b;
            if (icp_at(p, t) != 0) {
                if (them & b) {
                    if (candidates & b) {
                        if (own < 0) {
                            r->checkers++;
                            r->target |= line;
                        } else {
                            r->pinned |= icp_bit(own);
                            if (r->pin_count < 8) {
                                r->pin_square[r->pin_count] = (uint8_t)own;
                                r->pin_line[r->pin_count] = line;
                                r->pin_count++;
                            }
                        }
                    }
                    break;
                }
                if (own >= 0)
                    break;
                own = t;
            }
            s = t;
        }
    }
    if (r->checkers == 0)
        r->target = ~(uint64_t)0;
}

/* The squares a slider on from (0x88) reaches along steps. */
static uint64_t icp_slide_targets(const icp_position *p, int from, const int *steps, int nsteps, uint64_t own)
{
    uint64_t targets = 0;
    int i;
    for (i = 0; i < nsteps; i++) {
        int s = from, t;
        while ((t = icp_step88(s, steps[i])) >= 0) {
            targets |= icp_bit(t);
            if (icp_at(p, t) != 0)
                break;
            s = t;
        }
    }
    return targets & ~own;
}

static void icp_play_move(const icp_position *p, icp_move mv, icp_position *next);

/* En passant from -> to (0x88): legal by making it. */
static int icp_en_passant_legal(const icp_position *p, int from, int to)
{
    int victim = (from & 0xf0) | (to & 0x0f);
    int pawn_them = ICP_PAWN | (p->side == ICP_WHITE ? ICP_BLACK_BIT : 0);
    icp_position next;
    icp_move mv;
    if (icp_at(p, victim) != pawn_them || icp_at(p, to) != 0)
        return 0;
    mv.from = icp_from88(from);
    mv.to = icp_from88(to);
    mv.promotion = ICP_NO_KIND;
    icp_play_move(p, mv, &next);
    return !icp_attacked(&next, next.kings[p->side], 1 - p->side, -1);
}

static void icp_pawn_moves(const icp_position *p, int from, uint64_t allowed, icp_sink *out)
{
    int forward = p->side == ICP_WHITE ? 16 : -16;
    int start_rank = p->side == ICP_WHITE ? 1 : 6;
    int last_rank = p->side == ICP_WHITE ? 7 : 0;
    int cb_them = p->side == ICP_WHITE ? ICP_BLACK_BIT : 0;
    int t, t2, k, side;
    static const int sides[2] = {-1, 1};
#define ICP_PAWN_ADD(to)                                                            \
    do {                                                                            \
        if (((to) >> 4) == last_rank) {                                             \
            for (k = 0; k < 4; k++)                                                 \
                icp_sink_add(out, icp_from88(from), icp_from88(to), icp_promotions[k]); \
        } else {                                                                    \
            icp_sink_add(out, icp_from88(from), icp_from88(to), ICP_NO_KIND);      \
        }                                                                           \
    } while (0)
    if ((t = icp_step88(from, forward)) >= 0 && icp_at(p, t) == 0) {
        if (allowed & icp_bit(t))
            ICP_PAWN_ADD(t);
        if ((from >> 4) == start_rank && (t2 = icp_step88(t, forward)) >= 0 && icp_at(p, t2) == 0 &&
            (allowed & icp_bit(t2)))
            ICP_PAWN_ADD(t2);
    }
    for (side = 0; side < 2; side++) {
        int code;
        if ((t = icp_step88(from, forward + sides[side])) < 0)
            continue;
        code = icp_at(p, t);
        if (code != 0) {
            if ((code & ICP_BLACK_BIT) == cb_them && (allowed & icp_bit(t)))
                ICP_PAWN_ADD(t);
        } else if (t == p->en_passant) {
            if (icp_en_passant_legal(p, from, t))
                icp_sink_add(out, icp_from88(from), icp_from88(t), ICP_NO_KIND);
        }
    }
#undef ICP_PAWN_ADD
}

/* Pawn moves: the unpinned pawns at once by shifting masks, en passant
 * and the pinned pawns one by one. */
static void icp_pawns_in_bulk(const icp_position *p, const icp_restrictions *r, uint64_t own, icp_sink *out)
{
    const uint64_t file_a = 0x0101010101010101u, file_h = file_a << 7, rank_1 = 0xff, rank_8 = rank_1 << 56;
    uint64_t pawns = p->kinds[ICP_PAWN] & own;
    uint64_t enemy = p->occupied[1 - p->side];
    uint64_t empty = ~(p->occupied[0] | p->occupied[1]);
    uint64_t free_pawns = pawns & ~r->pinned, masks[4], last, bits;
    int deltas[4], k;
    if (p->side == ICP_WHITE) {
        masks[0] = (free_pawns << 8) & empty;
        masks[1] = ((masks[0] & (rank_1 << 16)) << 8) & empty;
        masks[2] = ((free_pawns & ~file_a) << 7) & enemy;
        masks[3] = ((free_pawns & ~file_h) << 9) & enemy;
        last = rank_8;
        deltas[0] = 8;
        deltas[1] = 16;
        deltas[2] = 7;
        deltas[3] = 9;
    } else {
        masks[0] = (free_pawns >> 8) & empty;
        masks[1] = ((masks[0] & (rank_8 >> 16)) >> 8) & empty;
        masks[2] = ((free_pawns & ~file_a) >> 9) & enemy;
        masks[3] = ((free_pawns & ~file_h) >> 7) & enemy;
        last = rank_1;
        deltas[0] = -8;
        deltas[1] = -16;
        deltas[2] = -9;
        deltas[3] = -7;
    }
    for (k = 0; k < 4; k++) {
        uint64_t mask = masks[k] & r->target;
        icp_sink_pawn_targets(out, mask & ~last, deltas[k], 0);
        icp_sink_pawn_targets(out, mask & last, deltas[k], 1);
    }
    if (p->en_passant != ICP_NO_SQUARE) {
        int ep64 = icp_from88(p->en_passant);
        uint64_t attackers = p->side == ICP_WHITE ? icp_black_pawn_attacks[ep64] : icp_white_pawn_attacks[ep64];
        bits = attackers & free_pawns;
        while (bits) {
            int sq = icp_ctz(bits);
            bits &= bits - 1;
            if (icp_en_passant_legal(p, icp_to88(sq), p->en_passant))
                icp_sink_add(out, sq, ep64, ICP_NO_KIND);
        }
    }
    bits = pawns & r->pinned;
    while (bits) {
        int sq = icp_ctz(bits), from = icp_to88(sq);
        bits &= bits - 1;
        icp_pawn_moves(p, from, r->target & icp_pin_line(r, from), out);
    }
}

static void icp_castles(const icp_position *p, icp_sink *out)
{
    int base = p->side == ICP_WHITE ? 0x00 : 0x70;
    int kingside = p->side == ICP_WHITE ? ICP_WHITE_KINGSIDE : ICP_BLACK_KINGSIDE;
    int queenside = p->side == ICP_WHITE ? ICP_WHITE_QUEENSIDE : ICP_BLACK_QUEENSIDE;
    int them = 1 - p->side, king = base + 4;
    if (p->kings[p->side] != king)
        return;
    if ((p->castling & kingside) && icp_at(p, base + 5) == 0 && icp_at(p, base + 6) == 0 &&
        !icp_attacked(p, base + 5, them, -1) && !icp_attacked(p, base + 6, them, -1))
        icp_sink_add(out, icp_from88(king), icp_from88(base + 6), ICP_NO_KIND);
    if ((p->castling & queenside) && icp_at(p, base + 1) == 0 && icp_at(p, base + 2) == 0 &&
        icp_at(p, base + 3) == 0 && !icp_attacked(p, base + 3, them, -1) && !icp_attacked(p, base + 2, them, -1))
        icp_sink_add(out, icp_from88(king), icp_from88(base + 2), ICP_NO_KIND);
}

/* The legal moves, in generation order (chess.rs generate_with). */
static void icp_generate_with(const icp_position *p, const icp_restrictions *r, icp_sink *out)
{
    static const int kinds[4] = {ICP_KNIGHT, ICP_BISHOP, ICP_ROOK, ICP_QUEEN};
    int us = p->side, them = 1 - us, king = p->kings[us], k;
    uint64_t own = p->occupied[us];
    uint64_t bits = icp_king_attacks[icp_from88(king)] & ~own;
    while (bits) {
        int to = icp_ctz(bits);
        bits &= bits - 1;
        if (!icp_attacked(p, icp_to88(to), them, king))
            icp_sink_add(out, icp_from88(king), to, ICP_NO_KIND);
    }
    if (r->checkers >= 2)
        return;
    if (r->checkers == 0)
        icp_castles(p, out);
    icp_pawns_in_bulk(p, r, own, out);
    for (k = 0; k < 4; k++) {
        int kind = kinds[k];
        bits = p->kinds[kind] & own;
        while (bits) {
            int sq = icp_ctz(bits), from = icp_to88(sq);
            uint64_t allowed = (r->pinned & ((uint64_t)1 << sq)) ? r->target & icp_pin_line(r, from) : r->target;
            bits &= bits - 1;
            if (kind == ICP_KNIGHT)
                icp_sink_targets(out, sq, icp_knight_attacks[sq] & ~own & allowed);
            else if (kind == ICP_BISHOP)
                icp_sink_targets(out, sq, icp_slide_targets(p, from, icp_bishop_steps, 4, own) & allowed);
            else if (kind == ICP_ROOK)
                icp_sink_targets(out, sq, icp_slide_targets(p, from, icp_rook_steps, 4, own) & allowed);
            else
                icp_sink_targets(out, sq, icp_slide_targets(p, from, icp_king_steps, 8, own) & allowed);
        }
    }
}

/* The side to move's legal moves in generation order. */
static void icp_generate(const icp_position *p, icp_move_list *out)
{
    icp_restrictions r;
    icp_sink sink;
    out->count = 0;
    sink.list = out;
    sink.count = 0;
    icp_restrictions_of(p, &r);
    icp_generate_with(p, &r, &sink);
}

/* Number of legal moves (perft 1). */
static uint64_t icp_count_legal(const icp_position *p)
{
    icp_restrictions r;
    icp_sink sink;
    sink.list = NULL;
    sink.count = 0;
    icp_restrictions_of(p, &r);
    icp_generate_with(p, &r, &sink);
    return sink.count;
}

/* The side to move's legal moves in the order of §7.2: by the piece's
 * variable order, then destination, then promotion Q R B N. */
static void icp_legal_moves(const icp_position *p, icp_move_list *out)
{
    uint8_t rank_of[64];
    uint32_t keys[ICP_MAX_MOVES];
    int i, j, n;
    icp_generate(p, out);
    icp_order_ranks(p, p->side, rank_of);
    n = out->count;
    for (i = 0; i < n; i++) {
        const icp_move *m = &out->moves[i];
        uint32_t promotion = m->promotion == ICP_NO_KIND ? 0
                             : m->promotion == ICP_QUEEN ? 1
                             : m->promotion == ICP_ROOK  ? 2
                             : m->promotion == ICP_BISHOP ? 3
                                                          : 4;
        keys[i] = (uint32_t)rank_of[m->from & 63] << 24 | (uint32_t)(m->to & 63) << 16 | promotion << 8 |
                  (uint32_t)(m->from & 63);
    }
    for (i = 1; i < n; i++) {
        uint32_t k = keys[i];
        for (j = i; j > 0 && keys[j - 1] > k; j--)
            keys[j] = keys[j - 1];
        keys[j] = k;
    }
    for (i = 0; i < n; i++) {
        static const uint8_t kinds[5] = {ICP_NO_KIND, ICP_QUEEN, ICP_ROOK, ICP_BISHOP, ICP_KNIGHT};
        uint32_t pr = (keys[i] >> 8) & 7;
        out->moves[i].from = (uint8_t)(keys[i] & 63);
        out->moves[i].to = (uint8_t)((keys[i] >> 16) & 63);
        out->moves[i].promotion = pr <= 4 ? kinds[pr] : ICP_NO_KIND;
    }
}

/* The position after mv (assumed legal; a move from an empty square or
 * off the board gives the position unchanged). */
static void icp_play_move(const icp_position *p, icp_move mv, icp_position *next)
{
    int from, to, code, captured, kind, black, placed;
    *next = *p;
    if (mv.from >= 64 || mv.to >= 64 || mv.from == mv.to)
        return;
    from = icp_to88(mv.from);
    to = icp_to88(mv.to);
    code = icp_at(p, from);
    if (code == 0)
        return;
    captured = icp_at(p, to);
    kind = code & 7;
    black = code & ICP_BLACK_BIT;
    next->en_passant = ICP_NO_SQUARE;
    next->halfmove = (kind == ICP_PAWN || captured != 0) ? 0
                     : p->halfmove == UINT64_MAX ? UINT64_MAX
                                                 : p->halfmove + 1;
    if (kind == ICP_PAWN) {
        int diff = to - from;
        if (captured == 0 && (diff == 15 || diff == 17 || diff == -15 || diff == -17))
            icp_put(next, (from & 0xf0) | (to & 0x0f), 0);
        if (diff == 32 || diff == -32)
            next->en_passant = (uint8_t)((from + diff / 2) & 0x7f);
    }
    icp_put(next, from, 0);
    placed = code;
    if (kind == ICP_PAWN && ((to >> 4) == 0 || (to >> 4) == 7))
        placed = (mv.promotion != ICP_NO_KIND ? mv.promotion : ICP_QUEEN) | black;
    icp_put(next, to, placed);
    if (kind == ICP_KING) {
        int diff = to - from;
        if (diff == 2) {
            int rook = icp_at(next, from + 3);
            icp_put(next, from + 3, 0);
            icp_put(next, from + 1, rook);
        } else if (diff == -2 && from >= 4) {
            int rook = icp_at(next, from - 4);
            icp_put(next, from - 4, 0);
            icp_put(next, from - 1, rook);
        }
    }
    next->castling &= (uint8_t)(icp_castle_keep(from) & icp_castle_keep(to));
    if (p->side == ICP_BLACK)
        next->fullmove = p->fullmove == UINT64_MAX ? UINT64_MAX : p->fullmove + 1;
    next->side = (uint8_t)(1 - p->side);
}

static void icp_play(const icp_position *p, icp_move mv, icp_position *out)
{
    icp_play_move(p, mv, out);
}

/* True if the side to move's king is attacked. */
static int icp_in_check(const icp_position *p)
{
    return icp_attacked(p, p->kings[p->side], 1 - p->side, -1);
}

/* True if the piece on from (0x88) attacks target (0x88). */
ICP_COLD static int icp_piece_attacks(const icp_position *p, int from, int target)
{
    int code = icp_at(p, from), diff = target - from, i, n;
    const int *steps;
    switch (code & 7) {
    case ICP_PAWN:
        return (code & ICP_BLACK_BIT) == 0 ? (diff == 15 || diff == 17) : (diff == -15 || diff == -17);
    case ICP_KNIGHT:
        for (i = 0; i < 8; i++)
            if (icp_knight_steps[i] == diff)
                return 1;
        return 0;
    case ICP_KING:
        for (i = 0; i < 8; i++)
            if (icp_king_steps[i] == diff)
                return 1;
        return 0;
    case ICP_QUEEN:
    case ICP_ROOK:
    case ICP_BISHOP:
        steps = (code & 7) == ICP_ROOK ? icp_rook_steps : (code & 7) == ICP_BISHOP ? icp_bishop_steps : icp_king_steps;
        n = (code & 7) == ICP_QUEEN ? 8 : 4;
        for (i = 0; i < n; i++) {
            int s = from, t;
            while ((t = icp_step88(s, steps[i])) >= 0) {
                if (t == target)
                    return 1;
                if (icp_at(p, t) != 0)
                    break;
                s = t;
            }
        }
        return 0;
    default:
        return 0;
    }
}

/* The squares of the pieces giving check, in square order. */
ICP_COLD static int icp_checkers(const icp_position *p, uint8_t out[16])
{
    int king = p->kings[p->side], n = 0;
    uint64_t bits = p->occupied[1 - p->side];
    while (bits) {
        int sq = icp_ctz(bits);
        bits &= bits - 1;
        if (icp_piece_attacks(p, icp_to88(sq), king) && n < 16)
            out[n++] = (uint8_t)sq;
    }
    return n;
}

/* True if mv captures (§11.5; en passant included). */
static int icp_is_capture(const icp_position *p, icp_move mv)
{
    int code, target;
    if (mv.from >= 64 || mv.to >= 64)
        return 0;
    code = icp_at(p, icp_to88(mv.from));
    if (code == 0)
        return 0;
    target = icp_at(p, icp_to88(mv.to));
    if (target != 0)
        return (target & ICP_BLACK_BIT) != (code & ICP_BLACK_BIT);
    return (code & 7) == ICP_PAWN && mv.from % 8 != mv.to % 8 && icp_to88(mv.to) == p->en_passant;
}

/* True if mv is one of the side to move's legal moves. */
static int icp_is_legal(const icp_position *p, icp_move mv)
{
    icp_move_list moves;
    int i;
    if (mv.from >= 64 || mv.to >= 64)
        return 0;
    icp_generate(p, &moves);
    for (i = 0; i < moves.count; i++)
        if (moves.moves[i].from == mv.from && moves.moves[i].to == mv.to &&
            moves.moves[i].promotion == mv.promotion)
            return 1;
    return 0;
}

/* @section t_check */
/* True if legal mv gives check (§4 CHECK; an illegal move: false). */
static int icp_gives_check(const icp_position *p, icp_move mv)
{
    icp_position next;
    if (!icp_is_legal(p, mv))
        return 0;
    icp_play_move(p, mv, &next);
    return icp_in_check(&next);
}
/* @end t_check */

/* Number of kind pieces of colour. */
static unsigned icp_count(const icp_position *p, int colour, int kind)
{
    return icp_count_code(p, kind | (colour == ICP_BLACK ? ICP_BLACK_BIT : 0));
}

static uint64_t icp_perft_at(const icp_position *p, unsigned depth)
{
    icp_move_list moves;
    uint64_t total = 0;
    int i;
    if (depth == 0)
        return 1;
    if (depth == 1)
        return icp_count_legal(p);
    icp_generate(p, &moves);
    for (i = 0; i < moves.count; i++) {
        icp_position next;
        icp_play_move(p, moves.moves[i], &next);
        total += icp_perft_at(&next, depth - 1);
    }
    return total;
}

/* The position's hash key (§7.5, chess.rs key): placement, side to move,
 * castling rights, the en-passant file when there is a square. */
static uint64_t icp_position_key(const icp_position *p)
{
    uint64_t key = p->placement_key ^ icp_zobrist[ICP_ZOBRIST_CASTLING + (p->castling & 15)];
    if (p->side == ICP_BLACK)
        key ^= icp_zobrist[ICP_ZOBRIST_SIDE];
    if (p->en_passant != ICP_NO_SQUARE)
        key ^= icp_zobrist[ICP_ZOBRIST_EN_PASSANT + (p->en_passant & 7)];
    return key;
}

/* True when the side to move has a legal en-passant capture. */
static int icp_en_passant_capturable(const icp_position *p)
{
    icp_move_list moves;
    int i;
    if (p->en_passant == ICP_NO_SQUARE)
        return 0;
    icp_generate(p, &moves);
    for (i = 0; i < moves.count; i++)
        if (icp_to88(moves.moves[i].to) == p->en_passant && (icp_at(p, icp_to88(moves.moves[i].from)) & 7) == ICP_PAWN)
            return 1;
    return 0;
}

/* The key of the position as the game history compares positions (§7.5):
 * the en-passant file only when an en-passant capture is legal. */
static uint64_t icp_repetition_key(const icp_position *p)
{
    uint64_t key = icp_position_key(p);
    if (p->en_passant != ICP_NO_SQUARE && !icp_en_passant_capturable(p))
        key ^= icp_zobrist[ICP_ZOBRIST_EN_PASSANT + (p->en_passant & 7)];
    return key;
}

/* True when a and b are the same position of a game (§7.5): placement,
 * side, castling rights, the en-passant square only when it can be taken. */
static int icp_same_game_position(const icp_position *a, const icp_position *b)
{
    int ea = icp_en_passant_capturable(a) ? a->en_passant : ICP_NO_SQUARE;
    int eb = icp_en_passant_capturable(b) ? b->en_passant : ICP_NO_SQUARE;
    return memcmp(a->board, b->board, sizeof a->board) == 0 && a->side == b->side && a->castling == b->castling &&
           ea == eb;
}

/* True when mv is a capture or a pawn move (§7.5). */
static int icp_is_irreversible(const icp_position *p, icp_move mv)
{
    return icp_is_capture(p, mv) || (mv.from < 64 && (icp_at(p, icp_to88(mv.from)) & 7) == ICP_PAWN);
}

/* Leaf nodes of the legal move tree to depth (§7.4; depth 0 is 1). */
static uint64_t icp_perft(const icp_position *p, unsigned depth)
{
    return icp_perft_at(p, depth);
}

/* Parses a UCI move and returns 1 if it is legal here. */
ICP_COLD static int icp_parse_move(const icp_position *p, const char *text, icp_move *out)
{
    size_t n = strlen(text), i;
    icp_move mv;
    for (i = 0; i < n; i++)
        if ((unsigned char)text[i] >= 0x80)
            return 0;
    if (n < 4 || n > 5)
        return 0;
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8' || text[2] < 'a' || text[2] > 'h' ||
        text[3] < '1' || text[3] > '8')
        return 0;
    mv.from = (uint8_t)((text[1] - '1') * 8 + (text[0] - 'a'));
    mv.to = (uint8_t)((text[3] - '1') * 8 + (text[2] - 'a'));
    mv.promotion = ICP_NO_KIND;
    if (n == 5) {
        switch (text[4]) {
        case 'q':
        case 'Q':
            mv.promotion = ICP_QUEEN;
            break;
        case 'r':
        case 'R':
            mv.promotion = ICP_ROOK;
            break;
        case 'b':
        case 'B':
            mv.promotion = ICP_BISHOP;
            break;
        case 'n':
        case 'N':
            mv.promotion = ICP_KNIGHT;
            break;
        default:
            return 0;
        }
    }
    if (!icp_is_legal(p, mv))
        return 0;
    *out = mv;
    return 1;
}

/* The board as the UCI d command prints it (Stockfish's layout). */
ICP_COLD static void icp_display(const icp_position *p, FILE *out)
{
    static const char border[] = " +---+---+---+---+---+---+---+---+\n";
    char fen[ICP_FEN_SIZE], name[3];
    uint8_t checkers[16];
    int rank, file, n, i;
    fputs("\n", out);
    fputs(border, out);
    for (rank = 7; rank >= 0; rank--) {
        for (file = 0; file < 8; file++)
            fprintf(out, " | %c", icp_piece_char(icp_at(p, rank * 16 + file)));
        fprintf(out, " | %d\n", rank + 1);
        fputs(border, out);
    }
    icp_position_to_fen(p, fen);
    fprintf(out, "   a   b   c   d   e   f   g   h\n\nFen: %s\nCheckers: ", fen);
    n = icp_checkers(p, checkers);
    for (i = 0; i < n; i++) {
        icp_square_name(checkers[i], name);
        fprintf(out, "%s ", name);
    }
    fputs("\n", out);
}
