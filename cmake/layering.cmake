# The layering check (issue 13): the arrows between folders run one way,
#   minimal, readable  <-  tracer  <-  viewmodel  <-  visualizer;  play/ (front ends) uses any.
# umax_check_layering(FOLDER <dir> INCLUDES <regex> TARGETS <target>... [EXCEPT <name>...])
# fails the configure step if a source or header under <dir> includes a
# header matching <regex>, or if a target defined in <dir> links one of the
# forbidden targets. EXCEPT names the files (relative to <dir>) and targets
# of <dir> that may (a tool above the layers, such as umax-trace's own
# main.cpp). Call it after every folder is added, so that links made from
# elsewhere (target_link_libraries on a target of <dir>) are seen too.
function(umax_check_layering)
  cmake_parse_arguments(CHECK "" "FOLDER;INCLUDES" "TARGETS;EXCEPT" ${ARGN})
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${CHECK_FOLDER})
  file(GLOB_RECURSE sources ${CHECK_FOLDER}/*.h ${CHECK_FOLDER}/*.cpp ${CHECK_FOLDER}/*.c)
  foreach(except ${CHECK_EXCEPT})
    list(REMOVE_ITEM sources ${CHECK_FOLDER}/${except})
  endforeach()
  foreach(source ${sources})
    file(STRINGS ${source} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${CHECK_INCLUDES})")
    if(includes)
      file(RELATIVE_PATH name ${PROJECT_SOURCE_DIR} ${source})
      message(FATAL_ERROR "layering: ${name} has `${includes}`: ${folder}/ must not depend on that")
    endif()
  endforeach()
  get_property(targets DIRECTORY ${CHECK_FOLDER} PROPERTY BUILDSYSTEM_TARGETS)
  if(CHECK_EXCEPT)
    list(REMOVE_ITEM targets ${CHECK_EXCEPT})
  endif()
  foreach(target ${targets})
    get_target_property(links ${target} LINK_LIBRARIES)
    get_target_property(interface ${target} INTERFACE_LINK_LIBRARIES)
    foreach(link ${links} ${interface})
      foreach(forbidden ${CHECK_TARGETS})
        # A static library's private links appear as $<LINK_ONLY:name>.
        if(link MATCHES "(^|[:<])${forbidden}(>|$)")
          message(FATAL_ERROR "layering: ${target} (in ${folder}/) links ${forbidden}")
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()
