#pragma once

#include <QDialog>
#include <cstdint>
#include <optional>
#include <vector>

#include "runner/redrive.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

// Asks how to redrive a dead-letter channel: which messages (all, up to a
// number, or the ones selected in the peek list), where to (each to the
// channel it was dead-lettered from, its ReRoutedFromQueue, or all to a
// channel the user names), and the policy the moved messages carry (a max
// receive count, pre-set to what the console knows it sent with, and a
// dead-letter queue, by default the channel they are in: KubeMQ keeps
// neither on a dead-lettered copy). Every value is checked against its
// limit (protocol::kMaxReceiveCount, runner::kRedriveMax, the protocol's
// channel names) and by runner::checkRedriveOptions(); the problem is said
// under the form and nothing is sent. UI thread only.
namespace qs::ui {

class LimitedSpinBox;

class RedriveDialog : public QDialog {
    Q_OBJECT
public:
    // `source`: the channel to move out of; `origins`: the channels its peeked
    // messages came from ("orders, billing"), empty when not known.
    RedriveDialog(const QString& source, const QString& origins, QWidget* parent = nullptr);

    // The messages selected in the peek list (their sequences in the source):
    // offers "only these", chosen when `choose`; none = the choice is disabled.
    void setSelection(std::vector<std::uint64_t> sequences, bool choose = true);
    // The max receive count the console sent the source's messages with
    // (0 = not known): the restore is pre-set to it.
    void setKnownMaxReceiveCount(int count);

    // The named target, or "" for each message's own source channel.
    QString target() const;
    // Empty = back where each came from; otherwise names the target.
    void setTarget(const QString& name);
    // Which messages: all, up to `max` (0 = all), or the selected ones.
    void chooseAll();
    void chooseUpTo(int max);
    void chooseSelected();
    // Restore a max receive count (`count`), or leave the message's own (none).
    void setMaxReceiveCount(std::optional<int> count);
    // "" = the default (the channel a dead-lettered message is in).
    void setDeadLetterQueue(const QString& name);

    // The answer: `options` with its target, max, selection and policy set.
    runner::RedriveOptions options(runner::RedriveOptions base) const;

    QString problem() const;
    QPushButton* redriveButton() const { return redrive_; }

    // What is wrong with `target` as the target of a redrive out of `source`.
    static QString targetProblem(const QString& source, const QString& target);

private:
    QWidget* buildWhich();
    QWidget* buildWhere(const QString& origins);
    QWidget* buildPolicy();
    struct FormProblem {
        QString text;             // "" = none
        QWidget* field = nullptr;  // where to fix it
    };
    FormProblem formProblem() const;
    void showProblem(const QString& text, QWidget* focus);
    void tryAccept();

    QString source_;
    std::vector<std::uint64_t> selection_;
    QRadioButton* all_ = nullptr;
    QRadioButton* upTo_ = nullptr;
    LimitedSpinBox* upToCount_ = nullptr;
    QRadioButton* selected_ = nullptr;
    QRadioButton* toOrigin_ = nullptr;
    QRadioButton* toNamed_ = nullptr;
    QLineEdit* name_ = nullptr;
    QCheckBox* restoreMaxReceive_ = nullptr;
    LimitedSpinBox* maxReceive_ = nullptr;
    QLabel* maxReceiveHint_ = nullptr;
    QLineEdit* deadLetterQueue_ = nullptr;
    QLabel* problem_ = nullptr;
    QPushButton* redrive_ = nullptr;
};

}  // namespace qs::ui
