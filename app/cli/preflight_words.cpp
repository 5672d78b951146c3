#include "preflight_words.hpp"

#include "probe_text.hpp"
#include "text_format.hpp"

namespace sb::cli {

namespace {

const app::PreflightWording& english()
{
    static const app::PreflightWording w{app::preflightEnglishText,
                                         [](std::uint64_t b) { return humanBytes(static_cast<qint64>(b)); }};
    return w;
}

const char* stateMark(app::Preflight::State s)
{
    switch (s) {
    case app::Preflight::Passed: return "ok  ";
    case app::Preflight::Failed: return "FAIL";
    case app::Preflight::Skipped: return "skip";
    default: return "... ";
    }
}

} // namespace

QString preflightWords(const app::PreflightMessage& message) { return app::formatPreflight(message, english()); }

QString preflightDetailWords(const app::PreflightDetail& detail)
{
    struct Words {
        QString operator()(const app::PreflightMessage& m) const { return preflightWords(m); }
        QString operator()(const Problem& p) const { return QString::fromStdString(formatProblem(p)); }
        QString operator()(const launch::RunConfigProblem& p) const { return launch::runConfigMessage(p); }
        QString operator()(const app::HostProbeResult& r) const { return probeFailure(r); }
        QString operator()(const QString& asIs) const { return asIs; }
    };
    return std::visit(Words{}, detail);
}

void printPreflight(const app::Preflight& p, std::ostream& out)
{
    for (const app::Preflight::Item& i : p.items()) {
        // Summaries and details quote hosts' answers: escaped for the terminal.
        out << "[" << stateMark(i.state) << "] " << preflightWords({i.name}).toStdString() << ": "
            << (i.summary ? terminalSafe(preflightWords(*i.summary)).toStdString() : std::string()) << "\n";
        for (const app::PreflightDetail& d : i.details) out << "       " << terminalSafe(preflightDetailWords(d)).toStdString() << "\n";
    }
}

} // namespace sb::cli
