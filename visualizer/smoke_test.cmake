# Smoke test of umax-viz: record a small search, render one frame of it
# headless under xvfb-run, and check the PNG and the layout dump.
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
