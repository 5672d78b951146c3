// Floating-point element types a plan can name, with PyTorch's spellings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sb {

enum class DType { F32, BF16, F16, F64 };

// Accepts "float32"/"fp32"/"torch.float32", "bfloat16"/"bf16", "float16"/"fp16"/"half", "float64".
std::optional<DType> parseDType(std::string_view text);
// Canonical short name used in saved plans: fp32, bf16, fp16, fp64.
const char* dtypeName(DType t);
// PyTorch spelling for generated scripts: torch.float32, ...
const char* dtypeTorchName(DType t);
std::uint64_t dtypeBytes(DType t);

} // namespace sb
