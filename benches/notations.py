#!/usr/bin/env python3
"""Finvara notations that nest deep or reference long chains, measured
(spec/finvara.md §2.1, docs/finvara.md "Limits").

    python3 benches/notations.py          full run (a minute or two on an idle 2-core machine)

Builds icp2c (release), then for each program below reports icp2c's
compile time to C, the size of the C, `cc -std=c99 -O2` on it, and the run
of the interpreter, the C program and the Rust program (`rustc --edition
2021 -O`), which must print the same:

  nest N     a reader whose notation is [[[…(1,0)…]]] N deep (10,000,
             100,000, 1,000,000): cost linear in N.
  chain L    a printer whose notation is {"x","x"} with x = {"w","w"}, …,
             L links down to (1,0) (2^L leaps were references copied; L =
             5, 10, 20): shared, so cost linear in L.
  copies K   the same chain inside a `*` ("[\"x\"]*", copied: 4 * 2^K - 3
             units, K = 10, 12; and 18, past the limit of 1,000,000 copied
             units, which must be refused). Every copy keeps the vectors of
             its own first round, so a search tracks one path per copy:
             time and memory grow with the copies (shown: the
             interpreter's peak memory, by GNU time when /usr/bin/time is
             there).

Prints PASS/MISS for the targets: linear growth of compile time and C
size with N and L (a factor under 2.5 a doubling of the work once it is
large), and the refusal past the copy limit.
"""

import os
import string
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ICP2C = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release", "icp2c")

BOARD = """
+--+--+--+--+
|kB|nB|  |  |
+--+--+--+--+
|  |  |  |  |
+--+--+--+--+
|rW|pW|  |  |
+--+--+--+--+
|##|##|##|kW|
+--+--+--+--+

Turn 1 W: r b1 -> a1
Turn 1 B: n d2 -> d2
Turn 2 W: p b2 -> a2
"""


def source(reader, chain, printer):
    """A program that reads a number (r falls into a1) and prints it (p
    falls into a2); `chain` kinds come first."""
    return "(k):\n(n 0): (0,0)\n" + chain + f"(r 3): {reader}\n(p 4): {printer}\n" + BOARD


def chain_kinds(links):
    """{"x","x"} chains: `links` kinds below the top, down to (1,0); the
    name of the top one."""
    letters = [c for c in string.ascii_lowercase if c not in "knrp"]
    text = f"({letters[0]} 0): (1,0)\n"
    for i in range(1, links):
        text += f'({letters[i]} 0): {{"{letters[i - 1]}","{letters[i - 1]}"}}\n'
    return text, letters[links - 1]


def timed(cmd, stdin=b""):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - t0, p


def peak_mb(cmd, stdin, tmp):
    """Peak resident memory of cmd in MB by GNU time, or None."""
    if not os.path.exists("/usr/bin/time"):
        return None
    out = os.path.join(tmp, "time.txt")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + cmd, input=stdin,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return int(f.read().split()[-1]) / 1024


def measure(tmp, name, text):
    src = os.path.join(tmp, f"{name}.fin")
    with open(src, "w") as f:
        f.write(text)
    c, rs = os.path.join(tmp, f"{name}.c"), os.path.join(tmp, f"{name}.rs")
    compile_s, p = timed([ICP2C, src, "-o", c])
    if p.returncode != 0:
        return {"refused": p.stderr.decode().strip().splitlines()[0]}
    cc_s, p = timed(["cc", "-std=c99", "-O2", c, "-o", c + ".exe"])
    if p.returncode != 0:
        sys.exit(f"notations.py: cc failed on {name}: {p.stderr.decode()[:400]}")
    subprocess.run([ICP2C, "--target", "rust", src, "-o", rs], check=True)
    subprocess.run(["rustc", "--edition", "2021", "-O", rs, "-o", rs + ".exe"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    runs = {}
    for target, cmd in (("interp", [ICP2C, "run", src]), ("C", [c + ".exe"]), ("Rust", [rs + ".exe"])):
        runs[target] = timed(cmd, b"42\n")
    outs = {(p.returncode, p.stdout) for _, p in runs.values()}
    if outs != {(0, b"42\n")}:
        sys.exit(f"notations.py: {name}: the targets disagree or fail: {outs}")
    return {
        "memory": peak_mb([ICP2C, "run", src], b"42\n", tmp),
        "compile": compile_s,
        "size": os.path.getsize(c),
        "cc": cc_s,
        "run": {t: s for t, (s, _) in runs.items()},
    }


def main():
    print("building icp2c (release)...", flush=True)
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True, cwd=ROOT)
    rows, targets = [], []
    with tempfile.TemporaryDirectory() as tmp:
        series = {"nest": [], "chain": []}
        for n in (10_000, 100_000, 1_000_000):
            r = measure(tmp, f"nest{n}", source("[" * n + "(1,0)" + "]" * n, "", "(1,0)"))
            rows.append((f"nest {n:,}", r))
            series["nest"].append((n, r))
        for links in (5, 10, 20):
            kinds, top = chain_kinds(links)
            r = measure(tmp, f"chain{links}", source("(1,0)", kinds, f'{{"{top}","{top}"}}'))
            rows.append((f"chain {links}", r))
            series["chain"].append((links, r))
        for k in (10, 12, 18):
            kinds, top = chain_kinds(k + 1)
            r = measure(tmp, f"copies{k}", source("(1,0)", kinds, f'["{top}"]*'))
            rows.append((f"copies {k} ({4 * 2**k - 3:,} units)", r))
            if k == 18:
                targets.append(("refused" in r, "copies past 1,000,000 units refused: " + r.get("refused", "accepted")))
    print(f"\n{'program':28} {'icp2c':>8} {'C size':>10} {'cc -O2':>8} {'interp':>8} {'C':>8} {'Rust':>8} {'memory':>9}")
    for name, r in rows:
        if "refused" in r:
            print(f"{name:28} refused: {r['refused'][:70]}")
            continue
        run = r["run"]
        memory = f"{r['memory']:7.0f}MB" if r["memory"] else "n/a"
        print(f"{name:28} {r['compile']:7.2f}s {r['size'] / 1e6:8.2f}MB {r['cc']:7.2f}s "
              f"{run['interp']:7.2f}s {run['C']:7.2f}s {run['Rust']:7.2f}s {memory:>9}")
    for kind, points in series.items():
        (n0, a), (n1, b) = points[-2], points[-1]
        growth = n1 / n0
        for what, x, y in (("icp2c", a["compile"], b["compile"]), ("C size", a["size"], b["size"])):
            # Linear: the cost grows as the work; fixed costs make it less.
            ratio = y / max(x, 1e-3)
            targets.append((ratio < 1.25 * growth, f"{kind} {n0:,} -> {n1:,} (x{growth:g}): {what} x{ratio:.2f}"))
    print()
    for ok, text in targets:
        print(f"{'PASS' if ok else 'MISS'}  {text}")


if __name__ == "__main__":
    main()
