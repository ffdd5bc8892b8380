#include "controllers/connection_controller.h"

#include <QDateTime>

#include "broker/broker.h"
#include "client/queues_client.h"
#include "models/core_text.h"

namespace qs::ui {

namespace {
QString formatUptime(qint64 s) {
    if (s < 60) {
        return QStringLiteral("%1 s").arg(s);
    }
    if (s < 3600) {
        return QStringLiteral("%1 min").arg(s / 60);
    }
    if (s < 86400) {
        return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    }
    return QStringLiteral("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}
}  // namespace

ConnectionController::ConnectionController(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(6);
    pingTimer_.setInterval(2000);
    connect(&pingTimer_, &QTimer::timeout, this, &ConnectionController::ping);
}

ConnectionController::~ConnectionController() {
    pingTimer_.stop();
    ++generation_;
    if (client_) {
        client_->shutdown();  // in-flight calls return promptly
    }
    pool_.clear();
    pool_.waitForDone();
    client_.reset();
    stopEmbedded();
}

QString ConnectionController::describeState() const {
    const QString where = isEmbedded() ? QStringLiteral("embedded broker at ") + settings_.address
                                       : settings_.label();
    switch (state_) {
        case State::Disconnected:
            return QStringLiteral("Not connected");
        case State::Probing:
            return QStringLiteral("Looking for a server at %1…").arg(settings_.address);
        case State::Connecting:
            return QStringLiteral("Connecting to %1…").arg(where);
        case State::Connected:
            return QStringLiteral("Connected to %1 · %2 · up %3")
                .arg(where, fromView(info_.version), formatUptime(uptimeSeconds()));
        case State::Lost:
            // Only a server that answered can be lost; one that never did is unreachable.
            return everConnected_
                       ? QStringLiteral("Lost %1 — retrying (%2)").arg(where, lastError_)
                       : QStringLiteral("Cannot reach %1 — retrying (%2)").arg(where, lastError_);
    }
    return {};
}

qint64 ConnectionController::uptimeSeconds() const {
    if (infoAtMs_ == 0) {
        return 0;
    }
    return info_.uptimeSeconds + (QDateTime::currentMSecsSinceEpoch() - infoAtMs_) / 1000;
}

void ConnectionController::setState(State s) {
    if (state_ == s) {
        return;
    }
    state_ = s;
    Q_EMIT stateChanged(s);
}

void ConnectionController::setBrokerObserver(BrokerObserver* observer) {
    observer_ = observer;
    if (broker_) {
        broker_->setObserver(observer);
    }
}

bool ConnectionController::makeClient(QString* error) {
    if (client_) {
        client_->shutdown();
    }
    client_.reset();
    client::ClientOptions options = settings_.toClientOptions();
    options.callTimeout = std::chrono::milliseconds(4000);
    auto created = client::QueuesClient::create(options);
    if (!created.ok()) {
        lastError_ = fromView(created.error().describe());
        if (error) {
            *error = lastError_;
        }
        return false;
    }
    client_ = std::shared_ptr<client::QueuesClient>(std::move(created).value());
    return true;
}

void ConnectionController::autoStart(const QString& probeAddress, int embeddedPort) {
    ConnectionSettings probe = settings_;
    probe.address = probeAddress;
    autoStart(probe, embeddedPort);
}

void ConnectionController::autoStart(const ConnectionSettings& probe, int embeddedPort) {
    ++generation_;
    settings_ = probe;  // TLS and client id too: existingServerFound() connects with them
    const QString probeAddress = probe.address;
    setState(State::Probing);  // the status bar's connection label says "Looking for…"
    client::ClientOptions options = probe.toClientOptions(QStringLiteral("-probe"));
    options.callTimeout = std::chrono::milliseconds(1500);
    run<QString>(
        this,
        [options]() -> QString {
            auto created = client::QueuesClient::create(options);
            if (!created.ok()) {
                return {};
            }
            auto info = created.value()->ping();
            return info.ok() ? fromView(info->version) : QString();
        },
        [this, probeAddress, embeddedPort](QString version) {
            if (!version.isEmpty()) {
                Q_EMIT existingServerFound(probeAddress, version);
                return;
            }
            Q_EMIT statusMessage(
                QStringLiteral("No KubeMQ server answered at %1: using the embedded broker")
                    .arg(probeAddress));
            QString error;
            if (!startEmbedded(embeddedPort, &error)) {
                Q_EMIT statusMessage(QStringLiteral("Could not start the embedded broker: ") +
                                     error);
            }
        });
}

void ConnectionController::probe(const ConnectionSettings& settings, QObject* context,
                                 std::function<void(QString, QString)> done) {
    client::ClientOptions options = settings.toClientOptions(QStringLiteral("-probe"));
    options.callTimeout = std::chrono::milliseconds(4000);
    struct Answer {
        QString error;
        QString version;
    };
    run<Answer>(
        context,
        [options]() -> Answer {
            auto created = client::QueuesClient::create(options);
            if (!created.ok()) {
                return {fromView(created.error().describe()), {}};
            }
            auto info = created.value()->ping();
            return info.ok() ? Answer{{}, fromView(info->version)}
                             : Answer{fromView(info.error().describe()), {}};
        },
        [done = std::move(done)](Answer answer) { done(answer.error, answer.version); });
}

void ConnectionController::connectTo(const ConnectionSettings& settings) {
    pingTimer_.stop();
    ++generation_;
    stopEmbedded();
    settings_ = settings;
    info_ = {};
    infoAtMs_ = 0;
    QString error;
    if (!makeClient(&error)) {
        setState(State::Disconnected);
        Q_EMIT statusMessage(
            QStringLiteral("Cannot connect to %1: %2").arg(settings.label(), error));
        return;
    }
    setState(State::Connecting);  // shown by the connection label
    Q_EMIT connectionChanged();
    failures_ = 0;
    everConnected_ = false;
    pingInFlight_ = false;
    ping();
    pingTimer_.start();
}

bool ConnectionController::startEmbedded(int preferredPort, QString* error) {
    pingTimer_.stop();
    ++generation_;
    stopEmbedded();
    broker::BrokerOptions options;
    options.bindAddress = "127.0.0.1";
    options.port = preferredPort;
    options.dataDirectory = embeddedStore_.dataDirectory.toStdString();
    options.sync = embeddedStore_.sync;
    auto broker = std::make_unique<broker::Broker>(options);
    std::string why;
    bool started = broker->start(&why);
    if (!started && preferredPort != 0) {
        options.port = 0;  // the preferred port is taken: any free one
        broker = std::make_unique<broker::Broker>(options);
        started = broker->start(&why);
    }
    if (!started) {
        lastError_ = fromView(why);
        if (error) {
            *error = lastError_;
        }
        setState(State::Disconnected);
        return false;
    }
    broker_ = std::move(broker);
    broker_->setObserver(observer_);
    ConnectionSettings s;
    s.address = QStringLiteral("127.0.0.1:%1").arg(broker_->port());
    s.clientId = settings_.clientId.isEmpty() ? QStringLiteral("queuescope") : settings_.clientId;
    settings_ = s;
    info_ = {};
    infoAtMs_ = 0;
    if (!makeClient(error)) {
        setState(State::Disconnected);
        return false;
    }
    setState(State::Connecting);
    // The connection label shows where the broker listens; say only why it is
    // not where the user asked (the address once in the status bar, not twice).
    if (preferredPort != 0 && broker_->port() != preferredPort) {
        Q_EMIT statusMessage(
            QStringLiteral("Port %1 is taken: the embedded broker listens on a free port")
                .arg(preferredPort));
    }
    Q_EMIT connectionChanged();
    failures_ = 0;
    everConnected_ = false;
    pingInFlight_ = false;
    ping();
    pingTimer_.start();
    return true;
}

void ConnectionController::stopEmbedded() {
    if (!broker_) {
        return;
    }
    broker_->setObserver(nullptr);
    broker_->stop();
    broker_.reset();
}

void ConnectionController::disconnectFromServer() {
    pingTimer_.stop();
    ++generation_;
    if (client_) {
        client_->shutdown();
    }
    client_.reset();
    stopEmbedded();
    setState(State::Disconnected);
    Q_EMIT connectionChanged();
}

void ConnectionController::ping() {
    if (!client_ || pingInFlight_) {
        return;
    }
    pingInFlight_ = true;
    std::shared_ptr<client::QueuesClient> c = client_;
    run<client::Result<client::ServerInfo>>(
        this, [c]() { return c->ping(); },
        [this](client::Result<client::ServerInfo> result) {
            pingInFlight_ = false;
            if (result.ok()) {
                info_ = result.value();
                infoAtMs_ = QDateTime::currentMSecsSinceEpoch();
                failures_ = 0;
                everConnected_ = true;
                lastError_.clear();
                // The connection label shows it; no second copy as a status message.
                setState(State::Connected);
                Q_EMIT serverInfoChanged();
                return;
            }
            ++failures_;
            lastError_ = fromView(result.error().describe());
            setState(State::Lost);  // the label: "Lost … — retrying (error)"
            Q_EMIT serverInfoChanged();
        });
}

}  // namespace qs::ui
