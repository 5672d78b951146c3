# ctest layering_check: the configure-time layering check (cmake/Layering.cmake)
# passes on the tree as it is and refuses an include that reaches up.
#   cmake -DSOURCE=<repository> -DWORK=<scratch folder> -P layering_check.cmake
include(${SOURCE}/cmake/Layering.cmake)

# The tree: the same checks core/, launcher/ and app/ make when CMake runs.
sb_forbid_includes(${SOURCE}/core "core/" ${SB_QT_HEADERS} ${SB_LAUNCHER_FOLDERS} ${SB_APP_FOLDERS} ${SB_GUI_FOLDERS})
sb_forbid_includes(${SOURCE}/launcher "launcher/" ${SB_APP_FOLDERS} ${SB_GUI_FOLDERS})
sb_forbid_includes(${SOURCE}/app "app/" ${SB_GUI_FOLDERS})

# Planted includes, each in a folder of its own, must fail the check.
foreach(planted "launcher|#include \"run/run_service.hpp\"" "core|#include <QString>"
                "core|  #  include \"store/run_store.hpp\"" "app|#include \"views/run_page.hpp\"")
  string(REPLACE "|" ";" parts "${planted}")
  list(GET parts 0 layer)
  list(GET parts 1 line)
  file(REMOVE_RECURSE ${WORK}/planted)
  file(WRITE ${WORK}/planted/deep/x.cpp "// planted\n${line}\n")
  if(layer STREQUAL "core")
    set(names ${SB_QT_HEADERS} ${SB_LAUNCHER_FOLDERS} ${SB_APP_FOLDERS} ${SB_GUI_FOLDERS})
  elseif(layer STREQUAL "launcher")
    set(names ${SB_APP_FOLDERS} ${SB_GUI_FOLDERS})
  else()
    set(names ${SB_GUI_FOLDERS})
  endif()
  file(WRITE ${WORK}/planted.cmake
    "include(${SOURCE}/cmake/Layering.cmake)\nsb_forbid_includes(${WORK}/planted \"${layer}/\" ${names})\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -P ${WORK}/planted.cmake
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(rc EQUAL 0 OR NOT err MATCHES "planted/deep/x.cpp includes")
    message(FATAL_ERROR "the layering check let '${line}' in ${layer}/ pass: ${err}")
  endif()
endforeach()
message(STATUS "layering holds; planted upward includes are refused")
