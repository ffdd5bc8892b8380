#include "panels/comparison_view.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "models/comparison_model.h"
#include "models/core_text.h"
#include "models/task_difference_model.h"
#include "widgets/theme.h"

namespace qs::ui {

namespace {

QLabel* selectableLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

// Columns as wide as their contents (a name at most kMaxName, a value at
// most kMaxValue; the whole text is in the tooltip); the last column (why)
// takes what is left.
constexpr int kMaxName = 250;
constexpr int kMaxValue = 480;
constexpr int kMinValue = 200;
constexpr int kWhyRoom = 120;  // left to the why column before the values narrow

void fitColumns(QAbstractItemView* view, QHeaderView* header) {
    for (int c = 0; c < header->count() - 1; ++c) {
        const int wanted = std::max(view->sizeHintForColumn(c), header->sectionSizeHint(c));
        header->resizeSection(c, std::min(wanted + 16, c == 0 ? kMaxName : kMaxValue));
    }
    header->setStretchLastSection(true);
}

// Narrows the two value columns alike until every column but the last fits
// `width`: the verdict stays in view on a small screen.
void fitValuesInto(QHeaderView* header, int thisRun, int otherRun, int width) {
    int used = 0;
    for (int c = 0; c < header->count() - 1; ++c) {
        used += header->sectionSize(c);
    }
    const int over = used - width;
    if (over <= 0) {
        return;
    }
    for (const int c : {thisRun, otherRun}) {
        header->resizeSection(c, std::max(kMinValue, header->sectionSize(c) - (over + 1) / 2));
    }
}

}  // namespace

namespace {

ComparisonLabels coveringA(const QString& covers) {
    ComparisonLabels labels;
    labels.aCovers = covers;
    return labels;
}

}  // namespace

ComparisonView::ComparisonView(const ComparisonResult& result, const QString& covers,
                               QWidget* parent)
    : ComparisonView(result, coveringA(covers), parent) {}

ComparisonView::ComparisonView(const ComparisonResult& result, ComparisonLabels labels,
                               QWidget* parent)
    : QDialog(parent),
      result_(result),
      labels_(std::move(labels)),
      comparison_(new ComparisonModel(this)),
      tasks_(new TaskDifferenceModel(this)) {
    setObjectName(QStringLiteral("comparisonDialog"));
    setWindowTitle(!labels_.title.isEmpty()
                       ? labels_.title
                       : QStringLiteral("Compare runs — %1 and %2")
                             .arg(QFileInfo(result.a).fileName(), QFileInfo(result.b).fileName()));
    comparison_->setComparison(result.comparison);
    comparison_->setSideNames(labels_.aName, labels_.bName);
    tasks_->setDifferences(result.comparison.tasks);
    tasks_->setSideNames(labels_.aName, labels_.bName);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildHeading());
    layout->addWidget(buildTables(), 1);
    for (const std::string& note : result.comparison.notes) {
        auto* label = selectableLabel(QStringLiteral("Note: ") + fromView(note), this);
        label->setObjectName(QStringLiteral("comparisonNote"));
        layout->addWidget(label);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy =
        buttons->addButton(QStringLiteral("&Copy as text"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyComparison"));
    copy->setToolTip(QStringLiteral("Copy the comparison as `queuescope compare` prints it."));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(result_.text); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    // Room for both columns of a worker's row beside the names and verdicts.
    const QRect screen = this->screen()->availableGeometry();
    resize(std::min(1360, screen.width() - 40), std::min(860, screen.height() - 60));
}

// The columns follow the window's width until the user sizes one by hand.
void ComparisonView::resizeEvent(QResizeEvent* event) {
    QDialog::resizeEvent(event);
    fitting_ = true;
    if (!treeSizedByHand_) {
        fitColumns(tree_, tree_->header());
        fitValuesInto(tree_->header(), ComparisonModel::ThisRun, ComparisonModel::OtherRun,
                      tree_->viewport()->width() - kWhyRoom);
    }
    if (!tasksSizedByHand_) {
        fitColumns(taskTable_, taskTable_->horizontalHeader());
        fitValuesInto(taskTable_->horizontalHeader(), TaskDifferenceModel::ThisRun,
                      TaskDifferenceModel::OtherRun, taskTable_->viewport()->width() - kWhyRoom);
    }
    fitting_ = false;
}

QString ComparisonView::verdictLine() const {
    if (!labels_.verdict.isEmpty()) {
        return labels_.verdict;
    }
    const std::size_t differing = result_.comparison.count(analysis::Verdict::Differs);
    const std::size_t allowed = result_.comparison.count(analysis::Verdict::Allowed);
    if (differing == 0) {
        return QStringLiteral(
                   "The same work: nothing differs beyond what the work-queue "
                   "semantics allow (%1 allowed %2).")
            .arg(allowed)
            .arg(allowed == 1 ? QStringLiteral("difference") : QStringLiteral("differences"));
    }
    return QStringLiteral(
               "The runs differ: %1 real %2 the work-queue semantics do not allow "
               "(and %3 allowed).")
        .arg(differing)
        .arg(differing == 1 ? QStringLiteral("difference") : QStringLiteral("differences"))
        .arg(allowed);
}

QWidget* ComparisonView::buildHeading() {
    auto* heading = new QWidget(this);
    auto* layout = new QVBoxLayout(heading);
    layout->setContentsMargins(0, 0, 0, 0);
    verdict_ = selectableLabel(verdictLine(), heading);
    verdict_->setObjectName(QStringLiteral("comparisonVerdict"));
    const bool differs = result_.comparison.differs();
    const QColor mark = differs ? verdictColor(analysis::Verdict::Differs)
                                : Theme::current().outcome(Outcome::Acked);
    QFont big = verdict_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    verdict_->setFont(big);
    verdict_->setStyleSheet(
        QStringLiteral("QLabel { color: %1; padding: 4px 0; }").arg(mark.name()));
    layout->addWidget(verdict_);
    auto side = [](const QString& name, const QString& file, const QString& covers) {
        return QStringLiteral("<b>%1</b>: %2%3")
            .arg(name.toHtmlEscaped(), file.toHtmlEscaped(),
                 covers.isEmpty() ? QString() : QStringLiteral(" — ") + covers.toHtmlEscaped());
    };
    auto* files = selectableLabel(
        side(labels_.aName + QStringLiteral(" (A)"), result_.a, labels_.aCovers) +
            QStringLiteral("<br>") +
            side(labels_.bName + QStringLiteral(" (B)"), result_.b, labels_.bCovers),
        heading);
    files->setObjectName(QStringLiteral("comparisonFiles"));
    files->setTextFormat(Qt::RichText);
    layout->addWidget(files);
    return heading;
}

QWidget* ComparisonView::buildTables() {
    auto* split = new QSplitter(Qt::Vertical, this);
    tree_ = new QTreeView(split);
    tree_->setObjectName(QStringLiteral("comparisonTree"));
    tree_->setAccessibleName(QStringLiteral("The two runs side by side"));
    tree_->setModel(comparison_);
    tree_->setAlternatingRowColors(false);
    tree_->setUniformRowHeights(true);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->expandAll();
    // The last column stretches with the view: only the others are sized by hand.
    connect(tree_->header(), &QHeaderView::sectionResized, this, [this](int column) {
        treeSizedByHand_ |= !fitting_ && column != ComparisonModel::ColumnCount - 1;
    });

    auto* tasksPane = new QWidget(split);
    auto* tasksLayout = new QVBoxLayout(tasksPane);
    tasksLayout->setContentsMargins(0, 4, 0, 0);
    auto* heading = selectableLabel(tasksHeading(), tasksPane);
    heading->setWordWrap(false);  // one line: the pane's height is reckoned from it
    heading->setObjectName(QStringLiteral("taskDifferencesHeading"));
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    tasksLayout->addWidget(heading);
    taskTable_ = new QTableView(tasksPane);
    taskTable_->setObjectName(QStringLiteral("taskDifferences"));
    taskTable_->setAccessibleName(QStringLiteral("Tasks that ended differently"));
    taskTable_->setModel(tasks_);
    taskTable_->verticalHeader()->hide();
    taskTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    taskTable_->setWordWrap(false);
    connect(taskTable_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
        tasksSizedByHand_ |= !fitting_ && column != TaskDifferenceModel::ColumnCount - 1;
    });
    taskTable_->setVisible(tasks_->rowCount() > 0);
    // A few tasks: as tall as they are, the rest of the room to the tables above.
    constexpr int kFewRows = 8;
    if (tasks_->rowCount() <= kFewRows) {
        const int rows = tasks_->rowCount() * taskTable_->verticalHeader()->defaultSectionSize();
        const int table = tasks_->rowCount() == 0
                              ? 0
                              : taskTable_->horizontalHeader()->sizeHint().height() + rows +
                                    2 * taskTable_->frameWidth() + 2;
        taskTable_->setMaximumHeight(std::max(table, 1));
        tasksPane->setMaximumHeight(heading->sizeHint().height() + table +
                                    tasksLayout->contentsMargins().top() + tasksLayout->spacing() +
                                    4);
    }
    tasksLayout->addWidget(taskTable_, 1);
    split->addWidget(tree_);
    split->addWidget(tasksPane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    return split;
}

QString ComparisonView::tasksHeading() const {
    const analysis::RunComparison& c = result_.comparison;
    QString text = c.tasks.empty() ? QStringLiteral("Every task ended the same way in both runs")
                                   : QStringLiteral(
                                         "Tasks that ended differently or were handed out a "
                                         "different number of times: %1")
                                         .arg(c.tasks.size());
    text += QStringLiteral(" (%1 tasks in both runs").arg(c.tasksMatched);
    if (c.tasksOnOtherWorkers > 0) {
        text += QStringLiteral("; %1 ended alike on another worker, allowed by the semantics")
                    .arg(c.tasksOnOtherWorkers);
    }
    return text + QStringLiteral(").");
}

}  // namespace qs::ui
