# A CPU-only LibTorch cannot link the CUDA path, but its headers (c10/cuda,
# ProcessGroupNCCL.hpp) and a CUDA toolkit with nccl.h let us compile it:
# the files that hold CUDA/NCCL code are built once more, with SB_WITH_CUDA,
# into objects that nothing links. A change that breaks the GPU build then
# fails this build, on a machine without a GPU.
# -DSHARDBENCH_CUDA_CHECK=OFF skips it.
option(SHARDBENCH_CUDA_CHECK "Compile-check the CUDA/NCCL path when LibTorch has no CUDA" ON)
set(SB_CUDA_HOME "/usr/local/cuda" CACHE PATH "CUDA toolkit used only to compile-check the CUDA path")
if(NOT SHARDBENCH_CUDA_CHECK)
  return()
endif()
set(_sb_torch_cuda_header "")
foreach(dir ${TORCH_INCLUDE_DIRS})
  if(EXISTS "${dir}/c10/cuda/CUDAStream.h" AND EXISTS "${dir}/torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp")
    set(_sb_torch_cuda_header "${dir}")
  endif()
endforeach()
if(NOT _sb_torch_cuda_header OR NOT EXISTS "${SB_CUDA_HOME}/include/cuda_runtime_api.h"
   OR NOT EXISTS "${SB_CUDA_HOME}/include/nccl.h")
  message(STATUS "CUDA path: not compiled (needs a CUDA LibTorch, or LibTorch's CUDA headers and a CUDA toolkit with nccl.h at SB_CUDA_HOME)")
  return()
endif()
message(STATUS "CUDA path: compile-checked against ${SB_CUDA_HOME} (not linked: this LibTorch has no CUDA)")
# CPU packages of LibTorch ship c10/cuda without the header CMake generates for CUDA builds.
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/cuda_check_include/c10/cuda/impl/cuda_cmake_macros.h"
     "#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n")
add_library(sb_engine_cuda_check OBJECT device.cpp process_groups.cpp cuda/cuda_device.cpp)
target_link_libraries(sb_engine_cuda_check PRIVATE sb_plan sb_checkpoint ${TORCH_LIBRARIES} shardbench_options)
target_include_directories(sb_engine_cuda_check PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${TORCH_INCLUDE_DIRS}
                           "${CMAKE_CURRENT_BINARY_DIR}/cuda_check_include" "${SB_CUDA_HOME}/include")
target_compile_definitions(sb_engine_cuda_check PRIVATE USE_C10D_GLOO SB_WITH_GLOO=1 SB_WITH_CUDA=1 USE_C10D_NCCL)
if(TORCH_CXX_FLAGS)
  separate_arguments(_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  target_compile_options(sb_engine_cuda_check PRIVATE ${_torch_flags})
endif()
