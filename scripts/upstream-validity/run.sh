#!/usr/bin/env bash
# Differential validity check against the upstream parser.
#
# `terraform fmt` refuses input with syntax errors, so it tells whether the
# upstream parser accepts a file. This script generates random HCL snippets
# (many mutated to be invalid) and reports every file where hclwright's
# verdict (`hclwright check`) differs from terraform's.
#
#   scripts/upstream-validity/run.sh [SEED] [COUNT]
#
# Needs `terraform` on PATH and a release build (`cargo build --release`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seed=${1:-1}
count=${2:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/cases"
(cd "$work" && python3 "$here/generate.py" "$seed" "$count")
# Hand-written edge cases, one per line (printf escapes).
i=0
while IFS= read -r line; do
    i=$((i + 1))
    printf '%b' "$line" > "$work/cases/edge$(printf %03d $i).tf"
done < "$here/edge-cases.txt"
mismatches=0
for f in "$work"/cases/*.tf; do
    if terraform fmt -write=false -list=false "$f" >/dev/null 2>&1; then t=valid; else t=invalid; fi
    if "$root/target/release/hclwright" check -q "$f" >/dev/null 2>&1; then o=valid; else o=invalid; fi
    if [[ "$t" != "$o" ]]; then
        mismatches=$((mismatches + 1))
        echo "== $(basename "$f"): terraform says $t, hclwright says $o"
        cat "$f"
    fi
done
echo "$(ls "$work/cases" | wc -l) cases, $mismatches mismatches"
[[ $mismatches -eq 0 ]]
