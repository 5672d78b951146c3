# One INTERFACE target carries the language standard, warnings and strict Qt
# defines. Every target links it; nothing sets global flags.
add_library(shardbench_options INTERFACE)
target_compile_features(shardbench_options INTERFACE cxx_std_17)
set(CMAKE_CXX_EXTENSIONS OFF)
target_compile_options(shardbench_options INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor>)
target_compile_definitions(shardbench_options INTERFACE
  QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
  QT_NO_CAST_FROM_BYTEARRAY QT_USE_QSTRINGBUILDER QT_STRICT_ITERATORS
  QT_NO_KEYWORDS QT_DISABLE_DEPRECATED_BEFORE=0x060400)
