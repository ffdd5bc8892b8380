#include "broker/broker.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>

#include <atomic>
#include <climits>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>

#include "broker/broker_metrics.h"
#include "broker/durable_log.h"
#include "broker/event_sink.h"
#include "broker/kubemq_service.h"
#include "broker/queue_engine.h"
#include "broker/rpc_counting_interceptor.h"
#include "broker/service_context.h"
#include "broker/session_threads.h"
#include "common/clock.h"
#include "events/broker_observer.h"
#include "kubemq.grpc.pb.h"
#include "metrics/exposition.h"

namespace qs::broker {

namespace {

// Reads a whole PEM file; nullopt (with *error naming the file) when it is
// missing, unreadable or empty.
std::optional<std::string> readPem(const std::string& path, const char* what, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in)
        text << in.rdbuf();
    if (!in || text.str().empty()) {
        *error = std::string("cannot read TLS ") + what + " '" + path +
                 "': file missing, unreadable or empty";
        return std::nullopt;
    }
    return text.str();
}

// Plaintext unless a certificate is configured; *error set when the TLS files
// are incomplete or unreadable.
std::shared_ptr<grpc::ServerCredentials> serverCredentials(const BrokerTlsOptions& tls,
                                                           std::string* error) {
    if (tls.certFile.empty() && tls.keyFile.empty()) {
        if (!tls.clientCaFile.empty()) {
            *error = "a TLS client CA needs a server certificate and key";
            return nullptr;
        }
        return grpc::InsecureServerCredentials();
    }
    if (tls.certFile.empty() || tls.keyFile.empty()) {
        *error = "TLS needs both a server certificate and a key";
        return nullptr;
    }
    const auto cert = readPem(tls.certFile, "certificate", error);
    if (!cert)
        return nullptr;
    const auto key = readPem(tls.keyFile, "key", error);
    if (!key)
        return nullptr;
    grpc::SslServerCredentialsOptions ssl(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
    if (!tls.clientCaFile.empty()) {
        const auto ca = readPem(tls.clientCaFile, "client CA", error);
        if (!ca)
            return nullptr;
        ssl.pem_root_certs = *ca;
        ssl.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    }
    ssl.pem_key_cert_pairs.push_back({*key, *cert});
    return grpc::SslServerCredentials(ssl);
}

// Every method of the kubemq service, listed in the metrics before its first call.
void declareServiceMethods(RpcCounters& counters) {
    const auto* service = google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
        kubemq::kubemq::service_full_name());
    if (service == nullptr)
        return;
    for (int i = 0; i < service->method_count(); ++i)
        counters.declare(service->method(i)->name());
}

}  // namespace

struct Broker::Impl {
    explicit Impl(BrokerOptions brokerOptions)
        : options(std::move(brokerOptions)), engine(events) {
        declareServiceMethods(rpcs);
    }
    ~Impl() {
        engine.stop();
        if (store)
            store->close();  // its compaction thread reads the engine
    }

    bool openStore(std::string* error);

    BrokerOptions options;
    EventSink events;
    std::unique_ptr<DurableLog> store;  // declared first: the engine points to it
    QueueEngine engine;                 // outlives restarts: messages stay while the object lives
    SessionThreads threads;
    RpcCounters rpcs;  // outlives restarts, like the engine's counters
    std::unique_ptr<ServiceContext> context;
    std::unique_ptr<KubemqService> service;
    std::unique_ptr<grpc::Server> server;
    std::atomic<int> port{0};
    std::atomic<bool> running{false};
    std::mutex lifecycle;
};

bool Broker::Impl::openStore(std::string* error) {
    DurableLogOptions storeOptions;
    storeOptions.directory = options.dataDirectory;
    storeOptions.sync = options.sync;
    storeOptions.batchIntervalMs = options.syncIntervalMs;
    storeOptions.compactionFloorBytes = options.compactionFloorBytes;
    storeOptions.log = options.log;
    storeOptions.syncFile = options.syncFile;
    RecoveredState state;
    std::string reason;
    store = DurableLog::open(std::move(storeOptions), &state, &reason);
    if (!store) {
        if (error != nullptr)
            *error = reason;
        if (options.log)
            options.log(reason);
        return false;
    }
    if (options.log) {
        options.log("data: " + std::to_string(state.messageCount()) + " messages in " +
                    std::to_string(state.channels.size()) + " channels recovered from " +
                    options.dataDirectory + " (sync " + std::string(syncModeName(options.sync)) +
                    ")");
    }
    engine.attachStore(*store, std::move(state));
    return true;
}

Broker::Broker(BrokerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Broker::~Broker() {
    stop();
}

bool Broker::start(std::string* error) {
    std::lock_guard lock(impl_->lifecycle);
    if (impl_->running)
        return true;
    const BrokerOptions& options = impl_->options;
    std::string tlsError;
    const auto credentials = serverCredentials(options.tls, &tlsError);
    if (!credentials) {
        if (error != nullptr)
            *error = tlsError;
        if (options.log)
            options.log(tlsError);
        return false;
    }
    if (!options.dataDirectory.empty() && !impl_->store && !impl_->openStore(error))
        return false;
    impl_->engine.start();
    impl_->context = std::make_unique<ServiceContext>(options, impl_->engine, impl_->events,
                                                      impl_->threads, unixSeconds());
    impl_->service = std::make_unique<KubemqService>(*impl_->context);

    const std::string endpoint = options.bindAddress + ":" + std::to_string(options.port);
    const int limit = options.maxMessageBytes > static_cast<std::size_t>(INT_MAX)
                          ? INT_MAX
                          : static_cast<int>(options.maxMessageBytes);
    grpc::ServerBuilder builder;
    int bound = 0;
    builder.AddListeningPort(endpoint, credentials, &bound);
    builder.RegisterService(impl_->service.get());
    builder.SetMaxReceiveMessageSize(limit);
    builder.SetMaxSendMessageSize(limit);
    // One handler thread per open stream or long poll: allow plenty.
    grpc::ResourceQuota quota("queuescope-broker");
    quota.SetMaxThreads(4096);
    builder.SetResourceQuota(quota);
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> counting;
    counting.push_back(makeRpcCountingInterceptorFactory(impl_->rpcs));
    builder.experimental().SetInterceptorCreators(std::move(counting));
    impl_->server = builder.BuildAndStart();
    if (!impl_->server || bound == 0) {
        if (impl_->server) {
            impl_->server->Shutdown();
            impl_->server->Wait();
        }
        impl_->server.reset();
        impl_->service.reset();
        impl_->context.reset();
        impl_->engine.stop();
        const std::string message =
            "cannot listen on " + endpoint + " (address in use or not available)";
        if (error != nullptr)
            *error = message;
        if (options.log)
            options.log(message);
        return false;
    }
    impl_->port = bound;
    impl_->running = true;
    return true;
}

void Broker::stop() {
    std::lock_guard lock(impl_->lifecycle);
    if (!impl_->server)
        return;
    // Wake every long poll and stream session first; they notice within
    // ~100 ms and return, so Shutdown's grace period is rarely needed.
    impl_->engine.stop();
    impl_->server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    impl_->threads.joinAll();
    impl_->server->Wait();
    impl_->server.reset();
    impl_->service.reset();
    impl_->context.reset();
    impl_->running = false;
}

bool Broker::isRunning() const {
    return impl_->running;
}

int Broker::port() const {
    return impl_->port;
}

std::string Broker::address() const {
    return impl_->options.bindAddress + ":" + std::to_string(impl_->port.load());
}

void Broker::setObserver(BrokerObserver* observer) {
    impl_->events.setObserver(observer);
}

std::string Broker::metricsText() const {
    std::vector<ChannelFigures> channels;
    for (const auto& channel : impl_->engine.channels())
        channels.push_back({channel->name(), channel->stats()});
    return metrics::renderExposition(brokerMetricFamilies(channels, impl_->rpcs.figures()));
}

}  // namespace qs::broker
