#!/bin/sh
# Time and peak memory of each command on large and token-dense files,
# measured with /usr/bin/time, as ratios to the input's size and to
# `check` on the same file: the numbers of issues "speed and memory" and
# "hardening", reproducible on any machine.
#
#   scripts/bench-memory/run.sh [CORPUS]      (default: ../shared/corpus)
#
# Inputs, written to a temporary folder:
#   corpus.tf   every .tf file of CORPUS, each followed by a newline,
#               three times over (about 9.4 MB)
#   dense.tf    `a = [1,1,1,…]` on one line (10 MB, 10 million tokens)
#   attrs.tf    one million attributes `aN = N` (about 17 MB)
#   aligned.tf  the same attributes with their `=` aligned, as `fmt`
#               leaves them (`a0      = 0`, about 18 MB); its last
#               command adds a name longer than all, which realigns
#               every line
# The release binary is built first.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${1:-$here/../shared/corpus}
cargo build --quiet --release --manifest-path "$here/Cargo.toml"
bin=$here/target/release/hclwright
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ -d "$corpus" ]; then
  find "$corpus" -name '*.tf' | sort | while read -r f; do cat "$f"; echo; done > "$dir/one.tf"
  cat "$dir/one.tf" "$dir/one.tf" "$dir/one.tf" > "$dir/corpus.tf"
  rm "$dir/one.tf"
fi
python3 -c "print('a = ['+'1,'*5_000_000+']')" > "$dir/dense.tf"
python3 -c "print(''.join(f'a{i} = {i}\n' for i in range(1_000_000)), end='')" > "$dir/attrs.tf"
python3 -c "print(''.join(f'{\"a\" + str(i):<7} = {i}\n' for i in range(1_000_000)), end='')" > "$dir/aligned.tf"

measure() { # FILE ARGS… -> "seconds kilobytes"
  file=$1; shift
  /usr/bin/time -f '%e %M' -o "$dir/time" "$bin" "$@" < /dev/null > /dev/null 2>&1 || true
  tail -n 1 "$dir/time"
}

printf '%-10s %-30s %8s %9s %9s %10s\n' file command seconds peak_MB x_input x_check
for name in corpus dense attrs aligned; do
  file=$dir/$name.tf
  [ -f "$file" ] || continue
  size=$(wc -c < "$file")
  check_s=
  # `fmt -write=false -list=false` formats and prints the result (to
  # /dev/null), as `fmt` does when it writes, without changing the file.
  # The attribute the edits look at: one in the middle of the million.
  target=a
  case $name in attrs | aligned) target=a500000 ;; esac
  cmds="check
fmt -check
fmt --profile hclfmt -check
fmt -write=false -list=false
get $target
set zz_new 7
set $target 9
rm $target
rename var.x var.y"
  [ "$name" = aligned ] && cmds="$cmds
set a_name_longer_than_all 1"
  while IFS= read -r cmd; do
    # shellcheck disable=SC2086
    set -- $cmd
    result=$(cd "$dir" && measure "$file" "$@" "$name.tf")
    secs=${result% *}
    kb=${result#* }
    [ -n "$check_s" ] || check_s=$secs
    awk -v f="$name.tf" -v c="$cmd" -v s="$secs" -v k="$kb" -v n="$size" -v base="$check_s" 'BEGIN {
      ratio = (base > 0) ? s / base : 0
      printf "%-10s %-30s %8.2f %9.1f %9.1f %10.1f\n", f, c, s, k / 1000, k * 1000 / n, ratio
    }'
  done <<EOF
$cmds
EOF
done
