#include "panels/poll_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "models/poll_fairness_model.h"

namespace qs::ui {

PollPanel::PollPanel(PollFairnessModel* model, QWidget* parent)
    : QWidget(parent), model_(model), table_(new QTableView(this)), summary_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_->setToolTip(QStringLiteral(
        "How well the workers' polls were used and how evenly they shared the work, at the time "
        "cursor.\nJain's fairness index: (Σx)² / (n·Σx²) over the hand-outs per worker; 1 when "
        "all got the same, 1/n when one worker got everything."));
    layout->addWidget(summary_);
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    // Columns as wide as their figures: numbers stay beside their worker.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setWordWrap(false);
    table_->setAccessibleName(QStringLiteral("Polls and fairness per worker"));
    layout->addWidget(table_, 1);
    connect(model_, &QAbstractItemModel::modelReset, this, &PollPanel::updateSummary);
    updateSummary();
}

QString PollPanel::summaryText() const {
    return summary_->text();
}

void PollPanel::updateSummary() {
    summary_->setText(model_->summaryText());
}

void PollPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    model_->setActive(true);
}

void PollPanel::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    model_->setActive(false);
}

}  // namespace qs::ui
