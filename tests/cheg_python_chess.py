#!/usr/bin/env python3
"""python-chess drives a CHEG engine as a GUI would (spec/cheg.md §7.5).

    benches/.venv/bin/python tests/cheg_python_chess.py ENGINE [ARGS...]

ENGINE [ARGS...] starts the engine (a compiled engine, or `icp2c run
examples/krk.cheg`). Checks, each failing with a message and exit status 1:

  - the handshake: the engine's options, configure(Hash=...), its name;
  - play(Limit(time=0.5)): a legal move within the time (plus slack for a
    loaded machine), from the start position and from Kiwipete;
  - play(Limit(nodes=20000)): a legal move, no more than 20,000 nodes;
  - play(Limit(depth=6)): a legal move after a depth-6 report, on KRK;
  - a game with a clock (5 s + 0.05 s a move for the engine) against a
    seeded random mover: every move legal, never over its clock;
  - analysis() (go infinite) stopped after a second: info lines while it
    runs, the best move promptly after stop.

tests/it/cheg_play.rs runs it (an #[ignore]d test that .ci/run runs) on the
interpreter, the C and the Rust engine; benches/setup.sh installs
python-chess into benches/.venv.
"""

import random
import sys
import time

import chess
import chess.engine

KRK = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# A loaded test machine may answer late by this much (s); an engine that
# ignores its limits is late by far more.
SLACK = 1.0


def check(condition, message):
    if not condition:
        print(f"FAIL: {message}", flush=True)
        sys.exit(1)


def legal(board, result, what):
    check(result.move is not None and result.move in board.legal_moves,
          f"{what}: {result.move} is not a legal move in {board.fen()}")


def main():
    command = sys.argv[1:]
    check(command, "usage: cheg_python_chess.py ENGINE [ARGS...]")
    with chess.engine.SimpleEngine.popen_uci(command, timeout=60) as engine:
        names = set(engine.options)
        check({"Depth", "Endgame", "Hash", "Threads", "Ponder"} <= names, f"options: {sorted(names)}")
        check(engine.id.get("name", "").endswith("(icp2c CHEG engine)"), f"id name: {engine.id}")
        engine.configure({"Hash": 32, "Threads": 1})

        for fen in (chess.STARTING_FEN, KIWIPETE):
            board = chess.Board(fen)
            started = time.monotonic()
            result = engine.play(board, chess.engine.Limit(time=0.5))
            took = time.monotonic() - started
            legal(board, result, "Limit(time=0.5)")
            check(took <= 0.5 + SLACK, f"Limit(time=0.5) took {took:.3f} s")
            print(f"time 0.5: {result.move} in {took:.3f} s", flush=True)

        board = chess.Board(KIWIPETE)
        result = engine.play(board, chess.engine.Limit(nodes=20000), info=chess.engine.INFO_ALL)
        legal(board, result, "Limit(nodes=20000)")
        check(result.info.get("nodes", 0) <= 20000, f"nodes: {result.info}")
        print(f"nodes 20000: {result.move}, {result.info.get('nodes')} nodes", flush=True)

        board = chess.Board(KRK)
        result = engine.play(board, chess.engine.Limit(depth=6), info=chess.engine.INFO_ALL)
        legal(board, result, "Limit(depth=6)")
        check(result.info.get("depth") == 6, f"depth: {result.info}")
        print(f"depth 6: {result.move}, score {result.info.get('score')}", flush=True)

        # A game with a clock against a seeded random mover.
        rng = random.Random(1973)
        board = chess.Board()
        clock, increment = 5.0, 0.05
        engine.configure({"Hash": 16})
        moves = 0
        while not board.is_game_over(claim_draw=True) and moves < 40:
            if board.turn == chess.WHITE:
                started = time.monotonic()
                result = engine.play(board, chess.engine.Limit(
                    white_clock=clock, black_clock=5.0, white_inc=increment, black_inc=increment))
                clock -= time.monotonic() - started
                check(clock > 0, f"lost on time at move {moves}")
                clock += increment
                legal(board, result, f"clock move {moves}")
                board.push(result.move)
                moves += 1
            else:
                board.push(rng.choice(list(board.legal_moves)))
        print(f"clock game: {moves} moves, {clock:.2f} s left, {board.result(claim_draw=True)}", flush=True)

        # analysis (go infinite), stopped after a second.
        board = chess.Board(KRK)
        infos = 0
        with engine.analysis(board) as analysis:
            started = time.monotonic()
            for info in analysis:
                if "depth" in info:
                    infos += 1
                if time.monotonic() - started >= 1.0:
                    break
            stopped = time.monotonic()
            analysis.stop()
            best = analysis.wait()
            late = time.monotonic() - stopped
        check(infos > 0, "analysis: no info line")
        check(best.move is not None and best.move in board.legal_moves, f"analysis: {best}")
        check(late <= SLACK, f"analysis: bestmove {late:.3f} s after stop")
        print(f"analysis: {infos} info lines, {best.move} {late * 1000:.0f} ms after stop", flush=True)
    print("ok")


if __name__ == "__main__":
    main()
