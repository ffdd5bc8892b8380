#pragma once

#include <memory>
#include <string>

#include "broker/broker.h"
#include "kubemq.grpc.pb.h"

namespace qs::test {

// Starts a real embedded broker on 127.0.0.1 with an ephemeral port for the
// lifetime of the object, and hands out gRPC stubs connected to it.
// Construct and destroy on the test thread.
class TestBroker {
public:
    explicit TestBroker(broker::BrokerOptions options = defaultOptions());
    ~TestBroker();

    static broker::BrokerOptions defaultOptions();

    bool ok() const { return started_; }
    const std::string& error() const { return error_; }
    std::string address() const;
    broker::Broker& broker() { return *broker_; }

    // A new channel (own connection) each call, so streams on different
    // channels behave as different clients.
    std::shared_ptr<grpc::Channel> newChannel() const;
    std::unique_ptr<kubemq::kubemq::Stub> newStub() const;

private:
    std::unique_ptr<broker::Broker> broker_;
    bool started_ = false;
    std::string error_;
};

}  // namespace qs::test
