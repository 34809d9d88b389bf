#!/usr/bin/env python3
"""icp2c benchmark suite.

    python3 benches/bench.py                 full run (about 2 minutes on an idle 2-core machine)
    python3 benches/bench.py --quick         smoke run with small inputs
    python3 benches/bench.py --repeat 9      more repetitions (median of N; at least 5 in a full run)
    python3 benches/bench.py --only counter,compile

Needs only python3 (standard library), cc, cargo and rustc.

What it does:
  1. `cargo build --release` (the interpreter is `target/release/icp2c run`,
     or `$CARGO_TARGET_DIR/release/icp2c` when that variable is set).
  2. In a temporary folder, for each workload of benches/workloads/: writes its
     input (generated deterministically, seeded), compiles it to C
     (`cc -std=c99 -O2`) and to Rust (`rustc --edition 2021 -O`), then runs the
     interpreter, the C program and the Rust program in turn (interleaved, so
     that a change of machine load hits all three alike), --repeat times each.
     It reports the median and the fastest wall time, the median CPU time
     (user + system), throughput (work units per second of median wall time)
     and peak resident memory (ru_maxrss of the child, from os.wait4), plus the
     ratios C/interpreter and Rust/C of median wall times.
  3. Generates a 100,000-statement program (places, named moves, moves by
     squares, texts, counts, nothing, forward jumps; valid and halting after
     at most one pass) and times icp2c compiling it (to C and to Rust) and
     `cc -std=c99 -O2` building the generated C.
  4. Generates programs of 2,000, 10,000 and 20,000 statements the same way
     and times `cc -std=c99 -O2` and `rustc --edition 2021 -O` building
     them, side by side (interleaved, median of 3; one run of 2,000 and
     10,000 with --quick), with their peak memory, and runs both programs
     to check that they agree (rustc within 3x of cc on 10,000 statements,
     under 1 GB, and no faster than linear growth).
  5. Generates a Finvara program of 20,000 moves and a CHEG program of
     20,000 statements (--lang-sizes 20000,200000 adds the 200,000 ones:
     minutes) and times `cc -O2` and `rustc -O` on each (targets: cc under
     20 s and 1 GB, rustc within 3x of cc; past 20,000 both under 4 GB, with
     the growth factor printed).
  6. Prints PASS/MISS for each performance target.

Exit status: 0 when every build succeeded and every target printed the same
output (a MISS is a finding, not a failure); 1 when a build failed, a program
failed, or the interpreter, the C and the Rust program disagreed.
"""

import argparse
import hashlib
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS_DIR = ROOT / "benches" / "workloads"
# cargo puts the build under $CARGO_TARGET_DIR when it is set, else target/.
ICP2C = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target") / "release" / "icp2c"
CC = os.environ.get("CC", "cc")
RUSTC = os.environ.get("RUSTC", "rustc")
CFLAGS = ["-std=c99", "-O2"]
RUSTFLAGS = ["--edition", "2021", "-O"]

TARGETS = ("interp", "C", "Rust")


class BenchError(Exception):
    """Something broke (a build, a run, or the targets disagree)."""


# ----------------------------------------------------------------- inputs


def place_pairs(count, seed=1):
    """`count` distinct (row, col) pairs: random rows, col = index."""
    rng = random.Random(seed)
    return " ".join(f"{rng.randrange(-10**9, 10**9)} {i}" for i in range(count)) + "\n"


# Each workload: its file, its input at full and quick size, the work it
# does for that input (in `unit`s, for throughput) and the output it must
# print (a check on top of "all three targets agree").
WORKLOADS = [
    dict(
        name="counter",
        file="counter.icp",
        size={"full": (1_000_000, 10), "quick": (100_000, 10)},
        input=lambda s: f"{s[0]} {s[1]}\n",
        label=lambda s: f"{s[0]} {s[1]}",
        work=lambda s: 2 * s[0] * s[1],
        unit="moves",
        expect=lambda s: b"done\n",
    ),
    dict(
        name="guarded_slides",
        file="guarded_slides.icp",
        size={"full": 1_000_000, "quick": 100_000},
        input=lambda n: f"{n}\n",
        label=str,
        work=lambda n: 4 * n,
        unit="moves",
        expect=lambda n: b"done\n",
    ),
    dict(
        name="guarded_slides_short",
        file="guarded_slides_short.icp",
        size={"full": 1_000_000, "quick": 100_000},
        input=lambda n: f"{n}\n",
        label=str,
        work=lambda n: 4 * n,
        unit="moves",
        expect=lambda n: b"done\n",
    ),
    dict(
        name="beer_n",
        file="beer_n.icp",
        size={"full": 3000, "quick": 500},
        input=lambda n: f"{n}\n",
        label=str,
        work=lambda n: n * n + n,
        unit="tries",
        expect=lambda n: f"{n}\n".encode(),  # the first line
        expect_prefix=True,
    ),
    dict(
        name="place_many",
        file="place_many.icp",
        size={"full": 1_000_000, "quick": 100_000},
        input=place_pairs,
        label=lambda n: f"{n:,} pairs".replace(",", "_"),
        work=lambda n: n,
        unit="places",
        expect=lambda n: f"{n}\n".encode(),
    ),
]

UNITS_NOTE = (
    "throughput units: moves = single-square or sliding moves tried (counter: 2nm;\n"
    "guarded_slides*: 4 per round, 2 slides + 2 refused); tries = named-move\n"
    "candidates tried (beer_n: n^2 + n); places = placements."
)


# ------------------------------------------------------- the big program


NAME_STEMS = ["x", "y", "reg", "acc", "Tmp", "piece", "n", "k_", "Q", "val", "42", "a_b"]
TEXTS = [
    "step done",
    "bottles of beer on the wall.",
    "x=R0,5 ?1 !2 # not a command",
    'a "quoted" \\ backslash %d %s 100%',
    "  leading and trailing blanks  ",
    "tab\there",
    "*/ /* }} {{ \" ' `",
    "unicode: é ∞ ♔♕♖",
]
# Offsets a named relative move uses: king steps, knight jumps, pawn steps,
# short slides.
OFFSETS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1),
           (1, 2), (2, 1), (-2, 1), (-1, -2), (0, 3), (-3, 0), (4, 4), (2, -2),
           (0, 17), (-25, 0), (9, -9)]


def big_program(statements, seed=7):
    """A valid `statements`-statement program that halts after at most one
    pass: every jump goes forward. Returns the source text."""
    rng = random.Random(seed)
    names = [f"{rng.choice(NAME_STEMS)}{i}" for i in range(max(50, statements // 60))]
    labels = [10 * (i + 1) for i in range(statements)]
    span = 300  # pieces live on [-span, span]^2

    def sq():
        return rng.randint(-span, span), rng.randint(-span, span)

    def blank():
        return " " if rng.random() < 0.15 else ""

    lines = [
        f"# Generated by benches/bench.py (seed {seed}): {statements} statements,",
        "# a mix of places, named moves, moves by squares, texts, counts and",
        "# forward jumps. Every jump goes forward, so it halts after one pass.",
    ]
    for i, label in enumerate(labels):
        if i % 500 == 0 and i:
            lines.append(f"# block {i // 500}")
        b = blank()
        if i == 0:
            lines.append(f"{label}. wk=K{-span - 5},{-span - 5}")
            continue
        if i == 1:
            lines.append(f"{label}. bk=k{span + 5},{span + 5}")
            continue
        if i == statements - 1:
            lines.append(f'{label}. "end')
            continue
        x = rng.random()
        suffix_ok = True
        if x < 0.30:
            letter = rng.choice("PpNnRrBbQqPpNn")
            r, c = sq()
            cmd = f"{rng.choice(names)}{b}={b}{letter}{r},{b}{c}"
        elif x < 0.55:
            dr, dc = rng.choice(OFFSETS)
            cmd = f"{rng.choice(names)};{b}{dr},{dc}"
        elif x < 0.63:
            r, c = sq()
            cmd = f"{rng.choice(names)},{r},{b}{c}"
        elif x < 0.70:
            r, c = sq()
            dr, dc = rng.choice(OFFSETS)
            cmd = f"{r},{c},{b}{r + dr},{c + dc}"
        elif x < 0.82:
            cmd = '"' + rng.choice(TEXTS) + f" {i}"
            suffix_ok = False
        elif x < 0.92:
            cmd = f"%{rng.choice(names)}"
        else:
            cmd = "^"
        if suffix_ok and i + 2 < statements and rng.random() < 0.35:
            j = rng.randint(i + 1, min(statements - 1, i + 40))
            k = rng.randint(i + 1, min(statements - 1, i + 40))
            form = rng.random()
            if form < 0.4:
                cmd += f"{b}?{labels[j]}"
            elif form < 0.8:
                cmd += f"{b}!{labels[j]}"
            else:
                cmd += f"?{labels[j]}{b}!{labels[k]}"
        lines.append(f"{label}.{b}{cmd}")
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------- running


def sh(cmd, **kw):
    """Runs cmd; returns (seconds, CompletedProcess). Raises on failure."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise BenchError(
            f"command failed (status {p.returncode}): {' '.join(map(str, cmd))}\n"
            + p.stderr.decode(errors="replace")[-3000:]
        )
    return dt, p


def timed(cmd, stdin_path, stdout_path, stderr_path):
    """Runs cmd once with stdin/stdout/stderr on files. Returns (status,
    wall seconds, cpu seconds, peak RSS in bytes) of the child itself."""
    with open(stdin_path, "rb") as fi, open(stdout_path, "wb") as fo, open(
        stderr_path, "wb"
    ) as fe:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=fi, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    # Linux reports ru_maxrss in KiB (macOS in bytes).
    rss = ru.ru_maxrss if sys.platform == "darwin" else ru.ru_maxrss * 1024
    return p.returncode, wall, ru.ru_utime + ru.ru_stime, rss


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def compile_targets(src, work, name):
    """icp2c → C and Rust, then cc and rustc. Returns {target: argv} and
    the build times."""
    c_src, rs_src = work / f"{name}.c", work / f"{name}.rs"
    c_exe, rs_exe = work / f"{name}_c", work / f"{name}_rs"
    times = {}
    times["icp2c→C"], _ = sh([ICP2C, src, "-o", c_src])
    times["icp2c→Rust"], _ = sh([ICP2C, "--target", "rust", src, "-o", rs_src])
    times["cc -O2"], _ = sh([CC, *CFLAGS, c_src, "-o", c_exe])
    times["rustc -O"], _ = sh([RUSTC, *RUSTFLAGS, rs_src, "-o", rs_exe])
    cmds = {"interp": [str(ICP2C), "run", str(src)], "C": [str(c_exe)], "Rust": [str(rs_exe)]}
    return cmds, times


def measure(cmds, input_path, work, name, repeat, expect, prefix=False):
    """Runs every target `repeat` times, interleaved. Checks status 0 and
    identical output. Returns {target: stats dict}."""
    runs = {t: [] for t in cmds}
    digests = {t: set() for t in cmds}
    for i in range(repeat):
        for t, cmd in cmds.items():
            out = work / f"{name}.{t}.out"
            err = work / f"{name}.{t}.err"
            status, wall, cpu, rss = timed(cmd, input_path, out, err)
            if status != 0:
                raise BenchError(
                    f"{name}: {t} exited with status {status}: "
                    + err.read_bytes().decode(errors="replace")[-2000:]
                )
            digests[t].add(digest(out))
            if i == 0 and expect is not None:
                got = out.read_bytes()
                ok = got.startswith(expect) if prefix else got == expect
                if not ok:
                    raise BenchError(
                        f"{name}: {t} printed {got[:200]!r}..., expected "
                        f"{'a start of ' if prefix else ''}{expect[:200]!r}"
                    )
            runs[t].append((wall, cpu, rss))
    all_digests = set().union(*digests.values())
    if len(all_digests) != 1:
        raise BenchError(
            f"{name}: the targets disagree: "
            + ", ".join(f"{t}={sorted(d)[0][:12]}({len(d)})" for t, d in digests.items())
        )
    stats = {}
    for t, rs in runs.items():
        walls = [w for w, _, _ in rs]
        stats[t] = dict(
            wall=statistics.median(walls),
            best=min(walls),
            cpu=statistics.median([c for _, c, _ in rs]),
            rss=max(r for _, _, r in rs),
            n=len(rs),
        )
    return stats


# --------------------------------------------------------------- report


def first_line(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.stdout.splitlines()[0].strip() if p.stdout else "?"
    except OSError:
        return "not found"


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load():
    try:
        return "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "?"


def fmt_s(x):
    return f"{x:.3f}" if x < 100 else f"{x:.1f}"


def fmt_rate(x):
    if x >= 1e6:
        return f"{x / 1e6:.1f}M"
    if x >= 1e3:
        return f"{x / 1e3:.1f}k"
    return f"{x:.0f}"


def mb(b):
    return f"{b / 1e6:.1f}"


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    def line(r):
        return "  ".join(
            str(c).ljust(w) if i == 0 or i == 1 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(r, widths))
        ).rstrip()
    out = [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


# ------------------------------------------------------------------ main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small inputs (a smoke run)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="runs per target (median taken); default 5 (3 with --quick)")
    ap.add_argument("--only", action="append", default=[],
                    help="comma-separated workload names (counter, guarded_slides, "
                    "guarded_slides_short, beer_n, place_many, compile)")
    ap.add_argument("--statements", type=int, default=None,
                    help="size of the generated program (default 100000; 10000 with --quick)")
    ap.add_argument("--big-rust", action="store_true",
                    help="also time rustc -O on the generated program's Rust and run it")
    ap.add_argument("--lang-sizes", default=None,
                    help="comma-separated sizes of the big Finvara and CHEG programs of "
                    "--only compile (default 20000; 5000 with --quick), e.g. 20000,200000")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()

    mode = "quick" if args.quick else "full"
    repeat = args.repeat or (3 if args.quick else 5)
    if repeat < 1:
        ap.error("--repeat must be at least 1")
    statements = args.statements or (10_000 if args.quick else 100_000)
    only = {x.strip() for o in args.only for x in o.split(",") if x.strip()}
    known = {w["name"] for w in WORKLOADS} | {"compile"}
    if only - known:
        ap.error(f"unknown workload(s): {', '.join(sorted(only - known))}; known: {', '.join(sorted(known))}")
    selected = [w for w in WORKLOADS if not only or w["name"] in only]
    do_compile = not only or "compile" in only

    print("icp2c benchmark suite" + (" (quick: small inputs, targets indicative only)" if args.quick else ""))
    print(f"machine: {os.cpu_count()} CPUs, {cpu_model()}; {platform.system()} {platform.release()}")
    print(f"tools:   {first_line([CC, '--version'])}; {first_line([RUSTC, '--version'])}; "
          f"{first_line(['cargo', '--version'])}; python {platform.python_version()}")
    print(f"load average at start: {load()}")
    print(f"method:  median of {repeat} runs per target, interleaved; peak RSS = ru_maxrss")
    print()

    failures = []
    try:
        print("building: cargo build --release ...", flush=True)
        t, _ = sh(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
        print(f"  done in {t:.1f} s\n", flush=True)
    except BenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1

    tmp = Path(tempfile.mkdtemp(prefix="icp2c-bench-"))
    results = {}  # name -> (label, work, unit, stats)
    big = None
    rustc = None
    langs = None
    try:
        for w in selected:
            name = w["name"]
            size = w["size"][mode]
            print(f"[{name}] input {w['label'](size)}: generating, compiling ...", flush=True)
            try:
                inp = tmp / f"{name}.in"
                inp.write_text(w["input"](size))
                src = tmp / w["file"]
                shutil.copyfile(WORKLOADS_DIR / w["file"], src)
                cmds, _ = compile_targets(src, tmp, name)
                stats = measure(cmds, inp, tmp, name, repeat, w["expect"](size),
                                w.get("expect_prefix", False))
            except BenchError as e:
                print(f"error: {e}", file=sys.stderr)
                failures.append(name)
                continue
            results[name] = (w["label"](size), w["work"](size), w["unit"], stats)
            print("  " + ", ".join(f"{t} {fmt_s(s['wall'])} s" for t, s in stats.items()), flush=True)

        if do_compile:
            print(f"[compile] generating a {statements:,}-statement program ...".replace(",", "_"), flush=True)
            try:
                big = bench_compile(tmp, statements, repeat, args.big_rust)
            except BenchError as e:
                print(f"error: {e}", file=sys.stderr)
                failures.append("compile")
            sizes = RUSTC_SIZES[mode]
            rounds = 1 if args.quick else 3
            print(f"[compile] cc -O2 and rustc -O on {', '.join(map(str, sizes))} statements "
                  f"(median of {rounds}) ...", flush=True)
            try:
                rustc = dict(sizes=bench_rustc(tmp, sizes, rounds), rounds=rounds)
            except BenchError as e:
                print(f"error: {e}", file=sys.stderr)
                failures.append("compile")
            lang_sizes = ([int(x) for x in args.lang_sizes.split(",")] if args.lang_sizes
                          else list(LANG_SIZES[mode]))
            print(f"[compile] big Finvara and CHEG programs of {', '.join(map(str, lang_sizes))} lines "
                  f"(median of {rounds}) ...", flush=True)
            try:
                langs = bench_lang_compile(tmp, lang_sizes, rounds)
            except BenchError as e:
                print(f"error: {e}", file=sys.stderr)
                failures.append("compile")
    finally:
        if args.keep:
            print(f"(kept {tmp})")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    print(f"\nload average at end: {load()}\n")
    report(results, big, repeat, args.quick, rustc)
    if langs:
        report_lang_compile(langs, 1 if args.quick else 3)
    if failures:
        print(f"\nFAILED: {', '.join(failures)} (see the errors above)")
        return 1
    return 0


def bench_compile(tmp, statements, repeat, big_rust):
    src = tmp / "big.icp"
    src.write_text(big_program(statements))
    c_src, rs_src, c_exe, rs_exe = tmp / "big.c", tmp / "big.rs", tmp / "big_c", tmp / "big_rs"
    empty = tmp / "empty.in"
    empty.write_bytes(b"")
    res = dict(statements=statements, source_bytes=src.stat().st_size)
    # icp2c's own time: median of `repeat` compilations to C and to Rust.
    for key, argv, out in (("icp2c_c", [ICP2C, src, "-o", c_src], c_src),
                           ("icp2c_rust", [ICP2C, "--target", "rust", src, "-o", rs_src], rs_src)):
        walls, rss = [], 0
        for _ in range(repeat):
            status, wall, _, r = timed([str(a) for a in argv], empty, tmp / "icp2c.out", tmp / "icp2c.err")
            if status != 0:
                raise BenchError("icp2c rejected the generated program:\n"
                                 + (tmp / "icp2c.err").read_text(errors="replace")[-3000:])
            walls.append(wall)
            rss = max(rss, r)
        res[key] = statistics.median(walls)
        res[key + "_rss"] = rss
        res[key + "_bytes"] = out.stat().st_size
    # cc -O2 on the generated C: once in a quick run, else median of 3.
    cc_runs = []
    for _ in range(1 if repeat < 5 else 3):
        status, wall, _, r = timed([CC, *CFLAGS, str(c_src), "-o", str(c_exe)], empty,
                                   tmp / "cc.out", tmp / "cc.err")
        if status != 0:
            raise BenchError("cc failed on the generated program:\n"
                             + (tmp / "cc.err").read_text(errors="replace")[-3000:])
        cc_runs.append((wall, r))
    res["cc"] = statistics.median(w for w, _ in cc_runs)
    res["cc_rss"] = max(r for _, r in cc_runs)
    cmds = {"interp": [str(ICP2C), "run", str(src)], "C": [str(c_exe)]}
    if big_rust:
        status, wall, _, r = timed([RUSTC, *RUSTFLAGS, str(rs_src), "-o", str(rs_exe)], empty,
                                   tmp / "rustc.out", tmp / "rustc.err")
        if status != 0:
            raise BenchError("rustc failed on the generated program:\n"
                             + (tmp / "rustc.err").read_text(errors="replace")[-3000:])
        res["rustc"] = wall
        cmds["Rust"] = [str(rs_exe)]
    # Run it: a check that the program is valid, halts and agrees.
    res["run"] = measure(cmds, empty, tmp, "big", 1, None)
    res["output_lines"] = (tmp / "big.C.out").read_bytes().count(b"\n")
    print(f"  icp2c {fmt_s(res['icp2c_c'])} s, cc -O2 {fmt_s(res['cc'])} s", flush=True)
    return res


RUSTC_SIZES = {"full": (2_000, 10_000, 20_000), "quick": (2_000, 10_000)}

# Finvara and CHEG programs of N moves / statements for `--only compile`
# (the targets: cc -O2 under 20 s and 1 GB at 20,000, rustc -O within 3x
# of cc; growth no worse than linear).
LANG_SIZES = {"full": (20_000,), "quick": (5_000,)}


def big_finvara(moves):
    """A Finvara program of `moves` moves: White's reader falls into a
    hole and back (it reads a number, §4), Black passes; the board stays
    small, the move list is long."""
    lines = ["(k):\n(r 3): (1,0)\n(n 0): (0,0)\n\n",
             "+--+--+--+\n|kB|nB|  |\n+--+--+--+\n|rW|  |kW|\n+--+--+--+\n|##|  |  |\n+--+--+--+\n\n"]
    turn = 1
    for i in range(moves):
        if i % 2 == 0:
            lines.append(f"Turn {turn} W: r b1 -> a1\n")
        else:
            lines.append(f"Turn {turn} B: n c2 -> c2\n")
            turn += 1
    return "".join(lines)


def big_cheg(statements):
    """A CHEG program of `statements` statements: one ENTRY whose program
    adds 1 to a variable statements - 2 times and returns it."""
    lines = ["; a long CHEG program\nENTRY Q,K\n        SETV D,\"0\n"]
    lines += ["        ADD D,D,\"1\n"] * max(statements - 2, 0)
    lines.append("        VALRET D,\"0,\"600\nEND\n")
    return "".join(lines)


def bench_lang_compile(tmp, sizes, rounds):
    """cc -O2 and rustc -O on big Finvara and CHEG programs, each built
    `rounds` times, interleaved (every build of one round before the next
    round). Returns [(language, size, dict(cc, cc_rss, rustc, rustc_rss))],
    times the median wall of the rounds, memory the largest peak."""
    empty = tmp / "empty.in"
    empty.write_bytes(b"")
    builds = []
    for lang, ext, make in (("Finvara", "fin", big_finvara), ("CHEG", "cheg", big_cheg)):
        for n in sizes:
            src = tmp / f"big{n}.{ext}"
            src.write_text(make(n))
            c_src, rs_src = tmp / f"big{n}_{ext}.c", tmp / f"big{n}_{ext}.rs"
            sh([ICP2C, src, "-o", c_src])
            sh([ICP2C, "--target", "rust", src, "-o", rs_src])
            builds.append((lang, n, {
                "cc": [CC, *CFLAGS, str(c_src), "-o", str(tmp / f"big{n}_{ext}_c")],
                "rustc": [RUSTC, *RUSTFLAGS, str(rs_src), "-o", str(tmp / f"big{n}_{ext}_rs")],
            }))
    runs = {(lang, n): {"cc": [], "rustc": []} for lang, n, _ in builds}
    for r in range(rounds):
        for lang, n, argvs in builds:
            for key, argv in argvs.items():
                status, wall, _, rss = timed(argv, empty, tmp / "build.out", tmp / "build.err")
                if status != 0:
                    raise BenchError(f"{key} failed on the {n}-line {lang} program:\n"
                                     + (tmp / "build.err").read_text(errors="replace")[-3000:])
                runs[(lang, n)][key].append((wall, rss))
            print(f"  round {r + 1}: {lang} {n:,}: cc -O2 {fmt_s(runs[(lang, n)]['cc'][-1][0])} s, "
                  f"rustc -O {fmt_s(runs[(lang, n)]['rustc'][-1][0])} s", flush=True)
    rows = []
    for lang, n, _ in builds:
        res = {}
        for key, got in runs[(lang, n)].items():
            res[key] = statistics.median(w for w, _ in got)
            res[key + "_rss"] = max(m for _, m in got)
        rows.append((lang, n, res))
    return rows


def report_lang_compile(rows, rounds):
    out = []
    for lang, n, r in rows:
        ratio = r["rustc"] / r["cc"]
        verdict = "PASS" if r["cc"] < 20 and r["cc_rss"] < 1 << 30 and ratio <= 3 else "MISS"
        if n > 20_000:
            verdict = "PASS" if r["cc_rss"] < 4 << 30 and r["rustc_rss"] < 4 << 30 else "MISS"
        out.append([lang, f"{n:,}", fmt_s(r["cc"]), mb(r["cc_rss"]), fmt_s(r["rustc"]),
                    mb(r["rustc_rss"]), f"{ratio:.2f}", verdict])
    print(f"Compile speed of big Finvara and CHEG programs (median of {rounds}, interleaved; seconds,\n"
          "peak MB; target at 20,000: cc -O2 under 20 s and 1 GB, rustc -O within 3x of cc; above\n"
          "20,000: both under 4 GB)\n")
    print(table(out, ["language", "lines", "cc -O2", "cc MB", "rustc -O", "rustc MB",
                      "rustc/cc", "target"]))
    growth = []
    for lang in ("Finvara", "CHEG"):
        mine = [(n, r) for l, n, r in rows if l == lang]
        for (n1, r1), (n2, r2) in zip(mine, mine[1:]):
            factor = n2 / n1
            for key, name in (("cc", "cc -O2"), ("rustc", "rustc -O")):
                grew = r2[key] / r1[key]
                verdict = "PASS" if grew <= factor else "MISS"
                growth.append(f"{verdict}  {lang} {n1:,} -> {n2:,} lines (x{factor:g}): "
                              f"{name} x{grew:.1f}")
    if growth:
        print("\nGrowth (target: no worse than linear, the same factor as the lines)\n"
              + "\n".join(growth))
    print()


def bench_rustc(tmp, sizes, rounds):
    """cc -O2 and rustc -O on generated programs of `sizes` statements,
    interleaved (cc, then rustc, size after size, `rounds` times). Returns
    {statements: dict(cc=median wall, cc_cpu, cc_rss, rustc=..., ...)}."""
    empty = tmp / "empty.in"
    empty.write_bytes(b"")
    progs = {}
    for n in sizes:
        src = tmp / f"rustc{n}.icp"
        src.write_text(big_program(n))
        c_src, rs_src = tmp / f"rustc{n}.c", tmp / f"rustc{n}.rs"
        sh([ICP2C, src, "-o", c_src])
        sh([ICP2C, "--target", "rust", src, "-o", rs_src])
        progs[n] = {
            "cc": [CC, *CFLAGS, str(c_src), "-o", str(tmp / f"rustc{n}_c")],
            "rustc": [RUSTC, *RUSTFLAGS, str(rs_src), "-o", str(tmp / f"rustc{n}_rs")],
        }
    runs = {n: {t: [] for t in ("cc", "rustc")} for n in sizes}
    for _ in range(rounds):
        for n in sizes:
            for t, argv in progs[n].items():
                status, wall, cpu, rss = timed(argv, empty, tmp / "build.out", tmp / "build.err")
                if status != 0:
                    raise BenchError(f"{t} failed on the {n}-statement program:\n"
                                     + (tmp / "build.err").read_text(errors="replace")[-3000:])
                runs[n][t].append((wall, cpu, rss))
    res = {}
    for n in sizes:
        # The two programs must print the same (they are not timed).
        cmds = {"C": [str(tmp / f"rustc{n}_c")], "Rust": [str(tmp / f"rustc{n}_rs")]}
        measure(cmds, empty, tmp, f"rustc{n}", 1, None)
        r = {}
        for t, rs in runs[n].items():
            r[t] = statistics.median(w for w, _, _ in rs)
            r[t + "_cpu"] = statistics.median(c for _, c, _ in rs)
            r[t + "_rss"] = max(m for _, _, m in rs)
        res[n] = r
        print(f"  {n} statements: cc -O2 {fmt_s(r['cc'])} s, rustc -O {fmt_s(r['rustc'])} s", flush=True)
    return res


def report(results, big, repeat, quick, rustc=None):
    if results:
        rows = []
        for name, (label, work, unit, stats) in results.items():
            for i, t in enumerate(TARGETS):
                s = stats[t]
                rows.append([
                    name if i == 0 else "",
                    label if i == 0 else "",
                    t,
                    fmt_s(s["wall"]),
                    fmt_s(s["best"]),
                    fmt_s(s["cpu"]),
                    f"{fmt_rate(work / s['wall'])} {unit}/s",
                    mb(s["rss"]),
                ])
        print(f"Workloads (median of {repeat}; wall and CPU in seconds; peak RSS in MB)\n")
        print(table(rows, ["workload", "input", "target", "wall", "min", "cpu", "throughput", "peak MB"]))
        print()
        print(UNITS_NOTE)
        print()
        rows = []
        for name, (_, _, _, st) in results.items():
            c, i, r = st["C"]["wall"], st["interp"]["wall"], st["Rust"]["wall"]
            rows.append([name, f"{c / i:.2f}", f"{i / c:.2f}", f"{r / c:.2f}",
                         f"{st['Rust']['cpu'] / st['C']['cpu']:.2f}"])
        print("Ratios of median wall times (below 1: the first is faster)\n")
        print(table(rows, ["workload", "C/interp", "interp/C", "Rust/C", "Rust/C cpu"]))
        print()
    if big:
        print(f"Compile speed: generated program of {big['statements']:,} statements "
              f"({big['source_bytes'] / 1e6:.1f} MB of source; {big['output_lines']:,} output lines when run)\n"
              .replace(",", "_"))
        rows = [
            ["icp2c prog.icp -o prog.c", fmt_s(big["icp2c_c"]), mb(big["icp2c_c_rss"]),
             f"{big['icp2c_c_bytes'] / 1e6:.1f} MB of C"],
            ["icp2c --target rust", fmt_s(big["icp2c_rust"]), mb(big["icp2c_rust_rss"]),
             f"{big['icp2c_rust_bytes'] / 1e6:.1f} MB of Rust"],
            ["cc -std=c99 -O2 prog.c", fmt_s(big["cc"]), mb(big["cc_rss"]), ""],
        ]
        if "rustc" in big:
            rows.append(["rustc --edition 2021 -O prog.rs", fmt_s(big["rustc"]), "", ""])
        for t, s in big["run"].items():
            rows.append([f"run it: {t}", fmt_s(s["wall"]), mb(s["rss"]), "same output"])
        print(table(rows, ["step", "wall s", "peak MB", "note"]))
        print()
    if rustc:
        rounds = rustc["rounds"]
        print(f"Compile speed of generated C and Rust (median of {rounds}, interleaved; "
              "wall and CPU in seconds, peak RSS in MB)\n")
        rows = []
        for n, r in rustc["sizes"].items():
            rows.append([f"{n:,}".replace(",", "_"), fmt_s(r["cc"]), fmt_s(r["cc_cpu"]), mb(r["cc_rss"]),
                         fmt_s(r["rustc"]), fmt_s(r["rustc_cpu"]), mb(r["rustc_rss"]),
                         f"{r['rustc'] / r['cc']:.2f}"])
        print(table(rows, ["statements", "cc -O2", "cpu", "peak MB", "rustc -O", "cpu", "peak MB",
                           "rustc/cc"]))
        print()
    print_targets(results, big, quick, rustc)


def print_targets(results, big, quick, rustc=None):
    lines = []

    def verdict(ok):
        return "PASS" if ok else "MISS"

    def add(ok, text, sized=False):
        if quick and sized:
            lines.append(f"n/a   {text} (quick run: smaller input than the target's)")
        else:
            lines.append(f"{verdict(ok)}  {text}")

    st = {n: r[3] for n, r in results.items()}
    work = {n: r[1] for n, r in results.items()}
    if "counter" in st:
        c = st["counter"]
        rate = work["counter"] / c["C"]["wall"]
        add(rate >= 30e6, f"counter: generated C {rate / 1e6:.1f}M moves/s >= 30M")
        k = c["interp"]["wall"] / c["C"]["wall"]
        add(k <= 4, f"counter: interpreter {k:.2f}x the C's time <= 4x")
    if "guarded_slides" in st:
        c = st["guarded_slides"]
        rate = work["guarded_slides"] / c["C"]["wall"]
        add(rate >= 5e6, f"guarded_slides: generated C {rate / 1e6:.2f}M moves/s >= 5M")
        if "guarded_slides_short" in st:
            s = st["guarded_slides_short"]
            for t in TARGETS:
                k = c[t]["wall"] / s[t]["wall"]
                add(k <= 1.25, f"slide distance does not matter ({t}): 10^18-square slides take "
                    f"{k:.2f}x the time of 6-square slides <= 1.25x")
    if "beer_n" in st:
        t = st["beer_n"]["C"]["wall"]
        add(t < 1, f"beer_n 3000: generated C {t:.3f} s < 1 s", sized=True)
    if "place_many" in st:
        p = st["place_many"]
        for t in ("C", "Rust"):
            add(p[t]["rss"] < 200e6, f"place_many 10^6 ({t}): peak memory {mb(p[t]['rss'])} MB < 200 MB", sized=True)
            add(p[t]["wall"] < 1, f"place_many 10^6 ({t}): {p[t]['wall']:.3f} s < 1 s", sized=True)
        lines.append(f"info  place_many 10^6 (interp): {mb(p['interp']['rss'])} MB, {p['interp']['wall']:.3f} s")
    if big:
        add(big["icp2c_c"] < 1, f"icp2c compiles {big['statements']} statements to C in {big['icp2c_c']:.3f} s < 1 s",
            sized=True)
        add(big["cc"] < 60, f"cc -O2 builds its output in {big['cc']:.1f} s < 60 s", sized=True)
    if rustc:
        sizes = rustc["sizes"]
        if 10_000 in sizes:
            r = sizes[10_000]
            k = r["rustc"] / r["cc"]
            add(k <= 3, f"rustc -O builds the 10_000-statement program in {r['rustc']:.2f} s, "
                f"{k:.2f}x cc -O2's {r['cc']:.2f} s <= 3x")
            add(r["rustc_rss"] < 1e9, f"rustc -O on 10_000 statements: peak memory "
                f"{mb(r['rustc_rss'])} MB < 1000 MB")
        ns = sorted(sizes)
        for a, b in zip(ns, ns[1:]):
            k = sizes[b]["rustc"] / sizes[a]["rustc"]
            add(k <= b / a, f"rustc -O time grows at most linearly: {b} statements take {k:.2f}x "
                f"the time of {a} <= {b / a:.0f}x")
    for name, s in st.items():
        k = s["Rust"]["wall"] / s["C"]["wall"]
        add(max(k, 1 / k) <= 1.5, f"{name}: C and Rust within 1.5x (Rust/C = {k:.2f})")
    if lines:
        print("Targets\n")
        print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
