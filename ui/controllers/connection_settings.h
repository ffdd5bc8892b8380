#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "client/client_options.h"

class QSettings;

// Where and how to connect: address, client id, auth token, TLS files.
// The auth token is never written to disk.
namespace qs::ui {

struct ConnectionSettings {
    QString address = QStringLiteral("localhost:50000");
    QString clientId = QStringLiteral("queuescope");
    QString authToken;
    bool tls = false;
    QString caFile;
    QString certFile;
    QString keyFile;

    client::ClientOptions toClientOptions(const QString& clientIdSuffix = {}) const;
    QString label() const;  // "localhost:50000 (TLS)"

    void save(QSettings& settings, const QString& group) const;
    static ConnectionSettings load(QSettings& settings, const QString& group);

    bool operator==(const ConnectionSettings&) const = default;
};

// client::addressProblem() of the trimmed address, for the field that holds it.
QString addressProblem(const QString& address);

// The server a session used when it closed, to be offered again at the next
// start; nullopt when it used the embedded broker or on a first run (the
// embedded broker is then the default).
std::optional<ConnectionSettings> lastServerUsed(QSettings& settings);
// What the closing session used: `server`, or the embedded broker when null.
void rememberLastUsed(QSettings& settings, const ConnectionSettings* server);

// Most recent first, at most 8, unique by address.
QList<ConnectionSettings> loadRecentConnections(QSettings& settings);
void rememberConnection(QSettings& settings, const ConnectionSettings& connection);

}  // namespace qs::ui
