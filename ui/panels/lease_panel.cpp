#include "panels/lease_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "models/lease_board_model.h"

namespace qs::ui {

LeasePanel::LeasePanel(LeaseBoardModel* model, QWidget* parent)
    : QWidget(parent), model_(model), table_(new QTableView(this)), summary_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_->setToolTip(
        QStringLiteral("Messages handed to a worker and not settled yet, at the time cursor.\n"
                       "The oldest is first (shaded); red: its next reject dead-letters it."));
    layout->addWidget(summary_);
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->setColumnWidth(LeaseBoardModel::Task, 80);
    table_->setColumnWidth(LeaseBoardModel::MessageId, 230);
    table_->setColumnWidth(LeaseBoardModel::Worker, 110);
    table_->setColumnWidth(LeaseBoardModel::Transaction, 180);
    table_->setColumnWidth(LeaseBoardModel::HeldFor, 80);
    table_->setColumnWidth(LeaseBoardModel::Receives, 80);
    table_->setColumnWidth(LeaseBoardModel::Channel, 130);
    table_->setAccessibleName(QStringLiteral("Messages in flight"));
    layout->addWidget(table_, 1);
    connect(model_, &QAbstractItemModel::modelReset, this, &LeasePanel::updateSummary);
    connect(model_, &QAbstractItemModel::dataChanged, this, &LeasePanel::updateSummary);
    updateSummary();
}

QString LeasePanel::summaryText() const {
    return summary_->text();
}

void LeasePanel::updateSummary() {
    summary_->setText(model_->summaryText());
}

void LeasePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    model_->setActive(true);
}

void LeasePanel::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    model_->setActive(false);
}

}  // namespace qs::ui
