#!/usr/bin/env bash
# The slowest tests of a build folder's last ctest run, slowest first, with their seconds:
#   bash tests/slowest.sh [BUILD_FOLDER] [COUNT]        (defaults: build, 15)
# It reads the times ctest keeps (Testing/Temporary/CTestCostData.txt: a test's name, its
# number of runs and its average seconds). docs/contributing.md says the budget they are
# held to.
set -euo pipefail
build=${1:-build}
count=${2:-15}
costs="$build/Testing/Temporary/CTestCostData.txt"
if [ ! -f "$costs" ]; then
  echo "slowest.sh: no test times in $build (run ctest there first)" >&2
  exit 2
fi
case "$count" in
  '' | *[!0-9]*)
    echo "slowest.sh: COUNT must be a whole number, not '$count'" >&2
    exit 2
    ;;
esac
# Lines up to '---' are "NAME RUNS SECONDS"; the name may hold spaces.
# The count is taken by awk, which reads to the end: `head` would close the pipe early, and
# sort, writing more than a pipe holds (600 long test names), would die of SIGPIPE, which
# pipefail makes this script's exit status (141) and the suite's.
awk '/^---$/ { exit } NF >= 3 { seconds = $NF; $NF = ""; $(NF - 1) = ""; sub(/ +$/, ""); printf "%8.1f s  %s\n", seconds, $0 }' "$costs" |
  sort -rn | awk -v count="$count" 'NR <= count'
