#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "conformance_rpc.h"

namespace qs::test::conf {

using Metadata = std::vector<std::pair<std::string, std::string>>;

// One response frame and the moment the reader thread received it, so tests
// can time a response without being skewed by when they look at it.
template <class Response>
struct Frame {
    Response message;
    Clock::time_point at;
};

// A client-side bidirectional gRPC stream with a background reader: frames
// are queued as they arrive and taken with next(timeout), so a test can assert
// both what arrives and that nothing arrives within a window.
//
// Threading: construct, send(), next(), finish() and destroy on one thread
// (the test thread). cancel() is safe from any thread. The reader thread is
// owned and joined by the session.
template <class Request, class Response>
class BidiSession {
public:
    using Stream = grpc::ClientReaderWriter<Request, Response>;
    using Opener = std::function<std::unique_ptr<Stream>(grpc::ClientContext*)>;

    BidiSession(std::shared_ptr<grpc::Channel> channel, const Opener& open,
                const Metadata& metadata = {})
        : channel_(std::move(channel)) {
        for (const auto& [key, value] : metadata)
            context_.AddMetadata(key, value);
        // A bound so a broken broker can never hang a test run.
        context_.set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(5));
        stream_ = open(&context_);
        reader_ = std::thread([this] { readLoop(); });
    }

    ~BidiSession() {
        cancel();
        finish();
    }

    BidiSession(const BidiSession&) = delete;
    BidiSession& operator=(const BidiSession&) = delete;

    // False once the stream is broken (the server ended it or it was cancelled).
    bool send(const Request& request) { return stream_->Write(request); }

    // Half-close: tells the server no more requests follow.
    bool writesDone() { return stream_->WritesDone(); }

    void cancel() { context_.TryCancel(); }

    // The next frame, or nothing if none arrives within timeout (or the
    // stream ended with no frame left).
    std::optional<Frame<Response>> next(std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        cv_.wait_for(lock, timeout, [this] { return !frames_.empty() || ended_; });
        if (frames_.empty())
            return std::nullopt;
        Frame<Response> frame = std::move(frames_.front());
        frames_.pop_front();
        return frame;
    }

    // True when the server side of the stream has ended within timeout.
    bool waitEnded(std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, timeout, [this] { return ended_; });
    }

    // Joins the reader and returns the final status. Only call once the
    // stream has ended or been cancelled, otherwise it blocks until it does.
    grpc::Status finish() {
        if (reader_.joinable())
            reader_.join();
        if (!finished_) {
            status_ = stream_->Finish();
            finished_ = true;
        }
        return status_;
    }

    // True once the server side has ended (or the call was cancelled).
    bool ended() const {
        std::lock_guard lock(mutex_);
        return ended_;
    }

    Clock::time_point endedAt() const {
        std::lock_guard lock(mutex_);
        return endedAt_;
    }

private:
    void readLoop() {
        Response response;
        while (stream_->Read(&response)) {
            std::lock_guard lock(mutex_);
            frames_.push_back({std::move(response), Clock::now()});
            response = Response();
            cv_.notify_all();
        }
        std::lock_guard lock(mutex_);
        ended_ = true;
        endedAt_ = Clock::now();
        cv_.notify_all();
    }

    std::shared_ptr<grpc::Channel> channel_;
    grpc::ClientContext context_;
    std::unique_ptr<Stream> stream_;
    std::thread reader_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Frame<Response>> frames_;
    bool ended_ = false;
    Clock::time_point endedAt_;
    bool finished_ = false;
    grpc::Status status_;
};

}  // namespace qs::test::conf
