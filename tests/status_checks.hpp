// Qt Test checks of the core's Status and Result<T> (core/util/status.hpp):
// the check fails with the error's own message.
#pragma once

#include "util/status.hpp"

#include <QTest>

namespace sb::status_checks {
inline const char* messageOf(const Status& s) { return s.message().c_str(); }
template <typename T>
const char* messageOf(const Result<T>& r)
{
    return r.error().c_str();
}
} // namespace sb::status_checks

// Fails the test function with the message of `expr` (a Status or a Result) when it is an error.
#define SB_VERIFY_OK(expr)                                                 \
    do {                                                                   \
        const auto& sbChecked_ = (expr);                                   \
        QVERIFY2(sbChecked_.ok(), ::sb::status_checks::messageOf(sbChecked_));     \
    } while (false)
