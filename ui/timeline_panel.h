#pragma once

#include <QWidget>

class QComboBox;
class QToolButton;

// The timeline with its header: title, colour legend, live / pause, zoom,
// save as PNG.
namespace qs::ui {

class TimelineView;
class TimelineModel;

class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(const TimelineModel* model, QWidget* parent = nullptr);
    TimelineView* view() const { return view_; }
    bool savePng(const QString& path);

public Q_SLOTS:
    void savePngInteractive();

private:
    TimelineView* view_;
    QToolButton* live_;
    QComboBox* span_;
};

}  // namespace qs::ui
