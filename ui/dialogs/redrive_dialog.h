#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

// Asks where a dead-letter channel's messages go back to: each to the channel
// it was dead-lettered from (its ReRoutedFromQueue), or all to a channel the
// user names. A named target is checked as the protocol checks a channel name,
// and may not be the source; the problem is said under the field and nothing
// is sent. UI thread only.
namespace qs::ui {

class RedriveDialog : public QDialog {
    Q_OBJECT
public:
    // `source`: the channel to move out of; `origins`: the channels its peeked
    // messages came from ("orders, billing"), empty when not known.
    RedriveDialog(const QString& source, const QString& origins, QWidget* parent = nullptr);

    // The named target, or "" for each message's own source channel.
    QString target() const;
    // Empty = back where each came from; otherwise names the target.
    void setTarget(const QString& name);
    QString problem() const;
    QPushButton* redriveButton() const { return redrive_; }

    // What is wrong with `target` as the target of a redrive out of `source`.
    static QString targetProblem(const QString& source, const QString& target);

private:
    void tryAccept();

    QString source_;
    QRadioButton* toOrigin_;
    QRadioButton* toNamed_;
    QLineEdit* name_;
    QLabel* problem_;
    QPushButton* redrive_;
};

}  // namespace qs::ui
