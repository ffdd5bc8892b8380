#pragma once

#include "panels/summary_table_panel.h"

// The "Polls" dock: poll efficiency and fairness per worker
// (PollFairnessModel) under a one-line summary with Jain's index. Its model
// works only while the dock can be seen.
namespace qs::ui {

class PollFairnessModel;

class PollPanel : public SummaryTablePanel {
    Q_OBJECT
public:
    // `model` is not owned and must outlive the panel.
    explicit PollPanel(PollFairnessModel* model, QWidget* parent = nullptr);

    PollFairnessModel* model() const { return model_; }

private:
    PollFairnessModel* model_;
};

}  // namespace qs::ui
