# One match test: runs scripts/match.sh with ARGS (a ;-list), then checks its exit status
# (EXPECT_STATUS) and that its output matches every regular expression in EXPECT (a ;-list)
# and none in REJECT.
# Variables: MATCH (the script), BIN (build/bin), WORK (a fresh folder), ARGS, EXPECT_STATUS,
# EXPECT, REJECT.
#
# A match the opponent crashed in (match.sh's exit status 3) says nothing of our engine: unless
# the test expects that status, the match is played again, up to kAttempts times in all; when
# the opponent crashed in every one, the test prints "match inconclusive", which the test's
# SKIP_REGULAR_EXPRESSION (matches.cmake) turns into a skip: it neither passes nor fails by the
# opponent's crash.
set(kAttempts 3)
foreach(attempt RANGE 1 ${kAttempts})
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${MATCH} --bin ${BIN} --out ${WORK} ${ARGS}
                  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE status)
  string(TIMESTAMP stop "%s")
  math(EXPR seconds "${stop} - ${start}")
  message(STATUS "match.sh ${ARGS} (attempt ${attempt}, ${seconds} s):\n${output}${errors}")
  if(NOT status EQUAL 3 OR EXPECT_STATUS EQUAL 3)
    break()
  endif()
  if(attempt EQUAL kAttempts)
    message(FATAL_ERROR "match inconclusive: the opponent crashed in each of ${kAttempts} attempts")
  endif()
  message(STATUS "the opponent crashed: the match says nothing of our engine, played again")
endforeach()
if(NOT status EQUAL EXPECT_STATUS)
  message(FATAL_ERROR "match.sh exited with ${status}, expected ${EXPECT_STATUS}")
endif()
foreach(pattern IN LISTS EXPECT)
  if(NOT output MATCHES "${pattern}")
    message(FATAL_ERROR "match.sh's output lacks /${pattern}/")
  endif()
endforeach()
foreach(pattern IN LISTS REJECT)
  if(output MATCHES "${pattern}")
    message(FATAL_ERROR "match.sh's output has /${pattern}/")
  endif()
endforeach()
