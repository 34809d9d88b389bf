#!/usr/bin/env python3
"""The size of the generated code, and the time compilers take on it.

    python3 benches/generated.py [--before OLD_ICP2C] [--repeat N]

Prints the lines of C and of Rust that `icp2c` (target/release/icp2c,
built first) writes for every example, and `cc -std=c99 -O2` and
`rustc --edition 2021 -O` wall times on `examples/beer.icp` (median of
N, default 5). With `--before`, another icp2c binary (an older build,
say) is measured beside it: its line counts in their own columns, and
its beer compiled in the same rounds, interleaved with ours, so that
the ratio is not skewed by the machine's load changing.

Needs python3 (standard library), cargo, cc and rustc.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generate(icp2c, example, target):
    args = [icp2c, str(example)] + (["--target", "rust"] if target == "rust" else [])
    return subprocess.run(args, check=True, capture_output=True).stdout


def lines(text):
    return text.count(b"\n")


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="another icp2c binary to measure beside this one")
    parser.add_argument("--repeat", type=int, default=5, help="compiles per binary and compiler (median)")
    args = parser.parse_args()

    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    target_dir = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    binaries = {"after": str(target_dir / "release" / "icp2c")}
    if args.before:
        binaries = {"before": args.before, **binaries}

    examples = sorted(
        p for p in (ROOT / "examples").iterdir() if p.suffix in (".icp", ".fin", ".cheg")
    )
    head = "example".ljust(26) + "".join(
        f"{name + ' C':>12}{name + ' Rust':>14}" for name in binaries
    )
    print(head)
    print("-" * len(head))
    for example in examples:
        row = example.name.ljust(26)
        for icp2c in binaries.values():
            row += f"{lines(generate(icp2c, example, 'c')):>12,}"
            row += f"{lines(generate(icp2c, example, 'rust')):>14,}"
        print(row)

    beer = ROOT / "examples" / "beer.icp"
    times = {(name, tool): [] for name in binaries for tool in ("cc", "rustc")}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, icp2c in binaries.items():
            (tmp / f"{name}.c").write_bytes(generate(icp2c, beer, "c"))
            (tmp / f"{name}.rs").write_bytes(generate(icp2c, beer, "rust"))
        for _ in range(args.repeat):
            for name in binaries:
                times[(name, "cc")].append(
                    timed(["cc", "-std=c99", "-O2", str(tmp / f"{name}.c"), "-o", str(tmp / f"{name}_c")])
                )
                times[(name, "rustc")].append(
                    timed(["rustc", "--edition", "2021", "-O", str(tmp / f"{name}.rs"), "-o", str(tmp / f"{name}_rs")])
                )
    print()
    print(f"beer.icp, median of {args.repeat} (wall seconds):")
    for name in binaries:
        cc = statistics.median(times[(name, "cc")])
        rustc = statistics.median(times[(name, "rustc")])
        print(f"  {name:<7} cc -O2 {cc:6.3f}   rustc -O {rustc:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
