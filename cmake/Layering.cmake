# The layering as a fact CMake checks when it configures: the files under a
# folder never include a header of a layer above it. Each layer's folders are
# on the include path by their own names (events/, store/, run/, views/, ...),
# so an include names the layer it reaches.
#
#   sb_forbid_includes(<folder> <what the folder is> <name>...)
#
# fails the configure step naming the file and the include; a name is a
# folder (run) or a pattern (Q[A-Za-z]* for every Qt header).
function(sb_forbid_includes folder what)
  list(JOIN ARGN "|" names)
  set(again CONFIGURE_DEPENDS)  # a new file is checked at the next build
  if(CMAKE_SCRIPT_MODE_FILE)
    set(again)                    # cmake -P (tests/cmake) has no next build
  endif()
  file(GLOB_RECURSE files ${again} ${folder}/*.cpp ${folder}/*.hpp ${folder}/*.h)
  foreach(file IN LISTS files)
    file(STRINGS ${file} hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${names})[/>]")
    if(hits)
      message(FATAL_ERROR "${file} includes ${hits}: ${what} must not reach the layers above it")
    endif()
  endforeach()
endfunction()

# The folders of each layer, as includes name them.
set(SB_GUI_FOLDERS document models session views window QtWidgets QtGui QtCharts QtSvg)
set(SB_APP_FOLDERS checkpoints history hosts jobs run settings)
set(SB_LAUNCHER_FOLDERS events status store launch)
set(SB_QT_HEADERS "Q[A-Za-z]*")
