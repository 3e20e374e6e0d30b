#!/usr/bin/env bash
# The test command: install what is missing, build everything, run every test.
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
cmake --build build --target docs  # the Doxygen walkthrough; any warning fails it
cd build
ctest -j "$(nproc)" --output-on-failure --timeout 900
