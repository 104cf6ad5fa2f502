#!/usr/bin/env bash
# The editor-grammar test: installs the npm packages pinned in package-lock.json into WORK
# (once; `npm ci` checks their hashes) and tokenizes the shipped rulesets with them.
# Usage: run.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$1
work=$2
here="$source_dir/tests/editors"
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "the editor-grammar test needs '$tool': run .ci/install-deps (it installs Node.js and npm)" >&2
    exit 1
  fi
done
mkdir -p "$work"
if ! cmp -s "$here/package-lock.json" "$work/package-lock.json" || [ ! -d "$work/node_modules/vscode-textmate" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
NODE_PATH="$work/node_modules" exec node "$here/tokenize_test.cjs" "$source_dir"
