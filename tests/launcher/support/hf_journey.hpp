// The journey suites' Python side (hf_journey.py under $SB_PYTHON): a tiny
// Qwen3 and Llama 3.2 saved by transformers with Megatron token files, and
// transformers' validation loss of an exported folder.
#pragma once

#include <QString>
#include <QStringList>

namespace sb::test {

// "" when $SB_PYTHON imports numpy, torch and transformers; else why not.
QString transformersMissing();
// hf_journey.py ARGS: its standard output, or a null string (and a warning
// with its output) when it failed.
QString hfJourney(const QStringList& args);

} // namespace sb::test

// In initTestCase: fails on CI (which must have the environment), skips elsewhere.
#define SB_REQUIRE_TRANSFORMERS()                                                                                   \
    do {                                                                                                             \
        const QString missing = sb::test::transformersMissing();                                                     \
        if (!missing.isEmpty() && qEnvironmentVariableIsSet("CI")) QFAIL(qPrintable(missing));                       \
        if (!missing.isEmpty()) QSKIP(qPrintable(missing));                                                          \
    } while (false)
