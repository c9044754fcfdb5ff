#!/bin/sh
# Prints "valid" or "invalid" for each JSON file given, as terraform's JSON
# parser judges it: the file is loaded as main.tf.json by `terraform
# console`, and it is invalid when terraform reports one of the JSON
# parser's own errors (errors about the configuration's meaning, such as an
# unknown block type, do not count: they are not syntax).
#
#   scripts/json-validity/check.sh fixtures/json/ok/*.json fixtures/json/err/*.json
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
syntax='Invalid JSON|Missing JSON value|Missing array element value|Missing value|Invalid start of value|Invalid object property name|Missing object value|Missing property value colon|Trailing comma in|Unclosed object|Mismatched br|Missing attribute seperator comma|Invalid array value|Extraneous data after value|Root value must be object'
for f in "$@"; do
  cp "$f" "$dir/main.tf.json"
  out=$(cd "$dir" && echo 1 | TF_CLI_CONFIG_FILE=/dev/null NO_COLOR=1 terraform console 2>&1)
  if printf '%s' "$out" | grep -Eq "$syntax"; then
    echo "invalid $f"
  else
    echo "valid   $f"
  fi
done
