#pragma once

#include <QDoubleSpinBox>
#include <QLabel>
#include <QPointer>
#include <QSpinBox>

#include "common/limit.h"

// Spin boxes over one setting's Limit (common/protocol_limits.h,
// workers/setting_limits.h) that never change a typed number silently. Qt's
// own spin boxes drop keystrokes that leave the range (a minus sign, the
// sixth digit) and clamp on Enter; these accept any number while it is typed
// and, when it is outside the limit, keep the previous value and say the
// limit in problemLabel(), which the caller puts next to the field
// (fieldWithProblem()). UI thread only.
namespace qs::ui {

class LimitedSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit LimitedSpinBox(const Limit<int>& limit, QWidget* parent = nullptr);
    ~LimitedSpinBox() override;

    // Red text under the field; hidden while the typed text is fine. The
    // caller places it (and its layout then owns it); else the box deletes it.
    QLabel* problemLabel() const { return problem_; }
    // "Worker count must be between 0 and 1000 (got 100000)"; empty when fine.
    QString problem() const;

protected:
    QValidator::State validate(QString& text, int& pos) const override;

private:
    void checkTyped(const QString& text);

    Limit<int> limit_;
    QPointer<QLabel> problem_;  // the layout that holds it may delete it first
};

class LimitedDoubleSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit LimitedDoubleSpinBox(const Limit<double>& limit, QWidget* parent = nullptr);
    ~LimitedDoubleSpinBox() override;

    QLabel* problemLabel() const { return problem_; }
    QString problem() const;

protected:
    QValidator::State validate(QString& text, int& pos) const override;

private:
    void checkTyped(const QString& text);

    Limit<double> limit_;
    QPointer<QLabel> problem_;
};

// `field` with its problem label under it, for a form row.
QWidget* fieldWithProblem(QWidget* field, QLabel* problem);

}  // namespace qs::ui
