#include "panels/summary_table_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace qs::ui {

SummaryTablePanel::SummaryTablePanel(QAbstractItemModel* model, ModelHooks hooks, QWidget* parent)
    : QWidget(parent),
      hooks_(std::move(hooks)),
      table_(new QTableView(this)),
      summary_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    table_->setModel(model);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);
    layout->addWidget(table_, 1);
    connect(model, &QAbstractItemModel::modelReset, this, &SummaryTablePanel::updateSummary);
    connect(model, &QAbstractItemModel::dataChanged, this, &SummaryTablePanel::updateSummary);
    updateSummary();
}

QString SummaryTablePanel::summaryText() const {
    return summary_->text();
}

void SummaryTablePanel::setSummaryToolTip(const QString& text) {
    summary_->setToolTip(text);
}

void SummaryTablePanel::updateSummary() {
    summary_->setText(hooks_.summary());
}

void SummaryTablePanel::setOnScreen(bool onScreen) {
    hooks_.setActive(onScreen);
}

}  // namespace qs::ui
