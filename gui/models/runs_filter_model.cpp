#include "runs_filter_model.hpp"

#include "runs_model.hpp"

#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>

namespace sb::gui {

namespace {
// A number as typed: "3e-4", "0.5", or in the locale ("0,5").
std::optional<double> parseNumber(const QString& text)
{
    bool ok = false;
    double v = QLocale::c().toDouble(text, &ok);
    if (!ok) v = QLocale().toDouble(text, &ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

bool compare(double value, const QString& op, double bound)
{
    if (op == QLatin1String("<")) return value < bound;
    if (op == QLatin1String(">")) return value > bound;
    if (op == QLatin1String("<=")) return value <= bound;
    if (op == QLatin1String(">=")) return value >= bound;
    return std::abs(value - bound) <= 1e-9 * std::max(1.0, std::abs(bound));
}
} // namespace

RunsFilterProxy::RunsFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(RunsModel::SortRole);
    setDynamicSortFilter(true);
}

void RunsFilterProxy::setText(const QString& text)
{
    if (text == text_) return;
    text_ = text;
    terms_.clear();
    static const QRegularExpression term(QStringLiteral(R"((?:^|\s)([A-Za-z]+)(<=|>=|:|=|<|>)(\S+))"));
    QString plain = text;
    QRegularExpressionMatchIterator it = term.globalMatch(text);
    QList<QRegularExpressionMatch> found;
    while (it.hasNext()) found << it.next();
    for (auto m = found.rbegin(); m != found.rend(); ++m) {
        const int column = RunsModel::columnOfKey(m->captured(1));
        if (column < 0) continue; // "ratio:1" is plain text
        terms_.prepend({column, m->captured(2), m->captured(3)});
        plain.remove(m->capturedStart(0), m->capturedLength(0));
    }
    plain_ = plain.simplified();
    invalidateFilter();
}

void RunsFilterProxy::setStatus(const QString& storedStatus)
{
    if (storedStatus == status_) return;
    status_ = storedStatus;
    invalidateFilter();
}

bool RunsFilterProxy::acceptsTerm(int sourceRow, const RunsFieldTerm& term) const
{
    const QModelIndex i = sourceModel()->index(sourceRow, term.column);
    if (term.op == QLatin1String(":")) return i.data().toString().contains(term.text, Qt::CaseInsensitive);
    const QVariant value = i.data(RunsModel::ValueRole);
    if (!value.isValid()) return false;
    const std::optional<double> bound = parseNumber(term.text);
    if (RunsModel::isNumeric(term.column) && bound) return compare(value.toDouble(), term.op, *bound);
    // Text columns: "=" is the whole text, ignoring case; no order.
    return term.op == QLatin1String("=") && value.toString().compare(term.text, Qt::CaseInsensitive) == 0;
}

bool RunsFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const QAbstractItemModel* m = sourceModel();
    if (!status_.isEmpty() && m->index(sourceRow, 0).data(RunsModel::StatusRole).toString() != status_) return false;
    for (const RunsFieldTerm& t : terms_)
        if (!acceptsTerm(sourceRow, t)) return false;
    if (plain_.isEmpty()) return true;
    for (int c : {RunsModel::IdColumn, RunsModel::NameColumn, RunsModel::TagsColumn, RunsModel::StatusColumn, RunsModel::ReasonColumn,
                  RunsModel::PlanColumn, RunsModel::ReshardColumn, RunsModel::ParamDtypeColumn, RunsModel::ReduceDtypeColumn})
        if (m->index(sourceRow, c).data().toString().contains(plain_, Qt::CaseInsensitive)) return true;
    // The notes too: they are the name's tooltip.
    return m->index(sourceRow, RunsModel::NameColumn).data(Qt::ToolTipRole).toString().contains(plain_, Qt::CaseInsensitive);
}

} // namespace sb::gui
