#!/usr/bin/env python3
"""CHEG engine benchmark (spec/cheg.md §7.4, §7.5), measured side by side.

    python3 benches/engine.py            full run (a few minutes on an idle 2-core machine)
    python3 benches/engine.py --quick    perft 5, shallower searches

It builds icp2c (release), compiles examples/krk.cheg to C (`cc -std=c99
-O2`) and to Rust (`rustc --edition 2021 -O`), and reports:

  1. move generation: `--perft 6` from the start position (5 with --quick)
     by the generated C engine, the generated Rust engine and the
     interpreter, beside Stockfish's `go perft 6` on the same machine, each
     the median of --repeat runs, interleaved; ratios C/Stockfish (target:
     at most 3) and Rust/C (target: at most 1.5). Stockfish is Debian's
     `stockfish` package: benches/setup.sh installs it; without it that
     comparison is skipped with a message.
  2. search: nodes per second of `go depth N` over UCI on the standard
     perft positions (N = 6 where that ends in minutes, less where the
     quiescence search explodes; 2 less with --quick) and on two KRK
     positions where the program runs at every node: generated C against
     the interpreter (nodes as the engine reports them, §11.20).
  3. the transposition table (§7.5): nodes and time to depth 6 and 8 on
     the KQK, KRK and Kiwipete positions, with the table (Hash 16) against
     the smallest one (Hash 1; Hash 0 is out of its range, §7.5), by the C
     engine; the answers must be identical
     (target: at least 2x fewer nodes at depth 8 in KRK);
  4. bounded searches: Kiwipete to depth 4 (target: under 1 s), and the
     positions of 200 seeded random games (20 to 400 plies, python-chess)
     at depth 1 (target: none over 1 s);
  5. the compile itself: icp2c to C plus `cc -O2`, on each example (target:
     under 2 s).

Searches are sent over UCI as `position …` and `go depth N`, the input kept
open until each `bestmove` (its end, like `quit`, would stop the search,
§7.5); `time` and `nps` are masked when engines are compared.

Prints PASS/MISS for each target. Exit status 1 only when a build fails
or the engines disagree on a count.
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# (name, FEN, search depth of a full run): depth 6 where the search ends
# in minutes; Kiwipete's quiescence search explodes beyond depth 4. The
# last two are positions where the endgame program runs at every node.
POSITIONS = [
    ("start", START, 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
    ("cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    ("cpw4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
    ("krk", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 6),
    ("krk-edge", "8/8/8/8/8/2k5/8/R3K3 b - - 0 1", 6),
]


def timed(cmd, stdin=None):
    """Runs cmd on the UCI session stdin, one line at a time: after a `go`
    (but `go perft`) the next line waits for its `bestmove`, so the end of
    the input stops no search (§7.5). Returns (seconds, stdout)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = []
    for line in (stdin or "").splitlines(keepends=True):
        p.stdin.write(line)
        p.stdin.flush()
        words = line.split()
        if words[:1] == ["go"] and "perft" not in words:
            for answer in p.stdout:
                out.append(answer)
                if answer.startswith("bestmove"):
                    break
    p.stdin.close()
    out.append(p.stdout.read())
    err = p.stderr.read()
    p.wait()
    t = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"engine.py: {' '.join(cmd)} failed ({p.returncode}): {err[:400]}")
    return t, "".join(out)


def masked(text):
    """UCI output without the fields that depend on the clock."""
    return re.sub(r" (time|nps) \d+", "", text)


def last_info(out):
    """(depth, score, nodes, ms, first pv move) of the last info line, and the bestmove."""
    info = [l for l in out.splitlines() if l.startswith("info depth")][-1]
    words = info.split()
    get = lambda key: words[words.index(key) + 1]
    score = " ".join(words[words.index("score") + 1:words.index("score") + 3])
    best = [l for l in out.splitlines() if l.startswith("bestmove")][-1]
    return int(get("depth")), score, int(get("nodes")), int(get("time")), best


def stockfish():
    return shutil.which("stockfish") or (os.access("/usr/games/stockfish", os.X_OK) and "/usr/games/stockfish")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    perft_depth = 5 if a.quick else 6
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    icp2c = os.path.join(target, "release", "icp2c")
    work = tempfile.mkdtemp(prefix="icp2c-engine-")
    failed = False
    try:
        prog = os.path.join(ROOT, "examples", "krk.cheg")
        c, rs = os.path.join(work, "krk.c"), os.path.join(work, "krk.rs")
        c_exe, rs_exe = os.path.join(work, "krk_c"), os.path.join(work, "krk_rs")
        subprocess.run([icp2c, prog, "-o", c], check=True)
        subprocess.run([icp2c, prog, "-o", rs], check=True)
        subprocess.run(["cc", "-std=c99", "-O2", c, "-o", c_exe], check=True)
        subprocess.run(["rustc", "--edition", "2021", "-O", rs, "-o", rs_exe], check=True)
        interp = [icp2c, "run", prog]

        print(f"== move generation: perft {perft_depth} from the start position (median of {a.repeat})")
        engines = [("C", [c_exe]), ("Rust", [rs_exe]), ("interpreter", interp)]
        times = {name: [] for name, _ in engines}
        counts = {}
        sf = stockfish()
        if sf:
            times["stockfish"] = []
        for _ in range(a.repeat):
            for name, cmd in engines:
                t, out = timed(cmd + ["--fen", START, "--perft", str(perft_depth)])
                times[name].append(t)
                counts.setdefault(name, out.strip())
            if sf:
                t, out = timed([sf], f"position startpos\ngo perft {perft_depth}\nquit\n")
                times["stockfish"].append(t)
                counts.setdefault("stockfish", next(
                    (l.split(":")[1].strip() for l in out.splitlines() if l.startswith("Nodes searched")), "?"))
        if len(set(counts.values())) != 1:
            print(f"MISMATCH in perft counts: {counts}")
            failed = True
        med = {k: statistics.median(v) for k, v in times.items()}
        for k, v in med.items():
            print(f"  {k:<12} {v:8.3f} s   {int(counts[k]) / v / 1e6:8.1f} Mnodes/s   ({counts[k]} nodes)")
        if sf:
            r = med["C"] / med["stockfish"]
            print(f"  C / Stockfish   {r:5.2f}   {'PASS' if r <= 3 else 'MISS'} (target <= 3)")
        else:
            print("  Stockfish is not installed (bash benches/setup.sh installs it): comparison skipped")
        r = med["Rust"] / med["C"]
        print(f"  Rust / C        {r:5.2f}   {'PASS' if r <= 1.5 else 'MISS'} (target <= 1.5)")

        print("== search: go depth N over UCI (krk.cheg built in), nodes per second")
        print(f"  {'position':<10} {'depth':>5} {'nodes':>10} {'C s':>8} {'interp s':>9} {'C Mn/s':>8} "
              f"{'interp Mn/s':>11} {'speed-up':>8}")
        ratios = []
        for name, fen, full_depth in POSITIONS:
            depth = max(3, full_depth - 2) if a.quick else full_depth
            session = f"position fen {fen}\ngo depth {depth}\n"
            tc, oc = timed([c_exe], session)
            ti, oi = timed(interp, session)
            info = [l for l in oc.splitlines() if l.startswith("info depth")]
            if masked(oc) != masked(oi) or not info:
                print(f"  {name}: the C engine and the interpreter differ:\n{oc}\n{oi}")
                failed = True
                continue
            nodes = int(info[-1].split(" nodes ")[1].split()[0])
            ratios.append(ti / tc)
            print(f"  {name:<10} {depth:>5} {nodes:>10} {tc:8.3f} {ti:9.3f} {nodes / tc / 1e6:8.2f} {nodes / ti / 1e6:11.2f} {ti / tc:8.2f}")
        if ratios:
            print(f"  the compiled engine is {statistics.median(ratios):.2f}x the interpreter's speed (median)")

        print("== the transposition table: go depth N with Hash 16 against Hash 1 (C engine)")
        kqk_c = os.path.join(work, "kqk_c")
        subprocess.run([icp2c, os.path.join(ROOT, "examples", "kqk.cheg"), "-o", kqk_c + ".c"], check=True)
        subprocess.run(["cc", "-std=c99", "-O2", kqk_c + ".c", "-o", kqk_c], check=True)
        table_cases = [("kqk", kqk_c, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
                       ("krk", c_exe, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
                       ("kiwipete", c_exe, POSITIONS[1][1])]
        print(f"  {'position':<10} {'depth':>5} {'nodes, table':>13} {'no table':>11} {'ratio':>6} "
              f"{'s, table':>9} {'no table':>9} {'answer':<40}")
        for name, exe, fen in table_cases:
            for depth in ((4, 6) if a.quick else (6, 8)):
                runs = {}
                for hash_mb in (16, 1):
                    session = f"setoption name Hash value {hash_mb}\nposition fen {fen}\ngo depth {depth}\n"
                    t, out = timed([exe], session)
                    runs[hash_mb] = (t, last_info(out))
                (t16, i16), (t0, i0) = runs[16], runs[1]
                same = (i16[0], i16[1], i16[4]) == (i0[0], i0[1], i0[4])
                if not same:
                    print(f"  {name} depth {depth}: the answers differ: {i16} / {i0}")
                    failed = True
                ratio = i0[2] / max(i16[2], 1)
                target = ""
                if name == "krk" and depth == 8:
                    target = f"  {'PASS' if ratio >= 2 else 'MISS'} (target >= 2x fewer nodes)"
                print(f"  {name:<10} {depth:>5} {i16[2]:>13} {i0[2]:>11} {ratio:>6.2f} {t16:>9.3f} {t0:>9.3f} "
                      f"{i16[1] + ' ' + i16[4]:<40}{target}", flush=True)

        print("== bounded searches")
        t, out = timed([c_exe], f"position fen {POSITIONS[1][1]}\ngo depth 4\n")
        print(f"  kiwipete depth 4: {t:.3f} s ({last_info(out)[2]} nodes)   {'PASS' if t < 1 else 'MISS'} (target < 1 s)")
        try:
            import chess
        except ImportError:
            chess = None
            print("  python-chess is not installed (bash benches/setup.sh installs it): random sample skipped")
        if chess:
            rng = random.Random(1973)
            worst, total, count = (0.0, ""), 0.0, 0
            for _ in range(200):
                board = chess.Board()
                for _ in range(rng.randint(20, 400)):
                    moves = list(board.legal_moves)
                    if not moves:
                        break
                    board.push(rng.choice(moves))
                if board.is_game_over():
                    continue
                t, _ = timed([c_exe, "--fen", board.fen(), "--depth", "1"])
                total += t
                count += 1
                worst = max(worst, (t, board.fen()))
            print(f"  random games: {count} positions at depth 1, mean {total / max(count, 1):.4f} s, "
                  f"slowest {worst[0]:.3f} s ({worst[1]})   {'PASS' if worst[0] < 1 else 'MISS'} (target < 1 s)")

        print("== compile: icp2c to C plus cc -O2")
        for ex in sorted(f for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".cheg")):
            out = os.path.join(work, ex + ".c")
            t0 = time.perf_counter()
            subprocess.run([icp2c, os.path.join(ROOT, "examples", ex), "-o", out], check=True)
            t1 = time.perf_counter()
            subprocess.run(["cc", "-std=c99", "-O2", out, "-o", out + ".exe"], check=True)
            t2 = time.perf_counter()
            print(f"  {ex:<10} icp2c {t1 - t0:6.3f} s   cc -O2 {t2 - t1:6.3f} s   total {t2 - t0:6.3f} s   "
                  f"{'PASS' if t2 - t0 < 2 else 'MISS'} (target < 2 s)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
