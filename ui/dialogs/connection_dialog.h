#pragma once

#include <QDialog>

#include "controllers/connection_settings.h"

class QComboBox;
class QLineEdit;
class QGroupBox;
class QLabel;
class QPushButton;

// Connect to a KubeMQ server: address (recent connections offered), client
// id, auth token, TLS files. A malformed address is refused next to the
// field. With a controller set (setProbe()), Connect first tries the new
// address off the UI thread while the current connection stays; the dialog
// is accepted when the server answers, and when it does not the user chooses
// between switching anyway and keeping the current connection.
namespace qs::ui {

class ConnectionController;

class ConnectionDialog : public QDialog {
    Q_OBJECT
public:
    ConnectionDialog(const ConnectionSettings& current, const QList<ConnectionSettings>& recent,
                     QWidget* parent = nullptr);

    ConnectionSettings settings() const;
    void setProbe(ConnectionController* controller) { probe_ = controller; }

    // What the dialog says under the address ("" when nothing), for tests.
    QString addressMessage() const;
    QPushButton* connectButton() const { return connect_; }
    QPushButton* switchAnywayButton() const { return switchAnyway_; }
    QPushButton* keepCurrentButton() const { return keepCurrent_; }

private:
    void tryConnect();
    void showAddressMessage(const QString& text, bool error);
    void fill(const ConnectionSettings& s);
    QLineEdit* fileField(const QString& tip);

    QList<ConnectionSettings> recent_;
    QComboBox* address_;
    QLineEdit* clientId_;
    QLineEdit* token_;
    QGroupBox* tls_;
    QLineEdit* ca_;
    QLineEdit* cert_;
    QLineEdit* key_;
    QLabel* addressMessage_;
    QPushButton* connect_ = nullptr;
    QPushButton* switchAnyway_;
    QPushButton* keepCurrent_;
    ConnectionController* probe_ = nullptr;
    quint64 attempt_ = 0;  // a newer Connect makes an older probe's answer stale
};

}  // namespace qs::ui
