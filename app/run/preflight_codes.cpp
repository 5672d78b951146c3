#include "run/preflight_codes.hpp"

#include "plan/problem_catalogue.hpp"

namespace sb::app {

const std::vector<PreflightTemplate>& preflightCatalogue()
{
    using Code = PreflightCode;
    static const std::vector<PreflightTemplate> rows{SB_PREFLIGHT_CATALOGUE(SB_CATALOGUE_ROW)};
    return rows;
}

const PreflightTemplate& preflightTemplate(PreflightCode code)
{
    return catalogueRow(preflightCatalogue(), code);
}

std::optional<PreflightCode> preflightCodeNamed(std::string_view name)
{
    return codeNamed(preflightCatalogue(), name);
}

PreflightArg PreflightArg::bytes(std::uint64_t v)
{
    PreflightArg a(0);
    a.kind_ = Kind::Bytes;
    a.bytes_ = v;
    return a;
}

PreflightArg PreflightArg::list(std::vector<PreflightMessage> items)
{
    PreflightArg a(0);
    a.kind_ = Kind::List;
    a.items_ = std::move(items);
    return a;
}

namespace {

QString argWords(const PreflightArg& arg, const PreflightWording& wording)
{
    switch (arg.kind()) {
    case PreflightArg::Kind::Integer: return QString::number(arg.integer());
    case PreflightArg::Kind::Bytes: return wording.bytes(arg.byteCount());
    case PreflightArg::Kind::Text: return arg.text();
    case PreflightArg::Kind::List: {
        QStringList parts;
        for (const PreflightMessage& m : arg.items()) parts << formatPreflight(m, wording);
        return parts.join(QStringLiteral(", "));
    }
    }
    return {};
}

} // namespace

QString formatPreflight(const PreflightMessage& message, const PreflightWording& wording)
{
    std::vector<std::string> words;
    words.reserve(message.args.size());
    for (const PreflightArg& a : message.args) words.push_back(argWords(a, wording).toStdString());
    return QString::fromStdString(fillTemplate(wording.text(message.code, message.n).toStdString(), words));
}

QString preflightEnglishText(PreflightCode code, int n)
{
    QString text = QString::fromUtf8(preflightTemplate(code).text);
    if (n < 0) return text;
    return text.replace(QStringLiteral("%n"), QString::number(n))
        .replace(QStringLiteral("(s)"), n == 1 ? QString() : QStringLiteral("s"));
}

} // namespace sb::app
