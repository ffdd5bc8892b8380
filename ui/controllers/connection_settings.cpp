#include "controllers/connection_settings.h"

#include <QSettings>
#include <algorithm>

#include "client/address_check.h"

namespace qs::ui {

client::ClientOptions ConnectionSettings::toClientOptions(const QString& clientIdSuffix) const {
    client::ClientOptions o;
    o.address = address.trimmed().toStdString();
    o.clientId = QString(clientId + clientIdSuffix).toStdString();
    o.authToken = authToken.toStdString();
    o.tls.enabled = tls;
    o.tls.caFile = caFile.toStdString();
    o.tls.certFile = certFile.toStdString();
    o.tls.keyFile = keyFile.toStdString();
    return o;
}

QString addressProblem(const QString& address) {
    return QString::fromStdString(client::addressProblem(address.trimmed().toStdString()));
}

QString ConnectionSettings::label() const {
    return tls ? address + QStringLiteral(" (TLS)") : address;
}

void ConnectionSettings::save(QSettings& s, const QString& group) const {
    if (!group.isEmpty()) {
        s.beginGroup(group);
    }
    s.setValue(QStringLiteral("address"), address);
    s.setValue(QStringLiteral("clientId"), clientId);
    s.setValue(QStringLiteral("tls"), tls);
    s.setValue(QStringLiteral("caFile"), caFile);
    s.setValue(QStringLiteral("certFile"), certFile);
    s.setValue(QStringLiteral("keyFile"), keyFile);
    if (!group.isEmpty()) {
        s.endGroup();
    }
}

ConnectionSettings ConnectionSettings::load(QSettings& s, const QString& group) {
    ConnectionSettings c;
    if (!group.isEmpty()) {
        s.beginGroup(group);
    }
    c.address = s.value(QStringLiteral("address"), c.address).toString();
    c.clientId = s.value(QStringLiteral("clientId"), c.clientId).toString();
    c.tls = s.value(QStringLiteral("tls"), false).toBool();
    c.caFile = s.value(QStringLiteral("caFile")).toString();
    c.certFile = s.value(QStringLiteral("certFile")).toString();
    c.keyFile = s.value(QStringLiteral("keyFile")).toString();
    if (!group.isEmpty()) {
        s.endGroup();
    }
    return c;
}

namespace {
const QString kLastUsedServer = QStringLiteral("connection/lastUsedServer");
}

std::optional<ConnectionSettings> lastServerUsed(QSettings& s) {
    if (!s.value(kLastUsedServer, false).toBool()) {
        return std::nullopt;
    }
    ConnectionSettings last = ConnectionSettings::load(s, QStringLiteral("lastConnection"));
    if (!addressProblem(last.address).isEmpty()) {
        return std::nullopt;  // a hand-edited file: start as on a first run
    }
    return last;
}

void rememberLastUsed(QSettings& s, const ConnectionSettings* server) {
    s.setValue(kLastUsedServer, server != nullptr);
    if (server != nullptr) {
        server->save(s, QStringLiteral("lastConnection"));
    }
}

QList<ConnectionSettings> loadRecentConnections(QSettings& s) {
    QList<ConnectionSettings> out;
    const int n = s.beginReadArray(QStringLiteral("recentConnections"));
    for (int i = 0; i < n; ++i) {
        s.setArrayIndex(i);
        out << ConnectionSettings::load(s, QString());
    }
    s.endArray();
    return out;
}

void rememberConnection(QSettings& s, const ConnectionSettings& connection) {
    QList<ConnectionSettings> list = loadRecentConnections(s);
    ConnectionSettings stored = connection;
    stored.authToken.clear();
    list.erase(
        std::remove_if(list.begin(), list.end(),
                       [&](const ConnectionSettings& c) { return c.address == stored.address; }),
        list.end());
    list.prepend(stored);
    while (list.size() > 8) {
        list.removeLast();
    }
    s.beginWriteArray(QStringLiteral("recentConnections"), static_cast<int>(list.size()));
    for (int i = 0; i < list.size(); ++i) {
        s.setArrayIndex(i);
        list[i].save(s, QString());
    }
    s.endArray();
}

}  // namespace qs::ui
