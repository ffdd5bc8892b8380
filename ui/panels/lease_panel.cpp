#include "panels/lease_panel.h"

#include <QHeaderView>
#include <QTableView>

#include "models/lease_board_model.h"

namespace qs::ui {

LeasePanel::LeasePanel(LeaseBoardModel* model, QWidget* parent)
    : SummaryTablePanel(model,
                        {[model] { return model->summaryText(); },
                         [model](bool active) { model->setActive(active); }},
                        parent),
      model_(model) {
    setSummaryToolTip(
        QStringLiteral("Messages handed to a worker and not settled yet, at the time cursor.\n"
                       "The oldest is first (shaded); red: its next reject dead-letters it."));
    QTableView* t = table();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setTextElideMode(Qt::ElideMiddle);
    t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    t->setColumnWidth(LeaseBoardModel::Task, 80);
    t->setColumnWidth(LeaseBoardModel::MessageId, 230);
    t->setColumnWidth(LeaseBoardModel::Worker, 110);
    t->setColumnWidth(LeaseBoardModel::Transaction, 180);
    t->setColumnWidth(LeaseBoardModel::HeldFor, 80);
    t->setColumnWidth(LeaseBoardModel::Receives, 80);
    t->setColumnWidth(LeaseBoardModel::Channel, 130);
    t->setAccessibleName(QStringLiteral("Messages in flight"));
}

}  // namespace qs::ui
