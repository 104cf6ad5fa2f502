#!/usr/bin/env bash
# The whole test suite as CI runs it (.ci/run), in two halves, each built once:
#   release:   gcc, -O2 without debug information, -Werror, in build/: every test, the long
#              ones whole;
#   sanitizer: clang with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer, -O2 with
#              line tables (CMakeLists.txt adds them), -Werror,
#              in build-fuzz/: every test binary and test, the fuzz targets and regressions,
#              the long tests on a sample (RULEBOOK_TEST_DIVISOR=10), docs/tutorial.md and the
#              Clusterfk cross-check aside (both only run code the other tests run under the
#              sanitizers; the cross-check is a soundness check, whole in the release half, and
#              its verify alone takes 90 s under ASan).
# It prints the wall time of each phase and, after each half, its slowest tests. Budget and
# labels: docs/contributing.md ("The time budget"). RULEBOOK_JOBS sets the parallelism (2).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${RULEBOOK_JOBS:-2}

timings=()
phase() {
  local name=$1
  shift
  local start=$SECONDS
  echo "== $name"
  local status=0
  "$@" || status=$?
  local took=$((SECONDS - start))
  timings+=("$(printf '%5d s  %s' "$took" "$name")")
  echo "== $name: $took s"
  return "$status"
}
report() {
  local status=$?
  echo "== phases"
  printf '%s\n' "${timings[@]}"
  exit "$status"
}
trap report EXIT
# .ci/run sets the start time before the install check, which then counts as a phase.
if [ -n "${RULEBOOK_SUITE_START:-}" ]; then
  timings+=("$(printf '%5d s  %s' "$(($(date +%s) - RULEBOOK_SUITE_START))" "install check (.ci/install-deps)")")
fi

# Ninja: a target's sources compile while the libraries below it are still building (make
# waits for each library), which keeps both cores busy behind the long PEGTL file.
# Debug information cost a third of each file's compile time; CI reads no core dumps.
release=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG")
phase "release: configure" cmake -G Ninja -S . -B build "${release[@]}" \
  -DRULEBOOK_BUILD_TESTS=ON -DRULEBOOK_BUILD_BENCH=ON -DRULEBOOK_WERROR=ON
phase "release: build" cmake --build build -j "$jobs"
phase "release: tests" ctest --test-dir build -j "$jobs" --output-on-failure
bash tests/slowest.sh build 10

phase "sanitizer: configure" env CC=clang CXX=clang++ cmake -G Ninja -S . -B build-fuzz \
  "${release[@]}" -DRULEBOOK_BUILD_TESTS=ON -DRULEBOOK_FUZZ=ON \
  -DRULEBOOK_BUILD_BENCH=OFF -DRULEBOOK_WERROR=ON
phase "sanitizer: build" cmake --build build-fuzz -j "$jobs"
phase "sanitizer: tests" \
  env RULEBOOK_TEST_DIVISOR=10 ctest --test-dir build-fuzz -j "$jobs" --output-on-failure \
  -E "^docs/tutorial|^cross-check: Clusterfk"
bash tests/slowest.sh build-fuzz 10
