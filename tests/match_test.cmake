# One match test: runs scripts/match.sh with ARGS (a ;-list), then checks its exit status
# (EXPECT_STATUS) and that its output matches every regular expression in EXPECT (a ;-list)
# and none in REJECT.
# Variables: MATCH (the script), BIN (build/bin), WORK (a fresh folder), ARGS, EXPECT_STATUS,
# EXPECT, REJECT.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
string(TIMESTAMP start "%s")
execute_process(COMMAND ${MATCH} --bin ${BIN} --out ${WORK} ${ARGS}
                OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE status)
string(TIMESTAMP stop "%s")
math(EXPR seconds "${stop} - ${start}")
message(STATUS "match.sh ${ARGS} (${seconds} s):\n${output}${errors}")
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
