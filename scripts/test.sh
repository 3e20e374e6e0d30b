#!/usr/bin/env bash
# The test command: install what is missing, build everything, run every test.
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-format.sh  # .clang-format; scripts/check-format.sh --fix applies it
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
cmake --build build --target docs  # the Doxygen walkthrough; any warning fails it
(cd build && ctest -j "$(nproc)" --output-on-failure --timeout 900)

# The same suite again, everything built with AddressSanitizer + UBSan
# (preset `sanitize`, build-asan/), then a short pass of each libFuzzer target
# (preset `fuzz`, clang, build-fuzz/). UMAX_SKIP_SANITIZE=1 leaves both out.
if [[ "${UMAX_SKIP_SANITIZE:-0}" != 1 ]]; then
  cmake --preset sanitize
  cmake --build --preset sanitize -j "$(nproc)"
  ctest --preset sanitize -j "$(nproc)"
  cmake --preset fuzz
  cmake --build --preset fuzz -j "$(nproc)"
  fuzz/run.sh ci 45
fi
