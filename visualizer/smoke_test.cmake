# Smoke test of umax-viz: record a small search, render one frame of it
# headless under xvfb-run, and check the PNG and the layout dump (every panel
# and the legend, which --legend opens; it starts hidden, as --no-legend keeps it);
# refuse an --event outside the trace; then open a truncated copy of it.
# Variables: VIZ, TRACE_TOOL, CHECK, XVFB_RUN, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/checks.cmake)
file(MAKE_DIRECTORY ${WORK})
run_checked("umax-trace record" ${TRACE_TOOL} record --moves e2e4 --nodes 2000 -q -o ${WORK}/smoke.trc)
file(REMOVE ${WORK}/smoke.png)
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/smoke.trc --event 3000 --legend --screenshot ${WORK}/smoke.png --layout-dump
                OUTPUT_FILE ${WORK}/layout.txt ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-viz --screenshot failed (${result}): ${errors}")
endif()
run_checked("the check of the screenshot and the layout dump" ${CHECK} png ${WORK}/smoke.png ${WORK}/layout.txt
            Board Variables Source "Search tree" "Hash table" Timeline Legend)

# A long caption under the board, at the default size: event 9310 of this trace, a return whose
# caption says what the parent's move will score and which move is tried (190 characters, four
# lines in the Board panel). It once ran past the panel's bottom, its last line unseen; the check
# finds the caption's rectangle ("text Board / caption" in the dump) inside the panel.
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/smoke.trc --event 9310 --screenshot ${WORK}/caption.png --layout-dump
                OUTPUT_FILE ${WORK}/caption-layout.txt ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-viz --screenshot at event 9310 failed (${result}): ${errors}")
endif()
file(READ ${WORK}/caption-layout.txt captionLayout)
if(NOT captionLayout MATCHES "text Board / caption [0-9]+ [0-9]+ [0-9]+ ([0-9]+)")
  message(FATAL_ERROR "the layout dump has no caption under the board: ${captionLayout}")
endif()
if(CMAKE_MATCH_1 LESS 60)
  message(FATAL_ERROR "the caption at event 9310 is ${CMAKE_MATCH_1} px tall: not the long one the check is about")
endif()
run_checked("the board's caption at event 9310 lies inside the Board panel" ${CHECK} png ${WORK}/caption.png
            ${WORK}/caption-layout.txt Board)

# A phone's window (390x844): the compact layout, one panel under a row of tabs (the Board first)
# and the Timeline below, all of it in the window and its caption uncut; the tabs and the step
# buttons at least 40 pixels each way (a finger's).
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x900x24"
                        ${VIZ} ${WORK}/smoke.trc --event 9310 --size 390 --height 844 --screenshot ${WORK}/phone.png
                        --layout-dump
                OUTPUT_FILE ${WORK}/phone-layout.txt ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-viz --size 390 --height 844 failed (${result}): ${errors}")
endif()
run_checked("the compact layout of a 390x844 window" ${CHECK} png ${WORK}/phone.png ${WORK}/phone-layout.txt
            Tabs Board Timeline)
file(STRINGS ${WORK}/phone-layout.txt phoneLayout)
set(fingers 0)
foreach(line IN LISTS phoneLayout)
  if(line MATCHES "^panel (Source|Variables|Search tree|Hash table) ")
    message(FATAL_ERROR "the compact layout drew '${CMAKE_MATCH_1}' beside the Board: ${line}")
  endif()
  if(line MATCHES "^text (Tabs / .*|Timeline / step.*) [0-9-]+ [0-9-]+ ([0-9]+) ([0-9]+)$")
    math(EXPR fingers "${fingers} + 1")
    if(CMAKE_MATCH_2 LESS 40 OR CMAKE_MATCH_3 LESS 40)
      message(FATAL_ERROR "'${CMAKE_MATCH_1}' is ${CMAKE_MATCH_2}x${CMAKE_MATCH_3} pixels: under a finger's 40")
    endif()
  endif()
endforeach()
if(fingers LESS 7)
  message(FATAL_ERROR "the compact layout has ${fingers} tabs and step buttons, not the 5 tabs and 2 buttons")
endif()
# The event's sentence once on the small screen: under the board (with its caption), not again
# under the Timeline (it was shown twice, the second copy cut).
string(REGEX MATCHALL "text (Board / caption|Timeline / narration) " said "${phoneLayout}")
list(LENGTH said saidCount)
if(NOT saidCount EQUAL 1)
  message(FATAL_ERROR "the compact layout says the event ${saidCount} times (${said}), not once")
endif()

# A window lower than the layout's 800 pixels (a course page's live view at 1280x800 is 662 high):
# the Timeline keeps its height, its narration inside it (it was cut below the panel's bottom).
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/smoke.trc --event 9310 --size 1280 --height 662 --screenshot ${WORK}/low.png
                        --layout-dump
                OUTPUT_FILE ${WORK}/low-layout.txt ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-viz --size 1280 --height 662 failed (${result}): ${errors}")
endif()
file(READ ${WORK}/low-layout.txt lowLayout)
if(NOT lowLayout MATCHES "text Timeline / narration ")
  message(FATAL_ERROR "no narration under the Timeline at 1280x662: ${lowLayout}")
endif()
run_checked("a 1280x662 window: every panel, the narration and the caption uncut" ${CHECK} png ${WORK}/low.png
            ${WORK}/low-layout.txt Board Variables Source "Search tree" "Hash table" Timeline)

# The help (F1, --show-help): inside the window at 1280x800 and on a phone, the whole screen under
# the menu bar there (the check: every panel listed lies in the image and holds drawn content).
foreach(size "1280;800" "390;844")
  list(GET size 0 width)
  list(GET size 1 height)
  execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x900x24"
                          ${VIZ} ${WORK}/smoke.trc --event 3000 --show-help --size ${width} --height ${height}
                          --screenshot ${WORK}/help-${width}.png --layout-dump
                  OUTPUT_FILE ${WORK}/help-${width}.txt ERROR_VARIABLE errors RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "umax-viz --show-help --size ${width} failed (${result}): ${errors}")
  endif()
  run_checked("the help in a ${width}x${height} window" ${CHECK} png ${WORK}/help-${width}.png
              ${WORK}/help-${width}.txt Help)
  file(READ ${WORK}/help-${width}.txt helpLayout)
  if(NOT helpLayout MATCHES "panel Help ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+)")
    message(FATAL_ERROR "no help in the layout dump: ${helpLayout}")
  endif()
  math(EXPR right "${CMAKE_MATCH_1} + ${CMAKE_MATCH_3}")
  math(EXPR bottom "${CMAKE_MATCH_2} + ${CMAKE_MATCH_4}")
  if(right GREATER width OR bottom GREATER height OR CMAKE_MATCH_3 LESS 300)
    message(FATAL_ERROR "the help (${CMAKE_MATCH_0}) does not fit a ${width}x${height} window")
  endif()
endforeach()

# At start the legend is hidden (it covered the Source panel's listings): no Legend panel, by
# default as with --no-legend.
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/smoke.trc --event 3000 --screenshot ${WORK}/default.png --layout-dump
                OUTPUT_VARIABLE layout ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT layout MATCHES "panel Source " OR layout MATCHES "panel Legend ")
  message(FATAL_ERROR "umax-viz (${result}) opened with the legend over the Source panel: ${layout} ${errors}")
endif()

# --no-legend: the same frame without the legend.
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/smoke.trc --event 3000 --no-legend --screenshot ${WORK}/plain.png --layout-dump
                OUTPUT_VARIABLE layout ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT layout MATCHES "panel Board " OR layout MATCHES "panel Legend ")
  message(FATAL_ERROR "umax-viz --no-legend (${result}) still drew the legend or drew nothing: ${layout} ${errors}")
endif()

# Events are numbered from 0 (as umax-trace jsonl's "i"): an --event past the
# trace's last event (count - 1) is refused with a message naming the trace's
# event count, before any window opens; the last event itself is fine.
execute_process(COMMAND ${TRACE_TOOL} info ${WORK}/smoke.trc OUTPUT_VARIABLE info RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT info MATCHES "events ([0-9]+)")
  message(FATAL_ERROR "umax-trace info failed (${result}): ${info}")
endif()
set(events ${CMAKE_MATCH_1})
set(past ${events})
math(EXPR last "${events} - 1")
file(REMOVE ${WORK}/past.png)
execute_process(COMMAND ${VIZ} ${WORK}/smoke.trc --event ${past} --screenshot ${WORK}/past.png
                ERROR_VARIABLE errors RESULT_VARIABLE result)
message(STATUS "--event ${past}: exit ${result}: ${errors}")
if(result EQUAL 0 OR NOT result MATCHES "^[0-9]+$" OR EXISTS ${WORK}/past.png)
  message(FATAL_ERROR "umax-viz accepted --event ${past} of a ${events}-event trace (exit '${result}')")
endif()
if(NOT errors MATCHES "--event ${past} is outside the trace: .*smoke\\.trc has ${events} events \\(numbered 0 to ${last}\\)")
  message(FATAL_ERROR "the refused --event is not explained: ${errors}")
endif()
file(REMOVE ${WORK}/last.png)
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} ${WORK}/smoke.trc --event ${last} --screenshot ${WORK}/last.png
                ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT EXISTS ${WORK}/last.png)
  message(FATAL_ERROR "umax-viz refused --event ${last}, the trace's last event (${result}): ${errors}")
endif()

# A trace cut short (a recording killed half-way) opens with what is there,
# and says so on stderr: the events before the cut, the file named.
file(SIZE ${WORK}/smoke.trc size)
math(EXPR half "${size} / 2")
run_checked("making the truncated copy" ${CHECK} truncate ${WORK}/smoke.trc ${WORK}/cut.trc ${half})
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
# A search recorded into the temporary folder (no -o) leaves no file there.
file(REMOVE_RECURSE ${WORK}/tmp)
file(MAKE_DIRECTORY ${WORK}/tmp)
execute_process(COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${WORK}/tmp
                        ${XVFB_RUN} -a -s "-screen 0 1280x800x24"
                        ${VIZ} --moves e2e4 --nodes 300 --screenshot ${WORK}/recorded.png
                ERROR_VARIABLE errors RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "umax-viz --nodes 300 failed: ${result}: ${errors}")
endif()
file(GLOB left ${WORK}/tmp/umax-viz-*)
if(left)
  message(FATAL_ERROR "umax-viz left its temporary trace behind: ${left}")
endif()
