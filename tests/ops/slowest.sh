#!/usr/bin/env bash
# tests/slowest.sh on a build folder whose ctest times hold 600 long test names (as the
# suite's do): every run exits 0 and prints the COUNT slowest, slowest first. With `head` at
# the end of its pipe, sort died of SIGPIPE in about three runs of four and failed the suite.
#   bash tests/ops/slowest.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/Testing/Temporary"
costs="$scratch/Testing/Temporary/CTestCostData.txt"
for i in $(seq 1 600); do
  printf 'a test case whose name is as long as the suite'"'"'s longest ones are, number %d 1 %d.5\n' "$i" "$i"
done > "$costs"
echo "---" >> "$costs"
echo "a failed test" >> "$costs"
for run in $(seq 1 20); do
  out=$(bash "$source_dir/tests/slowest.sh" "$scratch" 10) || {
    echo "run $run: tests/slowest.sh exited $?" >&2
    exit 1
  }
  lines=$(printf '%s\n' "$out" | wc -l)
  if [ "$lines" -ne 10 ]; then
    echo "run $run: $lines lines, not 10:" >&2
    printf '%s\n' "$out" >&2
    exit 1
  fi
  # The first line by expansion, not `| head -n 1`: bash writes printf's output line by line,
  # head may exit after the first, and printf's SIGPIPE then failed this test (pipefail).
  first=${out%%$'\n'*}
  case "$first" in
    *"600.5 s  a test case whose name"*"number 600") ;;
    *)
      echo "run $run: the slowest is not first: $first" >&2
      exit 1
      ;;
  esac
done
# A count that is not a whole number is refused with exit 2.
if bash "$source_dir/tests/slowest.sh" "$scratch" ten 2> "$scratch/err"; then
  echo "COUNT 'ten' was taken" >&2
  exit 1
fi
grep -q "COUNT must be a whole number" "$scratch/err"
echo "tests/slowest.sh: 20 runs, 10 lines each, slowest first"
