#!/usr/bin/env python3
"""Compiled CHEG engines play Stockfish (issue 12, spec/cheg.md §7.4).

    python3 benches/play.py                       kqk and krk, 20 start positions each
    python3 benches/play.py --programs krk --games 50 --depth 6
    python3 benches/play.py --engine ./krk        an engine already built

For each program, icp2c compiles it to C and `cc -std=c99 -O2` builds the
engine; the same engine then plays White from seeded random legal start
positions of its endgame (king and queen, or king and rook, against a lone
king; White to move, not in check, the lone king not able to take), against
Stockfish as the defending side (searching to a fixed depth, so that a run
repeats exactly), once with the endgame program and once with
`setoption name Endgame value false` (the same engine without it, to show
what the program adds). python-chess drives both engines over UCI and
checks every move. A game ends in mate, in a draw (stalemate, the lone king
taking the piece, threefold repetition, the fifty-move rule) or after
--max-moves moves of White without mate.

Needs python-chess and Stockfish: when they are missing it runs
benches/setup.sh, which installs them (Stockfish from Debian's package,
python-chess into benches/.venv) and re-runs itself with that python.
Exit status 0 unless a build failed or an engine made an illegal move.
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
    """One game; returns ('mate', moves) or ('draw'|'no mate', moves)."""
    import chess
    import chess.engine
    board = chess.Board(fen)
    with chess.engine.SimpleEngine.popen_uci([engine_path]) as white, \
            chess.engine.SimpleEngine.popen_uci([stockfish]) as black:
        white.configure({"Endgame": endgame})
        moves = 0
        while True:
            if board.is_checkmate():
                return ("mate", moves)
            if board.is_game_over(claim_draw=True) or board.is_insufficient_material():
                if os.environ.get("ICP2C_PLAY_VERBOSE"):
                    print(f"  draw after {moves}: {board.fen()} from {fen}", file=sys.stderr)
                return ("draw", moves)
            if board.turn == chess.WHITE:
                if moves >= max_moves:
                    return ("no mate", moves)
                result = white.play(board, chess.engine.Limit(depth=depth))
                moves += 1
            else:
                result = black.play(board, chess.engine.Limit(depth=defender_depth))
            if result.move is None or not board.is_legal(result.move):
                raise SystemExit(f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
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
    try:
        runs = []
        if a.engine:
            runs.append((a.engine, os.path.abspath(a.engine), a.piece.upper()))
        else:
            icp2c = icp2c_binary()
            for name in a.programs.split(","):
                program = os.path.join(ROOT, "examples", name + ".cheg")
                runs.append((name, build_engine(icp2c, program, work), "Q" if "q" in name else "R"))
        print(f"{'engine':<8} {'program':<8} {'games':>5} {'mates':>5} {'draws':>5} {'no mate':>7} "
              f"{'avg moves to mate':>17} {'max':>4}")
        for name, exe, piece in runs:
            kind = chess.QUEEN if piece == "Q" else chess.ROOK
            fens = start_positions(kind, a.games, a.seed)
            for endgame in ((True,) if a.program_only else (True, False)):
                results = [play(exe, stockfish, fen, a.depth, endgame, a.max_moves, a.defender_depth)
                           for fen in fens]
                mates = [m for r, m in results if r == "mate"]
                draws = sum(1 for r, _ in results if r == "draw")
                print(f"{name:<8} {'on' if endgame else 'off':<8} {len(results):>5} {len(mates):>5} {draws:>5} "
                      f"{len(results) - len(mates) - draws:>7} "
                      f"{(statistics.mean(mates) if mates else float('nan')):>17.1f} "
                      f"{(max(mates) if mates else 0):>4}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
