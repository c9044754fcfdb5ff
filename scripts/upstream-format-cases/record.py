#!/usr/bin/env python3
"""Records upstream's own formatter test cases as fixtures.

Reads the cases of `TestFormat` in hclwrite/format_test.go (a checkout of
github.com/hashicorp/hcl given as the first argument), writes each input to
fixtures/format/upstream/NN.hcl and the reference formatter's output
(`node ../shared/oracle/hclfmt.js`, upstream hclwrite.Format compiled to
WebAssembly) to NN.golden. The packaged oracle predates the `::` token of
provider-defined functions: for the inputs with `::` the golden is the
`want` of the test file itself (a newer hclwrite), and the script says so.

    python3 scripts/upstream-format-cases/record.py PATH/TO/hcl [ORACLE_JS]
"""

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(REPO, "fixtures", "format", "upstream")
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def go_strings(body):
    """The Go string literals of `body`, in order (comments skipped)."""
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "`":
            j = body.index("`", i + 1)
            out.append(body[i + 1 : j])
            i = j + 1
        elif c == '"':
            j, text = i + 1, ""
            while body[j] != '"':
                if body[j] == "\\":
                    n = body[j + 1]
                    if n in ESCAPES:
                        text += ESCAPES[n]
                        j += 2
                    elif n == "x":
                        text += chr(int(body[j + 2 : j + 4], 16))
                        j += 4
                    elif n == "u":
                        text += chr(int(body[j + 2 : j + 6], 16))
                        j += 6
                    else:
                        raise ValueError(body[j : j + 6])
                else:
                    text += body[j]
                    j += 1
            out.append(text)
            i = j + 1
        elif body.startswith("//", i):
            i = body.index("\n", i)
        else:
            i += 1
    return out


def main():
    hcl = sys.argv[1]
    oracle = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "..", "shared", "oracle", "hclfmt.js")
    src = open(os.path.join(hcl, "hclwrite", "format_test.go"), encoding="utf-8").read()
    start = src.index("func TestFormat(")
    body = src[start : src.index("\nfunc ", start + 10)]
    body = body[: body.index("t.Run(")]
    strings = go_strings(body)
    cases = list(zip(strings[0::2], strings[1::2]))
    os.makedirs(OUT, exist_ok=True)
    for n, (given, want) in enumerate(cases):
        name = os.path.join(OUT, f"{n:02}")
        with open(name + ".hcl", "w", encoding="utf-8", newline="") as f:
            f.write(given)
        if "::" in given:
            golden = want
            print(f"{n:02}: `::` — golden from the test file's want")
        else:
            golden = subprocess.run(
                ["node", oracle], input=given.encode(), capture_output=True, check=True
            ).stdout.decode()
            if golden != want:
                print(f"{n:02}: the oracle differs from the test file's want: {json.dumps(golden)}")
        with open(name + ".golden", "w", encoding="utf-8", newline="") as f:
            f.write(golden)
    print(f"{len(cases)} cases in {OUT}")


if __name__ == "__main__":
    main()
