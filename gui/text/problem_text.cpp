#include "problem_text.hpp"

#include "problem_templates.hpp"

#include "plan/problem_catalogue.hpp"

#include <QCoreApplication>

#include <cstring>

namespace sb::gui {

namespace {

struct ProblemText {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::ProblemText)
};

constexpr const char* kContext = "sb::gui::ProblemText";

} // namespace

QString fillTemplate(const QString& text, const QStringList& args)
{
    QString out;
    out.reserve(text.size() + 32);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'%' && i + 1 < text.size() && text.at(i + 1) >= u'1' && text.at(i + 1) <= u'9') {
            const int n = text.at(i + 1).digitValue();
            if (n <= args.size()) {
                out += args.at(n - 1);
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

QString problemSourceTemplate(ProblemCode code)
{
    const char* name = problemTemplate(code).name;
    for (const ProblemTextTemplate& t : problemTextTemplates())
        if (std::strcmp(t.code, name) == 0) return QString::fromUtf8(t.text);
    return {};
}

QString problemArgText(const ProblemArg& arg)
{
    switch (arg.kind()) {
    case ProblemArg::Kind::Integer: return QString::number(arg.integer());
    case ProblemArg::Kind::Real: return QString::number(arg.real(), 'e', 2);
    case ProblemArg::Kind::Text: return QString::fromStdString(arg.text());
    case ProblemArg::Kind::Unit:
        return arg.text().empty() ? ProblemText::tr("the root") : ProblemText::tr("\"%1\"").arg(QString::fromStdString(arg.text()));
    }
    return {};
}

QString problemText(const Problem& p)
{
    const QString source = problemSourceTemplate(p.code);
    if (source.isEmpty()) return QString::fromStdString(p.message()); // a code the GUI's list lacks: the test says which
    QStringList args;
    for (const ProblemArg& a : p.args) args << problemArgText(a);
    return fillTemplate(QCoreApplication::translate(kContext, source.toUtf8().constData()), args);
}

QString severityText(Severity s)
{
    return s == Severity::Error ? ProblemText::tr("Error") : ProblemText::tr("Warning");
}

QString runConfigProblemText(const launch::RunConfigProblem& p)
{
    const std::vector<ProblemTextTemplate>& rows = runConfigTextTemplates();
    const auto row = static_cast<std::size_t>(p.code);
    if (row >= rows.size()) return launch::runConfigMessage(p); // the copy is behind the catalogue: English
    QStringList args;
    for (const ProblemArg& a : p.args) args << problemArgText(a);
    return fillTemplate(QCoreApplication::translate("sb::gui::RunConfigText", rows[row].text), args);
}

} // namespace sb::gui
