#include "preflight_model.hpp"

#include "run/preflight.hpp"
#include "text/preflight_text.hpp"

#include <QColor>

namespace sb::gui {

using app::Preflight;

PreflightModel::PreflightModel(Preflight* preflight, QObject* parent) : ColumnTableModel(parent), preflight_(preflight)
{
    connect(preflight_, &Preflight::itemChanged, this, [this](int row) {
        if (rowCount() != Preflight::CheckCount) return;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    });
    connect(preflight_, &Preflight::aboutToStart, this, [this] { beginResetModel(); });
    connect(preflight_, &Preflight::started, this, [this] { endResetModel(); });
}

int PreflightModel::rows() const { return static_cast<int>(preflight_->items().size()); }

QVariant PreflightModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Preflight::Item& item = preflight_->items()[index.row()];
    if (role == StateRole) return static_cast<int>(item.state);
    if (role == StatusColorRole && index.column() == CheckColumn) {
        switch (item.state) {
        case Preflight::Running: return QColor(0x1f, 0x6f, 0xc5);
        case Preflight::Passed: return QColor(0x2e, 0x8b, 0x3e);
        case Preflight::Failed: return QColor(0xc6, 0x28, 0x28);
        default: return QColor(0xb0, 0xb0, 0xb0);
        }
    }
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignLeft | Qt::AlignTop);
    if (role == Qt::ToolTipRole) {
        const QStringList details = preflightDetailLines(item);
        return details.isEmpty() ? preflightSummaryText(item) : details.join(u'\n');
    }
    if (role != Qt::DisplayRole) return {};
    if (index.column() == CheckColumn) return preflightCheckName(item);
    QString text = preflightSummaryText(item);
    for (const QString& d : preflightDetailLines(item)) text += QStringLiteral("\n• ") + d;
    return text;
}

QString PreflightModel::columnTitle(int column) const { return column == CheckColumn ? tr("Check") : tr("Result"); }

QStringList PreflightModel::failures() const
{
    QStringList out;
    for (const Preflight::Item& i : preflight_->items()) {
        if (i.state != Preflight::Failed) continue;
        out << preflightCheckName(i) + QStringLiteral(": ") + preflightSummaryText(i);
        for (const QString& d : preflightDetailLines(i)) out << QStringLiteral("  ") + d;
    }
    return out;
}

} // namespace sb::gui
