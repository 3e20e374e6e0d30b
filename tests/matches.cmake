# Real games under xboard, headless (scripts/match.sh runs xboard -noGUI under xvfb-run when
# there is no display): umax-readable against Fairy-Max through CECP and through UCI (polyglot
# as the adapter), and the same script shown to catch each failure it is meant to report.
# Included from tests/CMakeLists.txt.
#
# Fairy-Max runs under setarch -R (match.sh): Debian's 5.0b segfaults in about half of its
# starts with address randomisation on. Should the opponent crash all the same, match.sh says
# so (exit status 3) and match_test.cmake plays the match again; a test whose every attempt the
# opponent crashed is skipped ("match inconclusive"), never passed or failed by that crash.
find_program(XBOARD xboard PATHS /usr/games)      # Debian: xboard
find_program(FAIRYMAX fairymax PATHS /usr/games)  # Debian: fairymax
find_program(POLYGLOT polyglot PATHS /usr/games)  # Debian: polyglot
find_program(XVFB_RUN xvfb-run)                   # Debian: xvfb
if(NOT XBOARD OR NOT FAIRYMAX OR NOT POLYGLOT OR NOT XVFB_RUN)
  message(WARNING "xboard, fairymax, polyglot or xvfb-run not found (scripts/install-deps.sh): "
                  "the match tests are not registered")
  return()
endif()

# match_test(NAME STATUS "ARGS" "EXPECT" "REJECT"): one CTest entry "umax-match: NAME".
function(match_test name status args expect reject)
  string(MAKE_C_IDENTIFIER "${name}" folder)
  add_test(NAME "umax-match: ${name}"
    COMMAND ${CMAKE_COMMAND}
      -DMATCH=${PROJECT_SOURCE_DIR}/scripts/match.sh -DBIN=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}
      -DWORK=${CMAKE_CURRENT_BINARY_DIR}/matches/${folder} "-DARGS=${args}"
      -DEXPECT_STATUS=${status} "-DEXPECT=${expect}" "-DREJECT=${reject}"
      -P ${CMAKE_CURRENT_SOURCE_DIR}/match_test.cmake
    ${ARGN})  # e.g. CONFIGURATIONS slow: only in CI's extra stage
  # A generous limit: the clocks below are short, but the machine may be loaded.
  set_tests_properties("umax-match: ${name}" PROPERTIES TIMEOUT 180
    SKIP_REGULAR_EXPRESSION "match inconclusive: the opponent crashed")
endfunction()

set(finished "game 1: umax white, [^\n]*\\((win|draw|loss)\\)" "game 2: umax black, [^\n]*\\((win|draw|loss)\\)"
             "problems: none")
# Time control: 5 s a side plus 0.2 s a move; our engine must never lose on time. The increment
# covers the fixed cost of a move on a loaded machine (main()'s path clears the 16M-entry table's
# locks for every move entered, ours and the opponent's: about 0.1 s per move at a load of 10,
# which alone overruns 5 s of sudden death in a 60-move game).
# The CECP pair runs in CI's extra stage (its 45 s would hold one of the test
# command's two slots); the UCI pair, which goes through polyglot too, stays.
match_test("two games against Fairy-Max through CECP at 5 s + 0.2 s a move, no illegal move, forfeit or crash"
  0 "-n;2;--tc;0:05;--inc;0.2" "${finished}" "PROBLEM" CONFIGURATIONS slow)
match_test("two games against Fairy-Max through UCI and polyglot at 5 s + 0.2 s a move, no illegal move, forfeit or crash"
  0 "-n;2;--tc;0:05;--inc;0.2;--uci" "${finished}" "PROBLEM")
# The clocked games measure the engine's speed as built: under AddressSanitizer (about 3x slower,
# and each move's clearing of the 16M-entry table much slower) they would test the sanitizer,
# not the clock. The sanitize test preset leaves the label "clocked" out.
set_tests_properties(
  "umax-match: two games against Fairy-Max through CECP at 5 s + 0.2 s a move, no illegal move, forfeit or crash"
  PROPERTIES LABELS "clocked;slow")
set_tests_properties(
  "umax-match: two games against Fairy-Max through UCI and polyglot at 5 s + 0.2 s a move, no illegal move, forfeit or crash"
  PROPERTIES LABELS clocked COST 40)  # costs.cmake: started first, its clock waits overlap the rest
# A fixed time per move (xboard -st 1, with -autoCallFlag): each reply must come within the
# second, the legality check of our move included. A game takes up to about 300 s, so it runs
# with the slow cases in CI's extra stage (ctest -C slow -L slow), not in scripts/test.sh.
set(one_game "game 1: umax white, [^\n]*\\((win|draw|loss)\\)" "problems: none")
match_test("a game against Fairy-Max through CECP at 1 s per move, no illegal move, forfeit or crash"
  0 "-n;1;--st;1" "${one_game}" "PROBLEM" CONFIGURATIONS slow)
set_tests_properties(
  "umax-match: a game against Fairy-Max through CECP at 1 s per move, no illegal move, forfeit or crash"
  PROPERTIES LABELS "clocked;slow" TIMEOUT 700)
# Moves per time control (xboard -mps): 20 moves in 10 s, the clock given again every 20 moves;
# the engine counts the moves to go per control. Its move times against their shares are printed
# ("move times: ", scripts/move-times.sh). In CI's extra stage: two games take about 2 minutes.
match_test("two games against Fairy-Max through CECP at 20 moves in 10 s, no illegal move, forfeit or crash"
  0 "-n;2;--tc;0:10;--mps;20" "${finished};move times: [^\n]* [1-9][0-9]* +[0-9.]+s" "PROBLEM"
  CONFIGURATIONS slow)
set_tests_properties(
  "umax-match: two games against Fairy-Max through CECP at 20 moves in 10 s, no illegal move, forfeit or crash"
  PROPERTIES LABELS "clocked;slow" TIMEOUT 400)
# Fixed node budget: every move we played is the one both builds choose along main()'s path.
set(replayed "game 1 replayed: [^\n]*every move equal" "problems: none")
match_test("a fixed-node game through CECP replays move for move in the minimal and the readable build"
  0 "-n;1;--nodes;3000;--tc;1:00;--opponent-odds;12;--replay" "${replayed}" "PROBLEM")
match_test("a fixed-node game through UCI replays move for move in the minimal and the readable build"
  0 "-n;1;--nodes;3000;--tc;1:00;--opponent-odds;12;--replay;--uci" "${replayed}" "PROBLEM")
set_tests_properties(
  "umax-match: a fixed-node game through CECP replays move for move in the minimal and the readable build"
  "umax-match: a fixed-node game through UCI replays move for move in the minimal and the readable build"
  PROPERTIES COST 19)

# The script finds what it is meant to find: a scripted engine that fails on purpose.
set(broken ${CMAKE_CURRENT_SOURCE_DIR}/data/broken-engine.sh)
match_test("match.sh reports an illegal move (xboard forfeits it)"
  1 "-n;1;--tc;0:03;--engine;${broken} illegal" "PROBLEM: game 1: illegal move: Xboard: Forfeit due to invalid move: a1a8" "")
match_test("match.sh reports an illegal move through UCI (polyglot resigns for the engine)"
  1 "-n;1;--tc;0:03;--uci;--engine;${broken} illegal" "PROBLEM: game 1: illegal move: polyglot: resign \\(illegal engine move by white: a1a8\\)" "")
match_test("match.sh reports an engine crash (xboard records only the time forfeit that follows)"
  1 "-n;1;--tc;0:02;--engine;${broken} crash" "PROBLEM: game 1: time forfeit: Black wins on time;PROBLEM: our engine was killed by signal SEGV" "")
match_test("match.sh reports the error lines an engine answers xboard's commands with"
  1 "-n;1;--tc;0:03;--engine;${broken} errors" "PROBLEM: our engine refused input xboard sent:\n[^\n]*Error \\(unknown command\\): black" "")
# An engine still there 1 s after `quit` is killed by xboard 4.9.1 (its wrapper, whose record
# of the exit is then lost): the engine's lock, watched apart from the wrapper, tells when it
# ended (a suite run once failed with no more than "our engine had not exited 5 s after xboard
# ended").
match_test("match.sh reports an engine that is still there 1 s after quit (xboard kills it)"
  1 "-n;1;--tc;0:03;--engine;${broken} slowquit"
  "PROBLEM: our engine ended about [1-9][0-9][0-9][0-9]+ ms after xboard's quit, over xboard's 1 s: xboard killed it" "")
# The opponent's crash is the opponent's: status 3 (inconclusive), none of ours.
match_test("match.sh reports an opponent's crash as the opponent's, the match inconclusive"
  3 "-n;1;--tc;0:02;--opponent;${broken} crash"
  "PROBLEM: the opponent crashed, not our engine: killed by signal SEGV;problems of ours: 0;the match is inconclusive"
  "PROBLEM: our engine")
# ... and a match test whose opponent crashes every time is skipped, not passed or failed: this
# entry runs match_test.cmake expecting a clean match against the crashing opponent and passes
# only when it ends inconclusive after its attempts (in CI's extra stage: 3 games of about 5 s).
add_test(NAME "umax-match: a match test the opponent crashes in every attempt ends inconclusive"
  COMMAND ${CMAKE_COMMAND}
    -DMATCH=${PROJECT_SOURCE_DIR}/scripts/match.sh -DBIN=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/matches/inconclusive "-DARGS=-n;1;--tc;0:02;--opponent;${broken} crash"
    -DEXPECT_STATUS=0 -DEXPECT=problems: -DREJECT=
    -P ${CMAKE_CURRENT_SOURCE_DIR}/match_test.cmake
  CONFIGURATIONS slow)
set_tests_properties("umax-match: a match test the opponent crashes in every attempt ends inconclusive"
  PROPERTIES TIMEOUT 180 LABELS slow WILL_FAIL false
  PASS_REGULAR_EXPRESSION "attempt 3,.*match inconclusive: the opponent crashed in each of 3 attempts")
