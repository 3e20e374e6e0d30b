#!/usr/bin/env bash
# How long each of our moves took in xboard matches (scripts/match.sh folders), against its
# share of the clock, read from xboard's log (-debug): prints a summary per match, and with
# --tsv every move, with --svg a plot of move time against share.
#
#   scripts/move-times.sh [--tsv] [--svg FILE] [--by-move] [--title TEXT] MATCH_DIR...
#
# For each of our moves: the time from the command that started the think (`usermove` or `go`)
# to our `move`, as xboard's log stamps them (ms), which is what xboard's clock charges; the
# clock left (`time`, sent before it); the moves to the next time control (`level MPS BASE INC`:
# MPS minus our moves so far modulo MPS, or 40 when MPS is 0, as the engine assumes); the share
# of the clock t = (time left + (moves to go - 1) x increment) / (moves to go + 2), the formula
# the engine plans with before its corrections (play/src/budget.cpp), or at a fixed time per move
# (`st N`, xboard -st) N itself, the whole time a move may take; and, through CECP, the t
# the engine itself planned (its `# budget ... (clock: t = X s ...)` line; through polyglot
# that line is not sent). A move over its share by more than 20% is counted against the
# engine's own t where the log has it, else against the formula's.
#
# Summary columns: moves, median, 90th percentile and longest move time, the largest ratio of a
# move's time to its share, moves over 1.2 x share, moves over the share.
#
# --svg FILE writes a scatter plot (move time against share, both in seconds, one colour per
# match, the lines time = share and time = 1.2 x share), whole or not at all (a temporary file,
# then renamed); it replaces FILE only if this script made it (its first line says so). With
# --by-move the plot is each move's time divided by its share against the move's number in its
# game (one colour per match, lines at 1 and 1.2): the whole game at a glance, `st` matches too.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 2
}
tsv=0
svg=""
by_move=0
title=""
dirs=()
while (($#)); do
  case $1 in
    -h | --help) usage ;;
    --tsv) tsv=1; shift ;;
    --svg) svg=${2:-}; shift 2 || { echo "move-times.sh: --svg needs a file" >&2; exit 2; } ;;
    --title) title=${2:-}; shift 2 || { echo "move-times.sh: --title needs a text" >&2; exit 2; } ;;
    --by-move) by_move=1; shift ;;
    -*) echo "move-times.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
((${#dirs[@]})) || { echo "move-times.sh: name at least one match folder (see --help)" >&2; exit 2; }
if [[ -z $title ]]; then
  title="Move time against its share of the clock"
  ((by_move == 0)) || title="Each move's time / its share, by move number"
fi
for dir in "${dirs[@]}"; do
  [[ -s $dir/xboard.log ]] || { echo "move-times.sh: $dir/xboard.log not found or empty" >&2; exit 2; }
done
marker="<!-- made by scripts/move-times.sh -->"
if [[ -n $svg && -e $svg ]] && [[ "$(head -1 "$svg")" != "$marker" ]]; then
  echo "move-times.sh: $svg exists and was not made by this script: not replaced" >&2
  exit 2
fi

# One line per move of ours: match, game, move, clock left, moves to go, share, engine's t, time.
moves_of() {
  awk -v match_name="$2" '
    function stamp() { return $1 + 0 }
    / >first *: *new$/ { if (game == 0 || ours > 0) game++; ours = 0; started = -1; planned = ""; next }
    / >first *: *st [0-9.]+$/ { line = $0; sub(/.*: *st */, "", line); st = line + 0; next }
    / >first *: *level / {
      line = $0; sub(/.*: *level */, "", line); split(line, f, / +/)
      mps = f[1] + 0; inc = f[3] + 0; next
    }
    / >first *: *time [0-9-]+$/ { line = $0; sub(/.*: *time */, "", line); left = line / 100; next }
    / >first *: *(usermove|go$)/ { started = stamp(); planned = ""; next }
    / <first *: *# budget .*clock: t = / {
      line = $0; sub(/.*clock: t = */, "", line); sub(/ .*/, "", line); planned = line; next
    }
    / <first *: *move [a-h][1-8][a-h][1-8]/ {
      if (started < 0) next
      togo = mps > 0 ? mps - (ours % mps) : 40
      share = st > 0 ? st : (left + (togo - 1) * inc) / (togo + 2)
      printf "%s\t%d\t%d\t%.2f\t%d\t%.3f\t%s\t%.3f\n", match_name, game, ours + 1, left, togo, share,
        planned == "" ? "-" : planned, (stamp() - started) / 1000
      ours++; started = -1; planned = ""
    }
  ' "$1"
}

all="$(mktemp)"
trap 'rm -f "$all"' EXIT
for dir in "${dirs[@]}"; do moves_of "$dir/xboard.log" "$(basename "$dir")" >> "$all"; done

if ((tsv)); then
  printf 'match\tgame\tmove\tclock_left_s\tmoves_to_go\tshare_s\tengine_t_s\tmove_s\n'
  cat "$all"
fi

printf '%-40s %6s %8s %8s %8s %10s %12s %10s\n' "match" "moves" "median" "90%" "longest" "max/share" ">1.2 share" ">share"
for dir in "${dirs[@]}"; do
  name="$(basename "$dir")"
  # The ratios first, then the move times sorted (mawk has no sort of its own).
  { awk -F'\t' -v name="$name" '$1 == name { base = $7 == "-" ? $6 : $7; print "r", (base > 0 ? $8 / base : 0) }' "$all"
    awk -F'\t' -v name="$name" '$1 == name { print $8 }' "$all" | sort -g | sed 's/^/t /'; } |
    awk -v name="$name" '
      $1 == "r" { if ($2 > worst) worst = $2; if ($2 > 1.2) over20++; if ($2 > 1) over++; next }
      { n++; t[n] = $2 }
      END {
        if (n == 0) { printf "%-40s %6d (no moves of ours in the log)\n", name, 0; exit }
        p90 = t[int(0.9 * (n - 1)) + 1]
        median = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
        printf "%-40s %6d %7.3fs %7.3fs %7.3fs %10.2f %12d %10d\n", name, n, median, p90, t[n], worst, over20, over
      }'
done

[[ -n $svg ]] || exit 0
# What both plots share, as awk functions: the escaped title, the frame and the
# legend of one colour per match (palette as in split() below; k names, names[]).
svg_common='
  function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); return s }
  function header() {
    split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b", palette, " ")
    print marker
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", 420 + 16 * k
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"320\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">%s</text>\n", esc(title)
    printf "<rect x=\"70\" y=\"50\" width=\"520\" height=\"320\" fill=\"none\" stroke=\"#888\"/>\n"
  }
  function legend(  j) {
    for (j = 1; j <= k; j++)
      printf "<circle cx=\"80\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"90\" y=\"%d\">%s</text>\n", 412 + 16 * j - 4, palette[(j - 1) % 6 + 1], 412 + 16 * j, esc(names[j])
    print "</svg>"
  }
'
fresh="$(mktemp "$(dirname "$svg")/.move-times.XXXXXX")"
if ((by_move)); then
  awk -F'\t' -v marker="$marker" -v title="$title" "$svg_common"'
  function x(v) { return 70 + v / right * 520 }
  function y(v) { return 370 - v / top * 320 }
  {
    n++; m[n] = $1; number[n] = $3; base = $7 == "-" ? $6 : $7; ratio[n] = base > 0 ? $8 / base : 0
    if (!($1 in colour)) { names[++k] = $1; colour[$1] = k }
    if (ratio[n] > top) top = ratio[n]
    if ($3 > right) right = $3
  }
  END {
    top = (top > 1.3 ? top : 1.3) * 1.05
    right = right > 0 ? right + 1 : 1
    header()
    for (v = 0; v <= top; v += 0.2)
      printf "<line x1=\"66\" y1=\"%.1f\" x2=\"70\" y2=\"%.1f\" stroke=\"#888\"/><text x=\"62\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", y(v), y(v), y(v) + 4, v
    step = right > 100 ? 20 : right > 40 ? 10 : 5
    for (v = 0; v <= right; v += step)
      printf "<line x1=\"%.1f\" y1=\"370\" x2=\"%.1f\" y2=\"374\" stroke=\"#888\"/><text x=\"%.1f\" y=\"388\" text-anchor=\"middle\">%d</text>\n", x(v), x(v), x(v), v
    printf "<text x=\"330\" y=\"408\" text-anchor=\"middle\">our move number in its game</text>\n"
    printf "<text x=\"18\" y=\"210\" text-anchor=\"middle\" transform=\"rotate(-90 18 210)\">move time / share</text>\n"
    printf "<line x1=\"70\" y1=\"%.1f\" x2=\"590\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>\n", y(1), y(1)
    printf "<line x1=\"70\" y1=\"%.1f\" x2=\"590\" y2=\"%.1f\" stroke=\"#c00\" stroke-dasharray=\"2 3\"/>\n", y(1.2), y(1.2)
    printf "<text x=\"586\" y=\"%.1f\" fill=\"#c00\" text-anchor=\"end\">1.2</text>\n", y(1.2) - 4
    for (i = 1; i <= n; i++)
      printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" fill-opacity=\"0.7\"/>\n", x(number[i]), y(ratio[i]), palette[(colour[m[i]] - 1) % 6 + 1]
    legend()
  }
' "$all" > "$fresh"
  mv "$fresh" "$svg"
  echo "move-times.sh: wrote $svg"
  exit 0
fi
awk -F'\t' -v marker="$marker" -v title="$title" "$svg_common"'
  function x(v) { return 70 + v / top * 520 }
  function y(v) { return 370 - v / top * 320 }
  {
    n++; m[n] = $1; share[n] = $7 == "-" ? $6 : $7; took[n] = $8
    if (!($1 in colour)) { names[++k] = $1; colour[$1] = k }
    if (share[n] > top) top = share[n]
    if ($8 > top) top = $8
  }
  END {
    top = top > 0 ? top * 1.05 : 1
    header()
    step = top > 20 ? 5 : top > 8 ? 2 : top > 4 ? 1 : top > 2 ? 0.5 : 0.25
    for (v = 0; v <= top; v += step) {
      printf "<line x1=\"%.1f\" y1=\"370\" x2=\"%.1f\" y2=\"374\" stroke=\"#888\"/><text x=\"%.1f\" y=\"388\" text-anchor=\"middle\">%g</text>\n", x(v), x(v), x(v), v
      printf "<line x1=\"66\" y1=\"%.1f\" x2=\"70\" y2=\"%.1f\" stroke=\"#888\"/><text x=\"62\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", y(v), y(v), y(v) + 4, v
    }
    printf "<text x=\"330\" y=\"408\" text-anchor=\"middle\">share of the clock t (s)</text>\n"
    printf "<text x=\"18\" y=\"210\" text-anchor=\"middle\" transform=\"rotate(-90 18 210)\">move time (s)</text>\n"
    printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>\n", x(0), y(0), x(top), y(top)
    edge = top / 1.2
    printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" stroke-dasharray=\"2 3\"/>\n", x(0), y(0), x(edge), y(top)
    printf "<text x=\"%.1f\" y=\"62\" fill=\"#c00\" text-anchor=\"end\">1.2 t</text>\n", x(edge) - 4
    printf "<text x=\"%.1f\" y=\"62\" fill=\"#555\">t</text>\n", x(top) - 10
    for (i = 1; i <= n; i++)
      printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" fill-opacity=\"0.7\"/>\n", x(share[i]), y(took[i]), palette[(colour[m[i]] - 1) % 6 + 1]
    legend()
  }
' "$all" > "$fresh"
mv "$fresh" "$svg"
echo "move-times.sh: wrote $svg"
