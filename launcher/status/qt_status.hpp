// The core's error values (core/util/status.hpp: a [[nodiscard]] Status, a
// Result<T>) in the launcher's and the app's Qt code, so that one error style
// runs from the engine to the workbench: an ignored error is a compiler
// warning, never an empty string that looked like success. Messages are
// UTF-8 inside, QString at the edges.
#pragma once

#include "util/status.hpp"

#include <QString>

namespace sb {

inline Status qtError(const QString& message) { return Status::error(message.toStdString()); }
inline QString qtMessage(const Status& s) { return QString::fromStdString(s.message()); }
template <typename T>
QString qtMessage(const Result<T>& r)
{
    return QString::fromStdString(r.error());
}

} // namespace sb
