#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

// Asks for a new queue channel's name and refuses one the protocol refuses
// (empty, whitespace, the wildcards '*' and '>', a trailing '.') with the
// client's own check (client::checkChannelName), said under the field before
// anything is sent. UI thread only.
namespace qs::ui {

class CreateChannelDialog : public QDialog {
    Q_OBJECT
public:
    explicit CreateChannelDialog(QWidget* parent = nullptr);

    QString name() const;
    void setName(const QString& name);
    // What is wrong with the name typed ("" when it may be sent).
    QString problem() const;
    QPushButton* createButton() const { return create_; }

    // client::checkChannelName() as a sentence: "" when `name` is fine.
    static QString nameProblem(const QString& name);

private:
    void check();
    void tryAccept();

    QLineEdit* name_;
    QLabel* problem_;
    QPushButton* create_;
};

}  // namespace qs::ui
