#!/usr/bin/env python3
"""Compiled CHEG engines play Stockfish (spec/cheg.md §7.4, §7.5).

    python3 benches/play.py                       both parts below
    python3 benches/play.py --part mates          kqk and krk, 20 start positions each
    python3 benches/play.py --programs krk --games 50 --depth 6
    python3 benches/play.py --engine ./krk        an engine already built
    python3 benches/play.py --part clock --clock-games 4 --time-controls 10+0.1

Part "clock": every example engine (kqk, krk, kpk, tour), compiled to C,
plays full games from the start position against Stockfish at a low fixed
level (Skill Level 0, 50 ms a move), alternating colours, under each time
control of --time-controls (default 10 s + 0.1 s a move and 1 s + 0.01 s):
python-chess sends the clock with every `go` (wtime btime winc binc), this
script keeps the engine's clock (the wall time of each of its moves) and
reports losses on time, protocol errors (python-chess exceptions) and
illegal moves, which must all be zero. A game ends in mate, a draw
(stalemate, repetition, fifty moves, insufficient material) or after
--max-plies plies (adjudicated: not a result).

Part "mates": for each program, icp2c compiles it to C and `cc -std=c99
-O2` builds the engine; the same engine then plays White from seeded random legal start
positions of its endgame (king and queen, or king and rook, against a lone
king; White to move, not in check, the lone king not able to take), against
Stockfish as the defending side (searching to a fixed depth, so that a run
repeats exactly), once with the endgame program and once with
`setoption name Endgame value false` (the same engine without it, to show
what the program adds). python-chess drives both engines over UCI and
checks every move. A game ends in mate, in a draw (stalemate, the lone king
taking the piece, threefold repetition, the fifty-move rule) or after
--max-moves moves of White without mate. The engine gets the game's moves
(`position fen START moves …`), so it knows the game's positions and avoids
repeating them (§7.5): a draw by repetition is a miss.

Needs python-chess and Stockfish: when they are missing it runs
benches/setup.sh, which installs them (Stockfish from Debian's package,
python-chess into benches/.venv) and re-runs itself with that python.
Exit status 0 unless a build failed, an engine made an illegal move, broke
the protocol or lost on time.
"""

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def ensure_tools():
    """python-chess importable and Stockfish on the machine, or re-exec."""
    try:
        import chess  # noqa: F401
        import chess.engine  # noqa: F401
        if find_stockfish():
            return
    except ImportError:
        pass
    if os.environ.get("ICP2C_PLAY_REEXEC"):
        sys.exit("play.py: benches/setup.sh did not provide python-chess and stockfish")
    python = subprocess.run(["bash", os.path.join(HERE, "setup.sh")], check=True,
                            stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
    env = dict(os.environ, ICP2C_PLAY_REEXEC="1")
    os.execve(python, [python] + sys.argv, env)


def find_stockfish():
    return shutil.which("stockfish") or (os.access("/usr/games/stockfish", os.X_OK) and "/usr/games/stockfish")


def icp2c_binary():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    return os.path.join(target, "release", "icp2c")


def build_engine(icp2c, program, work):
    """icp2c PROGRAM -o X.c && cc -std=c99 -O2 X.c -o X."""
    name = os.path.splitext(os.path.basename(program))[0]
    c = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    subprocess.run([icp2c, program, "-o", c], check=True)
    subprocess.run(["cc", "-std=c99", "-O2", c, "-o", exe], check=True)
    return exe


def start_positions(piece, count, seed):
    """Random legal positions K+piece vs K, White to move, Black not in check,
    the piece not en prise to the lone king, White having a move."""
    import chess
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = chess.Board(None)
        squares = rng.sample(range(64), 3)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(piece, chess.WHITE))
        board.set_piece_at(squares[2], chess.Piece(chess.KING, chess.BLACK))
        board.turn = chess.WHITE
        if not board.is_valid() or board.is_game_over():
            continue
        if chess.square_distance(squares[1], squares[2]) <= 1 and \
                chess.square_distance(squares[0], squares[1]) > 1:
            continue  # the lone king could take it after any king move
        positions.append(board.fen())
    return positions


def play(engine_path, stockfish, fen, depth, endgame, max_moves, defender_depth):
    """One game; returns ('mate'|'draw'|'no mate', White's moves, why a draw)."""
    import chess
    import chess.engine
    board = chess.Board(fen)
    with chess.engine.SimpleEngine.popen_uci([engine_path]) as white, \
            chess.engine.SimpleEngine.popen_uci([stockfish]) as black:
        white.configure({"Endgame": endgame})
        moves = 0
        while True:
            if board.is_checkmate():
                return ("mate", moves, None)
            if board.is_game_over(claim_draw=True) or board.is_insufficient_material():
                if os.environ.get("ICP2C_PLAY_VERBOSE"):
                    print(f"  draw after {moves}: {board.fen()} from {fen}", file=sys.stderr)
                why = "repetition" if board.can_claim_threefold_repetition() else "other"
                return ("draw", moves, why)
            if board.turn == chess.WHITE:
                if moves >= max_moves:
                    return ("no mate", moves, None)
                result = white.play(board, chess.engine.Limit(depth=depth))
                moves += 1
            else:
                result = black.play(board, chess.engine.Limit(depth=defender_depth))
            if result.move is None or not board.is_legal(result.move):
                raise SystemExit(f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)


def clock_game(engine_path, stockfish, engine_white, clock, increment, max_plies):
    """One full game under a clock; returns (result, plies, flags) where
    flags counts losses on time, protocol errors and illegal moves."""
    import time
    import chess
    import chess.engine
    board = chess.Board()
    flags = {"time": 0, "protocol": 0, "illegal": 0}
    left = clock
    slowest = 0.0
    try:
        with chess.engine.SimpleEngine.popen_uci([engine_path]) as engine, \
                chess.engine.SimpleEngine.popen_uci([stockfish]) as opponent:
            opponent.configure({"Skill Level": 0})
            while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
                if board.turn == (chess.WHITE if engine_white else chess.BLACK):
                    limit = chess.engine.Limit(white_clock=left if engine_white else clock,
                                               black_clock=clock if engine_white else left,
                                               white_inc=increment, black_inc=increment)
                    started = time.monotonic()
                    result = engine.play(board, limit)
                    took = time.monotonic() - started
                    slowest = max(slowest, took)
                    left -= took
                    if left < 0:
                        flags["time"] += 1
                        return ("lost on time", board.ply(), flags, slowest)
                    left += increment
                else:
                    result = opponent.play(board, chess.engine.Limit(time=0.05))
                if result.move is None or not board.is_legal(result.move):
                    flags["illegal"] += 1
                    return ("illegal move", board.ply(), flags, slowest)
                board.push(result.move)
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
        flags["protocol"] += 1
        return (f"protocol error: {error}", board.ply(), flags, slowest)
    if not board.is_game_over(claim_draw=True):
        return ("adjudicated", board.ply(), flags, slowest)
    outcome = board.outcome(claim_draw=True)
    if outcome.winner is None:
        return ("draw", board.ply(), flags, slowest)
    return ("win" if outcome.winner == engine_white else "loss", board.ply(), flags, slowest)


def clock_part(a, icp2c, work, stockfish):
    """Every example engine under every time control; returns False on a
    loss on time, a protocol error or an illegal move."""
    good = True
    print(f"{'engine':<8} {'clock':>9} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4} {'adj.':>4} "
          f"{'on time':>7} {'protocol':>8} {'illegal':>7} {'slowest move':>12} {'plies':>6}")
    for name in a.clock_programs.split(","):
        exe = build_engine(icp2c, os.path.join(ROOT, "examples", name + ".cheg"), work)
        for control in a.time_controls.split(","):
            clock, increment = (float(x) for x in control.split("+"))
            results = [clock_game(exe, stockfish, i % 2 == 0, clock, increment, a.max_plies)
                       for i in range(a.clock_games)]
            count = lambda what: sum(1 for r in results if r[0] == what)
            flags = {k: sum(r[2][k] for r in results) for k in ("time", "protocol", "illegal")}
            good = good and not any(flags.values())
            print(f"{name:<8} {control:>9} {len(results):>5} {count('win'):>4} {count('draw'):>5} "
                  f"{count('loss'):>4} {count('adjudicated'):>4} {flags['time']:>7} {flags['protocol']:>8} "
                  f"{flags['illegal']:>7} {max(r[3] for r in results):>10.3f} s "
                  f"{sum(r[1] for r in results):>6}", flush=True)
            for r in results:
                if r[0] not in ("win", "draw", "loss", "adjudicated"):
                    print(f"  {r[0]}", flush=True)
    return good


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=["all", "mates", "clock"], default="all")
    ap.add_argument("--clock-programs", default="kqk,krk,kpk,tour",
                    help="examples that play clock games (default kqk,krk,kpk,tour)")
    ap.add_argument("--clock-games", type=int, default=2,
                    help="games per engine and time control, colours alternating (default 2)")
    ap.add_argument("--time-controls", default="10+0.1,1+0.01",
                    help="seconds + increment, comma-separated (default 10+0.1,1+0.01)")
    ap.add_argument("--max-plies", type=int, default=300,
                    help="plies before a clock game is adjudicated (default 300)")
    ap.add_argument("--programs", default="kqk,krk", help="examples to compile (default kqk,krk)")
    ap.add_argument("--engine", help="an engine already built (its endgame: --piece)")
    ap.add_argument("--piece", default="R", help="with --engine: Q or R")
    ap.add_argument("--games", type=int, default=20, help="start positions per program (default 20)")
    ap.add_argument("--depth", type=int, default=5, help="the engine's search depth (default 5)")
    ap.add_argument("--max-moves", type=int, default=50, help="White's moves before giving up (default 50)")
    ap.add_argument("--defender-depth", type=int, default=10,
                    help="Stockfish's search depth a move (default 10; a depth, not a time, so that runs repeat)")
    ap.add_argument("--seed", type=int, default=1973)
    ap.add_argument("--program-only", action="store_true",
                    help="play only with the endgame program, not again without it")
    a = ap.parse_args()
    ensure_tools()
    import chess
    stockfish = find_stockfish()
    work = tempfile.mkdtemp(prefix="icp2c-play-")
    good = True
    try:
        if a.part in ("all", "clock") and not a.engine:
            print("== full games under a clock against Stockfish (Skill Level 0, 50 ms a move)")
            good = clock_part(a, icp2c_binary(), work, stockfish)
        if a.part == "clock":
            return good
        print("== mating from random starts (White, depth %d) against Stockfish (depth %d)"
              % (a.depth, a.defender_depth))
        runs = []
        if a.engine:
            runs.append((a.engine, os.path.abspath(a.engine), a.piece.upper()))
        else:
            icp2c = icp2c_binary()
            for name in a.programs.split(","):
                program = os.path.join(ROOT, "examples", name + ".cheg")
                runs.append((name, build_engine(icp2c, program, work), "Q" if "q" in name else "R"))
        print(f"{'engine':<8} {'program':<8} {'games':>5} {'mates':>5} {'draws':>5} {'repetitions':>11} "
              f"{'no mate':>7} {'avg moves to mate':>17} {'max':>4}")
        for name, exe, piece in runs:
            kind = chess.QUEEN if piece == "Q" else chess.ROOK
            fens = start_positions(kind, a.games, a.seed)
            for endgame in ((True,) if a.program_only else (True, False)):
                results = [play(exe, stockfish, fen, a.depth, endgame, a.max_moves, a.defender_depth)
                           for fen in fens]
                mates = [m for r, m, _ in results if r == "mate"]
                draws = sum(1 for r, _, _ in results if r == "draw")
                repetitions = sum(1 for _, _, why in results if why == "repetition")
                print(f"{name:<8} {'on' if endgame else 'off':<8} {len(results):>5} {len(mates):>5} {draws:>5} "
                      f"{repetitions:>11} {len(results) - len(mates) - draws:>7} "
                      f"{(statistics.mean(mates) if mates else float('nan')):>17.1f} "
                      f"{(max(mates) if mates else 0):>4}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return good


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
