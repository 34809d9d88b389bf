#!/usr/bin/env python3
"""The InfChessPro optimiser's benchmark (issue 13).

    python3 benches/opt.py              full run (about a minute on an idle 2-core machine)
    python3 benches/opt.py --repeat 9   more repetitions (median of N)

Needs only python3 (standard library), cc, cargo and rustc.

For each case it builds the program once as C (`cc -std=c99 -O2`) and as
Rust (`rustc --edition 2021 -O`), then times, interleaved so that a change
of machine load hits all alike: the interpreter with the optimiser (the
default), the generated C and Rust (optimised), and, where stepping ends
in reasonable time, the interpreter with `-O0`. Every run of a case must
print the same bytes and exit 0. It prints the median wall time of each,
and PASS/MISS for the issue's targets:

  - counter.icp with input `1000000000000 3` (6*10^12 moves stepped) and a
    transfer of 10^15 units (examples/transfer.icp) under 0.1 s in all
    three;
  - the same transfer with 10^4 units prints the same with -O0;
  - the shared workloads (counter, guarded_slides, beer_n, place_many at
    bench.py's full sizes) no slower with the optimiser than without
    (within 10%, the noise of this machine).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benches" / "workloads"


def place_pairs(count, seed=1):
    rng = random.Random(seed)
    return " ".join(f"{rng.randrange(-10**9, 10**9)} {i}" for i in range(count)) + "\n"


# name, program, input, whether -O0 finishes, whether it must be under 0.1 s
CASES = [
    ("counter 10^12 x 3", WORK / "counter.icp", "1000000000000 3\n", False, True),
    ("counter 10^6 x 10^6 (nested)", WORK / "counter.icp", "1000000 1000000\n", False, False),
    ("transfer 10^15", ROOT / "examples" / "transfer.icp",
     "1000000000000000 2 1000000000000002\n", False, True),
    ("transfer 10^4", ROOT / "examples" / "transfer.icp", "10000 2 10002\n", True, False),
    ("counter (shared, 10^6 x 10)", WORK / "counter.icp", "1000000 10\n", True, False),
    ("guarded_slides 10^6", WORK / "guarded_slides.icp", "1000000\n", True, False),
    ("beer_n 3000", WORK / "beer_n.icp", "3000\n", True, False),
    ("place_many 10^6", WORK / "place_many.icp", place_pairs(1_000_000), True, False),
]
SHARED = {"counter (shared, 10^6 x 10)", "guarded_slides 10^6", "beer_n 3000", "place_many 10^6"}


def run(cmd, stdin):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, input=stdin.encode(), capture_output=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(map(str, cmd))}\n{p.stderr.decode()}")
    return wall, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    icp2c = str(target / "release" / "icp2c")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, program, stdin, stepped, fast in CASES:
            base = Path(tmp) / f"p{len(results)}"
            subprocess.run([icp2c, str(program), "-o", f"{base}.c"], check=True)
            subprocess.run([icp2c, str(program), "-o", f"{base}.rs"], check=True)
            subprocess.run(["cc", "-std=c99", "-O2", f"{base}.c", "-o", f"{base}_c"], check=True)
            subprocess.run(["rustc", "--edition", "2021", "-O", f"{base}.rs", "-o",
                            f"{base}_rs"], check=True, capture_output=True)
            runners = {
                "run": [icp2c, "run", str(program)],
                "C": [f"{base}_c"],
                "Rust": [f"{base}_rs"],
            }
            if stepped:
                runners["run -O0"] = [icp2c, "run", "-O0", str(program)]
            times = {k: [] for k in runners}
            outputs = set()
            for _ in range(args.repeat):
                for k, cmd in runners.items():
                    wall, out = run(cmd, stdin)
                    times[k].append(wall)
                    outputs.add(out)
            if len(outputs) != 1:
                sys.exit(f"{name}: the runs disagree: {outputs}")
            results[name] = ({k: statistics.median(v) for k, v in times.items()}, fast)
    cols = ["run", "C", "Rust", "run -O0"]
    print(f"{'case':32}" + "".join(f"{c:>12}" for c in cols) + "   (median wall seconds)")
    for name, (med, _) in results.items():
        print(f"{name:32}" + "".join(
            f"{med[c]:12.4f}" if c in med else f"{'-':>12}" for c in cols))
    print()
    for name, (med, fast) in results.items():
        if fast:
            worst = max(med["run"], med["C"], med["Rust"])
            print(f"{'PASS' if worst < 0.1 else 'MISS'}: {name} under 0.1 s in all three "
                  f"(slowest {worst:.4f} s)")
        if name in SHARED:
            ratio = med["run"] / med["run -O0"]
            print(f"{'PASS' if ratio <= 1.10 else 'MISS'}: {name}: optimised interpreter "
                  f"{ratio:.2f}x the unoptimised time (<= 1.10)")
    print("PASS: transfer 10^4 prints the same with and without the optimiser"
          if "transfer 10^4" in results else "")


if __name__ == "__main__":
    main()
