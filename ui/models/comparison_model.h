#pragma once

#include <QAbstractItemModel>
#include <QString>
#include <vector>

#include "analysis/run_comparison.h"

// Two recorded runs side by side (analysis::compareRuns, the judgement of
// `queuescope compare`): a tree of sections (totals, per worker, latency,
// hand-out timing, settings that differ), each row the value in this run and
// in the other recording and the core's verdict on the difference. The model
// only shows the core's rows; it judges nothing itself.
//
// Threading: UI thread only.
namespace qs::ui {

// How the console names a verdict: "real difference", "allowed by the
// semantics", "same", "setting".
QString verdictText(analysis::Verdict verdict);
// The text colour of a verdict, and its row's background (invalid = none).
QColor verdictColor(analysis::Verdict verdict);
QColor verdictBackground(analysis::Verdict verdict);

class ComparisonModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, ThisRun, OtherRun, Verdict, Why, ColumnCount };
    enum Role {
        VerdictRole = Qt::UserRole + 1,  // analysis::Verdict as an int (sections: none)
    };

    explicit ComparisonModel(QObject* parent = nullptr);

    // Shows `comparison` (copied): sections with no rows are left out.
    void setComparison(const analysis::RunComparison& comparison);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The headers of the two value columns: "This run" and "Other recording"
    // unless set (a parity check names the embedded broker and the server).
    void setSideNames(const QString& a, const QString& b);
    QString sideName(int column) const { return column == ThisRun ? aName_ : bName_; }

    // The section's index (a top-level row) titled `title`; invalid when absent.
    QModelIndex sectionIndex(const QString& title) const;

private:
    QString aName_ = QStringLiteral("This run");
    QString bName_ = QStringLiteral("Other recording");
    struct Section {
        QString title;
        std::vector<analysis::ComparedValue> rows;
        bool judged = true;  // settings are shown, never judged
    };
    QVariant sectionData(const Section& section, int column, int role) const;
    QVariant rowData(const Section& section, const analysis::ComparedValue& row, int column,
                     int role) const;

    std::vector<Section> sections_;
};

}  // namespace qs::ui
