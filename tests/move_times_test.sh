#!/usr/bin/env bash
# scripts/move-times.sh reads xboard's log as xboard 4.9 writes it (-debug): a written log of two
# games with a clock of 2 moves in 10 s, the moves timed from `usermove`/`go` to our `move`, the
# moves to go counted per game and per time control, the engine's own t taken where it says it;
# and the SVG is written, and a file it did not make is not replaced.
#   tests/move_times_test.sh SCRIPTS_DIR
set -uo pipefail
scripts=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

mkdir "$work/match"
# Two `new` before the first game (xboard's start-up), our moves at 1000->1850, 3000->4200 (no
# budget line: as through polyglot), 5000->5100; then a second game.
cat > "$work/match/xboard.log" << 'EOF2'
959 >first : new
959 >first : level 2 0:10 0
963 >first : new
963 >first : level 2 0:10 0
1000 >first : time 1000
1000 >first : otim 1000
1000 >first : go
1500 <first : 4 14 10 75955 c2c4 e7e5
1800 <first : # budget 75955 nodes (clock: t = 2.400 s at 1000000 nodes/s)
1850 <first : move c2c4
2900 >first : time 915
2900 >first : otim 990
3000 >first : usermove 3000 >first : d7d6
4200 <first : move b1c3
4900 >first : time 795
5000 >first : usermove 5000 >first : b8d7
5090 <first : # budget 5000 nodes (clock: t = 1.900 s at 1000000 nodes/s)
5100 <first : move g1f3
9000 >first : new
9000 >first : level 2 0:10 0
9100 >first : time 1000
9100 >first : force
9200 >first : usermove 9200 >first : e2e4
9300 <first : move e7e5
EOF2
tsv="$("$scripts/move-times.sh" --tsv "$work/match")" || fail "move-times.sh --tsv failed"
expected="match	game	move	clock_left_s	moves_to_go	share_s	engine_t_s	move_s
match	1	1	10.00	2	2.500	2.400	0.850
match	1	2	9.15	1	3.050	-	1.200
match	1	3	7.95	2	1.988	1.900	0.100
match	2	1	10.00	2	2.500	-	0.100"
[[ "$(head -5 <<< "$tsv")" == "$expected" ]] || fail "the moves read are"$'\n'"$(head -5 <<< "$tsv")"$'\n'"expected"$'\n'"$expected"
# Summary: 4 moves; median of 0.1 0.1 0.85 1.2 = 0.475 s; the 90th percentile, the 3rd of 4
# sorted, 0.85 s; longest 1.2 s; largest ratio 1.2 / 3.05 = 0.39 (the engine's t where it gave
# one: 0.85 / 2.4, 0.1 / 1.9); none over 1.2 x its share, none over it.
summary="$(tail -1 <<< "$tsv")"
[[ $summary =~ ^match\ +4\ +0\.475s\ +0\.850s\ +1\.200s\ +0\.39\ +0\ +0$ ]] || fail "summary line: $summary"

# The plot: written whole, valid XML, one point per move; an existing file not made by the
# script is left as it is.
"$scripts/move-times.sh" --svg "$work/plot.svg" "$work/match" > /dev/null || fail "--svg failed"
[[ $(grep -c '<circle cx="[0-9.]*" cy="[0-9.]*" r="2.5"' "$work/plot.svg") == 4 ]] || fail "the plot has not 4 points"
if command -v xmllint > /dev/null; then xmllint --noout "$work/plot.svg" || fail "the plot is not valid XML"; fi
echo "not a plot" > "$work/other.svg"
if "$scripts/move-times.sh" --svg "$work/other.svg" "$work/match" > /dev/null 2>&1; then fail "replaced a file it did not make"; fi
[[ "$(cat "$work/other.svg")" == "not a plot" ]] || fail "other.svg was changed"
# At a fixed time per move (xboard -st 0:01 sends `st 1`) the share is the whole second; the
# --by-move plot (time / share against the move's number) has one point per move, move 2 at
# x = 70 + 2 / 4 * 520 px (the axis runs to the highest number, 3, plus 1).
mkdir "$work/st"
cat > "$work/st/xboard.log" << 'EOF2'
100 >first : new
100 >first : st 1
200 >first : time 100
200 >first : go
1100 <first : move e2e4
2000 >first : usermove 2000 >first : e7e5
2950 <first : move d2d4
EOF2
tsv="$("$scripts/move-times.sh" --tsv "$work/st")" || fail "move-times.sh --tsv failed (st)"
expected="match	game	move	clock_left_s	moves_to_go	share_s	engine_t_s	move_s
st	1	1	1.00	40	1.000	-	0.900
st	1	2	1.00	40	1.000	-	0.950"
[[ "$(head -3 <<< "$tsv")" == "$expected" ]] || fail "the st moves read are"$'\n'"$(head -3 <<< "$tsv")"
"$scripts/move-times.sh" --by-move --svg "$work/moves.svg" "$work/match" "$work/st" > /dev/null || fail "--by-move failed"
[[ $(grep -c '<circle cx="[0-9.]*" cy="[0-9.]*" r="2.5"' "$work/moves.svg") == 6 ]] || fail "the --by-move plot has not 6 points"
grep -q '<circle cx="330.0" cy="[0-9.]*" r="2.5"' "$work/moves.svg" || fail "no point at move 2 in the --by-move plot"
if command -v xmllint > /dev/null; then xmllint --noout "$work/moves.svg" || fail "the --by-move plot is not valid XML"; fi
# A folder without a log is refused.
mkdir "$work/empty"
if "$scripts/move-times.sh" "$work/empty" > /dev/null 2>&1; then fail "a folder without xboard.log was accepted"; fi

((failures == 0)) && echo "move-times.sh: all checks passed"
exit $((failures > 0))
