#!/usr/bin/env bash
# The benchmark table: every speed figure of the project, measured in one run.
#   scripts/bench.sh [BIN_DIR]      (or: cmake --build build --target bench)
# 1. readable vs minimal on the same searches (umax-bench: node counts asserted equal)
# 2. traced vs untraced, bytes per event, trace open / seek / call-tree times (umax-trace-bench)
# 3. the visualizer's load and frame times on a 9.2M-node trace (umax-viz --bench)
set -euo pipefail
bin="${1:-$(dirname "$0")/../build/bin}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== 1. readable vs minimal (umax-bench)"
"$bin/umax-bench"
echo
echo "== 2. tracing (umax-trace-bench)"
"$bin/umax-trace-bench" --nodes 1000000 --rounds 1
if [[ -x "$bin/umax-viz" ]]; then
  echo
  echo "== 3. visualizer (umax-viz --bench 600) on the 9.2M-node trace after 1. e4"
  trace="$(mktemp --suffix=.trc)"
  trap 'rm -f "$trace"' EXIT
  "$bin/umax-trace" record --moves e2e4 --nodes 1000000 -o "$trace" -q
  if [[ -n "${DISPLAY:-}" ]]; then
    "$bin/umax-viz" "$trace" --bench 600
  else
    xvfb-run -a -s "-screen 0 1280x800x24" "$bin/umax-viz" "$trace" --bench 600
  fi
fi
