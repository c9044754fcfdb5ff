#!/usr/bin/env bash
# Bumps a provider across a generated tree of .tf files, whole process,
# against a loop of one `hclwright set -u` per file (what a bot scripts
# without `bump`). Prints files per second for each, measured in one run.
#
#   scripts/bench-bump/run.sh [FILES] [LOOP_SAMPLE]
#
# FILES (default 10000) files in FILES/10 folders; the loop runs on the
# first LOOP_SAMPLE (default 500) files only and is reported per file.
set -euo pipefail
files=${1:-10000}
sample=${2:-500}
root=$(cd "$(dirname "$0")/../.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/hclwright"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/tree" "$files" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, f"stack{i // 10:04d}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"versions{i % 10}.tf"), "w") as f:
        f.write(f'''# stack {i}
terraform {{
  required_version = ">= 1.5"
  required_providers {{
    aws = {{
      source  = "hashicorp/aws"
      version = "~> 4.{i % 60}" # pinned by the platform team
    }}
    random = "~> 3.0"
  }}
}}

provider "aws" {{
  region = "eu-west-{1 + i % 3}"
}}

resource "aws_s3_bucket" "b{i}" {{
  bucket = "bucket-{i}"
  tags = {{
    Name  = "b{i}"
    Stack = "{i // 10}"
  }}
}}
''')
PY
cp -r "$work/tree" "$work/loop"

start=$(date +%s.%N)
"$bin" bump provider aws 5.31.0 --keep-operator -r "$work/tree" >/dev/null
end=$(date +%s.%N)
bump=$(echo "$end - $start" | bc -l)

mapfile -t sample_files < <(find "$work/loop" -name '*.tf' | sort | head -n "$sample")
start=$(date +%s.%N)
for f in "${sample_files[@]}"; do
    "$bin" set -u terraform.required_providers.aws.version '"~> 5.31"' "$f" >/dev/null
done
end=$(date +%s.%N)
loop=$(echo "$end - $start" | bc -l)

changed=$(grep -rl '"~> 5.31" # pinned' "$work/tree" | wc -l)
printf 'hclwright bump provider, %d files (%d changed): %.2f s, %.0f files/s\n' "$files" "$changed" "$bump" "$(echo "$files / $bump" | bc -l)"
printf 'loop of hclwright set -u, %d files:          %.2f s, %.0f files/s\n' "${#sample_files[@]}" "$loop" "$(echo "${#sample_files[@]} / $loop" | bc -l)"
printf 'bump is %.1fx the loop per file\n' "$(echo "($files / $bump) / (${#sample_files[@]} / $loop)" | bc -l)"
