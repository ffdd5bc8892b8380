#include "connection_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace qs::ui {

ConnectionDialog::ConnectionDialog(const ConnectionSettings& current,
                                   const QList<ConnectionSettings>& recent, QWidget* parent)
    : QDialog(parent),
      recent_(recent),
      address_(new QComboBox(this)),
      clientId_(new QLineEdit(this)),
      token_(new QLineEdit(this)),
      tls_(new QGroupBox(QStringLiteral("Use TLS"), this)),
      ca_(fileField(
          QStringLiteral("PEM file with the CA certificates that signed the server's certificate.\n"
                         "Empty = the system's trusted roots."))),
      cert_(fileField(
          QStringLiteral("Client certificate (PEM) for mutual TLS; needs the key file too."))),
      key_(fileField(QStringLiteral("Private key (PEM) of the client certificate."))) {
    setWindowTitle(QStringLiteral("Connect to a KubeMQ server"));
    address_->setEditable(true);
    address_->setToolTip(
        QStringLiteral("host:port of the server's gRPC endpoint (KubeMQ default port 50000).\n"
                       "Recent connections are in the list."));
    for (const ConnectionSettings& r : recent_) {
        address_->addItem(r.label(), r.address);
    }
    clientId_->setToolTip(QStringLiteral(
        "Client id this console uses for management calls; workers get their own ids."));
    token_->setEchoMode(QLineEdit::Password);
    token_->setPlaceholderText(QStringLiteral("none"));
    token_->setToolTip(
        QStringLiteral("Auth token sent as gRPC metadata \"authorization\". Never saved to disk."));
    tls_->setCheckable(true);
    tls_->setToolTip(QStringLiteral("Encrypt the connection with TLS."));

    auto* tlsForm = new QFormLayout(tls_);
    auto fileRow = [this](QLineEdit* field) {
        auto* w = new QWidget;
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(field, 1);
        auto* browse = new QToolButton;
        browse->setText(QStringLiteral("…"));
        browse->setToolTip(QStringLiteral("Choose a file"));
        h->addWidget(browse);
        connect(browse, &QToolButton::clicked, this, [this, field] {
            const QString f = QFileDialog::getOpenFileName(
                this, QStringLiteral("Choose file"), field->text(),
                QStringLiteral("PEM files (*.pem *.crt *.key);;All files (*)"));
            if (!f.isEmpty()) {
                field->setText(f);
            }
        });
        return w;
    };
    tlsForm->addRow(QStringLiteral("CA certificates"), fileRow(ca_));
    tlsForm->addRow(QStringLiteral("Client certificate"), fileRow(cert_));
    tlsForm->addRow(QStringLiteral("Client key"), fileRow(key_));

    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Address"), address_);
    form->addRow(QStringLiteral("Client id"), clientId_);
    form->addRow(QStringLiteral("Auth token"), token_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(tls_);
    layout->addWidget(buttons);

    connect(address_, &QComboBox::activated, this, [this](int i) {
        if (i >= 0 && i < recent_.size()) {
            fill(recent_[i]);
        }
    });
    fill(current);
    resize(520, sizeHint().height());
}

QLineEdit* ConnectionDialog::fileField(const QString& tip) {
    auto* e = new QLineEdit(this);
    e->setToolTip(tip);
    e->setPlaceholderText(QStringLiteral("none"));
    return e;
}

void ConnectionDialog::fill(const ConnectionSettings& s) {
    address_->setEditText(s.address);
    clientId_->setText(s.clientId);
    token_->setText(s.authToken);
    tls_->setChecked(s.tls);
    ca_->setText(s.caFile);
    cert_->setText(s.certFile);
    key_->setText(s.keyFile);
}

ConnectionSettings ConnectionDialog::settings() const {
    ConnectionSettings s;
    s.address = address_->currentText().trimmed();
    if (const int i = address_->findText(s.address);
        i >= 0 && !address_->itemData(i).toString().isEmpty()) {
        s.address = address_->itemData(i).toString();
    }
    s.clientId = clientId_->text().trimmed();
    s.authToken = token_->text();
    s.tls = tls_->isChecked();
    s.caFile = ca_->text().trimmed();
    s.certFile = cert_->text().trimmed();
    s.keyFile = key_->text().trimmed();
    return s;
}

}  // namespace qs::ui
