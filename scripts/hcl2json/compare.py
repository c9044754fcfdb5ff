#!/usr/bin/env python3
"""Compares `hclwright convert --to json` with hcl2json on every file of a
folder: the same JSON value, or both refusing the file.

Usage: compare.py DIR [HCLWRIGHT_BINARY]

Needs node and `npm install` run once in this folder (it installs the npm
build of hcl2json, @cdktf/hcl2json).
"""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = sys.argv[1]
binary = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "..", "target", "release", "hclwright")
files = []
for d, _, names in os.walk(root):
    for n in names:
        if n.endswith((".tf", ".hcl", ".tfvars", ".nomad")):
            files.append(os.path.abspath(os.path.join(d, n)))
files.sort()
ref = subprocess.run(["node", os.path.join(here, "reference.js")], input="\n".join(files), capture_output=True, text=True, cwd=here)
theirs = {}
for line in ref.stdout.splitlines():
    o = json.loads(line)
    theirs[o["file"]] = o
same = differ = 0
for f in files:
    p = subprocess.run([binary, "convert", "--to", "json", f], capture_output=True, text=True)
    ours_ok = p.returncode == 0
    t = theirs.get(f, {"ok": False})
    if ours_ok and t["ok"]:
        if json.loads(p.stdout) == t["json"]:
            same += 1
        else:
            differ += 1
            print("DIFF", f)
    elif ours_ok == t["ok"]:
        same += 1
    else:
        differ += 1
        print("VERDICT", f, "ours" if ours_ok else "theirs", "accepted")
print(f"{same} of {len(files)} the same, {differ} differ", file=sys.stderr)
sys.exit(1 if differ else 0)
