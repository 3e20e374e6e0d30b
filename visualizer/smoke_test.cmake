# Smoke test of umax-viz: record a small search, render one frame of it
# headless under xvfb-run, and check the PNG and the layout dump; then open
# a truncated copy of it.
# Variables: VIZ, TRACE_TOOL, CHECK, XVFB_RUN, WORK.
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${TRACE_TOOL} record --moves e2e4 --nodes 2000 -q -o ${WORK}/smoke.trc
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-trace record failed: ${result}")
endif()
file(REMOVE ${WORK}/smoke.png)
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/smoke.trc --event 3000 --screenshot ${WORK}/smoke.png --layout-dump
                OUTPUT_FILE ${WORK}/layout.txt ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-viz --screenshot failed (${result}): ${errors}")
endif()
execute_process(COMMAND ${CHECK} png ${WORK}/smoke.png ${WORK}/layout.txt
                        Board Variables Source "Search tree" "Hash table" Timeline
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the screenshot or the layout dump is wrong")
endif()

# A trace cut short (a recording killed half-way) opens with what is there,
# and says so on stderr: the events before the cut, the file named.
file(SIZE ${WORK}/smoke.trc size)
math(EXPR half "${size} / 2")
execute_process(COMMAND ${CHECK} truncate ${WORK}/smoke.trc ${WORK}/cut.trc ${half} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cannot make the truncated copy")
endif()
file(REMOVE ${WORK}/cut.png)
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/cut.trc --screenshot ${WORK}/cut.png
                ERROR_VARIABLE errors RESULT_VARIABLE result)
message(STATUS "cut.trc: exit ${result}: ${errors}")
if(NOT result EQUAL 0 OR NOT EXISTS ${WORK}/cut.png)
  message(FATAL_ERROR "umax-viz did not open the truncated trace (${result}): ${errors}")
endif()
if(NOT errors MATCHES "cut\\.trc is truncated \\(.+\\): showing the [1-9][0-9]* events before the cut")
  message(FATAL_ERROR "umax-viz opened a truncated trace without saying so: ${errors}")
endif()
