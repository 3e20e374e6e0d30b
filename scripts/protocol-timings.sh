#!/usr/bin/env bash
# Measures how fast umax-readable answers a GUI, through its pipes as a GUI drives it, and
# prints the figures (no pass or fail: the suite's [.slow] cases and the clocked matches hold
# the bounds). Reply times of xboard's `st 1` and UCI's `go movetime`, `pong` and `readyok` in
# the middle of a think, the move after `?`, takebacks / a `position` of 200 plies, and the
# resident memory after a think at each UCI Hash size.
#
#   scripts/protocol-timings.sh [--bin DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../build/bin"
[[ ${1:-} == --bin ]] && bin=$2
engine="$bin/umax-readable"
[[ -x $engine ]] || { echo "protocol-timings: $engine not found (build it first)" >&2; exit 2; }

now() { date +%s%N; }
ms() {
  local tenths=$((($2 - $1) / 100000))
  echo "$((tenths / 10)).$((tenths % 10))"
}
# send LINE: writes a line to the engine
send() { printf '%s\n' "$1" >&"${ENGINE[1]}"; }
# await PREFIX: reads until a line starting with PREFIX; sets $line and $at (ns)
await() {
  while IFS= read -r -t 120 line <&"${ENGINE[0]}"; do
    if [[ $line == "$1"* ]]; then
      at=$(now)
      return 0
    fi
  done
  echo "protocol-timings: no '$1' from the engine" >&2
  exit 1
}

shuffle=""
for _ in $(seq 50); do shuffle+=" g1f3 g8f6 f3g1 f6g8"; done

# --- xboard
coproc ENGINE { "$engine" --xboard 2> /dev/null; }
send xboard
send "protover 2"
await "feature"
send new
send force
send "st 1"
replies=()
for _ in $(seq 10); do
  start=$(now)
  send go
  await "move "
  replies+=("$(ms "$start" "$at")")
  send force
done
echo "xboard st 1, reply to go (ms): ${replies[*]}"
send "st 30"
send go
sleep 1
start=$(now)
send "ping 7"
await "pong 7"
echo "xboard pong during a think: $(ms "$start" "$at") ms"
start=$(now)
send "?"
await "move "
echo "xboard move after ?: $(ms "$start" "$at") ms"
send new
send force
for move in $shuffle; do send "usermove $move"; done
send "ping 1"
await "pong 1"
start=$(now)
send remove
send "ping 2"
await "pong 2"
echo "xboard remove at 200 plies: $(ms "$start" "$at") ms"
start=$(now)
send undo
send "ping 3"
await "pong 3"
echo "xboard undo at 198 plies: $(ms "$start" "$at") ms"
send quit
wait "$ENGINE_PID" 2> /dev/null || true

# --- UCI
coproc ENGINE { "$engine" --uci 2> /dev/null; }
send uci
await uciok
send ucinewgame
send isready
await readyok
start=$(now)
send "position startpos moves$shuffle"
send isready
await readyok
echo "UCI position startpos moves <200 plies> to readyok: $(ms "$start" "$at") ms"
replies=()
for _ in $(seq 5); do
  start=$(now)
  send "position startpos moves$shuffle"
  send "go movetime 500"
  await bestmove
  replies+=("$(ms "$start" "$at")")
done
echo "UCI go movetime 500 after a 200-ply position, reply (ms): ${replies[*]}"
send "position startpos moves e2e4"
send "go infinite"
sleep 1
start=$(now)
send isready
await readyok
echo "UCI readyok during a think: $(ms "$start" "$at") ms"
start=$(now)
send stop
await bestmove
echo "UCI bestmove after stop: $(ms "$start" "$at") ms"
send quit
wait "$ENGINE_PID" 2> /dev/null || true

# --- Hash size: the engine's resident memory after a 1-second think, per UCI Hash setting
rss_line=""
for hash in 192 64 16 1; do
  coproc ENGINE { exec "$engine" --uci 2> /dev/null; } # exec: ENGINE_PID is the engine's
  send uci
  await uciok
  send "setoption name Hash value $hash"
  send "position startpos moves e2e4"
  send "go movetime 1000"
  await bestmove
  rss_line+=" Hash $hash: $(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$ENGINE_PID/status") MB;"
  send quit
  wait "$ENGINE_PID" 2> /dev/null || true
done
echo "UCI resident memory after a 1 s think:$rss_line"
