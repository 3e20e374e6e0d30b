#!/usr/bin/env bash
# The benchmark table: every speed figure of the project, measured in one run.
#   scripts/bench.sh [BIN_DIR] [--big] [--page]   (or: cmake --build build --target bench / bench-big)
# 1. readable vs minimal on the same searches (umax-bench: node counts asserted equal)
# 2. traced vs untraced (and where the cost goes: hooks, recorder, file), bytes per event, trace open / seek / call-tree times (umax-trace-bench)
# 3. the visualizer's load and frame times on a 9.2M-node trace (umax-viz --bench)
# 4. with --big: the original's own think after 1. e4 (budget 10,000,000: 72.6M nodes,
#    a 1.5 GB trace in $TMPDIR, removed afterwards): record time and peak memory, the
#    first headless frame at three events, and umax-viz --bench while it indexes
# With --page the output is also written into docs/pages/29-figures.md, the docs'
# figures page: the project's figures are this script's output, never typed by hand.
set -euo pipefail
big=0
page=0
args=()
for arg in "$@"; do
  case "$arg" in
    --big) big=1 ;;
    --page) page=1 ;;
    *) args+=("$arg") ;;
  esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ "$page" == 1 ]]; then
  out="$(mktemp)"
  # Run the measurement once more without --page, its output kept for the page.
  bash "$0" "${args[@]}" $([[ "$big" == 1 ]] && echo --big) | tee "$out"
  {
    echo '# Figures: what the benchmarks measured {#page_figures}'
    echo
    echo 'This page is written by `scripts/bench.sh --page` (add `--big` for the original'"'"'s'
    echo 'own 72.6M-node think): every figure below is that script'"'"'s output from one run,'
    echo 'copied here unedited, so none is typed by hand. Each ratio compares two things measured'
    echo 'in the same run on the same machine; the machine'"'"'s load at the start is on the first line.'
    echo 'Goals: the readable build at least 1.25x the original'"'"'s nodes per second (section 1),'
    echo 'tracing at most 1.15x the untraced CPU (section 2), the visualizer at 60 frames per'
    echo 'second or better while scrubbing (section 3). \ref page_performance explains where the'
    echo 'time goes and what each speed change gave.'
    echo 'The last lines of section 2 keep the reader'"'"'s CRC checks on first decoding in place:'
    echo 'the big trace opened and sought with every CRC checked at open and with each chunk'"'"'s'
    echo 'checked when first decoded, in the page cache and out of it.'
    echo
    echo "Run at $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)."
    echo
    echo '~~~'
    cat "$out"
    echo '~~~'
  } > "$root/docs/pages/29-figures.md"
  rm -f "$out"
  echo "bench.sh: wrote docs/pages/29-figures.md"
  exit 0
fi
bin="${args[0]:-$(dirname "$0")/../build/bin}"
viz=("$bin/umax-viz")  # under a virtual display when there is no real one
[[ -n "${DISPLAY:-}" ]] || viz=(xvfb-run -a -s "-screen 0 1280x800x24" "$bin/umax-viz")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== 1. readable vs minimal (umax-bench)"
"$bin/umax-bench"
echo
echo "== 2. tracing (umax-trace-bench)"
# Each side of a ratio is the fastest of three runs: a run the machine interrupted does not count.
"$bin/umax-trace-bench" --nodes 1000000 --rounds 3
if [[ -x "$bin/umax-viz" ]]; then
  echo
  echo "== 3. visualizer (umax-viz --bench 600) on the 9.2M-node trace after 1. e4"
  trace="$(mktemp --suffix=.trc)"
  trap 'rm -f "$trace"' EXIT
  "$bin/umax-trace" record --moves e2e4 --nodes 1000000 -o "$trace" -q
  "${viz[@]}" "$trace" --bench 600 --wait-for-indexes
  rm -f "$trace"
fi
if [[ "$big" == 1 ]]; then
  echo
  echo "== 4. the original's own think after 1. e4 (budget 10,000,000), traced and opened"
  trace="$(mktemp --suffix=.trc)"
  shot="$(mktemp --suffix=.png)"
  trap 'rm -f "$trace" "$shot"' EXIT
  /usr/bin/time -f "record: %e s wall, %U s user, %S s system, peak RSS %M KB" \
    "$bin/umax-trace" record --moves e2e4 --nodes 10000000 -o "$trace" -q
  events="$("$bin/umax-trace" info "$trace" | awk '$1 == "events" { print $2 }')"
  echo "trace: $(stat -c %s "$trace") bytes, $events events"
  if [[ -x "$bin/umax-viz" ]]; then
    for event in 0 $((events / 2)) $((events - 1)); do
      /usr/bin/time -f "first frame at event $event (headless screenshot, whole process): %e s, peak RSS %M KB" \
        "${viz[@]}" "$trace" --event "$event" --screenshot "$shot" > /dev/null
    done
    # Scrubbing while the indexes build in the background; their times print at the end.
    /usr/bin/time -f "umax-viz --bench 600: %e s wall, peak RSS %M KB" "${viz[@]}" "$trace" --bench 600
  fi
fi
