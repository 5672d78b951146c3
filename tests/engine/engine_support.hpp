// Shared pieces of the engine suites: tiny plans written to a temporary
// folder, an independent safetensors reader, comparisons.
#pragma once

#include "local_runner.hpp"

#include "plan/plan.hpp"

#include <QHash>
#include <QString>
#include <QTemporaryDir>

#include <vector>

// A small tutorial Transformer whose row counts do not divide 4 (vocab 130,
// max_seq 30), so padding and uneven shards are exercised; two layers unless told.
sb::Plan tinyPlan(int world, int microBatch, int steps = 20, int layers = 2);
// A small model of a preset's architecture on CPU, micro-batch 2, 2 micro-batches:
// Llama (RoPE, RMSNorm, SwiGLU, grouped-query attention: 4 heads, 2 kv) or
// GPT-2 (learned positions, LayerNorm, Conv1D, GELU, tied embeddings).
sb::Plan smallPlan(const char* preset, int world, int steps);
QString writePlan(const QTemporaryDir& dir, const QString& name, const sb::Plan& plan);
// shardbench-cli ARGS: its exit code (-1: crashed or timed out) and its stdout then stderr.
struct CliOutput {
    int exitCode = -1;
    QString text;
};
CliOutput runCli(const QStringList& args);
bool writeText(const QString& path, const QByteArray& text);

struct Tensors {
    QHash<QString, std::vector<float>> values;
    QHash<QString, std::vector<qint64>> shapes;
    QString error;
};
// Parses a .safetensors file by the specification (F32 tensors only).
Tensors readSafetensors(const QString& path);

// The rows that run the Python oracle (the exported script under real FSDP2,
// transformers) are each run once per build of the core. The LibTorch 2.x
// build's suites (scripts/build-torch2.sh sets SB_ORACLE_ROWS=representative)
// run a representative subset of them: the main build runs every row.
bool representativeRowsOnly();
// QTest::newRow(name), or nothing when only representative rows are run and
// this one is not (the data that follows is then not streamed).
#define SB_ORACLE_ROW(representative, name) \
    if (!(representative) && representativeRowsOnly()) { \
    } else \
        QTest::newRow(name)

// `v` in `bytes` little-endian bytes (token files' ids and headers).
QByteArray littleEndian(std::uint64_t v, int bytes);

std::vector<double> losses(const RankResult& rank);
double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b);
double maxAbsoluteDifference(const Tensors& a, const Tensors& b, QString* where = nullptr);
