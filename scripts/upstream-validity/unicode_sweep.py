#!/usr/bin/env python3
"""Identifier characters: hclwright against the upstream parser.

Writes one attribute per code point (every code point from U+0080 to
U+3FFFF and U+E0000 to U+E0FFF whose general category could make it an
identifier character, 248 931 of them), in files of 200 lines, with the
character in four places: at the start of a name (`start`), after a letter
(`cont`), inside a name (`mid`) and in a traversal (`trav`: `x.a<c>`).
`terraform fmt` (the reference) and `hclwright check` each report the lines
they reject; every line on which they differ is printed.

    cargo build --release
    python3 scripts/upstream-validity/unicode_sweep.py [start cont mid trav]

Needs `terraform` on PATH. Exits non-zero on any difference. About two
minutes per place on a 2-core machine.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OURS = os.path.join(ROOT, "target", "release", "hclwright")
ENV = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", CHECKPOINT_DISABLE="1")
LINES_PER_FILE = 200
# Categories that hold identifier characters in some Unicode version (Cn:
# unassigned in this Python's tables, maybe assigned since), and the
# Other_ID_Start / Other_ID_Continue characters and a few of note.
CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Mn", "Mc", "Nd", "Pc", "No", "Cn"}
EXTRA = {0x1885, 0x1886, 0x2118, 0x212E, 0x309B, 0x309C, 0xB7, 0x387, 0x19DA,
         0x200C, 0x200D, 0x30FB, 0xFF65, 0xA0, 0x2E2F, 0xFEFF} | set(range(0x1369, 0x1372))
CODE_POINTS = [
    c for c in list(range(0x80, 0x40000)) + list(range(0xE0000, 0xE1000))
    if not 0xD800 <= c <= 0xDFFF and c not in (0x85, 0x2028, 0x2029)
    and (c in EXTRA or unicodedata.category(chr(c)) in CATEGORIES)
]
PLACES = {
    "start": lambda i, c: "%sk%d = 1\n" % (c, i),
    "cont": lambda i, c: "k%d%s = 1\n" % (i, c),
    "mid": lambda i, c: "k%d%sz = 1\n" % (i, c),
    "trav": lambda i, c: "k%d = x.a%s\n" % (i, c),
}


def terraform_rejects(folder):
    """{file number: set of rejected line numbers}, from one terraform run."""
    run = subprocess.run(["terraform", "fmt", "-no-color", "-check", "-list=false", folder],
                         env=ENV, capture_output=True)
    rejected = {}
    for block in re.split(r"^Error: ", run.stderr.decode("utf-8", "replace"), flags=re.M)[1:]:
        at = re.search(r"^  on (?:\S*/)?f(\d+)\.tf line (\d+)", block, re.M)
        if not at:
            sys.exit("cannot tell where terraform's error is:\n" + block[:300])
        rejected.setdefault(int(at.group(1)), set()).add(int(at.group(2)))
    return rejected


def ours_rejects(path):
    run = subprocess.run([OURS, "check", path], capture_output=True)
    out = (run.stdout + run.stderr).decode("utf-8", "replace")
    return {int(n) for n in re.findall("^" + re.escape(path) + r":(\d+):\d+:", out, re.M)}


def sweep(place):
    folder = tempfile.mkdtemp(prefix="unicode-sweep-")
    try:
        chunks = [CODE_POINTS[i:i + LINES_PER_FILE]
                  for i in range(0, len(CODE_POINTS), LINES_PER_FILE)]
        for k, chunk in enumerate(chunks):
            with open(os.path.join(folder, "f%d.tf" % k), "w", encoding="utf-8") as f:
                f.write("".join(PLACES[place](i, chr(c)) for i, c in enumerate(chunk)))
        theirs = terraform_rejects(folder)
        differences = 0
        for k, chunk in enumerate(chunks):
            ours = ours_rejects(os.path.join(folder, "f%d.tf" % k))
            for i, c in enumerate(chunk):
                upstream, we = (i + 1) in theirs.get(k, set()), (i + 1) in ours
                if upstream != we:
                    differences += 1
                    who = "upstream" if upstream else "hclwright"
                    print("%s U+%04X: only %s rejects it" % (place, c, who))
        print("%s: %d code points, %d differences" % (place, len(CODE_POINTS), differences))
        return differences
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    places = sys.argv[1:] or list(PLACES)
    if not os.path.exists(OURS):
        sys.exit("build first: cargo build --release")
    sys.exit(1 if sum(sweep(p) for p in places) else 0)


if __name__ == "__main__":
    main()
