#pragma once

#include <QList>
#include <QRect>
#include <QWidget>

class QComboBox;
class QToolButton;

// The timeline with its header: title, colour legend, live / pause, zoom,
// save as PNG.
namespace qs::ui {

class TimelineView;
class TimelineModel;

// The colour legend above the lanes. When one row is too narrow for every
// entry it wraps into rows of aligned columns (never clips an entry).
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QString text;
        QRect swatch;  // widget coordinates
        QRect label;   // the text's full extent
    };

    explicit LegendWidget(QWidget* parent = nullptr);
    // Every entry, placed as it is painted at this width.
    QList<Entry> entries(int width) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    bool event(QEvent* event) override;  // per-entry tooltips
    void paintEvent(QPaintEvent* event) override;

private:
    int rowsFor(int width) const;
};

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(const TimelineModel* model, QWidget* parent = nullptr);
    TimelineView* view() const { return view_; }
    bool savePng(const QString& path);
    // What the span box shows, in seconds (the timeline's span).
    double shownSpanSeconds() const;

Q_SIGNALS:
    void statusMessage(const QString& text);  // what an action did, for the status bar

public Q_SLOTS:
    void savePngInteractive();
    void showSpan(double seconds);

private:
    TimelineView* view_;
    QToolButton* live_;
    QComboBox* span_;
};

}  // namespace qs::ui
