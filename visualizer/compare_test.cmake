# umax-viz --compare: the same position recorded by micro-Max's own search and by the Lab
# without best-first, the second shown beside the first; the frame must show the Compare panel
# with content beside the others. A --compare file that is not a trace is refused with a
# message, before any window opens.
# Variables: VIZ, TRACE_TOOL, CHECK, XVFB_RUN, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/checks.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
run_checked("umax-trace record" ${TRACE_TOOL} record --moves e2e4 --nodes 3000 -q -o ${WORK}/whole.trc)
run_checked("umax-trace record --without best-first" ${TRACE_TOOL} record --moves e2e4 --nodes 3000
            --without best-first -q -o ${WORK}/lab.trc)
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/whole.trc --compare ${WORK}/lab.trc --event 2000 --screenshot
                        ${WORK}/shot.png --layout-dump
                OUTPUT_FILE ${WORK}/layout.txt ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "umax-viz --compare --screenshot failed (${status}): ${errors}")
endif()
run_checked("the check of the screenshot with --compare and its layout dump" ${CHECK} png ${WORK}/shot.png
            ${WORK}/layout.txt Board Variables Source "Search tree" Timeline Compare)

file(WRITE ${WORK}/foreign.trc "not a trace")
execute_process(COMMAND ${VIZ} ${WORK}/whole.trc --compare ${WORK}/foreign.trc --screenshot ${WORK}/none.png
                ERROR_VARIABLE errors RESULT_VARIABLE status)
if(status EQUAL 0 OR NOT errors MATCHES "cannot compare with .*foreign.trc: not a umax trace file")
  message(FATAL_ERROR "umax-viz compared with a file that is not a trace (${status}): ${errors}")
endif()
