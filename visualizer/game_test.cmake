# umax-viz opens a game folder: three thinks of one game recorded the way
# umax-readable --trace-dir records them (one trace per think, the moves
# before it in its header), opened by folder and by the PGN beside them at a
# given ply; the frame must show the Game panel beside the others, and the
# legend (shown at start) beside it, not over its move list. A folder without
# traces is refused with a message, before any window opens.
# Variables: VIZ, TRACE_TOOL, CHECK, XVFB_RUN, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/checks.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/game ${WORK}/empty)
set(moves "")
foreach(ply 1 3 5)
  execute_process(COMMAND ${TRACE_TOOL} record --moves "${moves}" --nodes 1000 -q -o ${WORK}/game/${ply}-white.trc
                  OUTPUT_VARIABLE result RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "umax-trace record failed: ${status}")
  endif()
  string(REGEX MATCH "bestmove ([a-h][1-8][a-h][1-8])" found "${result}")
  # Our move, then a fixed reply for black.
  set(reply "e7e5")
  if(ply EQUAL 3)
    set(reply "b8c6")
  elseif(ply EQUAL 5)
    set(reply "g8f6")
  endif()
  string(STRIP "${moves} ${CMAKE_MATCH_1} ${reply}" moves)
endforeach()
file(WRITE ${WORK}/game/match.pgn "[Event \"umax-viz game test\"]\n")

execute_process(COMMAND ${TRACE_TOOL} game ${WORK}/game OUTPUT_VARIABLE listing RESULT_VARIABLE status)
message(STATUS "umax-trace game:\n${listing}")
if(NOT status EQUAL 0 OR NOT listing MATCHES "game 1: 3 thinks" OR listing MATCHES "game 2")
  message(FATAL_ERROR "umax-trace game does not list the three thinks as one game")
endif()

foreach(target "game" "game/match.pgn")
  file(REMOVE ${WORK}/shot.png)
  execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                          ${VIZ} ${WORK}/${target} --ply 3 --event 2000 --legend --screenshot ${WORK}/shot.png
                          --layout-dump
                  OUTPUT_FILE ${WORK}/layout.txt ERROR_VARIABLE errors RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "umax-viz ${target} --screenshot failed (${status}): ${errors}")
  endif()
  # Legend among the panels: it must be drawn, and umax-viz-check fails when it covers any
  # panel but the source listing (the Game panel's move list, as it once did).
  run_checked("the check of the screenshot of ${target} and its layout dump" ${CHECK} png ${WORK}/shot.png
              ${WORK}/layout.txt Board Variables Source "Search tree" Timeline Game Legend)
endforeach()

execute_process(COMMAND ${VIZ} ${WORK}/game --ply 4 --screenshot ${WORK}/none.png
                ERROR_VARIABLE errors RESULT_VARIABLE status)
if(status EQUAL 0 OR NOT errors MATCHES "no think at ply 4")
  message(FATAL_ERROR "umax-viz opened a ply the folder has no think for (${status}): ${errors}")
endif()
execute_process(COMMAND ${VIZ} ${WORK}/empty --screenshot ${WORK}/none.png
                ERROR_VARIABLE errors RESULT_VARIABLE status)
if(status EQUAL 0 OR NOT errors MATCHES "cannot open the game folder .*empty: no readable trace")
  message(FATAL_ERROR "umax-viz opened a folder without traces (${status}): ${errors}")
endif()
