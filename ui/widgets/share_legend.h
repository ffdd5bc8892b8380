#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

// The legend beside the share pie: a row per worker (a swatch in its colour,
// its name, its share in percent, right-aligned), painted as plain text.
// It was a rich-text QLabel: every new percentage laid its HTML table out
// again (2.5-7 ms), painted it (2.6-7.2 ms) and, as its width followed the
// names and figures listed, resized the pie beside it, which QtCharts lays
// out again: 10-25 ms in one frame once a second at 64 workers. Here the
// width follows only the names it may list (setWidthNames), so new figures
// repaint the legend and nothing else. UI thread only.
namespace qs::ui {

class ShareLegend : public QWidget {
    Q_OBJECT
public:
    struct Row {
        QColor colour;  // invalid: no swatch (the "N others" line)
        QString name;
        int percent = 0;
        bool operator==(const Row&) const = default;
    };

    explicit ShareLegend(QWidget* parent = nullptr);

    // Repaints only when a row changed; the size hint changes only with the
    // number of rows or the width names.
    void setRows(std::vector<Row> rows);
    const std::vector<Row>& rows() const { return rows_; }
    // Every name a row may show: the name column is as wide as the widest.
    void setWidthNames(const QStringList& names);
    // One line per row, "name  NN%" (tests, accessibility).
    QString text() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    int nameColumnWidth() const;
    void refitIfNeeded();

    std::vector<Row> rows_;
    QStringList widthNames_;
    QSize hint_;  // the size hint as last computed (a change means a new layout)
};

}  // namespace qs::ui
