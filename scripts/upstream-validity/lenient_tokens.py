#!/usr/bin/env python3
"""Lenient formatting of token runs against upstream hclwrite.Format.

hclwrite.Format lays out any token sequence, valid or not. This script
makes invalid and valid inputs — the snippets of generate.py (many mutated
into invalid input) and random runs of tokens — and checks that
`hclwright fmt --lenient -` (bodies) and the reference formatter
(`../shared/oracle/hclfmt.js`, installed with `npm install` there) print
the same bytes. Inputs with `::` are left out (the packaged oracle
predates that token).

    cargo build --release
    python3 scripts/upstream-validity/lenient_tokens.py [SEED] [COUNT] [ORACLE_JS]

Prints each disagreement and exits non-zero if there is any.
"""

import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HCLWRIGHT = os.path.join(ROOT, "target", "release", "hclwright")
TOKENS = [
    "a", "b", "var", "x", "1", "2.5", "\"s\"", "\"${a}\"", "(", ")", "[", "]", "{", "}",
    ",", "=", ".", ":", "?", "...", "=>", "+", "-", "*", "/", "%", "!", "==", "&&", "||",
    "<", ">=", "for", "in", "if", "${", "%{", "}", "#c", "// c", "/* c */", "\n", "\n",
    "\n", " ", "  ", "\t", "<<EOT\nx\nEOT\n", "\"unterminated", "~", "@", "\\",
]


def token_run(rng):
    return "".join(
        rng.choice(TOKENS) + rng.choice(["", "", " "]) for _ in range(rng.randint(1, 30))
    )


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    oracle = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "..", "shared", "oracle", "hclfmt.js")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as work:
        cases = os.path.join(work, "cases")
        os.makedirs(cases)
        subprocess.run(
            [sys.executable, os.path.join(HERE, "generate.py"), str(seed), str(count)],
            cwd=work, check=True, capture_output=True,
        )
        for n in range(count):
            with open(os.path.join(cases, f"run{n:05}.tf"), "w", newline="") as f:
                f.write(token_run(rng))
        names = sorted(
            n for n in os.listdir(cases)
            if "::" not in open(os.path.join(cases, n), encoding="utf-8").read()
        )
        out = os.path.join(work, "oracle")
        subprocess.run(
            ["node", oracle, cases, out], input="\n".join(names).encode(),
            check=True, capture_output=True,
        )
        mismatches = 0
        for name in names:
            text = open(os.path.join(cases, name), "rb").read()
            want = open(os.path.join(out, name), "rb").read()
            got = subprocess.run(
                [HCLWRIGHT, "fmt", "--lenient", "--profile", "hclfmt", "-"],
                input=text, capture_output=True,
            )
            if got.returncode != 0 or got.stdout != want:
                mismatches += 1
                print(f"== {name}: exit {got.returncode}\n-- input\n{text!r}\n-- oracle\n{want!r}\n-- hclwright\n{got.stdout!r}")
        print(f"{len(names)} cases, {mismatches} mismatches")
        sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
