#include "ts_file.hpp"

#include <QFile>
#include <QXmlStreamReader>

namespace sb::gui::test {

QList<TsMessage> readTsFile(const QString& path, QString* error)
{
    QList<TsMessage> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": ") + file.errorString();
        return out;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == u"context") {
            context.clear();
        } else if (name == u"name" && context.isEmpty()) {
            context = xml.readElementText();
        } else if (name == u"message") {
            m = TsMessage{context, {}, {}, {}, xml.attributes().value(QStringLiteral("numerus")) == u"yes"};
        } else if (name == u"source") {
            m.source = xml.readElementText();
        } else if (name == u"translation") {
            m.type = xml.attributes().value(QStringLiteral("type")).toString();
            if (m.numerus)
                while (xml.readNextStartElement()) m.forms << xml.readElementText(); // numerusform
            else
                m.forms << xml.readElementText();
            out << m;
        }
    }
    if (xml.hasError()) *error = path + QStringLiteral(": ") + xml.errorString();
    return out;
}

} // namespace sb::gui::test
