#pragma once

#include <QFrame>

#include "workers/worker_state.h"

class QHBoxLayout;
class QLabel;
class QToolButton;
class QVBoxLayout;

// One worker of the pool: its state, the batch it holds (one square per
// message, coloured by fate), its counters, and pause / slow / crash /
// restart buttons. update() takes a snapshot value; UI thread only.
namespace qs::ui {

class BatchStrip : public QWidget {
    Q_OBJECT
public:
    explicit BatchStrip(QWidget* parent = nullptr);
    // `crashed`: abandoned tasks were a crash's (red), else the worker stopped
    // or closed its client without settling them (the timeline's "returned (closed)").
    void setBatch(const std::vector<workers::BatchItem>& items, int current, bool crashed = true);
    QSize sizeHint() const override { return {160, 16}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<workers::BatchItem> items_;
    int current_ = -1;
    bool crashed_ = true;
};

class WorkerCard : public QFrame {
    Q_OBJECT
public:
    explicit WorkerCard(const QString& id, QWidget* parent = nullptr);

    QString id() const { return id_; }
    void setSnapshot(const workers::WorkerSnapshot& snapshot);
    // A card of the past (the time cursor, a recording): its buttons, which
    // act on the live pool, are off.
    void setReadOnly(bool readOnly);
    bool isReadOnly() const { return readOnly_; }
    QString countersText() const;
    // The width the card needs with its buttons beside its name and state.
    int oneRowWidth() const;
    // Compact: the buttons get a row of their own and the counters wrap, so
    // a narrow dock (the worker pool, about 300 px) shows every button and
    // count without scrolling sideways.
    void setCompact(bool compact);
    bool isCompact() const { return compact_; }
    static QString stateText(workers::WorkerState state);
    static QColor stateColor(workers::WorkerState state);

Q_SIGNALS:
    void pauseRequested(const QString& id, bool pause);
    void slowRequested(const QString& id, double factor);
    void crashRequested(const QString& id);
    void restartRequested(const QString& id);

private:
    QString id_;
    QLabel* name_;
    QLabel* state_;
    QLabel* counters_;
    BatchStrip* batch_;
    QToolButton* pause_;
    QToolButton* slow_;
    QToolButton* crash_;
    QToolButton* restart_;
    QVBoxLayout* rows_;
    QHBoxLayout* top_;
    QHBoxLayout* bottom_;
    QHBoxLayout* actions_;
    bool compact_ = false;
    workers::WorkerState lastState_ = workers::WorkerState::Starting;
    bool readOnly_ = false;
};

}  // namespace qs::ui
