#!/usr/bin/env python3
"""Match harness: how strong is a compiled CHEG engine? (games against
Stockfish at fixed UCI_Elo levels, or two builds head to head with a SPRT)

    python3 benches/strength.py                        krk.cheg vs Stockfish, UCI_Elo 1500, 10+0.1, 48 games
    python3 benches/strength.py --elo 1350 --elo 1600 --tc 1+0.01 --games 10
    python3 benches/strength.py --engine ./krk --engine ./krk-old --option Style=Play
    python3 benches/strength.py --program examples/tour.cheg --games 24
    python3 benches/strength.py --sprt --engine ./new --engine-b ./old --tc 1+0.01 --games 400
    python3 benches/strength.py --smoke                 4 games at 1+0.01, faults only (CI)

The engine under test is built the way a user builds it: `icp2c X.cheg -o
X.c && cc -std=c99 -O2 X.c -o X` in a temporary directory (icp2c from
target/release, or --icp2c; default program examples/krk.cheg, others with
--program), or taken as built with --engine PATH (repeatable: each engine
plays every match, to compare builds). --option NAME=VALUE (repeatable) is
sent to our engines with setoption; an option an engine does not have, or
a value it refuses (python-chess checks the range, the engine may answer
`info string error`), is reported and counts as a fault.

Each match is one engine against Stockfish with `UCI_LimitStrength true` at
one `UCI_Elo` (--elo, repeatable; below Stockfish's minimum, read from its
option list, is refused) under one time control (--tc BASE+INC in seconds,
repeatable). Games start from a built-in list of 32 common openings (4 to 8
plies, in UCI moves); each opening is played twice, colours swapped, and
the openings cycle over --games. Both engines get the clock with every `go`
(wtime btime winc binc); this script keeps both clocks itself from the wall
time of each move (so the pipe and python-chess count against the mover)
and a side whose clock falls below zero (less --time-margin MS, default 0
as in cutechess; an overrun within the margin sets the clock to zero and
is counted) loses on time (a draw if the other side has no mating
material); an engine silent 5 s past its clock is killed and loses on
time. Stockfish plays with one thread, a 16 MB
hash and `Move Overhead` 100 ms (so that on a loaded machine it does not
lose on time at 1+0.01; --stockfish-option NAME=VALUE to change it; our
engines keep their own default, `--option "Move Overhead=..."`). A game ends by the rules (mate, stalemate,
threefold repetition, fifty moves, insufficient material) or, past
--max-plies plies, as a draw by adjudication; nothing else is adjudicated.

The report of a match, from our engine's side:
- W/D/L: games won, drawn, lost; "adj." the draws by adjudication.
- score: (W + D/2) / games.
- Elo: the logistic Elo difference that score implies, -400 log10(1/s - 1),
  with its 95% error bar: the score's standard error from the per-game
  results (trinomial: the variance of the 1, 1/2, 0 outcomes about the
  mean, over the number of games), s +- 1.96 standard errors mapped to Elo,
  half the width of that interval (as cutechess and fastchess report it).
  An all-won or all-lost match has an infinite estimate.
- about: the implied absolute Elo, the level plus the difference. It is
  only as good as Stockfish's UCI_Elo calibration (made at a longer time
  control against other engines), so read it as a rough scale and use the
  difference to compare builds.
- faults: illegal moves, losses on time, protocol errors and crashes, each
  with its game number; a fault of an engine under test (not Stockfish's)
  makes the exit status 1. Stockfish's losses on time are listed apart.

--sprt plays two of our engines (two --engine, or --engine and --engine-b,
or one built engine and --engine-b) against each other under the first
--tc, and runs a generalised SPRT on A's results: H0 "A is elo0 better"
against H1 "A is elo1 better" (--elo0 0, --elo1 10, logistic Elo; alpha =
beta = 0.05 so the bounds are +-2.94), printing the log-likelihood ratio
after each game pair and stopping at a bound (H1 accepted: A is better;
H0: it is not elo1 better) or after --games.

Every game is written to a PGN file (--pgn, default
target/strength/<UTC timestamp>.pgn) as it ends, with Event, White, Black,
TimeControl, Result, Opening, OpeningMoves, Termination and each move's
clock ([%clk]).

--smoke plays 4 games (2 openings, both colours; --games to change) at
1+0.01 against the lowest UCI_Elo with a 500 ms time margin (on a loaded
2-core machine, load average 12, krk's moves overran its clock by up to
0.18 s at 1+0.01; the margin still catches an engine that hangs or
ignores its clock), prints one line and exits 1 on any fault. It takes under a minute on a loaded 2-core machine.

Needs python-chess and Stockfish: when they are missing it runs
benches/setup.sh (through benches/play.py's helper) and re-runs itself
with benches/.venv's python. Exit status: 0; 1 on a fault; 2 on bad
arguments or a failed build.
"""

import argparse
import datetime
import logging
import math
import os
import shutil
import signal
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no benches/__pycache__ from the import below
import play  # noqa: E402  benches/play.py: ensure_tools, find_stockfish, build_engine, icp2c_binary

HERE = play.HERE
ROOT = play.ROOT

# Common openings, 4 to 8 plies, in UCI moves (checked legal at start-up).
OPENINGS = [
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Italian Game", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Two Knights Defence", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"),
    ("Scotch Game", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4"),
    ("Petrov Defence", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6"),
    ("Vienna Game", "e2e4 e7e5 b1c3 g8f6 f2f4 d7d5"),
    ("King's Gambit Accepted", "e2e4 e7e5 f2f4 e5f4 g1f3 g7g5"),
    ("Sicilian Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6"),
    ("Sicilian Open, 2...Nc6", "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4"),
    ("Sicilian Taimanov", "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6"),
    ("Sicilian Alapin", "e2e4 c7c5 c2c3 d7d5 e4d5 d8d5"),
    ("French Winawer", "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4"),
    ("French Advance", "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5"),
    ("Caro-Kann Classical", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"),
    ("Caro-Kann Advance", "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5"),
    ("Scandinavian Defence", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
    ("Pirc Defence", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"),
    ("Alekhine Defence", "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Queen's Gambit Accepted", "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6"),
    ("Slav Defence", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("London System", "d2d4 d7d5 c1f4 g8f6 e2e3 e7e6"),
    ("King's Indian Defence", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("Nimzo-Indian Defence", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("Queen's Indian Defence", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6"),
    ("Grunfeld Defence", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
    ("Catalan Opening", "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5 f1g2 f8e7"),
    ("Modern Benoni", "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6 b1c3 e6d5"),
    ("Dutch Defence", "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6"),
    ("English, Symmetrical", "c2c4 c7c5 g1f3 g8f6 b1c3 b8c6"),
    ("English, Reversed Sicilian", "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5"),
    ("Reti Opening", "g1f3 d7d5 c2c4 e7e6 g2g3 g8f6"),
]

Z95 = 1.959963984540054  # the 97.5% quantile of the normal distribution


def die(message):
    """Bad arguments or a missing tool: the message and exit status 2."""
    print(f"strength.py: {message}", file=sys.stderr)
    sys.exit(2)


def check_openings():
    import chess
    seen = set()
    for name, moves in OPENINGS:
        board = chess.Board()
        for m in moves.split():
            board.push_uci(m)  # raises on an illegal move
        assert 4 <= board.ply() <= 8, name
        assert moves not in seen, name
        seen.add(moves)


# ---------------------------------------------------------------- statistics

def elo_from_score(s):
    """Logistic Elo difference of an expected score s (0 < s < 1)."""
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def trinomial(w, d, l):
    """(games, mean score, per-game variance) of W/D/L results."""
    n = w + d + l
    if n == 0:
        return 0, 0.0, 0.0
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    return n, s, var


def elo_estimate(w, d, l):
    """(Elo difference, 95% error bar) as cutechess/fastchess report them:
    the score's standard error sqrt(var / n), the interval s +- 1.96 of it
    mapped through elo_from_score, half its width."""
    n, s, var = trinomial(w, d, l)
    if n == 0:
        return math.nan, math.nan
    se = math.sqrt(var / n)
    low, high = elo_from_score(s - Z95 * se), elo_from_score(s + Z95 * se)
    return elo_from_score(s) + 0.0, (high - low) / 2.0


def sprt_llr(w, d, l, elo0, elo1):
    """Generalised SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0),
    logistic Elo, trinomial results: the normal approximation of M. Van den
    Bergh, "A simple approximation to the LLR" (GSPRT_approximation.pdf,
    http://hardy.uhasselt.be/Fishtest/GSPRT_approximation.pdf), as fishtest
    and fastchess (src/matchmaking/sprt.cpp, getLLR) compute it:
        s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
        LLR = n * (s1 - s0) * (2 s - s0 - s1) / (2 var)
    where s is the mean score and var the per-game variance of the 1, 1/2,
    0 results. Zero until the results vary."""
    n, s, var = trinomial(w, d, l)
    if n == 0 or var <= 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def sprt_bounds(alpha, beta):
    """Wald's bounds: accept H0 below ln(beta / (1 - alpha)), H1 above
    ln((1 - beta) / alpha)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def fmt_elo(elo, err):
    if math.isnan(elo):
        return "n/a"
    if math.isinf(elo):
        return f"{'+' if elo > 0 else '-'}inf"
    e = "inf" if math.isinf(err) or math.isnan(err) else f"{err:.1f}"
    return f"{elo:+.1f} +- {e}"


# ---------------------------------------------------------------- engines

class OptionWatch(logging.Handler):
    """Catches the engine lines python-chess logs as unexpected (an
    `info string error: ...` answering a setoption)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


WATCH = OptionWatch()
logging.getLogger("chess.engine").addHandler(WATCH)
logging.getLogger("chess.engine").propagate = False


class Player:
    """One engine process, kept across games (python-chess sends
    ucinewgame when the game changes) and restarted after a crash."""

    def __init__(self, label, path, options, under_test=True):
        self.label = label
        self.path = path
        self.options = options  # {name: value} sent with setoption
        self.under_test = under_test
        self.engine = None
        self.name = label
        self.refused = []  # (option, why), reported once

    def start(self):
        import chess.engine
        # A process group of its own, so that a hung engine is killed with
        # any children that hold its pipes.
        self.engine = chess.engine.SimpleEngine.popen_uci([self.path], setpgrp=True)
        self.name = self.engine.id.get("name", self.label)
        for name, value in self.options.items():
            why = None
            if name not in self.engine.options:
                why = "no such option"
            else:
                del WATCH.lines[:]
                try:
                    self.engine.configure({name: value})
                    self.engine.ping()
                except chess.engine.EngineError as error:
                    why = str(error)
                errors = [line for line in WATCH.lines if "error" in line.lower()]
                if errors and why is None:
                    why = errors[0]
            if why and (name, why) not in self.refused:
                self.refused.append((name, why))
        return self.engine

    def get(self):
        return self.engine or self.start()

    def stop(self):
        if self.engine is not None:
            try:
                self.engine.quit()
            except Exception:
                pass
            try:
                self.engine.close()
            except Exception:
                pass
            self.engine = None

    def kill(self):
        engine = self.engine
        if engine is not None:
            try:
                os.killpg(engine.transport.get_pid(), signal.SIGKILL)
            except Exception:
                pass


def stockfish_player(path, elo, extra):
    options = {"Threads": 1, "Hash": 16, "Move Overhead": 100}
    options.update(extra)
    options.update({"UCI_LimitStrength": True, "UCI_Elo": elo})
    return Player(f"Stockfish (UCI_Elo {elo})", path, options, under_test=False)


# ---------------------------------------------------------------- one game

HANG_GRACE = 5.0  # seconds past its clock before a silent engine is killed


def play_game(number, white, black, opening, base, inc, max_plies, margin):
    """Plays one game; returns a dict with board, result, termination,
    reason, clocks (per ply), fault (None or (player, kind, text)) and
    adjudicated."""
    import chess
    import chess.engine
    board = chess.Board()
    for m in opening[1].split():
        board.push_uci(m)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    players = {chess.WHITE: white, chess.BLACK: black}
    g = {"board": board, "clocks": [], "fault": None, "adjudicated": False,
         "white": white, "black": black, "number": number, "opening": opening, "overruns": 0}

    def lose(side, termination, reason, fault_kind=None, draw_if_no_material=False):
        winner = not side
        if draw_if_no_material and board.has_insufficient_material(winner):
            g["result"] = "1/2-1/2"
            reason += " (the other side cannot mate: draw)"
        else:
            g["result"] = "1-0" if winner == chess.WHITE else "0-1"
        g["termination"], g["reason"] = termination, reason
        if fault_kind:
            g["fault"] = (players[side], fault_kind, reason)
        return g

    game_id = object()
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            g["result"] = outcome.result()
            g["termination"] = "normal"
            g["reason"] = outcome.termination.name.lower().replace("_", " ")
            return g
        if board.ply() >= max_plies:
            g["result"], g["termination"] = "1/2-1/2", "adjudication"
            g["reason"] = f"draw by adjudication after {max_plies} plies"
            g["adjudicated"] = True
            return g
        side = board.turn
        player = players[side]
        mover = "White" if side == chess.WHITE else "Black"
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE],
                                   black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        hung = threading.Event()

        def watchdog(player=player, hung=hung):
            hung.set()
            player.kill()

        timer = None
        try:
            engine = player.get()
            timer = threading.Timer(clocks[side] + margin + HANG_GRACE, watchdog)
            timer.daemon = True
            started = time.monotonic()
            timer.start()
            result = engine.play(board, limit, game=game_id, ponder=False)
            took = time.monotonic() - started
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            player.stop()
            if hung.is_set():
                return lose(side, "time forfeit", f"{mover} ({player.name}) hung past its clock; killed",
                            "time", True)
            kind = "crash" if isinstance(error, chess.engine.EngineTerminatedError) else "protocol"
            return lose(side, "abandoned", f"{mover} ({player.name}): {kind}: {error}", kind)
        finally:
            if timer is not None:
                timer.cancel()
        clocks[side] -= took
        if clocks[side] < -margin:
            return lose(side, "time forfeit",
                        f"{mover} ({player.name}) lost on time ({-clocks[side]:.3f} s over)",
                        "time", True)
        if clocks[side] < 0:  # over, but within --time-margin: noted, the clock set to 0
            if player.under_test:
                g["overruns"] += 1
            clocks[side] = 0.0
        clocks[side] += inc
        if result.move is None or not board.is_legal(result.move):
            return lose(side, "rules infraction",
                        f"{mover} ({player.name}) played an illegal move {result.move} in {board.fen()}",
                        "illegal")
        board.push(result.move)
        g["clocks"].append(clocks[side])


def write_pgn(path, event, g, tc):
    import chess
    import chess.pgn
    game = chess.pgn.Game()
    h = game.headers
    h["Event"] = event
    h["Site"] = os.uname().nodename
    h["Date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y.%m.%d")
    h["Round"] = str(g["number"])
    h["White"] = g["white"].name
    h["Black"] = g["black"].name
    h["Result"] = g["result"]
    h["TimeControl"] = tc
    h["Opening"] = g["opening"][0]
    h["OpeningMoves"] = g["opening"][1]
    h["Termination"] = g["termination"]
    h["PlyCount"] = str(g["board"].ply())
    book = len(g["opening"][1].split())
    node = game
    moves = g["board"].move_stack
    for i, move in enumerate(moves):
        node = node.add_variation(move)
        if i == book - 1:
            node.comment = "end of opening"
        if i >= book:
            node.set_clock(max(g["clocks"][i - book], 0.0))
    node.comment = (node.comment + " " if node.comment else "") + g["reason"]
    with open(path, "a") as f:
        print(game, file=f, end="\n\n")


# ---------------------------------------------------------------- matches

class Tally:
    def __init__(self):
        self.w = self.d = self.l = self.adjudicated = self.overruns = 0
        self.faults = []  # (game number, kind, text) of the engines under test
        self.opponent_faults = []  # the same for Stockfish

    def add(self, g, ours_white):
        r = g["result"]
        if r == "1/2-1/2":
            self.d += 1
        elif (r == "1-0") == ours_white:
            self.w += 1
        else:
            self.l += 1
        self.adjudicated += g["adjudicated"]
        self.overruns += g["overruns"]
        if g["fault"]:
            player, kind, text = g["fault"]
            (self.faults if player.under_test else self.opponent_faults).append((g["number"], kind, text))

    def games(self):
        return self.w + self.d + self.l

    def score(self):
        n = self.games()
        return (self.w + 0.5 * self.d) / n if n else math.nan


def parse_tc(text):
    try:
        base, inc = text.split("+") if "+" in text else (text, "0")
        base, inc = float(base), float(inc)
        if base <= 0 or inc < 0:
            raise ValueError
    except ValueError:
        die(f"--tc {text!r}: expected BASE+INC in seconds, e.g. 10+0.1")
    return base, inc, text


def schedule(count):
    """(game number, opening, ours plays White) for game 1..count: each
    opening twice, colours swapped, the openings cycling."""
    for i in range(count):
        yield i + 1, OPENINGS[(i // 2) % len(OPENINGS)], i % 2 == 0


def run_match(ours, opponent, tc, a, pgn, event, quiet=False, sprt=None):
    """Our engine against the opponent; returns the Tally. With sprt
    (elo0, elo1, lower, upper), prints the LLR after each pair and stops at
    a bound."""
    base, inc, tc_text = tc
    tally = Tally()
    for number, opening, ours_white in schedule(a.games):
        white, black = (ours, opponent) if ours_white else (opponent, ours)
        g = play_game(number, white, black, opening, base, inc, a.max_plies, a.time_margin / 1000.0)
        write_pgn(pgn, event, g, tc_text)
        tally.add(g, ours_white)
        if not quiet:
            print(f"  game {number:>3}/{a.games} {opening[0]:<26} {'W' if ours_white else 'B'} "
                  f"{g['result']:<7} {g['reason']} ({g['board'].ply()} plies)  "
                  f"W/D/L {tally.w}/{tally.d}/{tally.l}", flush=True)
        if sprt and number % 2 == 0:
            elo0, elo1, lower, upper = sprt
            llr = sprt_llr(tally.w, tally.d, tally.l, elo0, elo1)
            print(f"  SPRT after {number} games: LLR {llr:+.3f} ({lower:+.3f}, {upper:+.3f}) "
                  f"[{elo0:g}, {elo1:g}]", flush=True)
            if llr >= upper or llr <= lower:
                tally.sprt_verdict = "H1 accepted" if llr >= upper else "H0 accepted"
                break
    return tally


def report(tally, level=None, label="", brief=False):
    n = tally.games()
    elo, err = elo_estimate(tally.w, tally.d, tally.l)
    line = (f"{label}games {n}  W/D/L {tally.w}/{tally.d}/{tally.l} (adj. {tally.adjudicated})  "
            f"score {'n/a' if n == 0 else f'{100 * tally.score():.1f}%'}  Elo {fmt_elo(elo, err)}")
    if level is not None and not math.isnan(elo):
        line += f"  about {level + elo:.0f}" if not math.isinf(elo) else f"  about {'>' if elo > 0 else '<'} {level}"
    if brief:
        print(line + f"  faults {len(tally.faults)}")
        return
    print(line)
    if tally.faults:
        print(f"  FAULTS ({len(tally.faults)}):")
        for number, kind, text in tally.faults:
            print(f"    game {number}: {kind}: {text}")
    else:
        print("  faults: none")
    if tally.overruns:
        print(f"  moves over the clock within --time-margin: {tally.overruns}")
    for number, kind, text in tally.opponent_faults:
        print(f"  (opponent) game {number}: {kind}: {text}")
    sys.stdout.flush()


def parse_options(pairs):
    options = {}
    for pair in pairs:
        if "=" not in pair:
            die(f"--option {pair!r}: expected NAME=VALUE")
        name, value = pair.split("=", 1)
        options[name.strip()] = value.strip()
    return options


def engines_under_test(a, work):
    """[(label, path)]: --engine paths as given, then --program builds
    (krk.cheg when there is neither)."""
    engines = [(e, os.path.abspath(e)) for e in a.engine]
    for e in engines:
        if not os.access(e[1], os.X_OK):
            die(f"--engine {e[0]}: not an executable file")
    programs = list(a.program) or ([] if engines else [os.path.join(ROOT, "examples", "krk.cheg")])
    if programs:
        icp2c = a.icp2c or os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                                        "release", "icp2c")
        if not os.access(icp2c, os.X_OK):
            icp2c = play.icp2c_binary()  # cargo build --release
        for i, program in enumerate(programs):
            out = os.path.join(work, str(i))
            os.makedirs(out)
            try:
                engines.append((os.path.basename(program), play.build_engine(icp2c, program, out)))
            except Exception as error:
                print(f"strength.py: building {program} failed: {error}", file=sys.stderr)
                sys.exit(2)
    return engines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", default=[], help="an engine already built (repeatable)")
    ap.add_argument("--engine-b", help="with --sprt: engine B (else the second --engine)")
    ap.add_argument("--program", action="append", default=[],
                    help="a CHEG program to build and test (repeatable; default examples/krk.cheg)")
    ap.add_argument("--icp2c", help="the compiler (default target/release/icp2c, built if missing)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="setoption for our engines (repeatable)")
    ap.add_argument("--stockfish-option", action="append", default=[], metavar="NAME=VALUE",
                    help="setoption for Stockfish (repeatable; it has Threads=1 Hash=16 Move Overhead=100)")
    ap.add_argument("--elo", action="append", type=int, default=[],
                    help="Stockfish's UCI_Elo (repeatable: a match each; default 1500)")
    ap.add_argument("--tc", action="append", default=[],
                    help="time control BASE+INC seconds (repeatable; default 10+0.1)")
    ap.add_argument("--games", type=int, help="games per match (default 48; --smoke 4; --sprt 400)")
    ap.add_argument("--max-plies", type=int, default=400,
                    help="plies after which a game is a draw by adjudication (default 400)")
    ap.add_argument("--time-margin", type=int, default=None, metavar="MS",
                    help="a move may overrun the clock by this much without losing (as cutechess's "
                         "timemargin; default 0, --smoke 500)")
    ap.add_argument("--pgn", help="PGN output (default target/strength/<timestamp>.pgn)")
    ap.add_argument("--sprt", action="store_true", help="head to head A vs B with a GSPRT")
    ap.add_argument("--elo0", type=float, default=0.0, help="SPRT H0 (default 0)")
    ap.add_argument("--elo1", type=float, default=10.0, help="SPRT H1 (default 10)")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--smoke", action="store_true", help="4 games at 1+0.01, lowest UCI_Elo, faults only")
    a = ap.parse_args()
    play.ensure_tools()
    import chess.engine
    check_openings()
    if a.games is None:
        a.games = 4 if a.smoke else 400 if a.sprt else 48
    if a.games < 1 or a.max_plies < 1:
        die("--games and --max-plies must be positive")
    if a.smoke and not a.tc:
        a.tc = ["1+0.01"]
    if a.time_margin is None:
        a.time_margin = 500 if a.smoke else 0
    tcs = [parse_tc(t) for t in (a.tc or ["10+0.1"])]
    options = parse_options(a.option)
    sf_options = parse_options(a.stockfish_option)
    stockfish = play.find_stockfish()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    pgn = a.pgn or os.path.join(ROOT, "target", "strength", stamp + ".pgn")
    os.makedirs(os.path.dirname(os.path.abspath(pgn)), exist_ok=True)
    work = tempfile.mkdtemp(prefix="icp2c-strength-")
    started = time.monotonic()
    bad = False
    try:
        engines = engines_under_test(a, work)
        if a.sprt:
            return sprt_main(a, engines, options, tcs[0], pgn)
        # Stockfish's UCI_Elo range, from its own option list.
        probe = Player("Stockfish", stockfish, {}, under_test=False)
        sf = probe.get()
        elo_option = sf.options.get("UCI_Elo")
        limits = "UCI_LimitStrength" in sf.options
        sf_name = sf.id.get("name")
        probe.stop()
        if elo_option is None or not limits:
            die(f"{sf_name} has no UCI_Elo/UCI_LimitStrength")
        low, high = elo_option.min, elo_option.max
        levels = [low] if a.smoke and not a.elo else (a.elo or [1500])
        for level in levels:
            if level < low or level > high:
                die(f"--elo {level}: Stockfish's UCI_Elo goes from {low} to {high}"
                    f" (it cannot play weaker than {low})")
        results = []
        for label, path in engines:
            for level in levels:
                for tc in tcs:
                    ours = Player(label, path, options)
                    opponent = stockfish_player(stockfish, level, sf_options)
                    event = f"icp2c strength: {label} vs Stockfish UCI_Elo {level}, {tc[2]}"
                    try:
                        opponent.get()
                        for name, why in opponent.refused:
                            die(f"Stockfish refused option {name}: {why}")
                        try:
                            ours.get()
                        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as error:
                            tally = Tally()
                            tally.faults.append(("-", "crash", f"{label} does not start as a UCI engine: {error}"))
                        else:
                            event = f"icp2c strength: {ours.name} vs Stockfish UCI_Elo {level}, {tc[2]}"
                            if not a.smoke:
                                print(f"== {ours.name} [{path}] vs Stockfish UCI_Elo {level}, {tc[2]}, "
                                      f"{a.games} games", flush=True)
                            for name, why in ours.refused:
                                print(f"  option {name} refused by {ours.name}: {why}", flush=True)
                            tally = run_match(ours, opponent, tc, a, pgn, event, quiet=a.smoke)
                    finally:
                        ours.stop()
                        opponent.stop()
                    tally.faults[:0] = [("-", "option", f"{n}: {w}") for n, w in ours.refused]
                    bad = bad or bool(tally.faults)
                    results.append((label, level, tc, tally))
                    if not a.smoke:
                        report(tally, level, "  ")
        if a.smoke:
            games = sum(t.games() for *_, t in results)
            faults = [f for *_, t in results for f in t.faults]
            w, d, l = (sum(getattr(t, k) for *_, t in results) for k in "wdl")
            print(f"strength smoke: {games} games at {tcs[0][2]} vs Stockfish UCI_Elo {levels[0]}: "
                  f"W/D/L {w}/{d}/{l}, faults {len(faults)}, "
                  f"overruns within {a.time_margin} ms {sum(t.overruns for *_, t in results)}"
                  + "".join(f"; game {n}: {k}: {t}" for n, k, t in faults)
                  + f" ({time.monotonic() - started:.0f} s, {pgn})")
        elif len(results) > 1:
            print("== summary")
            for label, level, tc, tally in results:
                report(tally, level, f"  {label:<12} Elo {level} {tc[2]:<8} ", brief=True)
        if not a.smoke:
            print(f"PGN: {pgn}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return not bad


def sprt_main(a, engines, options, tc, pgn):
    if a.engine_b:
        engines = engines + [(a.engine_b, os.path.abspath(a.engine_b))]
    if len(engines) != 2:
        die("--sprt needs two engines: --engine A --engine B, or --engine-b B")
    lower, upper = sprt_bounds(a.alpha, a.beta)
    (la, pa), (lb, pb) = engines
    A, B = Player("A " + la, pa, options), Player("B " + lb, pb, options)
    try:
        A.get()
        B.get()
        A.name, B.name = f"A {A.name}", f"B {B.name}"
        print(f"== SPRT {A.name} [{pa}] vs {B.name} [{pb}], {tc[2]}, at most {a.games} games, "
              f"elo0 {a.elo0:g} elo1 {a.elo1:g} alpha {a.alpha:g} beta {a.beta:g}", flush=True)
        for p in (A, B):
            for name, why in p.refused:
                print(f"  option {name} refused by {p.name}: {why}", flush=True)
        event = f"icp2c SPRT: {A.name} vs {B.name}, {tc[2]}"
        tally = run_match(A, B, tc, a, pgn, event, sprt=(a.elo0, a.elo1, lower, upper))
    finally:
        A.stop()
        B.stop()
    # In SPRT both engines are under test: every fault counts.
    tally.faults += tally.opponent_faults
    tally.opponent_faults = []
    for p in (A, B):
        tally.faults[:0] = [("-", "option", f"{p.name} {n}: {w}") for n, w in p.refused]
    llr = sprt_llr(tally.w, tally.d, tally.l, a.elo0, a.elo1)
    verdict = getattr(tally, "sprt_verdict", "no decision (games ran out)")
    print(f"SPRT: LLR {llr:+.3f} ({lower:+.3f}, {upper:+.3f}): {verdict}")
    report(tally, None, "A vs B: ")
    print(f"PGN: {pgn}")
    return not tally.faults


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
