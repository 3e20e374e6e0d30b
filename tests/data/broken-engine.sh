#!/usr/bin/env bash
# A scripted xboard (CECP) engine for the match tests: it plays 1. e4 and 2. d4 as white
# (always legal) and then fails the way its argument says, so that the tests can check that
# scripts/match.sh reports each failure:
#   illegal   plays a1a8, which xboard forfeits
#   crash     dies by SIGSEGV in the middle of the game
#   slow      thinks for 30 s, so that its flag falls
#   errors    answers commands it does not know with "Error (unknown command): ..." and
#             resigns at its third move
trap '' INT
mode=${1:?usage: broken-engine.sh illegal|crash|slow|errors}
script=(e2e4 d2d4)
played=0
forced=0
reply() {
  if ((played < ${#script[@]})); then
    echo "move ${script[played]}"
    played=$((played + 1))
    return
  fi
  case $mode in
    illegal) echo "move a1a8" ;;
    crash) kill -SEGV $$ ;;
    slow) sleep 30 && echo "move g1f3" ;;
    errors) echo "resign" ;;
  esac
}
while read -r command rest; do
  case $command in
    protover) echo "feature myname=\"broken-$mode\" sigint=0 sigterm=0 ping=1 usermove=1 done=1" ;;
    ping) echo "pong $rest" ;;
    new) played=0 forced=0 ;;
    force) forced=1 ;;
    go) forced=0 && reply ;;
    usermove) ((forced)) || reply ;;
    quit) exit 0 ;;
    xboard | accepted | rejected | level | time | otim | post | hard | easy | computer | result | random) ;;
    *) [[ $mode != errors ]] || echo "Error (unknown command): $command" ;;
  esac
done
