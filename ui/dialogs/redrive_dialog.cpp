#include "dialogs/redrive_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include "common/protocol_limits.h"
#include "dialogs/create_channel_dialog.h"
#include "models/core_text.h"
#include "widgets/limited_spin_box.h"

namespace qs::ui {

namespace {

// "Up to N": runner::kRedriveMax without its 0 (= all, the first choice).
constexpr Limit<int> kUpTo{runner::kRedriveMax.name, 1, runner::kRedriveMax.max, 100};

constexpr int kTextWidth = 460;

// A wrapped label's height follows its width, which a dialog's layout does
// not ask for: fix both so every line shows.
QLabel* wrappedLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setFixedWidth(kTextWidth);
    label->setMinimumHeight(label->heightForWidth(kTextWidth));
    return label;
}

// "4, 7, 9" (the first five, then "…").
QString listed(const std::vector<std::uint64_t>& sequences) {
    QStringList parts;
    for (std::size_t i = 0; i < sequences.size() && i < 5; ++i) {
        parts << QString::number(sequences[i]);
    }
    if (sequences.size() > 5) {
        parts << QStringLiteral("…");
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace

RedriveDialog::RedriveDialog(const QString& source, const QString& origins, QWidget* parent)
    : QDialog(parent), source_(source), problem_(new QLabel(this)) {
    setWindowTitle(QStringLiteral("Redrive %1").arg(source));
    auto* intro = wrappedLabel(
        QStringLiteral("Move waiting messages of <b>%1</b> to another channel. Each is sent "
                       "to its target first and removed from %1 only once the target took it: "
                       "a message that cannot move, or that you did not choose, stays in %1.")
            .arg(source.toHtmlEscaped()),
        this);
    problem_->setObjectName(QStringLiteral("redriveProblem"));
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->setStyleSheet(QStringLiteral("color:#d93040"));
    problem_->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    redrive_ = buttons->button(QDialogButtonBox::Ok);
    redrive_->setText(QStringLiteral("Redrive"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RedriveDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(buildWhich());
    layout->addWidget(buildWhere(origins));
    layout->addWidget(buildPolicy());
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
}

QWidget* RedriveDialog::buildWhich() {
    auto* box = new QGroupBox(QStringLiteral("Which messages"), this);
    all_ = new QRadioButton(QStringLiteral("&All waiting messages"), box);
    upTo_ = new QRadioButton(QStringLiteral("&Up to"), box);
    upToCount_ = new LimitedSpinBox(kUpTo, box);
    upToCount_->setObjectName(QStringLiteral("redriveUpTo"));
    upToCount_->setValue(kUpTo.defaultValue);
    upToCount_->setSuffix(QStringLiteral(" messages, the oldest first"));
    upToCount_->setEnabled(false);
    selected_ = new QRadioButton(box);
    selected_->setToolTip(QStringLiteral(
        "By sequence. The messages ahead of them are received too (a queue hands out in\n"
        "order) and left unsettled: they stay, with their sequence and receive count."));
    all_->setChecked(true);
    setSelection({});
    connect(upTo_, &QRadioButton::toggled, upToCount_, &QWidget::setEnabled);

    auto* grid = new QGridLayout(box);
    grid->addWidget(all_, 0, 0, 1, 3);
    grid->addWidget(upTo_, 1, 0);
    grid->addWidget(upToCount_, 1, 1);
    // A number typed out of range is said on a row of its own, whole.
    upToCount_->problemLabel()->setWordWrap(false);  // one line: no height-for-width row
    grid->addWidget(upToCount_->problemLabel(), 2, 0, 1, 3);
    grid->addWidget(selected_, 3, 0, 1, 3);
    grid->setColumnStretch(2, 1);
    return box;
}

QWidget* RedriveDialog::buildWhere(const QString& origins) {
    auto* box = new QGroupBox(QStringLiteral("Where to"), this);
    toOrigin_ = new QRadioButton(
        origins.isEmpty() ? QStringLiteral("Each &back to the channel it came from")
                          : QStringLiteral("Each &back to the channel it came from (%1)").arg(origins),
        box);
    toOrigin_->setToolTip(
        QStringLiteral("Its ReRoutedFromQueue attribute. A message without one (never "
                       "dead-lettered) stays and is counted as \"no target\"."));
    toOrigin_->setChecked(true);
    toNamed_ = new QRadioButton(QStringLiteral("All to the &channel:"), box);
    name_ = new QLineEdit(box);
    name_->setObjectName(QStringLiteral("redriveTarget"));
    name_->setPlaceholderText(QStringLiteral("e.g. orders.retry"));
    name_->setEnabled(false);
    connect(toNamed_, &QRadioButton::toggled, this, [this](bool on) {
        name_->setEnabled(on);
        problem_->hide();
        if (on) {
            name_->setFocus();
        }
    });
    connect(name_, &QLineEdit::textEdited, problem_, &QLabel::hide);
    auto* layout = new QGridLayout(box);
    layout->addWidget(toOrigin_, 0, 0, 1, 2);
    layout->addWidget(toNamed_, 1, 0);
    layout->addWidget(name_, 1, 1);
    return box;
}

QWidget* RedriveDialog::buildPolicy() {
    auto* box = new QGroupBox(QStringLiteral("Policy of the moved messages"), this);
    auto* note = wrappedLabel(
        QStringLiteral("KubeMQ keeps no max receive count and no dead-letter queue on a "
                       "dead-lettered copy: sent back as it is, a poison message gets the "
                       "server's %1 receives before it is dead-lettered again.")
            .arg(protocol::kDefaultMaxReceiveCount),
        box);
    restoreMaxReceive_ = new QCheckBox(QStringLiteral("&Max receive count:"), box);
    maxReceive_ = new LimitedSpinBox(protocol::kMaxReceiveCount, box);
    maxReceive_->setObjectName(QStringLiteral("redriveMaxReceiveCount"));
    maxReceive_->setValue(3);
    maxReceive_->setSpecialValueText(
        QStringLiteral("0 (the server's %1)").arg(protocol::kDefaultMaxReceiveCount));
    maxReceive_->setEnabled(false);
    maxReceiveHint_ = new QLabel(box);
    maxReceiveHint_->setObjectName(QStringLiteral("redriveMaxReceiveHint"));
    setKnownMaxReceiveCount(0);
    connect(restoreMaxReceive_, &QCheckBox::toggled, maxReceive_, &QWidget::setEnabled);

    auto* dlqLabel = new QLabel(QStringLiteral("&Dead-letter queue:"), box);
    deadLetterQueue_ = new QLineEdit(box);
    deadLetterQueue_->setObjectName(QStringLiteral("redriveDeadLetterQueue"));
    deadLetterQueue_->setPlaceholderText(source_);
    deadLetterQueue_->setToolTip(QStringLiteral(
        "Empty: a dead-lettered message gets %1, the others keep their own.\n"
        "A name: every moved message gets it.")
                                     .arg(source_));
    auto* dlqHint = wrappedLabel(
        QStringLiteral("Empty: a dead-lettered message gets the channel it is in now, so over "
                       "its max receive count again it comes back here."),
        box);
    dlqHint->setObjectName(QStringLiteral("redriveDeadLetterHint"));
    dlqHint->setEnabled(false);  // greyed: a note, not a value
    dlqLabel->setBuddy(deadLetterQueue_);
    connect(deadLetterQueue_, &QLineEdit::textEdited, problem_, &QLabel::hide);

    // The wrapped texts stay out of the grid: a row's height-for-width there
    // would let the next row draw over them.
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(note);
    auto* grid = new QGridLayout;
    grid->addWidget(restoreMaxReceive_, 0, 0);
    grid->addWidget(maxReceive_, 0, 1);
    grid->addWidget(maxReceiveHint_, 0, 2);
    maxReceive_->problemLabel()->setWordWrap(false);
    grid->addWidget(maxReceive_->problemLabel(), 1, 0, 1, 3);
    grid->addWidget(dlqLabel, 2, 0);
    grid->addWidget(deadLetterQueue_, 2, 1, 1, 2);
    grid->setColumnStretch(2, 1);
    layout->addLayout(grid);
    layout->addWidget(dlqHint);
    return box;
}

void RedriveDialog::setSelection(std::vector<std::uint64_t> sequences, bool choose) {
    selection_ = std::move(sequences);
    if (selection_.empty()) {
        selected_->setText(QStringLiteral("Only the &selected ones (select rows in the peek list)"));
        selected_->setEnabled(false);
        if (selected_->isChecked()) {
            all_->setChecked(true);
        }
        return;
    }
    selected_->setText(QStringLiteral("Only the %1 &selected in the peek list (sequence %2)")
                           .arg(selection_.size())
                           .arg(listed(selection_)));
    selected_->setEnabled(true);
    if (choose) {
        selected_->setChecked(true);
    }
}

void RedriveDialog::setKnownMaxReceiveCount(int count) {
    if (count > 0 && protocol::kMaxReceiveCount.contains(count)) {
        maxReceive_->setValue(count);
        restoreMaxReceive_->setChecked(true);
        maxReceiveHint_->setText(QStringLiteral("as this console sent them"));
    } else {
        maxReceiveHint_->setText(QStringLiteral("not known here: type it"));
    }
}

QString RedriveDialog::target() const {
    return toNamed_->isChecked() ? name_->text() : QString();
}

void RedriveDialog::setTarget(const QString& name) {
    (name.isEmpty() ? toOrigin_ : toNamed_)->setChecked(true);
    name_->setText(name);
}

void RedriveDialog::chooseAll() {
    all_->setChecked(true);
}

void RedriveDialog::chooseUpTo(int max) {
    upTo_->setChecked(true);
    upToCount_->setValue(max);
}

void RedriveDialog::chooseSelected() {
    if (selected_->isEnabled()) {
        selected_->setChecked(true);
    }
}

void RedriveDialog::setMaxReceiveCount(std::optional<int> count) {
    restoreMaxReceive_->setChecked(count.has_value());
    if (count) {
        maxReceive_->setValue(*count);
    }
}

void RedriveDialog::setDeadLetterQueue(const QString& name) {
    deadLetterQueue_->setText(name);
}

runner::RedriveOptions RedriveDialog::options(runner::RedriveOptions base) const {
    base.from = source_.toStdString();
    base.to = target().toStdString();
    base.max = upTo_->isChecked() ? static_cast<std::uint64_t>(upToCount_->value()) : 0;
    base.sequences = selected_->isChecked() ? selection_ : std::vector<std::uint64_t>{};
    base.ids.clear();
    base.maxReceiveCount = restoreMaxReceive_->isChecked()
                               ? std::optional<int>(maxReceive_->value())
                               : std::nullopt;
    const QString dlq = deadLetterQueue_->text();
    base.deadLetterQueue =
        dlq.isEmpty() ? std::nullopt : std::optional<std::string>(dlq.toStdString());
    return base;
}

QString RedriveDialog::problem() const {
    return problem_->isVisibleTo(this) ? problem_->text() : QString();
}

QString RedriveDialog::targetProblem(const QString& source, const QString& target) {
    if (target.isEmpty()) {
        return QStringLiteral("Name the channel to move the messages to.");
    }
    if (const QString bad = CreateChannelDialog::nameProblem(target); !bad.isEmpty()) {
        return bad;
    }
    if (target == source) {
        return QStringLiteral("The target is the channel the messages are in: name another.");
    }
    return {};
}

// The first thing wrong with the form ("" when nothing) and the field to fix.
RedriveDialog::FormProblem RedriveDialog::formProblem() const {
    if (toNamed_->isChecked()) {
        if (QString bad = targetProblem(source_, name_->text()); !bad.isEmpty()) {
            return {bad, name_};
        }
    }
    // A number typed out of its range is not the box's value: say so rather
    // than send the previous one.
    for (LimitedSpinBox* box : {upToCount_, maxReceive_}) {
        if (box->isEnabled() && !box->problem().isEmpty()) {
            return {box->problem(), box};
        }
    }
    const std::string bad = runner::checkRedriveOptions(options({}));
    if (bad.empty()) {
        return {};
    }
    QString sentence = fromView(bad);
    sentence[0] = sentence[0].toUpper();
    return {sentence + QLatin1Char('.'), deadLetterQueue_};
}

void RedriveDialog::showProblem(const QString& text, QWidget* focus) {
    problem_->setText(text);
    problem_->show();
    if (focus != nullptr) {
        focus->setFocus();
    }
}

void RedriveDialog::tryAccept() {
    if (const FormProblem bad = formProblem(); !bad.text.isEmpty()) {
        showProblem(bad.text, bad.field);
        return;
    }
    accept();
}

}  // namespace qs::ui
