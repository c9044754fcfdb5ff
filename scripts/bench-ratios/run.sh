#!/usr/bin/env bash
# The three ratios of the speed and memory targets, measured in one run on
# this machine, with the CPU they come from:
#
#   1. parse speed against the `hcl-edit` crate (target: at least 3x),
#      from the `compare/` crate (median of its alternating rounds), built
#      as a program depending on both crates is by default (`--release`:
#      cargo's defaults) and, a second figure, with fat LTO and one codegen
#      unit (`--profile lto`);
#   2. `hclwright fmt -check -recursive -list=false .` against `terraform
#      fmt -check -recursive -list=false .` as whole processes on a copy of
#      the terraform goldens (target: at least 100x): the two tools run
#      one after the other RUNS times, each run timed on its own (bash's
#      EPOCHREALTIME, microseconds, no process started to read the clock),
#      and the ratio is that of the medians, so that a burst of load on a
#      shared machine moves one run, not the result;
#   3. peak resident memory of `check`, `fmt -check`, `fmt` (writing its
#      result) and `set` on the corpus's `.tf` files concatenated three
#      times over (about 9.4 MB), as a multiple of the input's size
#      (target: at most 8x), from /usr/bin/time.
#
#   scripts/bench-ratios/run.sh [SHARED] [RUNS]   (default: ../shared, 11)
#
# With HCLWRIGHT_SECOND_SET=DIR, ratio 1 is measured on that folder of
# real-world files too, and with DIR1:DIR2:… on each of them
# (docs/benchmarks.md names the sets measured and the commits to clone).
#
# Ratio 2 needs `terraform` on the PATH and is skipped with a note
# without it; ratios 1 and 2 need SHARED (the corpus and the goldens).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=${1:-$here/../shared}
runs=${2:-11}
corpus=$shared/corpus
goldens=$shared/golden/terraform
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cargo build --quiet --release --manifest-path "$here/Cargo.toml"
bin=$here/target/release/hclwright
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "machine: ${cpu:-unknown CPU}, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

parse=
parse_lto=
# The first verdict of a report of hclwright-compare (the user's path:
# parse and drop, system allocator): "… median of the rounds' ratios 3.01x (range …".
first_median() { sed -n "s/.*median of the rounds' ratios \([0-9.]*\)x.*/\1/p" "$1" | head -n 1; }
if [ -d "$corpus" ]; then
  cargo build --quiet --release --manifest-path "$here/compare/Cargo.toml" --bin hclwright-compare
  cargo build --quiet --profile lto --manifest-path "$here/compare/Cargo.toml" --bin hclwright-compare
  for build in release lto; do
    "$here/compare/target/$build/hclwright-compare" "$corpus" > "$dir/compare-$build.txt"
    echo "parse, $(grep -m 1 '^build: ' "$dir/compare-$build.txt" | cut -c 8-)"
    echo "  corpus (parse and drop, system allocator): $(grep -m 1 'median of the rounds' "$dir/compare-$build.txt")"
    n=0
    IFS=: read -r -a other_sets <<< "${HCLWRIGHT_SECOND_SET:-}"
    for set in "${other_sets[@]}"; do
      [ -d "$set" ] || continue
      n=$((n + 1))
      "$here/compare/target/$build/hclwright-compare" "$set" > "$dir/set$n-$build.txt"
      echo "  $set: $(head -n 1 "$dir/set$n-$build.txt")"
      echo "  there (parse and drop, system allocator): $(grep -m 1 'median of the rounds' "$dir/set$n-$build.txt")"
    done
  done
  parse=$(first_median "$dir/compare-release.txt")
  parse_lto=$(first_median "$dir/compare-lto.txt")
fi

fmt=
if [ -d "$goldens" ] && command -v terraform > /dev/null; then
  cp -r "$goldens" "$dir/tree"
  # Milliseconds since the epoch, from bash's clock (no process started).
  now_ms() { local t=${EPOCHREALTIME/[,.]/}; echo "$((t / 1000)).$(printf '%03d' $((t % 1000)))"; }
  # Runs `fmt -check` of TOOL (ours|theirs) in the current folder and
  # appends its wall time in milliseconds to FILE.
  timed() { # TOOL FILE
    local start end
    start=$(now_ms)
    if [ "$1" = ours ]; then
      "$bin" fmt -check -recursive -list=false . > /dev/null 2>&1 || true
    else
      TF_CLI_CONFIG_FILE=/dev/null terraform fmt -check -recursive -list=false . > /dev/null 2>&1 || true
    fi
    end=$(now_ms)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", e - s }' >> "$2"
  }
  median() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }'; }
  # One warm-up each, then alternating runs; wall clock of whole processes.
  : > "$dir/ours"
  : > "$dir/theirs"
  (
    cd "$dir/tree"
    timed ours /dev/null
    timed theirs /dev/null
    for _ in $(seq "$runs"); do
      timed ours "$dir/ours"
      timed theirs "$dir/theirs"
    done
  )
  ours_ms=$(median "$dir/ours")
  theirs_ms=$(median "$dir/theirs")
  fmt=$(awk -v t="$theirs_ms" -v o="$ours_ms" 'BEGIN { printf "%.0f", t / o }')
  echo "fmt -check: hclwright ${ours_ms} ms, terraform ${theirs_ms} ms (medians of $runs runs side by side; hclwright $(sort -n "$dir/ours" | head -n 1 | cut -d. -f1)-$(sort -n "$dir/ours" | tail -n 1 | cut -d. -f1) ms)"
  # The part of that time no formatter avoids: starting the process,
  # listing the folders, opening and reading the files (the same tree
  # with every file emptied).
  cp -r "$dir/tree" "$dir/empty"
  find "$dir/empty" -type f -exec truncate -s 0 {} +
  : > "$dir/floor"
  (
    cd "$dir/empty"
    for _ in $(seq "$runs"); do
      timed ours "$dir/floor"
    done
  )
  echo "fmt -check: of which $(median "$dir/floor") ms (median) on the same $(find "$dir/empty" -type f | wc -l) files emptied (process, folders, opening and reading)"
elif [ -d "$goldens" ]; then
  echo "fmt -check: skipped, terraform is not on the PATH"
fi

memory=
if [ -d "$corpus" ]; then
  find "$corpus" -name '*.tf' | sort | while read -r f; do cat "$f"; echo; done > "$dir/one.tf"
  cat "$dir/one.tf" "$dir/one.tf" "$dir/one.tf" > "$dir/corpus.tf"
  size=$(wc -c < "$dir/corpus.tf")
  worst=0
  for cmd in "check" "fmt -check" "fmt -write=false -list=false" "set zz_new 7"; do
    # shellcheck disable=SC2086
    set -- $cmd
    (cd "$dir" && /usr/bin/time -f '%M' -o "$dir/kb" "$bin" "$@" corpus.tf > /dev/null 2>&1 || true)
    kb=$(tail -n 1 "$dir/kb")
    ratio=$(awk -v k="$kb" -v n="$size" 'BEGIN { printf "%.1f", k * 1024 / n }')
    echo "memory: $cmd on $(awk -v n="$size" 'BEGIN { printf "%.1f", n / 1e6 }') MB: $(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }') MB peak, ${ratio}x the input"
    worst=$(awk -v a="$worst" -v b="$ratio" 'BEGIN { print (b > a) ? b : a }')
  done
  memory=$worst
fi

verdict() { # VALUE TARGET at-least|at-most
  awk -v v="$1" -v t="$2" -v how="$3" 'BEGIN {
    ok = (how == "at-least") ? (v >= t) : (v <= t)
    print ok ? "met" : "NOT met"
  }'
}
echo
echo "ratios on ${cpu:-this machine}:"
if [ -n "$parse" ]; then
  echo "  parse vs hcl-edit:            ${parse}x (target >= 3x): $(verdict "$parse" 3 at-least)"
  echo "    with fat LTO (--profile lto): ${parse_lto}x: $(verdict "$parse_lto" 3 at-least)"
fi
n=1
while [ -f "$dir/set$n-release.txt" ]; do
  other=$(first_median "$dir/set$n-release.txt")
  other_lto=$(first_median "$dir/set$n-lto.txt")
  # "993 of 995 files (3.15 MB) from DIR parse with both; 21 rounds"
  name=$(sed -n '1s/.* from \(.*\) parse with both.*/\1/p' "$dir/set$n-release.txt")
  echo "  parse vs hcl-edit, $(basename "$name"): ${other}x (target >= 3x): $(verdict "$other" 3 at-least)"
  echo "    with fat LTO (--profile lto): ${other_lto}x: $(verdict "$other_lto" 3 at-least)"
  n=$((n + 1))
done
if [ -n "$fmt" ]; then
  echo "  fmt -check vs terraform fmt:  ${fmt}x (target >= 100x): $(verdict "$fmt" 100 at-least)"
fi
if [ -n "$memory" ]; then
  echo "  peak memory / input (worst):  ${memory}x (target <= 8x): $(verdict "$memory" 8 at-most)"
fi
