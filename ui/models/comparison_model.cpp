#include "models/comparison_model.h"

#include <QColor>
#include <QFont>
#include <algorithm>

#include "models/core_text.h"
#include "widgets/theme.h"

namespace qs::ui {

namespace {

// Top-level rows (sections) carry this internal id; a section's rows carry
// their section's number plus one.
constexpr quintptr kSectionId = 0;

}  // namespace

QString verdictText(analysis::Verdict verdict) {
    switch (verdict) {
        case analysis::Verdict::Same:
            return QStringLiteral("same");
        case analysis::Verdict::Allowed:
            return QStringLiteral("allowed by the semantics");
        case analysis::Verdict::Differs:
            return QStringLiteral("real difference");
        case analysis::Verdict::Note:
            return QStringLiteral("setting");
    }
    return {};
}

// Red for what the semantics do not allow, amber for what they do: the
// colours the console uses for a task that came back and for waiting.
QColor verdictColor(analysis::Verdict verdict) {
    const Theme& theme = Theme::current();
    const bool dark = theme.kind == ThemeKind::Dark;
    switch (verdict) {
        case analysis::Verdict::Differs:
            return theme.outcome(Outcome::Returned);
        case analysis::Verdict::Allowed:
            return dark ? theme.waitingColor() : theme.waitingColor().darker(160);
        case analysis::Verdict::Same:
        case analysis::Verdict::Note:
            return theme.mutedText;
    }
    return theme.text;
}

QColor verdictBackground(analysis::Verdict verdict) {
    const Theme& theme = Theme::current();
    const bool dark = theme.kind == ThemeKind::Dark;
    QColor c;
    if (verdict == analysis::Verdict::Differs) {
        c = theme.outcome(Outcome::Returned);
        c.setAlpha(dark ? 60 : 34);
    } else if (verdict == analysis::Verdict::Allowed) {
        c = theme.waitingColor();
        c.setAlpha(dark ? 34 : 26);
    }
    return c;
}

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractItemModel(parent) {}

void ComparisonModel::setComparison(const analysis::RunComparison& comparison) {
    beginResetModel();
    sections_.clear();
    auto add = [this](const char* title, const std::vector<analysis::ComparedValue>& rows,
                      bool judged) {
        if (!rows.empty()) {
            sections_.push_back({QString::fromUtf8(title), rows, judged});
        }
    };
    add("Totals", comparison.totals, true);
    add("Per worker", comparison.workers, true);
    add("Latency", comparison.latencies, true);
    add("Hand-out timing", comparison.timing, true);
    add("Settings that differ", comparison.settings, false);
    endResetModel();
}

QModelIndex ComparisonModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) {
        return {};
    }
    if (!parent.isValid()) {
        return row < static_cast<int>(sections_.size()) ? createIndex(row, column, kSectionId)
                                                        : QModelIndex();
    }
    if (parent.internalId() != kSectionId || parent.column() != 0) {
        return {};
    }
    const auto& rows = sections_[static_cast<std::size_t>(parent.row())].rows;
    return row < static_cast<int>(rows.size())
               ? createIndex(row, column, static_cast<quintptr>(parent.row()) + 1)
               : QModelIndex();
}

QModelIndex ComparisonModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kSectionId) {
        return {};
    }
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kSectionId);
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) {
        return static_cast<int>(sections_.size());
    }
    if (parent.internalId() != kSectionId || parent.column() != 0) {
        return 0;
    }
    return static_cast<int>(sections_[static_cast<std::size_t>(parent.row())].rows.size());
}

int ComparisonModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    if (index.internalId() == kSectionId) {
        return sectionData(sections_[static_cast<std::size_t>(index.row())], index.column(), role);
    }
    const Section& section = sections_[index.internalId() - 1];
    return rowData(section, section.rows[static_cast<std::size_t>(index.row())], index.column(),
                   role);
}

// A section's row: its title, and in the verdict column how its rows were judged.
QVariant ComparisonModel::sectionData(const Section& section, int column, int role) const {
    const auto count = [&section](analysis::Verdict v) {
        return std::count_if(section.rows.begin(), section.rows.end(),
                             [v](const analysis::ComparedValue& r) { return r.verdict == v; });
    };
    const auto differing = count(analysis::Verdict::Differs);
    if (role == Qt::DisplayRole) {
        if (column == Name) {
            return section.title;
        }
        if (column == Verdict && section.judged) {
            const auto allowed = count(analysis::Verdict::Allowed);
            if (differing > 0) {
                return differing == 1 ? QStringLiteral("1 real difference")
                                      : QStringLiteral("%1 real differences").arg(differing);
            }
            return allowed > 0 ? QStringLiteral("%1 allowed").arg(allowed)
                               : QStringLiteral("all the same");
        }
        return {};
    }
    if (role == Qt::FontRole) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ForegroundRole && column == Verdict && differing > 0) {
        return verdictColor(analysis::Verdict::Differs);
    }
    return {};
}

QVariant ComparisonModel::rowData(const Section& section, const analysis::ComparedValue& row,
                                  int column, int role) const {
    switch (role) {
        case Qt::DisplayRole:
            switch (column) {
                case Name:
                    return fromView(row.name);  // "  exactly once": a part of the row above
                case ThisRun:
                    return fromView(row.a);
                case OtherRun:
                    return fromView(row.b);
                case Verdict:
                    return verdictText(row.verdict);
                case Why:
                    return fromView(row.why);
                default:
                    return {};
            }
        case Qt::ToolTipRole:
            if (column == Why || column == Verdict) {
                return row.why.empty() ? QVariant() : QVariant(fromView(row.why));
            }
            return column == ThisRun || column == OtherRun
                       ? QVariant(fromView(column == ThisRun ? row.a : row.b))
                       : QVariant();
        case Qt::ForegroundRole:
            return column == Verdict || row.verdict == analysis::Verdict::Differs
                       ? QVariant(verdictColor(row.verdict))
                       : QVariant();
        case Qt::FontRole:
            if (column == Verdict && row.verdict == analysis::Verdict::Differs) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::BackgroundRole: {
            const QColor c = section.judged ? verdictBackground(row.verdict) : QColor();
            return c.isValid() ? QVariant(c) : QVariant();
        }
        case VerdictRole:
            return static_cast<int>(row.verdict);
        default:
            return {};
    }
}

void ComparisonModel::setSideNames(const QString& a, const QString& b) {
    aName_ = a;
    bName_ = b;
    Q_EMIT headerDataChanged(Qt::Horizontal, ThisRun, OtherRun);
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Name:
            return QStringLiteral("What");
        case ThisRun:
            return aName_;
        case OtherRun:
            return bName_;
        case Verdict:
            return QStringLiteral("Verdict");
        case Why:
            return QStringLiteral("Why");
        default:
            return {};
    }
}

QModelIndex ComparisonModel::sectionIndex(const QString& title) const {
    for (std::size_t i = 0; i < sections_.size(); ++i) {
        if (sections_[i].title == title) {
            return index(static_cast<int>(i), 0);
        }
    }
    return {};
}

}  // namespace qs::ui
