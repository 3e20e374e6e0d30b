#!/usr/bin/env bash
# A scripted engine for the match tests, speaking xboard (CECP) or, when its first command is
# `uci`, UCI: it plays 1. e4 and 2. d4 as white, or as xboard's second engine 1... e5 and 2... d5
# as black (legal unless white's first two moves block or pin the d-pawn), then fails the way its
# argument says, so that the tests can check that scripts/match.sh reports each failure:
#   illegal   plays a1a8 (xboard forfeits it; through polyglot, polyglot resigns for it)
#   crash     dies by SIGSEGV in the middle of the game
#   slow      thinks for 30 s, so that its flag falls
#   errors    answers commands it does not know with "Error (unknown command): ..." and
#             resigns at its third move
#   slowquit  resigns at its third move, and exits 1.5 s after `quit` (xboard 4.9.1 kills an
#             engine that is still there 1 s after `quit`)
trap '' INT
mode=${1:?usage: broken-engine.sh illegal|crash|slow|errors|slowquit}
script=(e2e4 d2d4)
protocol=xboard
colour=""
plies=0
played=0
forced=0

# Sends our move in the protocol's words.
send_move() {
  if [[ $protocol == uci ]]; then echo "bestmove $1"; else echo "move $1"; fi
}

# Our next move: the script's, then the failure. Our colour is the side to move at our first move
# (xboard's moves since `new` counted: plies).
reply() {
  [[ -n $colour ]] || { ((plies % 2 == 0)) && colour=white || colour=black; }
  [[ $colour == white ]] && script=(e2e4 d2d4) || script=(e7e5 d7d5)
  plies=$((plies + 1))
  if ((played < ${#script[@]})); then
    send_move "${script[played]}"
    played=$((played + 1))
    return
  fi
  case $mode in
    illegal) send_move a1a8 ;;
    crash) kill -SEGV $$ ;;
    slow) sleep 30 && send_move g1f3 ;;
    errors | slowquit) [[ $protocol == uci ]] && send_move 0000 || echo "resign" ;;
  esac
}

while read -r command rest; do
  case $command in
    # xboard
    protover) echo "feature myname=\"broken-$mode\" sigint=0 sigterm=0 ping=1 usermove=1 done=1" ;;
    ping) echo "pong $rest" ;;
    new) played=0 forced=0 colour="" plies=0 ;;
    force) forced=1 ;;
    usermove) plies=$((plies + 1)) && { ((forced)) || reply; } ;;
    xboard | accepted | rejected | level | time | otim | post | hard | easy | computer | result | random) ;;
    # UCI: "position startpos moves m1 m2 ..." tells how many moves we made
    uci) protocol=uci && echo "id name broken-$mode" && echo "uciok" ;;
    isready) echo "readyok" ;;
    ucinewgame) played=0 ;;
    position) played=$((($(wc -w <<< "$rest") - 1) / 2)) ;;
    # both
    go) forced=0 && reply ;;
    quit) [[ $mode != slowquit ]] || sleep 1.5; exit 0 ;;
    *) [[ $mode != errors ]] || echo "Error (unknown command): $command" ;;
  esac
done
