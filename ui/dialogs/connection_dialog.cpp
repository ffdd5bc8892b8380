#include "dialogs/connection_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "controllers/connection_controller.h"

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
      key_(fileField(QStringLiteral("Private key (PEM) of the client certificate."))),
      addressMessage_(new QLabel(this)),
      switchAnyway_(new QPushButton(QStringLiteral("Switch anyway"), this)),
      keepCurrent_(new QPushButton(QStringLiteral("Keep current connection"), this)) {
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
        browse->setAccessibleName(QStringLiteral("Choose ") + field->accessibleName());
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
    // The form's labels name the row, not the field inside it: name the fields.
    ca_->setAccessibleName(QStringLiteral("CA certificates file"));
    cert_->setAccessibleName(QStringLiteral("Client certificate file"));
    key_->setAccessibleName(QStringLiteral("Client key file"));
    tlsForm->addRow(QStringLiteral("CA certificates"), fileRow(ca_));
    tlsForm->addRow(QStringLiteral("Client certificate"), fileRow(cert_));
    tlsForm->addRow(QStringLiteral("Client key"), fileRow(key_));

    address_->setObjectName(QStringLiteral("address"));
    address_->lineEdit()->setAccessibleName(QStringLiteral("Address"));
    addressMessage_->setObjectName(QStringLiteral("addressMessage"));
    addressMessage_->setWordWrap(true);
    addressMessage_->setTextFormat(Qt::PlainText);
    addressMessage_->hide();
    switchAnyway_->setToolTip(
        QStringLiteral("Drop the current connection and keep trying the new address."));
    keepCurrent_->setToolTip(QStringLiteral("Close this dialog; nothing changes."));
    switchAnyway_->hide();
    keepCurrent_->hide();
    auto* addressField = new QWidget(this);
    auto* addressLayout = new QVBoxLayout(addressField);
    addressLayout->setContentsMargins(0, 0, 0, 0);
    addressLayout->setSpacing(2);
    addressLayout->addWidget(address_);
    addressLayout->addWidget(addressMessage_);
    auto* choice = new QHBoxLayout;
    choice->setContentsMargins(0, 0, 0, 0);
    choice->addWidget(switchAnyway_);
    choice->addWidget(keepCurrent_);
    choice->addStretch(1);
    addressLayout->addLayout(choice);

    auto* form = new QFormLayout;
    auto* addressLabel = new QLabel(QStringLiteral("&Address"), this);
    addressLabel->setBuddy(address_);
    form->addRow(addressLabel, addressField);
    form->addRow(QStringLiteral("Client id"), clientId_);
    form->addRow(QStringLiteral("Auth token"), token_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect_ = buttons->button(QDialogButtonBox::Ok);
    connect_->setText(QStringLiteral("Connect"));
    connect_->setToolTip(QStringLiteral(
        "Try the address; the current connection stays until the new server answers."));
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionDialog::tryConnect);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(switchAnyway_, &QPushButton::clicked, this, &QDialog::accept);
    connect(keepCurrent_, &QPushButton::clicked, this, &QDialog::reject);
    // Say what is wrong while it is typed; a fixed address clears the message.
    connect(address_, &QComboBox::editTextChanged, this, [this](const QString& text) {
        ++attempt_;
        switchAnyway_->hide();
        keepCurrent_->hide();
        connect_->setEnabled(true);
        const QString problem = text.isEmpty() ? QString() : addressProblem(text);
        showAddressMessage(problem, true);
    });

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

QString ConnectionDialog::addressMessage() const {
    return addressMessage_->isVisibleTo(this) ? addressMessage_->text() : QString();
}

void ConnectionDialog::showAddressMessage(const QString& text, bool error) {
    addressMessage_->setText(text);
    addressMessage_->setStyleSheet(error ? QStringLiteral("color:#d93040") : QString());
    addressMessage_->setVisible(!text.isEmpty());
}

void ConnectionDialog::tryConnect() {
    const ConnectionSettings s = settings();
    if (const QString problem = addressProblem(s.address); !problem.isEmpty()) {
        showAddressMessage(problem, true);
        address_->setFocus();
        return;
    }
    if (!probe_) {
        accept();
        return;
    }
    // The UI thread never waits on the network: the answer comes back queued.
    const quint64 attempt = ++attempt_;
    connect_->setEnabled(false);
    switchAnyway_->hide();
    keepCurrent_->hide();
    showAddressMessage(QStringLiteral("Trying %1…").arg(s.label()), false);
    probe_->probe(s, this, [this, attempt, s](const QString& error, const QString& version) {
        if (attempt != attempt_) {
            return;  // the address was edited (or tried again) meanwhile
        }
        connect_->setEnabled(true);
        if (error.isEmpty()) {
            showAddressMessage(QStringLiteral("%1 answered (%2).").arg(s.label(), version), false);
            accept();
            return;
        }
        showAddressMessage(QStringLiteral("Cannot reach %1: %2. The current connection is kept "
                                          "unless you switch anyway.")
                               .arg(s.label(), error),
                           true);
        switchAnyway_->show();
        keepCurrent_->show();
        keepCurrent_->setDefault(true);
    });
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
