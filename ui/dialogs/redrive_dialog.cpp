#include "dialogs/redrive_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include "dialogs/create_channel_dialog.h"

namespace qs::ui {

RedriveDialog::RedriveDialog(const QString& source, const QString& origins, QWidget* parent)
    : QDialog(parent),
      source_(source),
      toOrigin_(new QRadioButton(this)),
      toNamed_(new QRadioButton(QStringLiteral("All to the &channel:"), this)),
      name_(new QLineEdit(this)),
      problem_(new QLabel(this)) {
    setWindowTitle(QStringLiteral("Redrive %1").arg(source));
    auto* intro = new QLabel(
        QStringLiteral("Move the waiting messages of <b>%1</b> to another channel. Each is sent "
                       "to its target first and removed from %1 only once the target took it: "
                       "a message that cannot move stays in %1.")
            .arg(source.toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    // A wrapped label's height follows its width, which a dialog's layout does
    // not ask for: fix both so every line shows.
    intro->setFixedWidth(440);
    intro->setMinimumHeight(intro->heightForWidth(440));
    toOrigin_->setText(origins.isEmpty()
                           ? QStringLiteral("Each &back to the channel it came from")
                           : QStringLiteral("Each &back to the channel it came from (%1)")
                                 .arg(origins));
    toOrigin_->setToolTip(
        QStringLiteral("Its ReRoutedFromQueue attribute. A message without one (never "
                       "dead-lettered) stays and is counted as \"no target\"."));
    toOrigin_->setChecked(true);
    name_->setObjectName(QStringLiteral("redriveTarget"));
    name_->setPlaceholderText(QStringLiteral("e.g. orders.retry"));
    name_->setEnabled(false);
    problem_->setObjectName(QStringLiteral("redriveTargetProblem"));
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->setStyleSheet(QStringLiteral("color:#d93040"));
    problem_->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    redrive_ = buttons->button(QDialogButtonBox::Ok);
    redrive_->setText(QStringLiteral("Redrive"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RedriveDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(toNamed_, &QRadioButton::toggled, this, [this](bool on) {
        name_->setEnabled(on);
        problem_->hide();
        if (on) {
            name_->setFocus();
        }
    });
    connect(name_, &QLineEdit::textEdited, problem_, &QLabel::hide);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(toOrigin_);
    layout->addWidget(toNamed_);
    layout->addWidget(name_);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
}

QString RedriveDialog::target() const {
    return toNamed_->isChecked() ? name_->text() : QString();
}

void RedriveDialog::setTarget(const QString& name) {
    (name.isEmpty() ? toOrigin_ : toNamed_)->setChecked(true);
    name_->setText(name);
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

void RedriveDialog::tryAccept() {
    if (toNamed_->isChecked()) {
        if (const QString bad = targetProblem(source_, name_->text()); !bad.isEmpty()) {
            problem_->setText(bad);
            problem_->show();
            name_->setFocus();
            return;
        }
    }
    accept();
}

}  // namespace qs::ui
