# A damaged trace, a trace of another format version, a file that is no
# trace, and a missing file are each refused with one message naming the file
# and a non-zero exit, before any window opens (so no display is needed).
# Variables: VIZ, TRACE_TOOL, CHECK, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/checks.cmake)
file(MAKE_DIRECTORY ${WORK})
run_checked("umax-trace record" ${TRACE_TOOL} record --nodes 300 -q -o ${WORK}/good.trc)
# A byte in the middle of the events (inside a chunk covered by a CRC).
file(SIZE ${WORK}/good.trc size)
math(EXPR middle "${size} / 2")
run_checked("making the corrupt copy" ${CHECK} corrupt ${WORK}/good.trc ${WORK}/flipped.trc ${middle})
# The format version (the 4 bytes after the 8-byte magic) of another format.
run_checked("making the wrong-version copy" ${CHECK} corrupt ${WORK}/good.trc ${WORK}/version.trc 8)
file(WRITE ${WORK}/text.trc "this is not a trace file\n")
# A FIFO: opening it must not wait for a writer (it would for ever).
file(REMOVE ${WORK}/fifo.trc)
run_checked("mkfifo" mkfifo ${WORK}/fifo.trc)
foreach(bad flipped.trc version.trc text.trc missing.trc fifo.trc)
  execute_process(COMMAND ${VIZ} ${WORK}/${bad} --screenshot ${WORK}/never.png TIMEOUT 60
                  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE result)
  message(STATUS "${bad}: exit ${result}: ${errors}")
  if(result EQUAL 0 OR NOT result MATCHES "^[0-9]+$")
    message(FATAL_ERROR "umax-viz accepted ${bad} or crashed (exit '${result}')")
  endif()
  if(NOT errors MATCHES "cannot open .*${bad}")
    message(FATAL_ERROR "no error message naming ${bad}: ${errors}")
  endif()
  # Said once: not "cannot open X: cannot open 'X': ..." (the reader's message already names the file).
  if(errors MATCHES "cannot open.*cannot open")
    message(FATAL_ERROR "the error about ${bad} says \"cannot open\" twice: ${errors}")
  endif()
  if(bad STREQUAL "version.trc" AND NOT errors MATCHES "trace format version 82 is not supported \\(this build reads version 8 only. or the file is damaged\\)")
    message(FATAL_ERROR "the wrong version is not named: ${errors}")
  endif()
endforeach()
# --nodes: refused outside 1..10000000 with the real reason, before anything is recorded.
foreach(budget 0 10000001 abc)
  execute_process(COMMAND ${VIZ} --nodes ${budget} --screenshot ${WORK}/never.png TIMEOUT 60
                  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE result)
  if(result EQUAL 0 OR NOT errors MATCHES "a whole number of nodes from 1 to 10000000")
    message(FATAL_ERROR "umax-viz --nodes ${budget}: exit ${result}, not the range: ${errors}")
  endif()
endforeach()
