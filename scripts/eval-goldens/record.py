#!/usr/bin/env python3
"""Records what `terraform console` prints for each expression of a cases file.

Usage: record.py CASES GOLDEN [MODULE_DIR]

Each non-comment line of CASES is one expression, evaluated by
`terraform console` (run in MODULE_DIR, or in an empty folder); GOLDEN gets
one JSON object per line: the expression, whether terraform evaluated it
(exit 0) and what it printed on standard output.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    cases, golden = sys.argv[1], sys.argv[2]
    module = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp()
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null", NO_COLOR="1", TF_IN_AUTOMATION="1")
    out = []
    with open(cases, encoding="utf-8") as f:
        for line in f:
            expr = line.rstrip("\n")
            if not expr.strip() or expr.startswith("#"):
                continue
            p = subprocess.run(
                ["terraform", "console"],
                input=expr + "\n",
                capture_output=True,
                text=True,
                cwd=module,
                env=env,
            )
            ok = p.returncode == 0
            out.append({"expr": expr, "ok": ok, "stdout": p.stdout.rstrip("\n") if ok else ""})
    with open(golden, "w", encoding="utf-8") as f:
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    print(f"{len(out)} cases, {sum(o['ok'] for o in out)} evaluated", file=sys.stderr)


if __name__ == "__main__":
    main()
