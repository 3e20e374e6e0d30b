#!/usr/bin/env bash
# Plays a match under xboard (headless under xvfb-run when there is no display) between
# umax-readable and an opponent (default: H.G. Muller's Fairy-Max), colours alternating, and
# prints the score and every problem the PGN, xboard's log and the engine's exit status show.
#
#   scripts/match.sh [-n GAMES] [--tc MIN:SEC] [--inc SEC] [--st SEC] [--nodes N] [--uci] [--replay] ...
#
# Options (defaults in brackets):
#   -n, --games N      games to play [2]; our engine is white in games 1, 3, 5, ...
#   --tc MIN:SEC       xboard's clock for the whole game, per side [0:30]
#   --inc SEC          increment per move, may be a fraction such as 0.2 [0]
#   --mps N            moves per time control (xboard -mps): the clock --tc is given again
#                      every N moves, as in 40 moves in 1 minute (--tc 1 --mps 40); not with
#                      --inc [0: the whole game]
#   --st SEC           a fixed time per move instead of a clock (xboard -st 0:SEC: both engines
#                      get SEC seconds, 1 to 59, for every move; --tc and --inc are then unused)
#   --opponent-odds K  divide the opponent's clock by K (xboard -secondTimeOdds) [1]
#   --hash MB          hash size xboard gives both engines (-defaultHashSize: CECP `memory`, through
#                      polyglot UCI `Hash`) [192, the original's table: node-identical thinks]
#   --nodes N          umax-readable thinks with a fixed node budget of N per move (passed as
#                      `--nodes N`), whatever its clock says; the clock still runs, so give a
#                      --tc it cannot run out of
#   --uci              drive umax-readable through UCI, with polyglot as the adapter (xboard
#                      -fUCI); the default is xboard's own protocol (CECP)
#   --replay           after the match (needs --nodes): replay every game in both builds with
#                      umax-replay and check that each of our moves is the one the original's
#                      main() chooses with the same moves and budget
#   --gui              xboard draws its board (on Xvfb when there is no display), as a player sees
#                      the game; the default is -noGUI
#   --engine CMD       our engine's command [BIN/umax-readable --xboard|--uci]
#   --opponent CMD     the opponent's command, a CECP engine [fairymax]; it runs with address
#                      randomisation off (setarch -R), see below
#   --trace-dir DIR    passed to umax-readable: one trace per think
#   --out DIR          where the PGN, xboard's log and the engine's stderr go [a new temp dir]
#   --bin DIR          where the umax executables are [build/bin]
#
# Exit status: 0 when the match ran without a problem of our engine (no illegal move, no time
# forfeit, no crash, no error line from it, every game finished, and with --replay every move
# equal), 1 when it found one, 2 for a usage error, 3 when the opponent crashed: the match is
# then inconclusive whatever else it shows ("PROBLEM: the opponent crashed ..."; a crash of ours
# reads "PROBLEM: our engine was killed ..."), since games cut short by the opponent say nothing
# of our engine. A game the opponent forfeits (Fairy-Max may flag on a loaded machine) is
# reported as a note, not as a problem.
#
# The opponent runs under `setarch -R` (address randomisation off), and under a wrapper that
# records its exit status as ours does: Debian's Fairy-Max 5.0b segfaults in about half of its
# starts on some machines, always at the same instruction, and never with randomisation off
# (2026-11-28: 3 of 6 and 6 of 6 plain starts crashed, 0 of 14 under setarch -R). Where setarch
# is refused (a container may forbid the personality call) the opponent runs as it is, and the
# script says so.
#
# What xboard 4.9 does, as measured here (the script relies on it):
# - an illegal move forfeits the game: the PGN's last comment reads "Xboard: Forfeit due to
#   invalid move: a1a8 ..." (or "illegal move") and xboard prints `Illegal move "a1a8" from
#   first machine` on stdout; a UCI engine's illegal move is caught by polyglot first, which
#   resigns for it: "polyglot: resign (illegal engine move by white: a1a8)";
# - a flag falls only with -autoCallFlag true: "{White wins on time}" / "{Black wins on time}";
# - an engine that exits in the middle of a game is NOT recorded as such with -noGUI: the game
#   just ends "on time" once its clock runs out. So our engine runs under a small wrapper that
#   appends its exit status to engine-exit.txt; anything but a clean exit 0 after `quit` is a
#   crash;
# - after `quit` xboard waits 1 s for the engine (alarm(1 + -delayAfterQuit)), then kills the
#   process it started with SIGKILL: our wrapper, whose record of the exit is then lost. The
#   engine's lock (see the wrapper) tells when it ended: "quit: our engine ended about N ms after
#   xboard's quit", a problem from 1000 ms on (xboard killed it);
# - an engine's refusals show in the log (-debug) as "<first : Error (...)" or "Illegal move";
# - a game's moves reach the engine as "usermove e7e5" (or "e7e5") and leave it as "move e2e4",
#   the same with UCI, since xboard talks CECP to polyglot; the script takes the games' moves
#   for --replay from that log.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 2
}
fail_usage() {
  echo "match.sh: $1 (see --help)" >&2
  exit 2
}

here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/bin"
games=2
tc="0:30"
inc=0
mps=0
st=""
odds=1
hash=192
nodes=""
protocol="xboard"
replay=0
gui=0
engine=""
opponent="fairymax"
trace_dir=""
out=""
while (($#)); do
  case $1 in
    -h | --help) usage ;;
    -n | --games) games=${2:-}; shift 2 || fail_usage "$1 needs a value" ;;
    --tc) tc=${2:-}; shift 2 || fail_usage "--tc needs a value" ;;
    --inc) inc=${2:-}; shift 2 || fail_usage "--inc needs a value" ;;
    --mps) mps=${2:-}; shift 2 || fail_usage "--mps needs a value" ;;
    --st) st=${2:-}; shift 2 || fail_usage "--st needs a value" ;;
    --opponent-odds) odds=${2:-}; shift 2 || fail_usage "--opponent-odds needs a value" ;;
    --nodes) nodes=${2:-}; shift 2 || fail_usage "--nodes needs a value" ;;
    --hash) hash=${2:-}; shift 2 || fail_usage "--hash needs a value" ;;
    --uci) protocol="uci"; shift ;;
    --replay) replay=1; shift ;;
    --gui) gui=1; shift ;;
    --engine) engine=${2:-}; shift 2 || fail_usage "--engine needs a value" ;;
    --opponent) opponent=${2:-}; shift 2 || fail_usage "--opponent needs a value" ;;
    --trace-dir) trace_dir=${2:-}; shift 2 || fail_usage "--trace-dir needs a value" ;;
    --out) out=${2:-}; shift 2 || fail_usage "--out needs a value" ;;
    --bin) bin=${2:-}; shift 2 || fail_usage "--bin needs a value" ;;
    *) fail_usage "unknown option '$1'" ;;
  esac
done
[[ $games =~ ^[1-9][0-9]*$ ]] || fail_usage "--games must be a positive number, not '$games'"
[[ $tc =~ ^[0-9]+(:[0-5][0-9])?$ ]] || fail_usage "--tc must look like MIN or MIN:SEC, not '$tc'"
[[ $inc =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail_usage "--inc must be seconds, such as 1 or 0.2, not '$inc'"
[[ $mps =~ ^[0-9]+$ ]] || fail_usage "--mps must be a number of moves, not '$mps'"
[[ $mps == 0 || $inc == 0 ]] || fail_usage "--mps and --inc exclude each other (xboard's clock is one or the other)"
[[ -z $st || $st =~ ^[1-9][0-9]?$ ]] || fail_usage "--st must be whole seconds per move from 1 to 59, not '$st'"
[[ $hash =~ ^[1-9][0-9]*$ ]] || fail_usage "--hash must be a size in MB, not '$hash'"
[[ $odds =~ ^[1-9][0-9]*$ ]] || fail_usage "--opponent-odds must be a positive number, not '$odds'"
[[ -z $nodes || $nodes =~ ^[1-9][0-9]*$ ]] || fail_usage "--nodes must be a positive number, not '$nodes'"
((replay == 0)) || [[ -n $nodes ]] || fail_usage "--replay needs --nodes (a time-controlled think is not reproducible)"
((replay == 0)) || [[ -z $engine ]] || fail_usage "--replay checks umax-readable's own games: leave out --engine"

# xboard, polyglot and fairymax live in /usr/games on Debian.
export PATH="$PATH:/usr/games"
for tool in xboard fairymax; do
  command -v "$tool" > /dev/null || { echo "match.sh: $tool not found (Debian: scripts/install-deps.sh)" >&2; exit 2; }
done
if [[ $protocol == uci ]]; then
  command -v polyglot > /dev/null || { echo "match.sh: polyglot not found (Debian: polyglot)" >&2; exit 2; }
fi

if [[ -z $out ]]; then out="$(mktemp -d "${TMPDIR:-/tmp}/umax-match.XXXXXX")"; fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
[[ $out != *[[:space:]]* ]] || fail_usage "--out must not contain spaces (xboard splits engine commands)"
pgn="$out/match.pgn"
log="$out/xboard.log"
rm -f "$pgn" "$log" "$out/engine-exit.txt" "$out/engine.stderr" "$out/opponent-exit.txt" "$out/opponent.stderr"

# Our engine runs under a wrapper that records how it ended (see above), and when: xboard 4.9.1
# gives an engine 1 s to exit after `quit` (alarm(1 + -delayAfterQuit)), then kills the process
# it started, which is the wrapper: its record is then lost. So the engine also holds a lock
# (flock on engine.lock, a descriptor only the engine keeps), and a watcher of its own, which
# xboard does not kill, writes the time the lock is freed: when the engine's process ended.
watch_limit=$((24 * 3600))
if [[ -z $engine ]]; then
  [[ -x $bin/umax-readable ]] || { echo "match.sh: $bin/umax-readable not found (build it first)" >&2; exit 2; }
  engine="$(cd "$bin" && pwd)/umax-readable --$protocol"
  [[ -z $nodes ]] || engine+=" --nodes $nodes"
  [[ -z $trace_dir ]] || engine+=" --trace-dir $(mkdir -p "$trace_dir" && cd "$trace_dir" && pwd)"
fi
rm -f "$out/engine-times.txt" "$out/engine.lock"
wrapper="$out/engine.sh"
cat > "$wrapper" << EOF
#!/usr/bin/env bash
# Written by scripts/match.sh: runs the engine, passes on the signals xboard sends it, and
# records how it ended (status 128 + N: killed by signal N); engine-times.txt gets the times
# (ns since the epoch) it started, ended (from a watcher that outlives this wrapper) and was
# reaped here.
trap 'kill -INT \$pid 2> /dev/null' INT
trap 'kill -TERM \$pid 2> /dev/null' TERM
echo "start \$(date +%s%N)" >> "$out/engine-times.txt"
exec 9> "$out/engine.lock"
flock 9
$engine <&0 9>&9 2>> "$out/engine.stderr" &
pid=\$!
echo "pid \$pid" >> "$out/engine-times.txt"
exec 9>&-
timeout $watch_limit flock "$out/engine.lock" sh -c 'echo "ended \$(date +%s%N)" >> "$out/engine-times.txt"' < /dev/null > /dev/null 2>&1 &
while :; do
  wait \$pid && status=0 || status=\$?
  kill -0 \$pid 2> /dev/null || break
done
echo "exit \$status" >> "$out/engine-exit.txt"
echo "reaped \$(date +%s%N)" >> "$out/engine-times.txt"
EOF
chmod +x "$wrapper"

# The opponent: address randomisation off where setarch may turn it off, and the same kind of
# wrapper (its exit status in opponent-exit.txt), so that its crash is told apart from ours.
no_aslr=""
if setarch "$(uname -m)" -R true 2> /dev/null; then
  no_aslr="setarch $(uname -m) -R "
else
  echo "note: setarch -R is refused here, so the opponent runs with address randomisation on" \
    "(Debian's Fairy-Max 5.0b may then crash; such a match ends inconclusive, exit status 3)"
fi
opponent_wrapper="$out/opponent.sh"
cat > "$opponent_wrapper" << EOF
#!/usr/bin/env bash
# Written by scripts/match.sh: runs the opponent with address randomisation off (Debian's
# Fairy-Max 5.0b crashes in about half of its starts without), passes on the signals xboard
# sends it, and records how it ended (status 128 + N: killed by signal N).
trap 'kill -INT \$pid 2> /dev/null' INT
trap 'kill -TERM \$pid 2> /dev/null' TERM
$no_aslr$opponent <&0 2>> "$out/opponent.stderr" &
pid=\$!
while :; do
  wait \$pid && status=0 || status=\$?
  kill -0 \$pid 2> /dev/null || break
done
echo "exit \$status" >> "$out/opponent-exit.txt"
EOF
chmod +x "$opponent_wrapper"

xboard_args=(-popupExitMessage false -saveSettingsOnExit false -soundProgram ""
  -autoCallFlag true -testLegality true -ruleMoves 51 -repeatsToDraw 3
  -mg "$games" -secondTimeOdds "$odds" -defaultHashSize "$hash"
  -fcp "$wrapper" -scp "$opponent_wrapper" -sgf "$pgn" -debug -nameOfDebugFile "$log")
if [[ -n $st ]]; then
  xboard_args+=(-st "0:$(printf %02d "$st")") # xboard reads a bare -st N as N minutes
else
  # xboard ignores -mps when -inc is given (even -inc 0: an incremental clock).
  if ((mps == 0)); then xboard_args+=(-tc "$tc" -inc "$inc"); else xboard_args+=(-tc "$tc" -mps "$mps"); fi
fi
[[ $protocol == uci ]] && xboard_args+=(-fUCI)
((gui)) || xboard_args=(-noGUI "${xboard_args[@]}")
runner=()
[[ -n ${DISPLAY:-} ]] || runner=(xvfb-run -a)

echo "match: umax-readable ($protocol${nodes:+, $nodes nodes per move}) vs $opponent, $games games," \
  "$([[ -n $st ]] && echo "$st s per move" || echo "clock $tc + $inc s$( ((mps == 0)) || echo " every $mps moves")")$( ((odds == 1)) || echo " (the opponent's divided by $odds)"); files in $out"
problems=0
problem() {
  echo "PROBLEM: $*"
  problems=$((problems + 1))
}
opponent_notes=0
opponent_crashes=0
opponent_crash() {
  echo "PROBLEM: the opponent crashed, not our engine: $*"
  opponent_crashes=$((opponent_crashes + 1))
}
opponent_note() {
  echo "note, the opponent's: $*"
  opponent_notes=$((opponent_notes + 1))
}

# xboard can hang (for example when it cannot start an engine): a limit far above any game's
# length (both clocks spent, 300 increments, 2 minutes of slack per game).
tc_seconds=$((10#${tc%%:*} * 60 + $([[ $tc == *:* ]] && echo $((10#${tc##*:})) || echo 0)))
# (With --mps the clock comes again every mps moves: up to 150 / mps + 1 times in a game.)
limit=$(awk -v g="$games" -v t="$tc_seconds" -v i="$inc" -v m="$mps" \
  'BEGIN { c = m > 0 ? int(150 / m) + 1 : 1; printf "%d", g * (2 * c * t + 300 * i + 120) + 60 }')
# With --st a game lasts at most about 300 moves of both sides at st seconds each.
[[ -z $st ]] || limit=$((games * (600 * st + 120) + 60))
start=$SECONDS
status=0
timeout --kill-after=10 "$limit" "${runner[@]}" xboard "${xboard_args[@]}" > "$out/xboard.out" 2>&1 || status=$?
echo "played in $((SECONDS - start)) s"
((status != 124 && status != 137)) || problem "xboard still ran after $limit s and was stopped"

# --- Reading the PGN: one line per game: result, our colour, plies, last comment.
summarize_pgn() {
  awk '
    function flush() {
      if (result == "") return
      n++
      text = movetext
      reason = ""
      if (match(text, /\{[^{}]*\}[ \t]*(1-0|0-1|1\/2-1\/2|\*)[ \t]*$/)) {
        reason = substr(text, RSTART + 1, RLENGTH)
        sub(/\}.*/, "", reason)
      }
      gsub(/\{[^}]*\}/, "", text)
      plies = 0
      count = split(text, tokens, /[ \t]+/)
      for (i = 1; i <= count; i++)
        if (tokens[i] != "" && tokens[i] !~ /^[0-9]+\.+$/ && tokens[i] !~ /^(1-0|0-1|1\/2-1\/2|\*)$/) plies++
      printf "%d\t%s\t%s\t%s\t%d\t%s\n", n, result, white, black, plies, reason
      result = ""; movetext = ""
    }
    /^\[Event / { flush() }
    /^\[White / { white = $0; sub(/^\[White "/, "", white); sub(/"\]$/, "", white) }
    /^\[Black / { black = $0; sub(/^\[Black "/, "", black); sub(/"\]$/, "", black) }
    /^\[Result / { result = $0; sub(/^\[Result "/, "", result); sub(/"\]$/, "", result) }
    /^[^[]/ { movetext = movetext " " $0 }
    END { flush() }
  ' "$1"
}


wins=0 draws=0 losses=0 played=0
if [[ -s $pgn ]]; then
  while IFS=$'\t' read -r number result white black plies reason; do
    played=$((played + 1))
    ours="white"
    ((number % 2 == 1)) || ours="black"
    case "$result/$ours" in
      1-0/white | 0-1/black) outcome="win" wins=$((wins + 1)) ;;
      0-1/white | 1-0/black) outcome="loss" losses=$((losses + 1)) ;;
      1/2-1/2/*) outcome="draw" draws=$((draws + 1)) ;;
      *) outcome="unfinished" ;;
    esac
    printf 'game %d: umax %s, %s (%s), %d plies: %s\n' "$number" "$ours" "$result" "$outcome" "$plies" "$reason"
    [[ $outcome != unfinished ]] || problem "game $number did not finish: $reason"
    # A forfeit is ours when we lost the game; the opponent's (Fairy-Max can flag on a loaded
    # machine) is reported but is no problem of our engine.
    blame=problem
    [[ $outcome == loss ]] || blame=opponent_note
    shopt -s nocasematch
    [[ ! $reason =~ (illegal|invalid)\ (engine\ )?move ]] || $blame "game $number: illegal move: $reason"
    [[ ! $reason =~ illegal-move\ claim ]] || $blame "game $number: false illegal-move claim: $reason"
    [[ ! $reason =~ (on\ time|flag\ fell) ]] || $blame "game $number: time forfeit: $reason"
    [[ ! $reason =~ (exited|crash) ]] || $blame "game $number: engine crash: $reason"
    shopt -u nocasematch
  done < <(summarize_pgn "$pgn")
fi
((played == games)) || problem "the PGN holds $played of $games games (see $out/xboard.out)"

# --- xboard's own tally, for the first engine (ours): "final score W-L-D".
tally="$(grep -o 'final score [0-9]*-[0-9]*-[0-9]*' "$out/xboard.out" | tail -1 | cut -d' ' -f3 || true)"
if [[ -n $tally && $tally != "$wins-$losses-$draws" ]]; then
  problem "xboard counts $tally (W-L-D) but the PGN gives $wins-$losses-$draws"
fi

# --- The engine's exit status and its refusals in xboard's log.
# How long after xboard's `quit` the engine's process ended: xboard's log stamps lines in ms since
# it started; the wrapper's last start (engine-times.txt) is placed at the stamp of xboard's first
# line to the engine it last started (the wrapper starts just before, so the figure may be a few
# ms short).
quit_delay() {
  local first quit start ended
  first=$(awk '/StartChildProcess .*engine\.sh/ { wanted = 1; next }
               wanted && /^[0-9]+ >first *:/ { stamp = $1; wanted = 0 } END { print stamp }' "$log" 2> /dev/null)
  quit=$(grep -a -E '^[0-9]+ >first *: *quit$' "$log" 2> /dev/null | tail -1 | awk '{print $1}')
  start=$(awk '$1 == "start" {print $2}' "$out/engine-times.txt" 2> /dev/null | tail -1)
  # The end: the watcher's time, or the wrapper's if it reaped the engine sooner.
  ended=$(awk '$1 == "start" { end = "" }
               ($1 == "ended" || $1 == "reaped") && (end == "" || $2 < end) { end = $2 }
               END { print end }' "$out/engine-times.txt" 2> /dev/null)
  [[ -n $first && -n $quit && -n $start && -n $ended ]] || return 1
  local delay=$(((ended - start) / 1000000 + first - quit))
  echo $((delay < 0 ? 0 : delay))
}
for _ in $(seq 50); do  # the engine may still be quitting when xboard is gone
  [[ ! -s $out/engine-exit.txt ]] || break
  sleep 0.1
done
for _ in $(seq 20); do  # its watcher writes the time the engine ended
  grep -q '^ended ' "$out/engine-times.txt" 2> /dev/null && break
  sleep 0.1
done
delay=$(quit_delay || true)
[[ -z $delay ]] || echo "quit: our engine ended about ${delay} ms after xboard's quit (xboard 4.9.1 kills an engine still there 1 s after it)"
if [[ ! -s $out/engine-exit.txt ]]; then
  engine_pid=$(awk '$1 == "pid" {print $2; exit}' "$out/engine-times.txt" 2> /dev/null)
  if ! grep -q '^ended ' "$out/engine-times.txt" 2> /dev/null; then
    if [[ -n $engine_pid ]] && kill -0 "$engine_pid" 2> /dev/null; then
      problem "our engine still runs 7 s after xboard ended: hung (process $engine_pid, now killed; see $out/xboard.out)"
      kill -KILL "$engine_pid" 2> /dev/null || true
    else
      problem "our engine left no record of its end (never started? see $out/xboard.out)"
    fi
  elif [[ -n $delay ]] && ((delay >= 1000)); then
    # Our engine was still there when xboard's 1 s were over: xboard killed the wrapper.
    problem "our engine ended about ${delay} ms after xboard's quit, over xboard's 1 s: xboard killed it (its wrapper)"
  else
    # The engine ended within the second, the wrapper (a shell, on a loaded machine) did not
    # record it in time, and xboard killed the wrapper: no fault of our engine's.
    echo "note: xboard killed our engine's wrapper before it recorded the exit status; the engine ended ${delay:-?} ms after quit"
  fi
else
  while read -r _ status; do
    if ((status > 128)); then
      problem "our engine was killed by signal $(kill -l $((status - 128))) (see $out/engine.stderr)"
    elif ((status != 0)); then
      problem "our engine exited with status $status (see $out/engine.stderr)"
    fi
  done < "$out/engine-exit.txt"
fi
# The opponent's exit status: a signal that is not one of the ways to stop a process (xboard
# ends an engine with TERM or KILL when it does not quit in time) is a crash.
for _ in $(seq 50); do
  [[ ! -s $out/opponent-exit.txt ]] || break
  sleep 0.1
done
if [[ -s $out/opponent-exit.txt ]]; then
  while read -r _ status; do
    if ((status > 128)); then
      signal=$(kill -l $((status - 128)))
      case $signal in
        TERM | KILL | INT | HUP | PIPE) opponent_note "the opponent was ended by signal $signal" ;;
        *) opponent_crash "killed by signal $signal (see $out/opponent.stderr and $out/xboard.out)" ;;
      esac
    elif ((status != 0)); then
      opponent_note "the opponent exited with status $status (see $out/opponent.stderr)"
    fi
  done < "$out/opponent-exit.txt"
fi
if [[ -s $log ]]; then
  refusals="$(grep -a -E '<first *: *(Error|Illegal move)' "$log" || true)"
  [[ -z $refusals ]] || problem "our engine refused input xboard sent:"$'\n'"$refusals"
  # polyglot warns when a UCI engine's pv holds a move it cannot play (it then shows a fake line).
  impossible="$(grep -a -c 'Impossible move' "$log" || true)"
  ((impossible == 0)) || problem "polyglot warned $impossible times of an impossible move in our output (see $log)"
fi
grep -a -E 'Illegal move|Error' "$out/xboard.out" || true  # xboard's own words, e.g. on a forfeit

# --- The games' moves, from what xboard sent to and received from our engine.
game_moves() {
  awk '
    function flush() { if (moves != "") print moves; moves = "" }
    / >first *: *new$/ { flush(); next }
    / [<>]first *: / {
      line = $0
      sub(/.*[<>]first *: */, "", line)
      if ($0 ~ /<first/ && line ~ /^move [a-h][1-8][a-h][1-8][qrbn]?$/) { moves = moves " " substr(line, 6) }
      else if ($0 ~ />first/ && line ~ /^[a-h][1-8][a-h][1-8][qrbn]?$/) { moves = moves " " line }
    }
    END { flush() }
  ' "$log" | sed 's/^ //'
}

if ((replay)); then
  [[ -x $bin/umax-replay ]] || { echo "match.sh: $bin/umax-replay not found (build it first)" >&2; exit 2; }
  number=0
  while read -r moves; do
    number=$((number + 1))
    side="white"
    ((number % 2 == 1)) || side="black"
    echo "$moves" > "$out/game-$number.moves"
    echo -n "game $number replayed: "
    "$bin/umax-replay" --moves "$moves" --side "$side" --nodes "$nodes" > "$out/game-$number.replay" 2>&1 ||
      problem "game $number: the builds do not replay it (see $out/game-$number.replay)"
    tail -1 "$out/game-$number.replay"
  done < <(game_moves)
  ((number == played)) || problem "xboard's log holds the moves of $number games, the PGN $played"
fi

if [[ -n $trace_dir ]]; then
  if "$bin/umax-trace" game "$trace_dir" > "$out/traces.txt" 2>&1; then
    echo "traces: $(grep -c '^ *[0-9]' "$out/traces.txt") thinks in $(grep -c '^game ' "$out/traces.txt") games" \
      "under $trace_dir (umax-trace game DIR lists them, umax-viz DIR opens a game)"
  else
    problem "the trace folder does not read back: $(head -1 "$out/traces.txt")"
  fi
fi

# How long each move of ours took against its share of the clock (scripts/move-times.sh).
if [[ -s $log && -z $st && -z $nodes ]]; then
  "$here/move-times.sh" "$out" | sed 's/^/move times: /' || true
fi

points=$(awk -v w="$wins" -v d="$draws" 'BEGIN { printf "%g", w + d / 2 }')
echo "score for umax-readable: +$wins =$draws -$losses ($points/$played)"
if ((opponent_crashes > 0)); then
  echo "problems of ours: $problems; the opponent crashed $opponent_crashes time(s): the match is" \
    "inconclusive (games the opponent cut short say nothing of our engine; anything above may follow from the crash)"
  exit 3
elif ((problems == 0)); then
  echo "problems: none (no illegal move, no time forfeit, no crash, no refused command of ours)"
  ((opponent_notes == 0)) || echo "notes of the opponent's: $opponent_notes (see above; not problems of ours)"
else
  echo "problems: $problems"
  exit 1
fi
