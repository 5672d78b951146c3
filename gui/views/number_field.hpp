// A number field that never rewrites what a person typed. A spin box turns
// "1e9" into 19 and "-5" into 5 without a word; this field refuses such text
// visibly (red, with the reason beside the form and in the tooltip), leaves the
// plan as it was, and keeps the text until it is fixed or Esc restores the
// value. It also shows a value the file had but the plan could not hold
// ("eight") as written, marked invalid. Up/Down step whole numbers.
#pragma once

#include <QLineEdit>

class QLabel;

#include <optional>
#include <utility>
#include <vector>

namespace sb::gui {

class NumberField : public QLineEdit {
    Q_OBJECT
public:
    enum Kind { Integer, Real };
    NumberField(const char* objectName, Kind kind, double minimum, double maximum, QWidget* parent = nullptr);

    // Shows `value` (in the current locale). A refused text is kept when the
    // value is the one it replaced, so a refresh does not hide the refusal.
    void setValue(double value);
    // The value the field holds now: its text parsed, or nothing when invalid.
    std::optional<double> value() const;
    // Shows text the plan could not hold, marked invalid for `reason`.
    void showInvalid(const QString& text, const QString& reason);
    // Marks a value that parses but is wrong for another reason (a problem
    // at this field); an empty reason clears the mark.
    void setProblem(const QString& reason);

    // The text shown for `value` when the field is empty ("only at the end").
    void setSpecialValue(double value, const QString& text);
    void setSuffix(const QString& suffix);
    void setDecimals(int significant) { significant_ = significant; }

    bool isInvalid() const { return !reason_.isEmpty(); }
    QString reason() const { return reason_; }

    // Why `text` is not a value of this field, or "" when it is.
    QString refusal(const QString& text) const;

Q_SIGNALS:
    // The person finished editing with a valid value (Enter, focus out, Up/Down).
    void committed(double value);
    void reasonChanged(const QString& reason);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void commit();
    QString format(double value) const;
    std::optional<double> parse(const QString& text) const;
    void mark(const QString& reason);

    Kind kind_;
    double minimum_;
    double maximum_;
    int significant_ = 6;
    std::optional<double> special_;
    QString specialText_;
    QString suffix_;
    double shown_ = 0;      // the last value set
    bool typedInvalid_ = false;
    QString reason_;
    QString problem_;
};

} // namespace sb::gui

namespace sb::gui {

// The reasons of a form's invalid fields, one line each under their caption
// ("Micro-batch: 1e9 is more than 1,048,576, the largest allowed"); hidden
// while every field is valid.
class FieldNotes : public QWidget {
    Q_OBJECT
public:
    explicit FieldNotes(QWidget* parent = nullptr);
    void watch(NumberField* field, QLabel* caption);
    QString text() const;
    // Builds the lines again (after a language change relabels the captions).
    void refresh();

    QLabel* label_;
    std::vector<std::pair<NumberField*, QLabel*>> fields_;
};

} // namespace sb::gui
