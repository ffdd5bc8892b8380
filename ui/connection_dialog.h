#pragma once

#include <QDialog>

#include "connection_settings.h"

class QComboBox;
class QLineEdit;
class QGroupBox;

// Connect to a KubeMQ server: address (recent connections offered), client
// id, auth token, TLS files.
namespace qs::ui {

class ConnectionDialog : public QDialog {
    Q_OBJECT
public:
    ConnectionDialog(const ConnectionSettings& current, const QList<ConnectionSettings>& recent,
                     QWidget* parent = nullptr);

    ConnectionSettings settings() const;

private:
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
};

}  // namespace qs::ui
