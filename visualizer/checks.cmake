# What the umax-viz test scripts (cmake -P) share.

# Runs the command after `what`; a non-zero exit (or none) fails the test,
# saying `what` failed and its exit status.
function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${result})")
  endif()
endfunction()
