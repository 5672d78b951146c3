# ccache, when installed, in front of the C++ compiler. CI builds a fresh
# clone on the machine that built the same sources a little earlier: with the
# paths inside the clone hashed relative to it (base_dir) and without the
# build folder's own path (hash_dir), those compiles come out of the cache.
# The precompiled torch/torch.h goes through it as well (its sloppiness).
# Qt6::Test defines the absolute build and source folders of every test
# (QT_TESTCASE_BUILDDIR/SOURCEDIR, read only by QFINDTESTDATA, which no test
# uses): they are left out of the hash, or no test would hit in another clone. The
# four builds (build, build-core, build-torch2, build-fuzz) need about 3 GB of it.
# -DSHARDBENCH_CCACHE=OFF compiles without it.
option(SHARDBENCH_CCACHE "Compile through ccache when it is installed" ON)
if(SHARDBENCH_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(SB_CCACHE ccache)
  if(SB_CCACHE)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        env "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=10G
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        "CCACHE_IGNOREOPTIONS=-DQT_TESTCASE_BUILDDIR=* -DQT_TESTCASE_SOURCEDIR=*"
        "${SB_CCACHE}")
    message(STATUS "Compiler cache: ${SB_CCACHE}")
  endif()
endif()
