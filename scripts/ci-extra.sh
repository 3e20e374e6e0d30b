#!/usr/bin/env bash
# What CI runs after the test command (scripts/test.sh, whose build/ it reuses):
#  1. the hidden [.slow] cases of the suite and the 1 s per move match
#     (CTest configuration `slow`);
#  2. the suite again, everything built with AddressSanitizer + UBSan
#     (preset `sanitize`, build-asan/; built during 1, at the lowest priority);
#  3. a short pass of each libFuzzer target (preset `fuzz`, clang, build-fuzz/),
#     which first replays every committed corpus file;
#  4. the web edition (scripts/web.sh installs emscripten, chromium and the
#     imgui sources, builds build-web/site/) and its browser tests, and the
#     suite's [.browser] cases (the course pages in Chromium), at the same
#     time as 3's fuzzing: each fuzzer runs on one core for a fixed time
#     (45 s a target), so the web stage takes the other cores, at a lower
#     priority so that the fuzzers keep theirs.
#   scripts/ci-extra.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time (the goal for the whole script: 30 minutes on 2 cores).
stage() { printf 'ci-extra: %4d s: %s\n' "$SECONDS" "$*"; }
stage "slow cases and the 1 s per move match, the sanitized build beside them"
# The sanitized tree builds beside the slow stage, which mostly waits on the
# match's clocks: at the lowest priority, so the clocked engines keep their
# CPU; its own process group (stopped whole if the script ends first), its
# output kept in build-asan/build.log and shown if it fails.
cmake --preset sanitize
setsid nice -n 19 cmake --build --preset sanitize -j "$(nproc)" > build-asan/build.log 2>&1 &
asan=$!
trap 'kill -- -"$asan" 2>/dev/null || true' EXIT
# Two at a time: the 1 s per move game (up to 300 s) mostly waits for one
# engine at a time, beside the [.slow] cases on the other core.
(cd build && ctest -C slow -L slow -j 2 --output-on-failure)
stage "sanitized build (what is left of it) and suite"
if ! wait "$asan"; then
  tail -n 60 build-asan/build.log
  echo "ci-extra: the sanitized build failed (build-asan/build.log)" >&2
  exit 1
fi
trap - EXIT
# One test more than cores, as in scripts/test.sh: some tests wait on pipes.
ctest --preset sanitize -j "$(( $(nproc) + 1 ))"
stage "fuzz build, then the fuzz pass beside the web stage"
cmake --preset fuzz
cmake --build --preset fuzz -j "$(nproc)"
setsid -w fuzz/run.sh ci 45 &  # its own process group: stopped whole below
fuzz=$!
# Should the web stage fail, the fuzz pass does not outlive the script.
trap 'kill -- -"$fuzz" 2>/dev/null || true' EXIT
stage "web build and browser tests (the fuzz pass beside them)"
nice -n 10 scripts/web.sh
nice -n 10 tests/web/run.sh
nice -n 10 build/bin/umax-tests "[.browser]"
wait "$fuzz"  # its status: a finding fails the script here
trap - EXIT
stage "done"
