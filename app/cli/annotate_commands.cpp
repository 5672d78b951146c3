#include "annotate_commands.hpp"

#include "args.hpp"
#include "attach_commands.hpp"
#include "command_exit.hpp"
#include "store_option.hpp"
#include "text_format.hpp"

#include "store/run_reader.hpp"
#include "store/run_tags.hpp"
#include "store/sqlite_run_store.hpp"

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>

#include <unistd.h>

namespace sb::cli {

const char* const kRenameUsage = "shardbench-cli rename RUN NAME [--db FILE]   (NAME \"\" clears it)";
const char* const kTagUsage = "shardbench-cli tag RUN [TAG[,TAG...]...] [--remove] [--clear] [--db FILE]";
const char* const kNoteUsage = "shardbench-cli note RUN TEXT [--db FILE]   (TEXT - reads standard input; \"\" clears it)";
const char* const kDeleteUsage = "shardbench-cli delete RUN... [--yes] [--db FILE]";

namespace {

constexpr std::size_t kMaxNote = 64 * 1024;

std::string s(const QString& q) { return q.toStdString(); }

struct FoundRuns {
    std::unique_ptr<store::RunReader> reader;
    QList<store::RunRow> runs;
};

// The runs `refs` name (id, uid, uid prefix or name), each once, or an error on `err`.
std::optional<FoundRuns> findRuns(const Args& a, const std::vector<std::string>& refs, const char* cmd, std::ostream& err)
{
    Result<std::unique_ptr<store::RunReader>> opened = store::RunReader::open(storePathOption(a));
    if (!opened) {
        err << "shardbench-cli " << cmd << ": " << s(qtMessage(opened)) << "\n";
        return std::nullopt;
    }
    std::unique_ptr<store::RunReader> reader = std::move(opened).value();
    QList<store::RunRow> runs;
    for (const std::string& ref : refs) {
        std::optional<store::RunRow> run = reader->findRun(q(ref));
        if (!run) {
            err << "shardbench-cli " << cmd << ": " << s(terminalSafe(reader->lastError())) << "\n";
            return std::nullopt;
        }
        bool seen = false;
        for (const store::RunRow& r : runs) seen = seen || r.id == run->id;
        if (!seen) runs << *run;
    }
    return FoundRuns{std::move(reader), runs};
}

int write(const Args& a, const char* cmd, std::ostream& err, const std::function<void(store::SqliteRunStore&)>& change)
{
    Result<std::unique_ptr<store::SqliteRunStore>> writer = store::SqliteRunStore::open(storePathOption(a));
    Status written = writer.status();
    if (writer) {
        change(*writer.value());
        written = writer.value()->flush();
    }
    if (!written) {
        err << "shardbench-cli " << cmd << ": the run store cannot be written: " << written.message() << "\n";
        return kExitFailed;
    }
    return kExitOk;
}

QString quoted(const QString& text) { return QLatin1Char('"') + text + QLatin1Char('"'); }

QString runLabel(const store::RunRow& r)
{
    // Names come from the store: escaped for the terminal (text_format.hpp).
    return r.name.isEmpty() ? QStringLiteral("run %1").arg(r.id) : QStringLiteral("run %1 %2").arg(r.id).arg(quoted(terminalSafe(r.name)));
}

} // namespace

int cmdRename(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db"}, {});
    if (!a.ok()) return usageError(err, "rename", a.error(), kRenameUsage);
    if (a.positional().size() != 2) return usageError(err, "rename", "expected a run and its new name", kRenameUsage);
    const QString name = q(a.positional()[1]).simplified(); // one line, as the Runs table shows it
    auto found = findRuns(a, {a.positional()[0]}, "rename", err);
    if (!found) return kExitBadInput;
    const store::RunRow& run = found->runs.front();
    store::RunUpdate u;
    u.runId = run.id;
    u.name = name;
    if (const int rc = write(a, "rename", err, [&](store::SqliteRunStore& w) { w.updateRun(u); })) return rc;
    out << s(runLabel(run)) << (name.isEmpty() ? " has no name now" : " is now " + s(quoted(terminalSafe(name)))) << "\n";
    return kExitOk;
}

int cmdTag(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db"}, {"--remove", "--clear"});
    if (!a.ok()) return usageError(err, "tag", a.error(), kTagUsage);
    if (a.positional().empty()) return usageError(err, "tag", "expected a run", kTagUsage);
    QStringList given;
    for (std::size_t i = 1; i < a.positional().size(); ++i) given = store::addTags(given, store::parseTags(q(a.positional()[i])));
    if (a.has("--clear") && (a.has("--remove") || !given.isEmpty()))
        return usageError(err, "tag", "--clear takes no tags and no --remove", kTagUsage);
    if (a.has("--remove") && given.isEmpty()) return usageError(err, "tag", "--remove needs the tags to remove", kTagUsage);
    auto found = findRuns(a, {a.positional()[0]}, "tag", err);
    if (!found) return kExitBadInput;
    const store::RunRow& run = found->runs.front();
    const QStringList tags = a.has("--clear")  ? QStringList()
                             : a.has("--remove") ? store::removeTags(run.tags, given)
                                                 : store::addTags(run.tags, given);
    if (tags != run.tags || a.has("--clear")) {
        store::RunUpdate u;
        u.runId = run.id;
        u.tags = tags;
        if (const int rc = write(a, "tag", err, [&](store::SqliteRunStore& w) { w.updateRun(u); })) return rc;
    }
    out << s(runLabel(run)) << (tags.isEmpty() ? ": no tags" : ": tags " + s(terminalSafe(tags.join(QStringLiteral(", "))))) << "\n";
    return kExitOk;
}

int cmdNote(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) { return cmdNote(argv, std::cin, out, err); }

int cmdNote(const std::vector<std::string>& argv, std::istream& in, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db"}, {});
    if (!a.ok()) return usageError(err, "note", a.error(), kNoteUsage);
    if (a.positional().size() != 2) return usageError(err, "note", "expected a run and the note (- reads it from standard input)", kNoteUsage);
    auto found = findRuns(a, {a.positional()[0]}, "note", err);
    if (!found) return kExitBadInput;
    QString text = q(a.positional()[1]);
    if (text == QLatin1String("-")) {
        // Standard input, up to kMaxNote bytes: a note, not a file (nor /dev/zero).
        std::string read(kMaxNote + 1, '\0');
        in.read(read.data(), static_cast<std::streamsize>(read.size()));
        read.resize(static_cast<std::size_t>(in.gcount()));
        if (read.size() > kMaxNote)
            return usageError(err, "note", "the note on standard input is longer than " + std::to_string(kMaxNote) + " bytes (nothing was saved)", kNoteUsage);
        text = q(read);
    }
    text = text.trimmed();
    const store::RunRow& run = found->runs.front();
    store::RunUpdate u;
    u.runId = run.id;
    u.notes = text;
    if (const int rc = write(a, "note", err, [&](store::SqliteRunStore& w) { w.updateRun(u); })) return rc;
    out << s(runLabel(run)) << (text.isEmpty() ? ": note cleared" : ": note saved (" + std::to_string(text.size()) + " characters)") << "\n";
    return kExitOk;
}

int cmdDelete(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    return cmdDelete(argv, std::cin, ::isatty(STDIN_FILENO) == 1, out, err);
}

int cmdDelete(const std::vector<std::string>& argv, std::istream& in, bool inIsTerminal, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db"}, {"--yes"});
    if (!a.ok()) return usageError(err, "delete", a.error(), kDeleteUsage);
    if (a.positional().empty()) return usageError(err, "delete", "expected one or more runs", kDeleteUsage);
    auto found = findRuns(a, a.positional(), "delete", err);
    if (!found) return kExitBadInput;
    const QList<store::RunRow>& runs = found->runs;
    for (const store::RunRow& r : runs)
        // A detached run whose directory and supervisor are gone is recorded failed first: nothing of it runs.
        if (r.mayStillRun() && !(r.isDetached() && settleVanishedRun(storePathOption(a), r, err))) {
            err << "shardbench-cli delete: " << s(runLabel(r)) << " is " << s(terminalSafe(r.status))
                << (r.isDetached() ? " on its cluster" : "") << ": stop it before deleting it (nothing was deleted)\n";
            return kExitBadInput;
        }
    if (!a.has("--yes")) {
        if (!inIsTerminal) {
            err << "shardbench-cli delete: deleting " << runs.size() << (runs.size() == 1 ? " run" : " runs")
                << " needs --yes when there is no terminal to ask on (nothing was deleted)\n";
            return kExitBadInput;
        }
        for (const store::RunRow& r : runs)
            err << "  " << s(runLabel(r)) << ": " << s(terminalSafe(r.status)) << ", " << std::max(r.stepsDone, 0) << " steps, uid "
                << s(terminalSafe(r.uid)) << "\n";
        err << "Delete " << (runs.size() == 1 ? "this run" : "these runs")
            << " and their records (metrics, logs, events)? Checkpoint files stay on disk. [y/N] " << std::flush;
        std::string answer;
        std::getline(in, answer);
        if (answer != "y" && answer != "Y" && answer != "yes") {
            out << "nothing deleted\n";
            return kExitOk;
        }
    }
    // The checkpoints each run reported, said once the rows that knew them are gone.
    QList<QStringList> kept;
    for (const store::RunRow& r : runs) {
        QStringList paths;
        for (const store::CheckpointRecord& c : found->reader->checkpoints(r.id))
            if (!paths.contains(c.path)) paths << c.path;
        kept << paths;
    }
    found->reader.reset();
    if (const int rc = write(a, "delete", err, [&](store::SqliteRunStore& w) {
            for (const store::RunRow& r : runs) w.deleteRun({r.id});
        }))
        return rc;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        out << "deleted " << s(runLabel(runs[i])) << "\n";
        for (const QString& path : kept[i]) out << "  its checkpoint stays on disk: " << s(terminalSafe(path)) << "\n";
    }
    return kExitOk;
}

} // namespace sb::cli
