#!/usr/bin/env python3
"""Records what `terraform console` prints for each expression of a cases file.

Usage: record.py CASES GOLDEN [MODULE_DIR]

MODULE_DIR may hold inputs.txt: `-var=NAME=VALUE` and `-var-file=FILE`
lines passed to terraform, `TF_VAR_NAME=VALUE` lines set in its environment.

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
    args = ["terraform", "console"]
    inputs = os.path.join(module, "inputs.txt")
    if os.path.exists(inputs):
        # -var=NAME=VALUE and -var-file=FILE lines go to terraform as they
        # are; TF_VAR_NAME=VALUE lines into its environment.
        for line in open(inputs, encoding="utf-8").read().splitlines():
            if line.startswith("TF_VAR_"):
                k, v = line.split("=", 1)
                env[k] = v
            elif line:
                args.append(line)
    out = []
    with open(cases, encoding="utf-8") as f:
        for line in f:
            expr = line.rstrip("\n")
            if not expr.strip() or expr.startswith("#"):
                continue
            p = subprocess.run(
                args,
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
