// `shardbench-cli plan --from-hf` on config.json files alone: the published
// configs of six models (data/hf/published) plan to their presets, and what
// the core would compute differently (another model_type, RoPE type,
// activation, biases, experts, dropout, a field nothing reads) is refused,
// naming the field and the file. No Python and no weights: the configs are
// the input. (The weights and transformers' verdict: engine_hf_import.)
#include "engine_support.hpp"

#include "plan/plan_json.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString publishedConfig(const QString& preset)
{
    return qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/tests/engine/data/hf/published/") + preset + QStringLiteral(".json");
}

} // namespace

class TestEngineHfConfig : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    // config.json as the published models ship it (data/hf/published): every
    // field is one the core reads or one that never changes what is computed,
    // and the plan has the preset's parameters.
    void acceptsPublishedConfigs_data()
    {
        QTest::addColumn<QString>("preset");
        for (const char* preset : {"llama3.1-8b", "llama3.2-1b", "qwen2.5-0.5b", "qwen3-0.6b", "mistral-7b", "gpt2-124m"})
            QTest::newRow(preset) << QString::fromLatin1(preset);
    }

    void acceptsPublishedConfigs()
    {
        QFETCH(QString, preset);
        const QString dir = tmp_.filePath(QStringLiteral("published-") + preset);
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(QFile::copy(publishedConfig(preset), dir + QStringLiteral("/config.json")));
        const QString out = dir + QStringLiteral("/p.json");
        const CliOutput o = runCli({QStringLiteral("plan"), QStringLiteral("--from-hf"), dir, QStringLiteral("-o"), out});
        QVERIFY2(o.exitCode == 0, qPrintable(o.text));
        const sb::LoadedPlan lp = sb::loadAndValidate(out.toStdString());
        QVERIFY(lp.ok());
        const std::optional<sb::ModelConfig> want = sb::presetConfig(preset.toStdString());
        QVERIFY(want);
        QCOMPARE(lp.tree->totalParams(), sb::buildModuleTree(*want)->totalParams());
    }

    void refusesConfigsItCannotTrain_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("message");
        QTest::newRow("not JSON") << QByteArray("{\"model_type\": ") << QStringLiteral("invalid JSON");
        QTest::newRow("another model") << QByteArray(R"({"model_type": "bert"})") << QStringLiteral("\"bert\"");
        const QByteArray small = R"("model_type": "llama", "vocab_size": 100, "hidden_size": 64, "intermediate_size": 128, )"
                                 R"("num_hidden_layers": 2, "num_attention_heads": 4, "rms_norm_eps": 1e-5, )";
        QTest::newRow("RoPE scaling yarn") << "{" + small + R"("rope_scaling": {"rope_type": "yarn", "factor": 4.0}})"
                                           << QStringLiteral("in \"rope_scaling\": \"rope_type\" is \"yarn\"");
        QTest::newRow("RoPE scaling yarn (transformers 5)") << "{" + small + R"("rope_parameters": {"rope_type": "yarn", "rope_theta": 1e4}})"
                                                            << QStringLiteral("in \"rope_parameters\": \"rope_type\" is \"yarn\"");
        QTest::newRow("llama3 scaling without factor") << "{" + small + R"("rope_scaling": {"rope_type": "llama3", "low_freq_factor": 1.0,
            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})" << QStringLiteral("\"factor\" is missing");
        QTest::newRow("llama3 scaling factors reversed") << "{" + small + R"("rope_scaling": {"rope_type": "llama3", "factor": 8.0,
            "low_freq_factor": 4.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}})"
                                                         << QStringLiteral("high_freq_factor must be above low_freq_factor");
        QTest::newRow("partial rotary") << "{" + small + R"("rope_parameters": {"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.5}})"
                                        << QStringLiteral("\"partial_rotary_factor\" is 0.5");
        // Shown as given, not as a double cast to an integer out of range.
        QTest::newRow("rope_theta too large") << QByteArray(R"({"model_type": "llama", "vocab_size": 100, "hidden_size": 64, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "rms_norm_eps": 1e-5, "rope_theta": 1e19})")
                                              << QStringLiteral("rope_theta must be between 1 and 1e+12, got 1e+19");
        const QByteArray qwen3 = R"("model_type": "qwen3", "vocab_size": 100, "hidden_size": 64, "intermediate_size": 128, )"
                                 R"("num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32, )";
        QTest::newRow("qwen3 with attention bias") << "{" + qwen3 + R"("attention_bias": true})" << QStringLiteral("\"attention_bias\" is true");
        QTest::newRow("qwen3 with experts") << "{" + qwen3 + R"("num_experts": 8})" << QStringLiteral("\"num_experts\" is set");
        QTest::newRow("qwen2 mixture of experts") << QByteArray(R"({"model_type": "qwen2_moe"})") << QStringLiteral("\"qwen2_moe\"");
        QTest::newRow("llama with MLP bias") << "{" + small + R"("mlp_bias": true})" << QStringLiteral("\"mlp_bias\" is true");
        QTest::newRow("mistral with GELU") << QByteArray(R"({"model_type": "mistral", "vocab_size": 100, "hidden_size": 64, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "hidden_act": "gelu"})") << QStringLiteral("\"hidden_act\" is \"gelu\"");
        // A field nothing reads is refused by name: it may change what is computed.
        QTest::newRow("unknown field") << "{" + small + R"("attn_logit_softcapping": 50.0})"
                                       << QStringLiteral("\"attn_logit_softcapping\" is not a field shardbench knows in a \"llama\" config");
        QTest::newRow("quantized") << "{" + small + R"("quantization_config": {"quant_method": "gptq", "bits": 4}})"
                                   << QStringLiteral("\"quantization_config\" is not a field");
        QTest::newRow("remote code") << "{" + small + R"("auto_map": {"AutoModelForCausalLM": "modeling_x.X"}})"
                                     << QStringLiteral("\"auto_map\" is not a field");
        QTest::newRow("unknown RoPE field") << "{" + small + R"("rope_parameters": {"rope_type": "default", "rope_theta": 1e4, "mrope_section": [16, 24, 24]}})"
                                            << QStringLiteral("\"mrope_section\" is not a field shardbench knows in \"rope_parameters\"");
        QTest::newRow("attention dropout") << "{" + small + R"("attention_dropout": 0.1})" << QStringLiteral("\"attention_dropout\" is 0.1");
        QTest::newRow("encoder-decoder") << "{" + small + R"("is_encoder_decoder": true})" << QStringLiteral("\"is_encoder_decoder\" is true");
        QTest::newRow("pruned heads") << "{" + small + R"("pruned_heads": {"0": [1]}})" << QStringLiteral("\"pruned_heads\" is not empty");
        QTest::newRow("gpt2 scaled by layer") << QByteArray(R"({"model_type": "gpt2", "vocab_size": 100, "n_embd": 32, "n_layer": 2, "n_head": 4,
            "n_positions": 32, "scale_attn_by_inverse_layer_idx": true})") << QStringLiteral("\"scale_attn_by_inverse_layer_idx\" is true");
        QTest::newRow("missing size") << QByteArray(R"({"model_type": "gpt2", "vocab_size": 100, "n_layer": 2, "n_head": 4, "n_positions": 32})")
                                      << QStringLiteral("\"n_embd\"");
        QTest::newRow("heads do not divide") << QByteArray(R"({"model_type": "gpt2", "vocab_size": 100, "n_embd": 30, "n_layer": 2, "n_head": 4, "n_positions": 32})")
                                             << QStringLiteral("config.json");
    }

    void refusesConfigsItCannotTrain()
    {
        QFETCH(QByteArray, config);
        QFETCH(QString, message);
        const QString dir = tmp_.filePath(QStringLiteral("config-%1").arg(QString::fromLatin1(QTest::currentDataTag())).replace(QLatin1Char(' '), QLatin1Char('-')));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(writeText(dir + QStringLiteral("/config.json"), config));
        const CliOutput o = runCli({QStringLiteral("plan"), QStringLiteral("--from-hf"), dir, QStringLiteral("-o"), dir + QStringLiteral("/p.json")});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.text.contains(message) && o.text.contains(QStringLiteral("config.json")), qPrintable(o.text));
        QVERIFY(!QFile::exists(dir + QStringLiteral("/p.json")));
    }
};

QTEST_GUILESS_MAIN(TestEngineHfConfig)
#include "tst_engine_hf_config.moc"
