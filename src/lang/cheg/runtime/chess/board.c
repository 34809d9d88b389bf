enum { ICP_WHITE = 0, ICP_BLACK = 1 };
/* Piece kinds; on the board a code is kind | 8 for Black, 0 for empty. */
enum { ICP_NO_KIND = 0, ICP_KING = 1, ICP_QUEEN = 2, ICP_ROOK = 3, ICP_BISHOP = 4, ICP_KNIGHT = 5, ICP_PAWN = 6 };
#define ICP_BLACK_BIT 8

#define ICP_WHITE_KINGSIDE 1
#define ICP_WHITE_QUEENSIDE 2
#define ICP_BLACK_KINGSIDE 4
#define ICP_BLACK_QUEENSIDE 8

/* A piece on a square (§11.2). */
typedef struct {
    uint8_t colour, kind, square;
} icp_piece;

/* A move: from, to, promotion kind (ICP_NO_KIND for none). */
typedef struct {
    uint8_t from, to, promotion;
} icp_move;

/* A position; en_passant is a 0x88 square or 0xff. */
typedef struct {
    uint8_t board[128];
    uint64_t occupied[2];
    uint64_t kinds[8];
    uint8_t kings[2];
    uint8_t side;
    uint8_t castling;
    uint8_t en_passant;
    uint64_t halfmove, fullmove;
    /* The placement's part of icp_position_key, kept by icp_put. */
    uint64_t placement_key;
} icp_position;

#define ICP_MAX_MOVES 256
typedef struct {
    int count;
    icp_move moves[ICP_MAX_MOVES];
} icp_move_list;

#define ICP_FEN_SIZE 128
#define ICP_NO_SQUARE 0xff

static const int icp_knight_steps[8] = {-33, -31, -18, -14, 14, 18, 31, 33};
static const int icp_king_steps[8] = {-17, -16, -15, -1, 1, 15, 16, 17};
static const int icp_rook_steps[4] = {-16, -1, 1, 16};
static const int icp_bishop_steps[4] = {-17, -15, 15, 17};

static uint64_t icp_knight_attacks[64], icp_king_attacks[64], icp_white_pawn_attacks[64],
    icp_black_pawn_attacks[64], icp_rays[8][64];

/* Hash keys (§7.5), as chess.rs: piece code x square, then the side to
 * move (Black), the 16 castling-right sets, the 8 en-passant files. */
#define ICP_ZOBRIST_SIDE 1024
#define ICP_ZOBRIST_CASTLING 1025
#define ICP_ZOBRIST_EN_PASSANT 1041
#define ICP_ZOBRIST_SIZE 1049
/* The seed of the Zobrist keys (the year of CHEG). */
#define ICP_ZOBRIST_SEED 1973
static uint64_t icp_zobrist[ICP_ZOBRIST_SIZE];

/* SplitMix64's output function of x plus the golden-ratio increment: the
 * generator of every hash key (chess.rs mix64). */
static uint64_t icp_mix64(uint64_t x)
{
    uint64_t z = x + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint8_t icp_to88(int square)
{
    return (uint8_t)((square & 63) + (square & 56));
}

static uint8_t icp_from88(int s)
{
    return (uint8_t)(((s & 0x77) + (s & 7)) >> 1);
}

/* s + step, or -1 off the board. */
static int icp_step88(int s, int step)
{
    int t = s + step;
    return (t >= 0 && t < 128 && (t & 0x88) == 0) ? t : -1;
}

static uint64_t icp_bit(int s88)
{
    return (uint64_t)1 << icp_from88(s88);
}

static int icp_ctz(uint64_t b)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(b);
#else
    int n = 0;
    while (!(b & 1)) {
        b >>= 1;
        n++;
    }
    return n;
#endif
}

/* Without a popcount instruction (x86-64's default) gcc makes
 * __builtin_popcountll a call into libgcc, a quarter of a perft's time;
 * the same sums inline are faster. */
static int icp_popcount(uint64_t b)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__)))
    return __builtin_popcountll(b);
#else
    b = b - ((b >> 1) & 0x5555555555555555u);
    b = (b & 0x3333333333333333u) + ((b >> 2) & 0x3333333333333333u);
    b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (int)((b * 0x0101010101010101u) >> 56);
#endif
}

ICP_COLD static void icp_step_table(uint64_t table[64], const int *steps, int count)
{
    int sq, i;
    for (sq = 0; sq < 64; sq++) {
        int s88 = sq + (sq & 56);
        table[sq] = 0;
        for (i = 0; i < count; i++) {
            int t = s88 + steps[i];
            if (t >= 0 && t < 128 && (t & 0x88) == 0)
                table[sq] |= (uint64_t)1 << icp_from88(t);
        }
    }
}

ICP_COLD static void icp_chess_init(void)
{
    static int done;
    static const int white_pawn[2] = {15, 17}, black_pawn[2] = {-15, -17};
    int d, sq;
    if (done)
        return;
    done = 1;
    icp_step_table(icp_knight_attacks, icp_knight_steps, 8);
    icp_step_table(icp_king_attacks, icp_king_steps, 8);
    icp_step_table(icp_white_pawn_attacks, white_pawn, 2);
    icp_step_table(icp_black_pawn_attacks, black_pawn, 2);
    for (sq = 0; sq < ICP_ZOBRIST_SIZE; sq++)
        icp_zobrist[sq] = icp_mix64((uint64_t)ICP_ZOBRIST_SEED * UINT64_C(0x100000000) + (uint64_t)sq);
    for (d = 0; d < 8; d++)
        for (sq = 0; sq < 64; sq++) {
            int t = sq + (sq & 56) + icp_king_steps[d];
            icp_rays[d][sq] = 0;
            while (t >= 0 && t < 128 && (t & 0x88) == 0) {
                icp_rays[d][sq] |= (uint64_t)1 << icp_from88(t);
                t += icp_king_steps[d];
            }
        }
}

static int icp_colour_of(int code)
{
    return (code & ICP_BLACK_BIT) ? ICP_BLACK : ICP_WHITE;
}

/* Castling rights that survive a move touching the 0x88 square. */
static uint8_t icp_castle_keep(int s88)
{
    switch (s88) {
    case 0x00:
        return (uint8_t)~ICP_WHITE_QUEENSIDE;
    case 0x04:
        return (uint8_t)~(ICP_WHITE_KINGSIDE | ICP_WHITE_QUEENSIDE);
    case 0x07:
        return (uint8_t)~ICP_WHITE_KINGSIDE;
    case 0x70:
        return (uint8_t)~ICP_BLACK_QUEENSIDE;
    case 0x74:
        return (uint8_t)~(ICP_BLACK_KINGSIDE | ICP_BLACK_QUEENSIDE);
    case 0x77:
        return (uint8_t)~ICP_BLACK_KINGSIDE;
    default:
        return 0xff;
    }
}

static const uint8_t icp_promotions[4] = {ICP_QUEEN, ICP_ROOK, ICP_BISHOP, ICP_KNIGHT};

/* The square's name, a1 ... h8 ("??" outside 0..63). */
ICP_COLD static void icp_square_name(int square, char out[3])
{
    if (square < 0 || square >= 64) {
        out[0] = out[1] = '?';
    } else {
        out[0] = (char)('a' + square % 8);
        out[1] = (char)('1' + square / 8);
    }
    out[2] = '\0';
}

/* UCI text: e2e4, e7e8q. */
ICP_COLD static void icp_move_uci(icp_move mv, char out[6])
{
    static const char letters[] = " kqrbnp";
    icp_square_name(mv.from, out);
    icp_square_name(mv.to, out + 2);
    if (mv.promotion != ICP_NO_KIND) {
        out[4] = letters[mv.promotion % 7];
        out[5] = '\0';
    }
}

static int icp_at(const icp_position *p, int s88)
{
    return p->board[s88 & 0x7f];
}

static void icp_put(icp_position *p, int s88, int code)
{
    int old = icp_at(p, s88);
    uint64_t b = icp_bit(s88);
    p->board[s88 & 0x7f] = (uint8_t)code;
    if (old != 0)
        p->placement_key ^= icp_zobrist[(old & 15) * 64 + icp_from88(s88)];
    if (code != 0)
        p->placement_key ^= icp_zobrist[(code & 15) * 64 + icp_from88(s88)];
    p->occupied[0] &= ~b;
    p->occupied[1] &= ~b;
    p->kinds[old & 7] &= ~b;
    if (code != 0) {
        p->occupied[icp_colour_of(code)] |= b;
        p->kinds[code & 7] |= b;
        if ((code & 7) == ICP_KING)
            p->kings[icp_colour_of(code)] = (uint8_t)s88;
    }
}

ICP_COLD static void icp_position_empty(icp_position *p)
{
    icp_chess_init();
    memset(p, 0, sizeof *p);
    p->side = ICP_WHITE;
    p->en_passant = ICP_NO_SQUARE;
    p->fullmove = 1;
}

static unsigned icp_count_code(const icp_position *p, int code)
{
    unsigned n = 0;
    uint64_t bits = p->occupied[icp_colour_of(code)];
    while (bits) {
        int sq = icp_ctz(bits);
        bits &= bits - 1;
        if (icp_at(p, icp_to88(sq)) == code)
            n++;
    }
    return n;
}

/* True if the 0x88 target is attacked by a piece of colour by, treating
 * the 0x88 square ignore (or -1) as empty. */
static int icp_attacked(const icp_position *p, int target, int by, int ignore)
{
    uint64_t them = p->occupied[by];
    int t64 = icp_from88(target), d;
    uint64_t pawns = by == ICP_WHITE ? icp_black_pawn_attacks[t64] : icp_white_pawn_attacks[t64];
    uint64_t queens, straight, diagonal;
    if ((pawns & p->kinds[ICP_PAWN] & them) || (icp_knight_attacks[t64] & p->kinds[ICP_KNIGHT] & them) ||
        (icp_king_attacks[t64] & p->kinds[ICP_KING] & them))
        return 1;
    queens = p->kinds[ICP_QUEEN];
    straight = (p->kinds[ICP_ROOK] | queens) & them;
    diagonal = (p->kinds[ICP_BISHOP] | queens) & them;
    for (d = 0; d < 8; d++) {
        int step = icp_king_steps[d], s = target, t;
        int orthogonal = step == -16 || step == 16 || step == -1 || step == 1;
        uint64_t candidates = orthogonal ? straight : diagonal;
        if (!(icp_rays[d][t64] & candidates))
            continue;
        while ((t = icp_step88(s, step)) >= 0) {
            if (t != ignore && icp_at(p, t) != 0) {
                if (candidates & icp_bit(t))
                    return 1;
                break;
            }
            s = t;
        }
    }
    return 0;
}
