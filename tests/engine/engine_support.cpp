#include "engine_support.hpp"

#include "plan/plan_json.hpp"

#include <QFile>
#include <QProcess>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>

#include <cmath>
#include <cstring>

sb::Plan tinyPlan(int world, int microBatch, int steps, int layers)
{
    sb::ModelConfig m;
    m.vocabSize = 130;
    m.dim = 64;
    m.nLayers = layers;
    m.nHeads = 4;
    m.nKvHeads = 4;
    m.ffnHidden = 256;
    m.maxSeqLen = 30;
    sb::Plan p = sb::defaultPlan(m);
    p.mesh.procsPerNode = world;
    p.training.microBatch = microBatch;
    p.training.seqLen = 30;
    p.training.steps = steps;
    p.training.optimizer.lr = 2e-3;
    // AdamW's first steps move every element by about lr * g / (|g| + eps):
    // with eps = 1e-8 an element whose gradient is ~1e-8 turns summation-order
    // noise (1e-7 relative) into 1e-5 differences. eps = 1e-6 keeps the
    // comparison about the sharding, not about that amplification.
    p.training.optimizer.eps = 1e-6;
    p.training.gradClip = 1.0;
    return p;
}

sb::Plan smallPlan(const char* preset, int world, int steps)
{
    sb::ModelConfig m = *sb::presetConfig(preset);
    m.vocabSize = 130;
    m.dim = 64;
    m.nLayers = 2;
    m.nHeads = 4;
    m.nKvHeads = sb::llamaForm(m.arch) ? 2 : 4;
    if (m.explicitHeadDim > 0) m.explicitHeadDim = 32; // Qwen3: not dim / heads, as in the real sizes
    m.ffnHidden = 128;
    m.maxSeqLen = 32;
    sb::Plan p = sb::defaultPlan(m);
    p.mesh = sb::Mesh{};
    p.mesh.device = sb::Device::Cpu;
    p.mesh.procsPerNode = world;
    p.training.microBatch = 2;
    p.training.seqLen = 16;
    p.training.gradAccum = 2;
    p.training.steps = steps;
    p.training.optimizer.lr = 2e-3;
    p.training.gradClip = 1.0;
    return p;
}

QByteArray littleEndian(std::uint64_t v, int bytes)
{
    QByteArray out;
    for (int i = 0; i < bytes; ++i) out.append(static_cast<char>((v >> (8 * i)) & 0xff));
    return out;
}

bool representativeRowsOnly() { return qEnvironmentVariable("SB_ORACLE_ROWS") == QLatin1String("representative"); }

CliOutput runCli(const QStringList& args)
{
    QProcess p;
    p.start(LocalRunner::cliPath(), args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError())};
}

bool writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

QString writePlan(const QTemporaryDir& dir, const QString& name, const sb::Plan& plan)
{
    const QString path = dir.filePath(name);
    return sb::savePlanFile(plan, path.toStdString()).ok() ? path : QString();
}

Tensors readSafetensors(const QString& path)
{
    Tensors t;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        t.error = QStringLiteral("cannot open ") + path;
        return t;
    }
    const QByteArray all = f.readAll();
    if (all.size() < 8) {
        t.error = QStringLiteral("truncated");
        return t;
    }
    quint64 n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(all[i]);
    if (8 + n > static_cast<quint64>(all.size()) || (8 + n) % 8 != 0) {
        t.error = QStringLiteral("bad header length or alignment");
        return t;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(all.mid(8, static_cast<int>(n)));
    if (!doc.isObject()) {
        t.error = QStringLiteral("header is not a JSON object");
        return t;
    }
    const QJsonObject header = doc.object();
    const char* data = all.constData() + 8 + n;
    const qint64 dataSize = all.size() - 8 - static_cast<qint64>(n);
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == QStringLiteral("__metadata__")) continue;
        const QJsonObject e = it.value().toObject();
        if (e.value(QStringLiteral("dtype")).toString() != QStringLiteral("F32")) {
            t.error = QStringLiteral("unexpected dtype for ") + it.key();
            return t;
        }
        const QJsonArray offs = e.value(QStringLiteral("data_offsets")).toArray();
        const qint64 b = offs.at(0).toInteger(), end = offs.at(1).toInteger();
        std::vector<qint64> shape;
        qint64 numel = 1;
        for (const QJsonValue& d : e.value(QStringLiteral("shape")).toArray()) {
            shape.push_back(d.toInteger());
            numel *= d.toInteger();
        }
        if (end - b != numel * 4 || end > dataSize || b < 0) {
            t.error = QStringLiteral("offsets of ") + it.key() + QStringLiteral(" do not match shape");
            return t;
        }
        std::vector<float> v(static_cast<std::size_t>(numel));
        std::memcpy(v.data(), data + b, static_cast<std::size_t>(numel) * 4);
        t.values.insert(it.key(), std::move(v));
        t.shapes.insert(it.key(), shape);
    }
    return t;
}

std::vector<double> losses(const RankResult& rank)
{
    std::vector<double> out;
    for (const QJsonObject& e : rank.ofType(QStringLiteral("step"))) out.push_back(e.value(QStringLiteral("loss")).toDouble());
    return out;
}

double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size() || a.empty()) return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(1e-12, std::abs(b[i])));
    return worst;
}

double maxAbsoluteDifference(const Tensors& a, const Tensors& b, QString* where)
{
    if (a.values.size() != b.values.size() || a.values.isEmpty()) return INFINITY;
    double worst = 0;
    for (auto it = a.values.begin(); it != a.values.end(); ++it) {
        auto other = b.values.find(it.key());
        if (other == b.values.end() || other->size() != it->size()) return INFINITY;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const double d = std::abs(static_cast<double>((*it)[i]) - static_cast<double>((*other)[i]));
            if (d > worst) {
                worst = d;
                if (where) *where = it.key();
            }
        }
    }
    return worst;
}
