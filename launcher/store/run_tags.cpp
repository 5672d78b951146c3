#include "run_tags.hpp"

namespace sb::store {

QStringList parseTags(const QString& text)
{
    QStringList out;
    for (const QString& part : text.split(u',')) {
        const QString tag = part.simplified();
        if (!tag.isEmpty() && !out.contains(tag)) out << tag;
    }
    return out;
}

QStringList addTags(QStringList tags, const QStringList& add)
{
    for (const QString& t : add)
        if (!tags.contains(t)) tags << t;
    return tags;
}

QStringList removeTags(QStringList tags, const QStringList& remove)
{
    for (const QString& t : remove) tags.removeAll(t);
    return tags;
}

} // namespace sb::store
