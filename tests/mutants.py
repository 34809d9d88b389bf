#!/usr/bin/env python3
"""A seeded mutation run over the C runtimes: does `cargo test` see a
one-line change to the C that generated programs carry?

    python3 tests/mutants.py [--seed N] [--count N] [--need N] [--list] [--only K]

It picks COUNT one-line mutants (default 20) of the C runtimes
(src/lang/*/runtime/**/*.c), uniformly over every place one of three
mutations applies, with a seeded generator (default seed 1):

  - a comparison flipped: `<` for `<=` and back, `>` for `>=` and back,
    `==` for `!=` and back;
  - an integer literal off by one (one more, or one less when it is not 0);
  - `+` for `-` and back (binary, `+=`/`-=` too; not `++`, `--`, `->` or a
    sign).

Comments, preprocessor lines, lines holding a string or character literal
(messages, letters) and the `@section` markers (comments) are skipped.

Each mutant is applied in a scratch worktree of HEAD (the checkout here is
never touched; its committed state is what is mutated) and `cargo test`
(the README's test command, the quick suite) is run on it: first the
tests that drive the C runtimes directly (the function-level twin
checkers and the runtimes' constants and unit tests, then every program
through every back end), a group at a time, and only if those pass, the
whole suite. A mutant is killed when a
test fails (the first failing tests are named), survives when the whole
suite passes. Every program a test runs has a time limit (tests/support:
`ICP2C_TEST_TIME_LIMIT`, set to 60 s here), so a mutant that loops is
killed by its test's time limit, not waited for.

Exit status 0 when at least NEED (default 18) of the mutants are killed,
1 otherwise. `--list` only prints the mutants. Builds go to
target/mutants/ (kept between runs: each mutant then costs a rebuild of
the library and the test crate, about 10 s, plus its tests).
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNTIMES = "src/lang"

# The tests run first, a group at a time (the first failing group ends a
# mutant's run): each drives a C runtime directly or runs every program
# through the generated C; the cheapest first.
FIRST = [
    ["_twins::", "runtimes_in_step::"],
    ["e2e::", "complexity::", "cheg::generated_c"],
]

COMPARISON = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


def runtime_files():
    return sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / RUNTIMES).glob("*/runtime/**/*.c")
    )


def code_lines(text):
    """(line number, code) of every line that holds code: comments
    replaced by blanks (so that columns stay those of the line);
    preprocessor lines and lines with a string or character literal left
    out."""
    out = []
    in_comment = False
    for number, line in enumerate(text.split("\n"), 1):
        code = []
        i = 0
        while i < len(line):
            if in_comment:
                end = line.find("*/", i)
                stop = len(line) if end < 0 else end + 2
                code.append(" " * (stop - i))
                in_comment = end < 0
                i = stop
            elif line.startswith("/*", i):
                in_comment = True
                code.append("  ")
                i += 2
            elif line.startswith("//", i):
                code.append(" " * (len(line) - i))
                break
            else:
                code.append(line[i])
                i += 1
        code = "".join(code)
        if not code.strip() or code.lstrip().startswith("#"):
            continue
        if '"' in code or "'" in code:
            continue
        out.append((number, code))
    return out


def sites(path):
    """Every (line number, start, end, replacement, kind) of `path`."""
    text = (ROOT / path).read_text()
    found = []
    for number, code in code_lines(text):
        # Not `->`, shifts, `<<=` or `>>=`.
        for m in re.finditer(r"(?<![<>=!&|+\-*/%^])(<=|>=|==|!=|<|>)(?![<>=])", code):
            found.append((number, m.start(1), m.end(1), COMPARISON[m.group(1)], "comparison"))
        for m in re.finditer(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)(?![\w.])|(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)(?=[uUlL]+\b)", code):
            digits = m.group(1) or m.group(2)
            at = m.start(1) if m.group(1) else m.start(2)
            value = int(digits, 16) if digits[:2] in ("0x", "0X") else int(digits)
            for new in (value + 1, value - 1) if value else (value + 1,):
                spelled = hex(new) if digits[:2] in ("0x", "0X") else str(new)
                found.append((number, at, at + len(digits), spelled, "literal"))
        # A binary `+`/`-` (`+=`/`-=` too): after an operand, not doubled.
        for m in re.finditer(r"(?<=[\w)\]])( ?)([+-])(?![+\-=>])|(?<=[\w)\]] )([+-])(?==)", code):
            at = m.start(2) if m.group(2) else m.start(3)
            op = code[at]
            before = code[:at].rstrip()
            if re.search(r"\b(return|case)$", before):
                continue  # a sign
            found.append((number, at, at + 1, "-" if op == "+" else "+", "arithmetic"))
    return found


def all_sites():
    out = []
    for path in runtime_files():
        for site in sites(path):
            out.append((path,) + site)
    return out


def describe(mutant):
    path, number, start, end, new, kind = mutant
    line = (ROOT / path).read_text().split("\n")[number - 1]
    after = line[:start] + new + line[end:]
    return f"{path}:{number}:{start + 1}: {kind}: `{line.strip()}` -> `{after.strip()}`"


def apply(tree, mutant):
    path, number, start, end, new, _ = mutant
    file = tree / path
    lines = file.read_text().split("\n")
    line = lines[number - 1]
    lines[number - 1] = line[:start] + new + line[end:]
    file.write_text("\n".join(lines))


def cargo_test(tree, filters, log):
    env = dict(os.environ)
    env["CARGO_TARGET_DIR"] = str(ROOT / "target" / "mutants")
    env["ICP2C_TEST_TIME_LIMIT"] = "60"
    env.setdefault("CARGO_TERM_COLOR", "never")
    command = ["cargo", "test", "--quiet", "--test", "it", "--lib", "--"] + filters
    with open(log, "w") as out:
        try:
            done = subprocess.run(command, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=3600)
            return done.returncode
        except subprocess.TimeoutExpired:
            return "timeout"


def failures(log):
    text = Path(log).read_text(errors="replace")
    failed = [
        name
        for name in re.findall(r"^(?:test )?(\S+)(?: \.\.\.|) (?:---|) ?FAILED", text, re.M)
        if name != "result:"
    ]
    if failed:
        return failed
    if "error[" in text or "could not compile" in text:
        return ["(the crate does not build)"]
    return ["(see the log)"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--need", type=int, default=18)
    parser.add_argument("--list", action="store_true", help="print the mutants only")
    parser.add_argument(
        "--only",
        type=int,
        action="append",
        metavar="K",
        help="run the K-th mutant alone (1-based; repeatable): rerun a survivor after strengthening the tests",
    )
    args = parser.parse_args()

    every = all_sites()
    rng = random.Random(args.seed)
    chosen = rng.sample(every, min(args.count, len(every)))
    print(f"{len(every)} mutation sites in {len(runtime_files())} C runtime files; seed {args.seed}: {len(chosen)} mutants")
    if args.list:
        for i, mutant in enumerate(chosen, 1):
            print(f"{i:2}. {describe(mutant)}")
        return 0

    scratch = Path(tempfile.mkdtemp(prefix="icp2c-mutants-"))
    tree = scratch / "tree"
    subprocess.run(["git", "worktree", "add", "--quiet", "--detach", str(tree), "HEAD"], cwd=ROOT, check=True)
    killed = 0
    run = [(i, m) for i, m in enumerate(chosen, 1) if not args.only or i in args.only]
    try:
        for i, mutant in run:
            print(f"{i:2}. {describe(mutant)}", flush=True)
            path = mutant[0]
            original = (tree / path).read_text()
            apply(tree, mutant)
            started = time.time()
            log = scratch / f"mutant{i}.log"
            status = 0
            for group in FIRST + [[]]:
                status = cargo_test(tree, group, log)
                if status != 0:
                    break
            seconds = time.time() - started
            if status == 0:
                print(f"    SURVIVED ({seconds:.0f} s)", flush=True)
            else:
                killed += 1
                named = ", ".join(failures(log)[:3])
                print(f"    killed by {named} ({seconds:.0f} s)", flush=True)
            (tree / path).write_text(original)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{killed} of {len(run)} killed (need {args.need})")
    return 0 if killed >= min(args.need, len(run)) else 1


if __name__ == "__main__":
    sys.exit(main())
