#!/usr/bin/env bash
# Fails if a C or C++ file of the project differs from what clang-format
# (.clang-format at the top) makes of it. minimal/micro-max.c is the original,
# byte for byte, and is never formatted.
#   scripts/check-format.sh          # check (what CI runs)
#   scripts/check-format.sh --fix    # rewrite the files in place
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h' | grep -v '^minimal/micro-max\.c$')
if [[ "${1:-}" == --fix ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
clang-format --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted as .clang-format says"
