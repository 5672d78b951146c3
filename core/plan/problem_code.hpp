// The message catalogue: every problem code the plan, model and module-tree
// checks can report, with its English template (%1..%9 are the problem's
// arguments in order). This list is the one source: the enum, the code names
// and the sentences the CLI prints all come from it, and the GUI's
// translatable copy (gui/text/problem_templates.cpp) is tested against it.
#pragma once

#include "util/catalogue.hpp"

#include <cstddef>

// X(enumerator, code, template)
#define SB_PROBLEM_CATALOGUE(X) \
    X(MeshNodes, "mesh.nodes", "nodes must be at least 1") \
    X(MeshProcs, "mesh.procs", "procs_per_node must be at least 1") \
    X(MeshReplicate, "mesh.replicate", "replicate must be at least 1") \
    X(MeshReplicateDivides, "mesh.replicate_divides", "replicate degree %1 does not divide world size %2") \
    X(MeshWorldTooLarge, "mesh.world_too_large", "world size %1 is above the %2 ranks shardbench models") \
    X(MeshMemory, "mesh.memory", "device memory must be greater than 0") \
    X(TrainBatch, "train.batch", "micro_batch must be at least 1") \
    X(TrainSeq, "train.seq", "seq_len must be at least 1") \
    X(TrainAccum, "train.accum", "grad_accum must be at least 1") \
    X(TrainSteps, "train.steps", "steps must not be negative") \
    X(TrainSeqTooLong, "train.seq_too_long", "seq_len %1 exceeds the model's position table (max_seq_len %2)") \
    X(TrainClip, "train.clip", "grad_clip must be 0 (off) or positive") \
    X(TrainLr, "train.lr", "lr must be greater than 0 and below 10") \
    X(TrainBetas, "train.betas", "betas must lie in [0, 1)") \
    X(TrainEps, "train.eps", "eps must be positive") \
    X(TrainWeightDecay, "train.wd", "weight_decay must not be negative") \
    X(TrainSchedule, "train.schedule", "schedule must be \"constant\" or \"cosine\", got \"%1\"") \
    X(TrainNoDecay, "train.no_decay", "no_decay entries are \"1d\" and \"embeddings\", got \"%1\"") \
    X(TrainMinLr, "train.min_lr", "min_lr_ratio must lie in [0, 1]") \
    X(TrainDataPath, "train.data_path", "a tokens or text data source needs a \"path\"") \
    X(TrainEvalBatches, "train.eval_batches", "eval batches must lie in [0, 100000]") \
    X(TrainEvalEvery, "train.eval_every", "eval every must not be negative") \
    X(TrainEvalHoldout, "train.eval_holdout", "holdout must lie in (0, 0.5], got %1") \
    X(TrainEvalSource, "train.eval_source", "a validation loss on tokens or text data needs a held-out \"path\" or a \"holdout\" fraction, not both") \
    X(TrainEvalSynthetic, "train.eval_synthetic", "synthetic data has its own held-out stream: \"path\" and \"holdout\" need tokens or text data") \
    X(TrainCheckpointDir, "train.ckpt_dir", "a checkpoint interval needs a checkpoint \"dir\"") \
    X(PlanVersionUnsupported, "plan.version_unsupported", "unsupported plan version %1") \
    X(PlanEmptyModel, "plan.empty_model", "the model has no parameters") \
    X(PlanDoesNotFit, "plan.does_not_fit", "does not fit: rank %1 needs %2 at its peak, %3 more than the %4 of a %5") \
    X(PlanTooLarge, "plan.too_large", \
      "the model is too large to estimate: its parameter state could reach %1 bytes per rank, above the 2^62 bytes (4 EiB) shardbench models") \
    X(PlanActivationsTooLarge, "plan.too_large_activations", \
      "micro_batch x seq_len is too large to estimate: activations could reach %1 bytes per rank, above the 2^62 bytes (4 EiB) shardbench models") \
    X(PlanScalarParam, "plan.scalar_param", \
      "parameter \"%1\" is a scalar; fully_shard cannot shard 0-dim parameters (make it 1-D or list it in ignored_params)") \
    X(PlanReshardK, "plan.reshard_k", "reshard_after_forward %1 does not divide the shard group of %2 ranks") \
    X(PlanFp16Cpu, "plan.fp16_cpu", "fp16 compute is not available on cpu; use bf16") \
    X(PlanOffloadCpu, "plan.offload_cpu", "CPU offload has no effect when the device is already the CPU") \
    X(PlanBf16ReduceGloo, "plan.bf16_reduce_gloo", "Gloo (cpu) cannot reduce gradients in bf16; set reduce_dtype to fp32") \
    X(PlanEmptyUnit, "plan.empty_unit", "unit \"%1\" owns no parameters (its children are all units)") \
    X(PlanUnknownModule, "plan.unknown_module", "unknown module \"%1\": the model has no module of that name") \
    X(PlanDuplicateUnit, "plan.duplicate_unit", "%1 is listed as a unit more than once") \
    X(PlanUnknownParam, "plan.unknown_param", "unknown parameter \"%1\"") \
    X(PlanIgnoredOutside, "plan.ignored_outside", "parameter \"%1\" is not inside unit %2, so it cannot ignore it") \
    X(PlanUnitInIgnored, "plan.unit_in_ignored", "unit %1 holds parameter \"%2\", which unit %3 excludes with ignored_params") \
    X(PlanTiedSplit, "plan.tied_split", \
      "parameter \"%1\" is tied to \"%2\" but they fall into different units (%3 and %4); make both modules part of one unit") \
    X(PlanPrefetchUnknown, "plan.prefetch_unknown", "prefetch target \"%1\" is not a shard unit") \
    X(PlanPrefetchSelf, "plan.prefetch_self", "a unit cannot prefetch itself") \
    X(PlanType, "plan.type", "must be a JSON object") \
    X(PlanUnitType, "plan.unit_type", "each unit must be a JSON object") \
    X(PlanUnknownField, "plan.unknown_field", "unknown field \"%1\" is ignored") \
    X(PlanUnknownFields, "plan.unknown_fields", "%1 more unknown fields are ignored") \
    X(PlanInteger, "plan.integer", "%1 must be an integer from %2 to %3, got %4") \
    X(PlanNumber, "plan.number", "%1 must be a number, got %2") \
    X(PlanBool, "plan.bool", "%1 must be true or false, got %2") \
    X(PlanString, "plan.string", "%1 must be a string, got %2") \
    X(PlanStringList, "plan.string_list", "%1 must be an array of strings") \
    X(PlanDtype, "plan.dtype", "unknown dtype %1 (expected fp32, bf16, fp16, fp64 or null)") \
    X(PlanPreset, "plan.preset", "unknown model preset \"%1\" (known: %2)") \
    X(PlanArch, "plan.arch", "unknown architecture \"%1\" (tutorial, gpt2, llama, imported)") \
    X(PlanModuleTree, "plan.module_tree", "an imported model needs its \"module_tree\"") \
    X(PlanDevice, "plan.device", "device must be \"cpu\" or \"cuda\", got \"%1\"") \
    X(PlanMemory, "plan.memory", "%1 must be between 0 and 1e7 GiB") \
    X(PlanWorldSize, "plan.world_size", "world_size %1 does not match the mesh: %2 nodes x %3 processes = %4") \
    X(PlanUnitModule, "plan.unit_module", "each unit needs a string \"module\" (\"\" is the root)") \
    X(PlanReshard, "plan.reshard", "reshard_after_forward must be \"default\", true, false or a positive integer, got %1") \
    X(PlanActivationCheckpointing, "plan.ac", "activation_checkpointing must be \"none\" or \"full\", got %1") \
    X(PlanOptimizer, "plan.optimizer", "only the \"adamw\" optimizer is supported, got \"%1\"") \
    X(PlanBetas, "plan.betas", "betas must be an array of two numbers") \
    X(PlanDataKind, "plan.data_kind", "data kind must be synthetic, tokens or text, got \"%1\"") \
    X(PlanDataDtype, "plan.data_dtype", "token dtype must be auto, uint16 or uint32, got \"%1\"") \
    X(PlanNotObject, "plan.not_object", "a plan must be a JSON object") \
    X(PlanFormat, "plan.format", "not a shardbench plan: \"format\" must be \"shardbench-plan\"") \
    X(PlanVersion, "plan.version", "plan format version %1 is not supported (this build reads version %2)") \
    X(PlanVersionMissing, "plan.version_missing", "missing integer \"version\"") \
    X(PlanUnits, "plan.units", "\"units\" must be an array") \
    X(PlanSyntax, "plan.syntax", "invalid JSON at %1") \
    X(PlanFileUnreadable, "plan.file", "cannot read %1: %2") \
    X(PlanFileTooLarge, "plan.file_size", "%1 is larger than 64 MiB; not a plan") \
    X(PlanControlChar, "plan.control_char", "%1 contains a control character (%2): names and paths are one line of printable text") \
    X(ModelSize, "model.size", "%1 must be between 1 and %2, got %3") \
    X(ModelHeads, "model.heads", "dim %1 is not divisible by n_heads %2") \
    X(ModelKvHeads, "model.kv_heads", "n_heads %1 is not a multiple of n_kv_heads %2") \
    X(ModelGqaArch, "model.gqa_arch", "grouped-query attention (n_kv_heads != n_heads) needs a Llama-form architecture (llama, mistral, qwen2, qwen3)") \
    X(ModelRope, "model.rope", "RoPE needs an even head dimension, got %1") \
    X(ModelRopeScalingType, "model.rope_scaling_type", "RoPE scaling of type \"%1\" is not computed by the training core (it computes \"llama3\")") \
    X(ModelRopeScalingValue, "model.rope_scaling_value", "%1 must be %2, got %3") \
    X(ModelRopeScalingArch, "model.rope_scaling_arch", "RoPE scaling needs a Llama-form architecture (llama, mistral, qwen2, qwen3)") \
    X(ModelFieldArch, "model.field_arch", "%1 needs a Llama-form architecture (llama, mistral, qwen2, qwen3)") \
    X(ModelValue, "model.value", "%1 must be %2, got %3") \
    X(ModelSlidingWindow, "model.sliding_window", "the sequence length %1 exceeds the model's sliding window of %2 tokens; the training core computes full causal attention, not a sliding window") \
    X(TreeNotObject, "tree.not_object", "the module tree must be a JSON object") \
    X(TreeFormat, "tree.format", "not a shardbench module tree (format must be \"shardbench-module-tree\")") \
    X(TreeVersion, "tree.version", "unsupported module-tree version (this build reads version 1)") \
    X(TreeModules, "tree.modules", "\"modules\" must be a non-empty array, root first") \
    X(TreeModule, "tree.module", "each module needs a string \"name\"") \
    X(TreeRoot, "tree.root", "the first module must be the root, named \"\"") \
    X(TreeDuplicate, "tree.duplicate", "module \"%1\" is empty or listed twice") \
    X(TreeOrphan, "tree.orphan", "module \"%1\" appears before its parent \"%2\"") \
    X(TreeParams, "tree.params", "\"params\" must be an array") \
    X(TreeParam, "tree.param", "each parameter needs a non-empty string \"name\"") \
    X(TreeShape, "tree.shape", "\"shape\" must be an array of non-negative integers") \
    X(TreeNumel, "tree.numel", "parameter has more than 2^40 elements") \
    X(TreeDtype, "tree.dtype", "unknown dtype %1 (expected float32, bfloat16, float16 or float64)") \
    X(TreeTie, "tree.tie", "tied_to names unknown parameter \"%1\"") \
    X(TreeTieShape, "tree.tie_shape", "tied parameter shapes differ from \"%1\"")

namespace sb {

enum class ProblemCode { SB_PROBLEM_CATALOGUE(SB_CATALOGUE_ENUMERATOR) };

} // namespace sb
