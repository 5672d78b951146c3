#include "dtype.hpp"

namespace sb {

std::optional<DType> parseDType(std::string_view t)
{
    if (t.substr(0, 6) == "torch.") t.remove_prefix(6);
    if (t == "fp32" || t == "float32" || t == "float" || t == "f32") return DType::F32;
    if (t == "bf16" || t == "bfloat16") return DType::BF16;
    if (t == "fp16" || t == "float16" || t == "half" || t == "f16") return DType::F16;
    if (t == "fp64" || t == "float64" || t == "double" || t == "f64") return DType::F64;
    return std::nullopt;
}

const char* dtypeName(DType t)
{
    switch (t) {
    case DType::F32: return "fp32";
    case DType::BF16: return "bf16";
    case DType::F16: return "fp16";
    case DType::F64: return "fp64";
    }
    return "fp32";
}

const char* dtypeTorchName(DType t)
{
    switch (t) {
    case DType::F32: return "torch.float32";
    case DType::BF16: return "torch.bfloat16";
    case DType::F16: return "torch.float16";
    case DType::F64: return "torch.float64";
    }
    return "torch.float32";
}

std::uint64_t dtypeBytes(DType t)
{
    switch (t) {
    case DType::F32: return 4;
    case DType::BF16: return 2;
    case DType::F16: return 2;
    case DType::F64: return 8;
    }
    return 4;
}

} // namespace sb
