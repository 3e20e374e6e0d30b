# A damaged trace, a trace of another format version, a file that is no
# trace, and a missing file are each refused with one message naming the file
# and a non-zero exit, before any window opens (so no display is needed).
# Variables: VIZ, TRACE_TOOL, CHECK, WORK.
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${TRACE_TOOL} record --nodes 300 -q -o ${WORK}/good.trc RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-trace record failed: ${result}")
endif()
# A byte in the middle of the events (inside a chunk covered by a CRC).
file(SIZE ${WORK}/good.trc size)
math(EXPR middle "${size} / 2")
execute_process(COMMAND ${CHECK} corrupt ${WORK}/good.trc ${WORK}/flipped.trc ${middle} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cannot make the corrupt copy")
endif()
# The format version (the 4 bytes after the 8-byte magic) of another format.
execute_process(COMMAND ${CHECK} corrupt ${WORK}/good.trc ${WORK}/version.trc 8 RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cannot make the wrong-version copy")
endif()
file(WRITE ${WORK}/text.trc "this is not a trace file\n")
foreach(bad flipped.trc version.trc text.trc missing.trc)
  execute_process(COMMAND ${VIZ} ${WORK}/${bad} --screenshot ${WORK}/never.png
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
  if(bad STREQUAL "version.trc" AND NOT errors MATCHES "unsupported trace format version 89 \\(this build reads versions 1 to 3\\)")
    message(FATAL_ERROR "the wrong version is not named: ${errors}")
  endif()
endforeach()
