#include "number_field.hpp"

#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPalette>
#include <QVBoxLayout>

#include <cmath>

namespace sb::gui {

NumberField::NumberField(const char* objectName, Kind kind, double minimum, double maximum, QWidget* parent)
    : QLineEdit(parent), kind_(kind), minimum_(minimum), maximum_(maximum)
{
    setObjectName(QString::fromLatin1(objectName));
    setProperty("invalid", false);
    connect(this, &QLineEdit::editingFinished, this, &NumberField::commit);
}

QString NumberField::format(double value) const
{
    if (special_ && value == *special_) return {};
    const QLocale locale;
    const QString number = kind_ == Integer ? locale.toString(static_cast<qlonglong>(std::llround(value)))
                                            : locale.toString(value, 'g', significant_);
    return number + suffix_;
}

std::optional<double> NumberField::parse(const QString& text) const
{
    QString t = text.trimmed();
    const QString suffix = suffix_.trimmed();
    if (!suffix.isEmpty() && t.endsWith(suffix)) t = t.chopped(suffix.size()).trimmed();
    if (t.isEmpty()) return special_;
    const QLocale locale;
    bool ok = false;
    if (kind_ == Integer) {
        const qlonglong n = locale.toLongLong(t, &ok);
        return ok ? std::optional<double>(static_cast<double>(n)) : std::nullopt;
    }
    const double x = locale.toDouble(t, &ok);
    return ok && std::isfinite(x) ? std::optional<double>(x) : std::nullopt;
}

QString NumberField::refusal(const QString& text) const
{
    const QString shown = text.trimmed();
    if (shown.isEmpty() && !special_) return tr("a value is needed");
    std::optional<double> v = parse(text);
    if (!v && kind_ == Integer) {
        // "1e9" or "2.5": a number, but not written as a whole number.
        bool ok = false;
        const double x = QLocale().toDouble(shown, &ok);
        if (!ok || !std::isfinite(x)) return tr("\"%1\" is not a number").arg(shown);
        if (x != std::floor(x)) return tr("%1 is not a whole number").arg(shown);
        if (x >= minimum_ && x <= maximum_) return tr("write %1 in digits: %2").arg(shown, format(x));
        v = x;
    }
    if (!v) return tr("\"%1\" is not a number").arg(shown);
    if (*v < minimum_) return tr("%1 is less than %2, the smallest allowed").arg(shown, format(minimum_));
    if (*v > maximum_) return tr("%1 is more than %2, the largest allowed").arg(shown, format(maximum_));
    return {};
}

std::optional<double> NumberField::value() const
{
    if (!refusal(text()).isEmpty()) return std::nullopt;
    return parse(text());
}

void NumberField::mark(const QString& reason)
{
    QPalette p = palette();
    p.setColor(QPalette::Base, reason.isEmpty() ? QPalette().color(QPalette::Base) : QColor(0xfd, 0xe2, 0xe0));
    setPalette(p);
    setToolTip(reason);
    setProperty("invalid", !reason.isEmpty());
    if (reason == reason_) return;
    reason_ = reason;
    Q_EMIT reasonChanged(reason);
}

void NumberField::setValue(double value)
{
    if (typedInvalid_ && value == shown_) return;
    shown_ = value;
    typedInvalid_ = false;
    const QString text = format(value);
    if (this->text() != text) setText(text);
    setModified(false);
    const QString outOfRange = refusal(text);
    mark(outOfRange.isEmpty() ? problem_ : outOfRange);
}

void NumberField::showInvalid(const QString& text, const QString& reason)
{
    typedInvalid_ = false;
    shown_ = std::nan("");
    setText(text);
    setModified(false);
    mark(reason);
}

void NumberField::setProblem(const QString& reason)
{
    problem_ = reason;
    if (!typedInvalid_) mark(reason);
}

void NumberField::setSpecialValue(double value, const QString& text)
{
    special_ = value;
    specialText_ = text;
    setPlaceholderText(text);
}

void NumberField::setSuffix(const QString& suffix) { suffix_ = suffix; }

void NumberField::commit()
{
    if (!isModified()) return;
    const QString why = refusal(text());
    if (!why.isEmpty()) {
        typedInvalid_ = true;
        mark(why);
        return;
    }
    const double v = *parse(text());
    typedInvalid_ = false;
    shown_ = v;
    setText(format(v));
    setModified(false);
    mark(problem_);
    Q_EMIT committed(v);
}

void NumberField::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && (typedInvalid_ || isModified())) {
        typedInvalid_ = false;
        if (!std::isnan(shown_)) setValue(shown_);
        return;
    }
    if (kind_ == Integer && (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down)) {
        const double from = parse(text()).value_or(std::isnan(shown_) ? minimum_ : shown_);
        const double to = std::clamp(from + (event->key() == Qt::Key_Up ? 1.0 : -1.0), minimum_, maximum_);
        setText(format(to));
        setModified(true);
        commit();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

void NumberField::changeEvent(QEvent* event)
{
    // Another language writes numbers differently: show the same value its way.
    if (event->type() == QEvent::LocaleChange && !typedInvalid_ && !std::isnan(shown_)) setText(format(shown_));
    if (event->type() == QEvent::LanguageChange && typedInvalid_) mark(refusal(text()));
    QLineEdit::changeEvent(event);
}

FieldNotes::FieldNotes(QWidget* parent) : QWidget(parent), label_(new QLabel)
{
    setObjectName(QStringLiteral("fieldNotes"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    label_->setWordWrap(true);
    label_->setStyleSheet(QStringLiteral("color: #b71c1c"));
    hide();
}

void FieldNotes::watch(NumberField* field, QLabel* caption)
{
    fields_.emplace_back(field, caption);
    connect(field, &NumberField::reasonChanged, this, &FieldNotes::refresh);
    refresh();
}

QString FieldNotes::text() const { return label_->text(); }

void FieldNotes::refresh()
{
    QStringList lines;
    for (const auto& [field, caption] : fields_)
        if (field->isInvalid()) lines << tr("%1: %2").arg(caption->text(), field->reason());
    label_->setText(lines.join(u'\n'));
    setVisible(!lines.isEmpty());
}

} // namespace sb::gui
