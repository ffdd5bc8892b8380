#pragma once

#include "panels/summary_table_panel.h"

// The "In flight" dock: the lease board (LeaseBoardModel) under a one-line
// summary. Its model works only while the dock can be seen.
namespace qs::ui {

class LeaseBoardModel;

class LeasePanel : public SummaryTablePanel {
    Q_OBJECT
public:
    // `model` is not owned and must outlive the panel.
    explicit LeasePanel(LeaseBoardModel* model, QWidget* parent = nullptr);

    LeaseBoardModel* model() const { return model_; }

private:
    LeaseBoardModel* model_;
};

}  // namespace qs::ui
