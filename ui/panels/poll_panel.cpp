#include "panels/poll_panel.h"

#include <QHeaderView>
#include <QTableView>

#include "models/poll_fairness_model.h"

namespace qs::ui {

PollPanel::PollPanel(PollFairnessModel* model, QWidget* parent)
    : SummaryTablePanel(model,
                        {[model] { return model->summaryText(); },
                         [model](bool active) { model->setActive(active); }},
                        parent),
      model_(model) {
    setSummaryToolTip(QStringLiteral(
        "How well the workers' polls were used and how evenly they shared the work, at the time "
        "cursor.\nJain's fairness index: (Σx)² / (n·Σx²) over the hand-outs per worker; 1 when "
        "all got the same, 1/n when one worker got everything."));
    // Columns as wide as their figures: numbers stay beside their worker. The
    // widths follow the rows in view, not all of them: every live rebuild
    // measures the cells it considers (all 64 workers' took ms a rebuild).
    table()->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table()->horizontalHeader()->setResizeContentsPrecision(0);
    table()->setAccessibleName(QStringLiteral("Polls and fairness per worker"));
}

}  // namespace qs::ui
