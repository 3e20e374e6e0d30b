#!/usr/bin/env bash
# umax-viz, quitting while it records a search: the think stops at its next
# node and the trace is finished with its footer, so the window closes at
# once. Runs under xvfb-run; xdotool types Ctrl+Q into the window.
#   recording_test.sh VIZ TRACE_TOOL WORK_DIR
set -u
viz=$1
tool=$2
work=$3
mkdir -p "$work"
trace="$work/quit.trc"
rm -f "$trace"
fail() {
  echo "FAIL: $*" >&2
  kill "$pid" 2>/dev/null
  exit 1
}

# The original's own think after 1. e4: 72.6M nodes, half a minute or more to record.
"$viz" --moves e2e4 --nodes 10000000 -o "$trace" &
pid=$!
window=$(timeout 60 xdotool search --sync --onlyvisible --name "umax-viz" | head -1)
[[ -n $window ]] || fail "the window did not appear"
# Under way: 2 MB of the trace's 5 GB written, to the partial trace beside it
# (renamed to quit.trc once complete).
partial="$work/.quit.trc.partial"
for _ in $(seq 600); do
  [[ -f $partial && $(stat -c %s "$partial") -ge 2000000 ]] && break
  sleep 0.1
done
[[ -f $partial && $(stat -c %s "$partial") -ge 2000000 ]] || fail "the recording did not start"
start=$(date +%s%N)
# Held for a second: ImGui 1.86 polls key state once a frame, so a press and
# release that both arrive within one (slow, software-rendered) frame are lost.
xdotool keydown --window "$window" ctrl+q
sleep 1
xdotool keyup --window "$window" ctrl+q 2>/dev/null
# Without the stop flag the window would wait for the whole think.
for _ in $(seq 150); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "umax-viz still runs 15 s after Ctrl+Q"
wait "$pid"
status=$?
milliseconds=$((($(date +%s%N) - start) / 1000000))
[[ $status -eq 0 ]] || fail "umax-viz exited with status $status"
info=$("$tool" info "$trace") || fail "umax-trace info refused the trace: $info"
grep -q "^stopped yes" <<<"$info" || fail "the trace is not of a stopped think: $info"
grep -q "^truncated" <<<"$info" && fail "the trace is cut: $info"
[[ -e $partial ]] && fail "the partial trace was left beside the complete one"
echo "umax-viz quit within ${milliseconds} ms of Ctrl+Q (held 1 s); the trace is complete:"
head -3 <<<"$info"
rm -f "$trace"
