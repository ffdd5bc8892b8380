#include "dialogs/create_channel_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "client/argument_checks.h"

namespace qs::ui {

CreateChannelDialog::CreateChannelDialog(QWidget* parent)
    : QDialog(parent), name_(new QLineEdit(this)), problem_(new QLabel(this)) {
    setWindowTitle(QStringLiteral("Create queue channel"));
    name_->setObjectName(QStringLiteral("channelName"));
    name_->setPlaceholderText(QStringLiteral("e.g. tasks.images"));
    name_->setToolTip(QStringLiteral(
        "Queue channel name: no spaces, no wildcards '*' or '>', not ending with '.'."));
    problem_->setObjectName(QStringLiteral("channelNameProblem"));
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->setStyleSheet(QStringLiteral("color:#d93040"));
    problem_->hide();

    auto* label = new QLabel(QStringLiteral("Channel &name"), this);
    label->setBuddy(name_);
    auto* field = new QWidget(this);
    auto* fieldLayout = new QVBoxLayout(field);
    fieldLayout->setContentsMargins(0, 0, 0, 0);
    fieldLayout->setSpacing(2);
    fieldLayout->addWidget(name_);
    fieldLayout->addWidget(problem_);
    auto* form = new QFormLayout;
    form->addRow(label, field);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    create_ = buttons->button(QDialogButtonBox::Ok);
    create_->setText(QStringLiteral("Create"));
    connect(buttons, &QDialogButtonBox::accepted, this, &CreateChannelDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(name_, &QLineEdit::textEdited, this, &CreateChannelDialog::check);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(420, sizeHint().height());
}

QString CreateChannelDialog::nameProblem(const QString& name) {
    const auto error = client::checkChannelName(name.toStdString(), "Channel name");
    return error ? QString::fromStdString(error->message) : QString();
}

QString CreateChannelDialog::name() const {
    return name_->text();
}

void CreateChannelDialog::setName(const QString& name) {
    name_->setText(name);
    check();
}

QString CreateChannelDialog::problem() const {
    return problem_->isVisibleTo(this) ? problem_->text() : QString();
}

// While typing, an empty field is not yet an error; Create says it is.
void CreateChannelDialog::check() {
    const QString problem = name_->text().isEmpty() ? QString() : nameProblem(name_->text());
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
}

void CreateChannelDialog::tryAccept() {
    const QString problem = nameProblem(name_->text());
    if (!problem.isEmpty()) {
        problem_->setText(problem);
        problem_->show();
        name_->setFocus();
        return;
    }
    accept();
}

}  // namespace qs::ui
