#!/usr/bin/env bash
# The test command: install what is missing, check the format, build
# everything, build the docs, run the suite (a few minutes on two cores).
#   scripts/test.sh
# CI (.ci/run) runs this, then scripts/ci-extra.sh: the hidden [.slow] cases,
# the suite built with AddressSanitizer + UBSan, and a short fuzz pass.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-format.sh  # .clang-format; scripts/check-format.sh --fix applies it
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
# The Doxygen walkthrough; any warning fails it. Its own programs (the page
# generator, the worked examples' recorder) compile in parallel too.
cmake --build build --target docs -j "$(nproc)"
# One test more than cores: the match tests mostly wait on their clocks.
(cd build && ctest -j "$(( $(nproc) + 1 ))" --output-on-failure --timeout 900)
