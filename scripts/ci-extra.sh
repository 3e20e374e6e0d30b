#!/usr/bin/env bash
# What CI runs after the test command (scripts/test.sh, whose build/ it reuses):
#  1. the hidden [.slow] cases of the suite and the 1 s per move match
#     (CTest configuration `slow`);
#  2. the suite again, everything built with AddressSanitizer + UBSan
#     (preset `sanitize`, build-asan/);
#  3. a short pass of each libFuzzer target (preset `fuzz`, clang, build-fuzz/),
#     which first replays every committed corpus file;
#  4. the web edition (scripts/web.sh installs emscripten, chromium and the
#     imgui sources, builds build-web/site/) and its browser tests, and the
#     suite's [.browser] cases (the course pages in Chromium).
#   scripts/ci-extra.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Two at a time: the 1 s per move game (up to 300 s) mostly waits for one
# engine at a time, beside the [.slow] cases on the other core.
(cd build && ctest -C slow -L slow -j 2 --output-on-failure)
cmake --preset sanitize
cmake --build --preset sanitize -j "$(nproc)"
# One test more than cores, as in scripts/test.sh: some tests wait on pipes.
ctest --preset sanitize -j "$(( $(nproc) + 1 ))"
cmake --preset fuzz
cmake --build --preset fuzz -j "$(nproc)"
fuzz/run.sh ci 45
scripts/web.sh
tests/web/run.sh
build/bin/umax-tests "[.browser]"
