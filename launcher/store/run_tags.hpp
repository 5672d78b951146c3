// A run's tags as people type them, in the workbench's Tags field and on
// shardbench-cli's command line alike: separated by commas, each trimmed to
// single spaces, empty ones dropped, each kept once in the order given.
#pragma once

#include <QString>
#include <QStringList>

namespace sb::store {

QStringList parseTags(const QString& text);
// `tags` with every tag of `add` not yet in it appended, or every tag of
// `remove` taken out.
QStringList addTags(QStringList tags, const QStringList& add);
QStringList removeTags(QStringList tags, const QStringList& remove);

} // namespace sb::store
