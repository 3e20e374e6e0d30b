#!/usr/bin/env bash
# The main command: install what is missing, build, show the two builds
# agreeing on a search, then a traced search in the visualizer (in a window
# with a display; else recorded, summed up and drawn into build/demo.png);
# then, at a terminal, play the readable build.
#   scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"

fen="r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
echo
echo "One search, 200000-node budget, in both builds (position: $fen):"
for engine in minimal readable; do
  printf '  %-9s ' "$engine"
  build/bin/umax-probe --engine "$engine" --fen "$fen" --nodes 200000
done

# With a display: record a traced search and step through it in umax-viz.
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && -x build/bin/umax-viz ]]; then
  echo
  echo "Recording a traced search (1. e4, 50,000-node budget) and opening it in umax-viz."
  echo "Right/Left step, Down steps over a move, Up steps out, Space plays; F1 lists all keys."
  exec build/bin/umax-viz --moves e2e4 --nodes 50000 -o build/demo.trc
fi

# Without a display: record the same traced search, sum it up, and draw one
# frame of umax-viz headless (under xvfb-run) into a PNG to look at.
if [[ -x build/bin/umax-viz ]] && command -v xvfb-run > /dev/null; then
  echo
  echo "No display: recording the traced search (1. e4, 50,000-node budget) into build/demo.trc"
  build/bin/umax-trace record --moves e2e4 --nodes 50000 -q -o build/demo.trc
  build/bin/umax-trace info build/demo.trc | sed -n '1,3p;/^hash-hit-rate/p;/^iteration/p'
  echo "(per iteration of the root: the nodes and calls below the root in that iteration, and their"
  echo " ratio to the iteration before. Iteration 1 counts none: at draft 1 a node searches only moves"
  echo " to the square the last move went to, its z, and the root's z is 8, a marker that is no square.)"
  xvfb-run -a -s "-screen 0 1280x800x24" build/bin/umax-viz build/demo.trc --event 400000 --screenshot build/demo.png
  echo "umax-viz at event 400,000 of that search: build/demo.png"
  echo "On a desktop, step through it with: build/bin/umax-viz build/demo.trc"
fi

if [[ -t 0 && -t 1 ]]; then
  echo
  echo "Now the readable build in the original's interface: type a move like e2e4,"
  echo "an empty line to let it think (10,000,000-node budget), Ctrl-D to stop."
  exec build/bin/umax-readable
fi
