#include "test_broker.h"

#include <grpcpp/grpcpp.h>

#include <atomic>

namespace qs::test {

broker::BrokerOptions TestBroker::defaultOptions() {
    broker::BrokerOptions options;
    options.bindAddress = "127.0.0.1";
    options.port = 0;
    return options;
}

TestBroker::TestBroker(broker::BrokerOptions options)
    : broker_(std::make_unique<broker::Broker>(std::move(options))) {
    started_ = broker_->start(&error_);
}

TestBroker::~TestBroker() {
    broker_->stop();
}

std::string TestBroker::address() const {
    return broker_->address();
}

std::shared_ptr<grpc::Channel> TestBroker::newChannel() const {
    grpc::ChannelArguments args;
    // A distinct argument keeps gRPC from sharing one subchannel between
    // channels, so each one is its own TCP connection like a separate client.
    static std::atomic<int> unique{0};
    args.SetInt("queuescope.test.unique", ++unique);
    args.SetMaxReceiveMessageSize(-1);
    args.SetMaxSendMessageSize(-1);
    return grpc::CreateCustomChannel(address(), grpc::InsecureChannelCredentials(), args);
}

std::unique_ptr<kubemq::kubemq::Stub> TestBroker::newStub() const {
    return kubemq::kubemq::NewStub(newChannel());
}

}  // namespace qs::test
