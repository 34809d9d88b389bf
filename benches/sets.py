#!/usr/bin/env python3
"""CHEG set building, measured side by side (spec/cheg.md §2, docs/cheg.md).

    python3 benches/sets.py              full run (about a minute on an idle 2-core machine)
    python3 benches/sets.py --repeat 9   median of 9 runs (5 by default)

A CHEG program that builds a set one element at a time must cost O(1)
amortised a step in every target: sets are shared until written and
changed in place when only the written variable holds them. This builds
icp2c (release), writes one program per loop and size, compiles each to C
(`cc -std=c99 -O2`) and to Rust (`rustc --edition 2021 -O`), and runs the
interpreter (`icp2c run`), the C engine and the Rust engine in turn
(interleaved, so that a change of load hits all three alike), --repeat
times each. The loops:

  PAIR    L: PAIR A,A,"1 / ADD I,I,"1 / JUMP< I,"N,L   (a set N deep)
  APPEND  L: APPEND A,A,I / ADD I,I,"1 / JUMP< I,"N,L  (a set N long)
  INSERT  L: CARD C,A / ADD C,C,"1 / INSERT I,A,C / ADD I,I,"1 / JUMP< I,"N,L
          (at the end, card + 1)

at N = 10,000, 20,000 and 40,000, in each of the 76 invocations of a
depth-3 search (`--fen "8/8/8/3k4/8/8/3K4/8 w - - 0 1" --depth 3`: one
loop alone lasts a few milliseconds, less than starting the program),
printing the median wall time of each target and the ratio to the size
before (linear: about 2 a doubling; quadratic: 4), and, as a target, the
ratio from 10,000 to 40,000 under 6 (linear: 4; quadratic: 16). Then the
targets, each
loop run once (in the root's invocation of `--fen "k7/8/8/8/8/8/8/K7 w -
- 0 1" --depth 1`): the PAIR loop of 40,000 and the APPEND loop of 50,000
under a second in every target, and the PAIR loop of 300,000 (the deepest
set one invocation can build) in every target with the same output, with
its peak resident memory (GNU time's %M, when /usr/bin/time is there).

Prints PASS/MISS for each target. Exit status 1 only when a build fails or
the targets disagree.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ICP2C = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release", "icp2c")
ONCE = ["--fen", "k7/8/8/8/8/8/8/K7 w - - 0 1", "--depth", "1"]
SEARCH = ["--fen", "8/8/8/3k4/8/8/3K4/8 w - - 0 1", "--depth", "3"]
INVOCATIONS = 76
TARGETS = ("interp", "C", "Rust")
SIZES = (10_000, 20_000, 40_000)

LOOPS = {
    "PAIR": "L:      PAIR A,A,\"1\n        ADD I,I,\"1\n        JUMP< I,\"{n},L\n",
    "APPEND": "        SETV A,\"()\nL:      APPEND A,A,I\n        ADD I,I,\"1\n        JUMP< I,\"{n},L\n",
    "INSERT": "        SETV A,\"()\nL:      CARD C,A\n        ADD C,C,\"1\n        INSERT I,A,C\n"
    "        ADD I,I,\"1\n        JUMP< I,\"{n},L\n",
}


def program(loop, n, once):
    """The loop, then a statement that reads the whole set (CARD) and writes
    it out (BREAK: the count and the last round's counter). `once`: at the
    root only (DEPTH 1); else in every invocation (the program leaves, so
    the search goes on below)."""
    return (
        "ENTRY K,K\n"
        + ("        JUMP> DEPTH,\"1,OUT\n" if once else "")
        + "        SETV I,\"0\n"
        + LOOPS[loop].format(n=n)
        + "        CARD C,A\n        BREAK C,I\nOUT:    LEAVE\nEND\n"
    )


def run(cmd, check=True):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        sys.exit(f"sets.py: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[-600:]}")
    return p


def timed(cmd):
    """(wall seconds, stdout, stderr, status) of one run."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - t0, p.stdout, p.stderr, p.returncode


def peak_rss(cmd, tmp):
    """Peak resident memory of one run of cmd in MB, by GNU time (the
    rusage a Python child reports counts the Python it was forked from);
    None without /usr/bin/time."""
    if not os.path.exists("/usr/bin/time"):
        return None
    out = os.path.join(tmp, "time.txt")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return int(f.read().split()[-1]) / 1024


def build(tmp, name, source, args):
    src = os.path.join(tmp, f"{name}.cheg")
    with open(src, "w") as f:
        f.write(source)
    c, rs = os.path.join(tmp, f"{name}.c"), os.path.join(tmp, f"{name}.rs")
    run([ICP2C, src, "-o", c])
    run(["cc", "-std=c99", "-O2", c, "-o", os.path.join(tmp, f"{name}_c")])
    run([ICP2C, "--target", "rust", src, "-o", rs])
    run(["rustc", "--edition", "2021", "-O", rs, "-o", os.path.join(tmp, f"{name}_rs")])
    return {
        "interp": [ICP2C, "run", src] + args,
        "C": [os.path.join(tmp, f"{name}_c")] + args,
        "Rust": [os.path.join(tmp, f"{name}_rs")] + args,
    }


def measure(cmds, repeat):
    """Median wall time per target, interleaved; exits when they disagree."""
    times = {t: [] for t in TARGETS}
    answers = {}
    for _ in range(repeat):
        for t in TARGETS:
            wall, out, err, status = timed(cmds[t])
            times[t].append(wall)
            answers[t] = (status, out, err)
    if len(set(answers.values())) != 1:
        sys.exit("sets.py: the targets disagree: " + repr({t: a[:1] + (a[1][:80], a[2][:200]) for t, a in answers.items()}))
    return {t: statistics.median(v) for t, v in times.items()}, answers["C"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per target (median)")
    args = ap.parse_args()
    print("building icp2c (release)...", flush=True)
    run(["cargo", "build", "--release", "--quiet"], check=True)
    targets = []
    with tempfile.TemporaryDirectory() as tmp:
        print(f"\nwall time of {INVOCATIONS} loops (a depth-3 search), median of {args.repeat};"
              " ratio to the size before: 2 is linear, 4 quadratic\n")
        print(f"{'loop':8} {'N':>7}  " + "  ".join(f"{t:>16}" for t in TARGETS))
        for loop in LOOPS:
            before = first = None
            for n in SIZES:
                cmds = build(tmp, f"{loop.lower()}_{n}", program(loop, n, False), SEARCH)
                med, (_, _, err) = measure(cmds, args.repeat)
                count = 2 if loop == "PAIR" else n
                lines = err.decode().splitlines()
                if len(lines) != INVOCATIONS or any(not l.endswith(f": {count} {n} #") for l in lines):
                    sys.exit(f"sets.py: {loop} {n} wrote {len(lines)} lines: {err.decode()[-200:]!r}")
                cells = []
                for t in TARGETS:
                    ratio = f"x{med[t] / before[t]:.2f}" if before else ""
                    cells.append(f"{med[t]:7.3f}s {ratio:>7}")
                print(f"{loop:8} {n:>7}  " + "  ".join(f"{c:>16}" for c in cells), flush=True)
                before = med
                first = first or med
            # Over the whole range (x4 the rounds): linear about 4 (a little
            # more as the set outgrows the caches), quadratic 16. One
            # doubling alone is at the mercy of the machine's load.
            worst = max(before[t] / first[t] for t in TARGETS)
            targets.append((worst < 6.0, f"{loop} {SIZES[0]:,} -> {SIZES[-1]:,} rounds: at most x{worst:.2f} (linear: 4, quadratic: 16)"))
        for loop, n in (("PAIR", 40_000), ("APPEND", 50_000)):
            cmds = build(tmp, f"{loop.lower()}_target", program(loop, n, True), ONCE)
            med, _ = measure(cmds, args.repeat)
            worst = max(med.values())
            targets.append((worst < 1.0, f"{loop} loop of {n:,} in every target under 1 s: slowest {worst:.3f} s"))
        cmds = build(tmp, "pair_deep", program("PAIR", 300_000, True), ONCE)
        med, (status, out, err) = measure(cmds, 1)
        deep = status == 0 and err.decode().endswith(": 2 300000 #\n")
        rss = {t: peak_rss(cmds[t], tmp) for t in TARGETS}
        shown = ", ".join(f"{t} {med[t]:.2f} s" + (f" {rss[t]:.0f} MB" if rss[t] else "") for t in TARGETS)
        targets.append((deep, f"PAIR loop of 300,000 (a set 300,000 deep) in every target, the same output: {shown}"))
    print()
    for ok, text in targets:
        print(f"{'PASS' if ok else 'MISS'}  {text}")


if __name__ == "__main__":
    main()
