#pragma once

#include <grpcpp/grpcpp.h>

#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "broker/service_context.h"
#include "broker/waiter.h"
#include "kubemq.grpc.pb.h"

namespace qs::broker {

// One v1 StreamQueueMessage stream (spec §2.11): at most one message per
// stream, with server-side wait and visibility timers. The stream ends (OK)
// after a successful settlement, a timer expiry or a disconnect.
//
// It is a callback reactor so the server can end the RPC while the client is
// still expected to write. gRPC reactions only record what happened; one
// worker thread (owned by SessionThreads) runs the session logic, writes one
// response at a time, calls Finish, waits for OnDone and then deletes the
// reactor.
class StreamMessageSession final
    : public grpc::ServerBidiReactor<kubemq::StreamQueueMessagesRequest,
                                     kubemq::StreamQueueMessagesResponse> {
public:
    StreamMessageSession(ServiceContext& context, grpc::CallbackServerContext* server);

    void OnReadDone(bool ok) override;
    void OnWriteDone(bool ok) override;
    void OnCancel() override;
    void OnDone() override;

private:
    // State the reactions and the worker share; outlives the reactor while
    // OnDone is still returning.
    struct Shared {
        std::mutex mutex;
        Waiter waiter;
        std::deque<kubemq::StreamQueueMessagesRequest> requests;
        bool readEnded = false;
        bool cancelled = false;
        bool writeDone = true;
        bool writeFailed = false;
        bool done = false;
    };

    void work();
    void handle(kubemq::StreamQueueMessagesRequest& request);
    void receive(const kubemq::StreamQueueMessagesRequest& request);
    void deliverIfAvailable();
    void respond(kubemq::StreamQueueMessagesResponse& response);
    void respondError(const kubemq::StreamQueueMessagesRequest& request, std::string_view error);
    void respondSuccess(const kubemq::StreamQueueMessagesRequest& request);
    // A successful ack, reject, resend or modified send: answered, and the stream ends.
    void settledAndEnd(const kubemq::StreamQueueMessagesRequest& request);
    // BrokerOptions::loseEndingV1Answer: tests drop the answer that ends the stream.
    bool endingAnswerLost() const;
    bool visibilityFrom(const kubemq::StreamQueueMessagesRequest& request, int* seconds);
    void nackHeld(std::string_view reason = {});
    void finishAndWait(const grpc::Status& status);

    ServiceContext& context_;
    grpc::CallbackServerContext* server_;
    std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
    std::recursive_mutex opsMutex_;  // orders StartRead/StartWrite against Finish
    bool finished_ = false;          // guarded by opsMutex_
    bool selfDelete_ = false;        // no worker: OnDone deletes
    kubemq::StreamQueueMessagesRequest readBuffer_;
    kubemq::StreamQueueMessagesResponse writeBuffer_;

    // Worker-thread state.
    std::string peer_;
    std::string clientId_;
    bool announced_ = false;
    std::shared_ptr<QueueChannel> channel_;
    bool subscribed_ = false;
    std::optional<StoredMessage> held_;
    std::string holdRequestId_;
    std::chrono::steady_clock::time_point waitDeadline_{};
    std::chrono::steady_clock::time_point visibilityDeadline_{};
    bool visibilityActive_ = false;
    int visibilitySeconds_ = 0;
    std::string lastRequestId_;
    kubemq::StreamRequestType lastType_ = kubemq::ReceiveMessage;
    bool end_ = false;
};

}  // namespace qs::broker
