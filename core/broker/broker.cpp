#include "broker/broker.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>

#include <atomic>
#include <climits>
#include <mutex>

#include "broker/broker_observer.h"
#include "broker/event_sink.h"
#include "broker/kubemq_service.h"
#include "broker/queue_engine.h"
#include "broker/service_context.h"
#include "broker/session_threads.h"
#include "common/clock.h"

namespace qs::broker {

struct Broker::Impl {
    explicit Impl(BrokerOptions brokerOptions)
        : options(std::move(brokerOptions)), engine(events) {}

    BrokerOptions options;
    EventSink events;
    QueueEngine engine;  // outlives restarts: messages stay while the object lives
    SessionThreads threads;
    std::unique_ptr<ServiceContext> context;
    std::unique_ptr<KubemqService> service;
    std::unique_ptr<grpc::Server> server;
    std::atomic<int> port{0};
    std::atomic<bool> running{false};
    std::mutex lifecycle;
};

Broker::Broker(BrokerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Broker::~Broker() {
    stop();
}

bool Broker::start(std::string* error) {
    std::lock_guard lock(impl_->lifecycle);
    if (impl_->running)
        return true;
    const BrokerOptions& options = impl_->options;
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
    builder.AddListeningPort(endpoint, grpc::InsecureServerCredentials(), &bound);
    builder.RegisterService(impl_->service.get());
    builder.SetMaxReceiveMessageSize(limit);
    builder.SetMaxSendMessageSize(limit);
    // One handler thread per open stream or long poll: allow plenty.
    grpc::ResourceQuota quota("queuescope-broker");
    quota.SetMaxThreads(4096);
    builder.SetResourceQuota(quota);
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
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

}  // namespace qs::broker
