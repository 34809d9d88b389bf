#!/usr/bin/env python3
"""A 100 MB number token as program input, measured (InfChessPro §6,
Finvara §4; docs/performance.md).

    python3 benches/input.py            full run (under a minute on an idle 2-core machine)

Builds icp2c (release), compiles examples/sum.icp and examples/add.fin to
C (`cc -std=c99 -O2`) and Rust (`rustc --edition 2021 -O`), and feeds the
interpreter, the C program and the Rust program an input whose first
number is 100,000,000 bytes long: zeros then 42 (the number 42), or nines
(out of range: the contract's runtime error). Reports wall time and peak
resident memory (GNU time's %M; the column is empty without
/usr/bin/time). Target: every run under 64 MB (the token is never held).
"""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ICP2C = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release", "icp2c")
SIZE = 100_000_000


def main():
    print("building icp2c (release)...", flush=True)
    subprocess.run(["cargo", "build", "--release", "--quiet"], check=True, cwd=ROOT)
    has_time = os.path.exists("/usr/bin/time")
    targets = []
    with tempfile.TemporaryDirectory() as tmp:
        inputs = {}
        for name, digit, tail in (("zeros, then 42", "0", "42 1\n"), ("nines", "9", " 1\n")):
            path = os.path.join(tmp, f"{digit}.in")
            with open(path, "w") as f:
                chunk = digit * (1 << 20)
                for _ in range(SIZE // len(chunk)):
                    f.write(chunk)
                f.write(digit * (SIZE % len(chunk)) + tail)
            inputs[name] = path
        print(f"\n{'program':17} {'input':16} {'target':7} {'status':>6} {'wall':>7} {'memory':>8}  first line")
        for lang, example in (("icp", "examples/sum.icp"), ("fin", "examples/add.fin")):
            src = os.path.join(ROOT, example)
            c, rs = os.path.join(tmp, f"{lang}.c"), os.path.join(tmp, f"{lang}.rs")
            subprocess.run([ICP2C, src, "-o", c], check=True)
            subprocess.run(["cc", "-std=c99", "-O2", c, "-o", c + ".exe"], check=True)
            subprocess.run([ICP2C, "--target", "rust", src, "-o", rs], check=True)
            subprocess.run(["rustc", "--edition", "2021", "-O", rs, "-o", rs + ".exe"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for name, path in inputs.items():
                for target, cmd in (("interp", [ICP2C, "run", src]), ("C", [c + ".exe"]), ("Rust", [rs + ".exe"])):
                    mem_file = os.path.join(tmp, "mem.txt")
                    wrap = ["/usr/bin/time", "-f", "%M", "-o", mem_file] if has_time else []
                    with open(path, "rb") as fi:
                        t0 = time.perf_counter()
                        p = subprocess.run(wrap + cmd, stdin=fi, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                        wall = time.perf_counter() - t0
                    mb = None
                    if has_time:
                        with open(mem_file) as f:
                            mb = int(f.read().split()[-1]) / 1024
                    first = (p.stdout or p.stderr).decode(errors="replace").splitlines()[:1]
                    print(f"{example:17} {name:16} {target:7} {p.returncode:>6} {wall:6.2f}s "
                          f"{(f'{mb:.1f}MB' if mb else ''):>8}  {first[0] if first else ''}", flush=True)
                    if mb is not None:
                        targets.append((mb < 64, f"{example} [{target}] on 100 MB of {name}: {mb:.1f} MB"))
    print()
    for ok, text in targets:
        print(f"{'PASS' if ok else 'MISS'}  {text}")
    if not targets:
        print("(no /usr/bin/time: memory not measured)")


if __name__ == "__main__":
    sys.exit(main())
