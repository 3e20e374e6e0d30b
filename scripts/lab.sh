#!/usr/bin/env bash
# The Lab's figures: what each idea of micro-Max's search buys (issue 38).
#   scripts/lab.sh [BUILD_DIR] [--page]
# Builds umax-lab and runs it: nodes and CPU time to depth on the 24
# Bratko-Kopec positions for the whole search, each idea off, all off and
# alpha-beta alone; Win At Chess positions solved at a node budget; games of
# the whole search against each idea's variant. Progress goes to stderr, the
# report to stdout. With --page it also writes the docs page
# docs/pages/31-lab.md and its plot docs/images/lab-nodes.svg (umax-lab
# refuses to overwrite a file it did not write), stamped with this command,
# the date and the commit: the page's figures are this script's output,
# never typed by hand. About 15 minutes on two busy cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
page=0
for arg in "$@"; do
  case "$arg" in
    --page) page=1 ;;
    -*) echo "lab.sh: unknown option $arg (usage: scripts/lab.sh [BUILD_DIR] [--page])" >&2; exit 2 ;;
    *) build="$arg" ;;
  esac
done
# The settings the page states (umax-lab prints them on the page too).
settings=(--depth-suite "$root/data/epd/bk.epd" --tactics-suite "$root/data/epd/wac.epd"
          --depth 6 --minimax-depth 4
          --tactics-count 100 --tactics-nodes 10000
          --match-nodes 3000 --openings 24 --ply-cap 300 --threads 2)
nice -n 10 cmake --build "$build" --target umax-lab -j2 >&2
output=()
if [[ "$page" == 1 ]]; then
  stamp="\`scripts/lab.sh --page\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the start"
  output=(--page "$root/docs/pages/31-lab.md" --svg "$root/docs/images/lab-nodes.svg" --made-by "$stamp")
fi
start=$(date +%s)
"$build/bin/umax-lab" "${settings[@]}" "${output[@]}"
echo "lab.sh: $(( $(date +%s) - start )) s" >&2
if [[ "$page" == 1 ]]; then
  echo "lab.sh: wrote docs/pages/31-lab.md and docs/images/lab-nodes.svg" >&2
fi
