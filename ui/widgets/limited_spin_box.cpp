#include "widgets/limited_spin_box.h"

#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <string_view>

namespace qs::ui {

namespace {

// The number in a spin box's text without its prefix, suffix and group
// separators.
QString numberPart(const QAbstractSpinBox& box, const QString& prefix, const QString& suffix,
                   QString text) {
    if (!prefix.isEmpty() && text.startsWith(prefix)) {
        text.remove(0, prefix.size());
    }
    if (!suffix.isEmpty() && text.endsWith(suffix)) {
        text.chop(suffix.size());
    }
    text = text.trimmed();
    text.remove(box.locale().groupSeparator());
    return text;
}

// A sign alone is a number being typed.
bool isWholeNumber(const QString& text) {
    static const QRegularExpression re(QStringLiteral("^[+-]?[0-9]*$"));
    return re.match(text).hasMatch();
}

// Limit::problem() with the setting's name capitalised and the typed text as
// the user wrote it (a number too long for any integer type stays readable).
template <typename T>
QString describeProblem(const Limit<T>& limit, const QString& typed) {
    QString name = QString::fromUtf8(limit.name.data(), static_cast<qsizetype>(limit.name.size()));
    if (!name.isEmpty()) {
        name[0] = name[0].toUpper();
    }
    return QStringLiteral("%1 must be %2 (got %3)")
        .arg(name, QString::fromStdString(limit.bounds()), typed);
}

QLabel* makeProblemLabel() {
    auto* label = new QLabel;
    label->setObjectName(QStringLiteral("limitProblem"));
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(QStringLiteral("color:#d93040"));
    label->hide();
    return label;
}

// What both boxes set up alike: the value changes on Enter or leaving the
// field, not per keystroke ("100000" must not pass through 1000, and start 1000
// workers, on its way), and a number out of range keeps the previous value.
void prepareBox(QAbstractSpinBox& box, QLabel& problem, std::string_view settingName) {
    box.setKeyboardTracking(false);
    box.setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
    problem.setAccessibleName(
        QStringLiteral("Limit of ") +
        QString::fromUtf8(settingName.data(), static_cast<qsizetype>(settingName.size())));
}

// A problem label never placed in a layout belongs to its box.
void deleteIfUnplaced(const QPointer<QLabel>& problem) {
    if (problem && !problem->parent()) {
        delete problem.data();
    }
}

void showProblem(QLabel* label, const QString& text) {
    if (!label) {
        return;  // deleted with its layout before the box
    }
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

}  // namespace

LimitedSpinBox::LimitedSpinBox(const Limit<int>& limit, QWidget* parent)
    : QSpinBox(parent), limit_(limit), problem_(makeProblemLabel()) {
    prepareBox(*this, *problem_, limit.name);
    setRange(limit.min, limit.max);
    connect(lineEdit(), &QLineEdit::textEdited, this, &LimitedSpinBox::checkTyped);
    // A value set by the program or by the arrows is in range.
    connect(this, &QSpinBox::valueChanged, this, [this] { showProblem(problem_, {}); });
}

LimitedSpinBox::~LimitedSpinBox() {
    deleteIfUnplaced(problem_);
}

QString LimitedSpinBox::problem() const {
    return problem_ ? problem_->text() : QString();
}

QValidator::State LimitedSpinBox::validate(QString& text, int& pos) const {
    const QValidator::State state = QSpinBox::validate(text, pos);
    if (state != QValidator::Invalid) {
        return state;
    }
    // Out of range, or a minus sign Qt would drop: let it stand while typed.
    return isWholeNumber(numberPart(*this, prefix(), suffix(), text)) ? QValidator::Intermediate
                                                                      : QValidator::Invalid;
}

void LimitedSpinBox::checkTyped(const QString& text) {
    const QString number = numberPart(*this, prefix(), suffix(), text);
    if (!isWholeNumber(number)) {
        showProblem(problem_, {});
        return;
    }
    bool ok = false;
    const qlonglong value = number.toLongLong(&ok);
    const bool signOnly = number.size() == 1 && !number.front().isDigit();
    const bool inside =
        number.isEmpty() || signOnly || (ok && value >= limit_.min && value <= limit_.max);
    showProblem(problem_, inside ? QString() : describeProblem(limit_, number));
}

LimitedDoubleSpinBox::LimitedDoubleSpinBox(const Limit<double>& limit, QWidget* parent)
    : QDoubleSpinBox(parent), limit_(limit), problem_(makeProblemLabel()) {
    prepareBox(*this, *problem_, limit.name);
    setRange(limit.min, limit.max);
    connect(lineEdit(), &QLineEdit::textEdited, this, &LimitedDoubleSpinBox::checkTyped);
    connect(this, &QDoubleSpinBox::valueChanged, this, [this] { showProblem(problem_, {}); });
}

LimitedDoubleSpinBox::~LimitedDoubleSpinBox() {
    deleteIfUnplaced(problem_);
}

QString LimitedDoubleSpinBox::problem() const {
    return problem_ ? problem_->text() : QString();
}

QValidator::State LimitedDoubleSpinBox::validate(QString& text, int& pos) const {
    const QValidator::State state = QDoubleSpinBox::validate(text, pos);
    if (state != QValidator::Invalid) {
        return state;
    }
    bool ok = false;
    const QString number = numberPart(*this, prefix(), suffix(), text);
    locale().toDouble(number, &ok);
    const bool signOnly = number == QStringLiteral("-") || number == QStringLiteral("+");
    return ok || signOnly ? QValidator::Intermediate : QValidator::Invalid;
}

void LimitedDoubleSpinBox::checkTyped(const QString& text) {
    const QString number = numberPart(*this, prefix(), suffix(), text);
    bool ok = false;
    const double value = locale().toDouble(number, &ok);
    const bool inside = !ok || limit_.contains(value);
    showProblem(problem_, inside ? QString() : describeProblem(limit_, number));
}

QWidget* fieldWithProblem(QWidget* field, QLabel* problem) {
    auto* host = new QWidget;
    auto* v = new QVBoxLayout(host);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(field);
    v->addWidget(problem);
    return host;
}

}  // namespace qs::ui
