#pragma once

#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>
#include <functional>
#include <memory>

#include "client/server_info.h"
#include "controllers/connection_settings.h"
#include "controllers/embedded_store.h"

namespace qs {
class BrokerObserver;
}
namespace qs::broker {
class Broker;
}  // namespace qs::broker
namespace qs::client {
class QueuesClient;
}

// Owns the connection the console works against: either a KubeMQ server the
// user chose, or the embedded broker started on 127.0.0.1. Pings the server
// every few seconds on a worker thread; a lost server is shown and retried.
//
// Threading: lives on the UI thread. Every network call runs on the
// controller's own thread pool and its result comes back as a value through a
// queued call on this object; results of an older connection (generation) are
// dropped. The embedded broker is started and stopped on the UI thread
// (binding a local port does not wait on the network).
namespace qs::ui {

class ConnectionController : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Probing, Connecting, Connected, Lost };
    Q_ENUM(State)

    explicit ConnectionController(QObject* parent = nullptr);
    ~ConnectionController() override;

    // Probes `probeAddress` off the UI thread; emits existingServerFound() when a
    // server answers, otherwise starts the embedded broker (startEmbedded(embeddedPort)).
    void autoStart(const QString& probeAddress = QStringLiteral("localhost:50000"),
                   int embeddedPort = 50000);
    // The same with the whole settings (the last server used: its TLS files too).
    void autoStart(const ConnectionSettings& probe, int embeddedPort);
    // Connects to a server (dropping the embedded broker, if any).
    void connectTo(const ConnectionSettings& settings);
    // Starts the embedded broker on 127.0.0.1:preferredPort, or a free port
    // when that one is taken (0 = any free port) and connects to it, with its
    // queues where embeddedStore() says. On failure (a port or a data
    // directory it cannot have: locked by another broker, unwritable, a
    // corrupt store) *error says why and the console is disconnected.
    bool startEmbedded(int preferredPort = 50000, QString* error = nullptr);
    // Where the next startEmbedded() keeps its queues (the running broker
    // keeps its own until restarted).
    void setEmbeddedStore(const EmbeddedStore& store) { embeddedStore_ = store; }
    const EmbeddedStore& embeddedStore() const { return embeddedStore_; }
    void disconnectFromServer();

    State state() const { return state_; }
    bool isEmbedded() const { return broker_ != nullptr; }
    const ConnectionSettings& settings() const { return settings_; }
    const client::ServerInfo& serverInfo() const { return info_; }
    QString lastError() const { return lastError_; }
    QString describeState() const;  // "Connected to ... · v2.4.0 · up 3 m"
    qint64 uptimeSeconds() const;   // as of now, from the last ping

    // Shared management client (ping, channels, peek). Null when disconnected.
    std::shared_ptr<client::QueuesClient> client() const { return client_; }
    broker::Broker* embeddedBroker() const { return broker_.get(); }
    // Attached to the embedded broker (now and after a restart).
    void setBrokerObserver(BrokerObserver* observer);

    // Runs `work` on the controller's thread pool and `done(result)` back on
    // the UI thread with `context` alive; skipped if the connection changed.
    template <typename R>
    void run(QObject* context, std::function<R()> work, std::function<void(R)> done);

    void setPingIntervalMs(int ms) { pingTimer_.setInterval(ms); }

    // Tries `settings` without touching the current connection: a client of
    // its own pings the server off the UI thread, then done(error) runs on the
    // UI thread with `context` alive (error empty: it answered, with `version`).
    void probe(const ConnectionSettings& settings, QObject* context,
               std::function<void(QString error, QString version)> done);

Q_SIGNALS:
    void stateChanged(qs::ui::ConnectionController::State state);
    void serverInfoChanged();
    // A server already answers at `address`: ask the user whether to use it.
    void existingServerFound(const QString& address, const QString& version);
    // One line for the status bar, only for what the connection label (describeState())
    // does not show: why the embedded broker is used, a taken port, an error.
    void statusMessage(const QString& text);
    // A new connection is ready (client() is valid); the run must be rebuilt.
    void connectionChanged();

private:
    void setState(State s);
    void ping();
    bool makeClient(QString* error);
    void stopEmbedded();

    QThreadPool pool_;
    QTimer pingTimer_;
    State state_ = State::Disconnected;
    ConnectionSettings settings_;
    std::shared_ptr<client::QueuesClient> client_;
    std::unique_ptr<broker::Broker> broker_;
    BrokerObserver* observer_ = nullptr;
    EmbeddedStore embeddedStore_;
    client::ServerInfo info_;
    qint64 infoAtMs_ = 0;  // when info_ was received (ms since epoch)
    QString lastError_;
    quint64 generation_ = 0;
    bool pingInFlight_ = false;
    bool everConnected_ = false;  // this address answered once: a failure now is "Lost"
    int failures_ = 0;
};

template <typename R>
void ConnectionController::run(QObject* context, std::function<R()> work,
                               std::function<void(R)> done) {
    const quint64 generation = generation_;
    QPointer<QObject> ctx(context);  // only dereferenced on the UI thread
    pool_.start([this, work = std::move(work), done = std::move(done), ctx, generation]() mutable {
        R result = work();
        // Posted to the controller, which waits for its pool before it dies.
        QMetaObject::invokeMethod(
            this,
            [this, result = std::move(result), done = std::move(done), ctx, generation]() mutable {
                if (ctx && generation_ == generation) {
                    done(std::move(result));
                }
            },
            Qt::QueuedConnection);
    });
}

}  // namespace qs::ui
