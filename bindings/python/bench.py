"""hclwright against python-hcl2 on the shared corpus (a timing, not a test).

    python3 -m venv /tmp/v && /tmp/v/bin/pip install ./bindings/python python-hcl2
    HCLWRIGHT_CORPUS=../shared/corpus /tmp/v/bin/python bindings/python/bench.py

1. Reading every file into Python values: ``hclwright.to_json`` vs
   ``hcl2.loads`` (the files both parse).
2. One edit-and-write round per file: hclwright's ``Document`` (parse, set
   an attribute, ``str``) vs python-hcl2's closest path (``hcl2.loads``,
   change the dict, ``hcl2.writes(hcl2.reverse_transform(...))`` where the
   installed version has them; it loses comments and layout).

Each side is timed over the same files, best of ``--rounds`` runs.
"""

import argparse
import os
import pathlib
import sys
import time

import hcl2

import hclwright


def corpus_files(root):
    out = []
    for p in sorted(pathlib.Path(root).rglob("*")):
        if p.is_file() and p.suffix in (".tf", ".tfvars", ".hcl"):
            try:
                out.append(p.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, OSError):
                pass
    return out


def best(fn, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    root = os.environ.get("HCLWRIGHT_CORPUS")
    if not root:
        sys.exit("set HCLWRIGHT_CORPUS to the corpus folder")
    texts = corpus_files(root)
    both = []
    for t in texts:
        try:
            hclwright.to_json(t)
            hcl2.loads(t)
        except Exception:
            continue
        both.append(t)
    size = sum(len(t) for t in both)
    print(f"{len(both)} files ({size / 1e6:.1f} MB) that both libraries read")

    ours = best(lambda: [hclwright.to_json(t) for t in both], args.rounds)
    theirs = best(lambda: [hcl2.loads(t) for t in both], args.rounds)
    print(f"read:  hclwright.to_json {ours:.3f}s  hcl2.loads {theirs:.3f}s  "
          f"ratio {theirs / ours:.0f}x")

    def edit_ours():
        for t in written:
            doc = hclwright.Document(t)
            doc.set("hclwright_bench", "1")
            str(doc)

    # python-hcl2 8 writes a dict with `dumps`; 5 to 7 with
    # `writes(reverse_transform(d))`.
    if hasattr(hcl2, "dumps"):
        write, what = hcl2.dumps, "loads+dumps"
    elif hasattr(hcl2, "writes") and hasattr(hcl2, "reverse_transform"):
        write = lambda d: hcl2.writes(hcl2.reverse_transform(d))  # noqa: E731
        what = "loads+reverse_transform+writes"
    else:
        write, what = None, "loads only (no writer)"
    written = []
    for t in both:
        try:
            d = hcl2.loads(t)
            if write:
                write(d)
            written.append(t)
        except Exception:
            pass

    def edit_theirs():
        for t in written:
            d = hcl2.loads(t)
            d["hclwright_bench"] = 1
            if write:
                write(d)

    ours = best(edit_ours, args.rounds)
    theirs = best(edit_theirs, args.rounds)
    print(f"({len(written)} files that python-hcl2 also writes back)")
    print(f"edit:  hclwright.Document {ours:.3f}s  hcl2 {what} {theirs:.3f}s  "
          f"ratio {theirs / ours:.0f}x")


if __name__ == "__main__":
    main()
