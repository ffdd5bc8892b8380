// The broker with a durable store (--data-dir) over gRPC: queues survive a
// restart of the embedded broker and a SIGKILL of the queuescope-broker
// executable. The anchor is the real KubeMQ v2.4.0: 2,000 sent, 500 pulled,
// SIGKILL, restart on the same store: exactly the other 1,500 in order.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "broker/kubemq_errors.h"
#include "broker/message_codec.h"
#include "broker/store_record.h"
#include "durable_test_client.h"
#include "real_server.h"
#include "test_broker.h"
#include "wait_until.h"

using namespace qs::test;

// These suites start queuescope-broker (fork + exec) while gRPC client
// threads run; gRPC's fork handlers start threads in the child before exec,
// which ThreadSanitizer refuses by default. Only used in the tsan build.
extern "C" __attribute__((used)) const char* __tsan_default_options() {
    return "die_after_fork=0";
}

namespace {

constexpr int kDeadlineMs = 60000;

std::vector<std::string> numberedIds(int from, int to) {
    std::vector<std::string> ids;
    for (int i = from; i <= to; ++i)
        ids.push_back("m" + std::to_string(i));
    return ids;
}

// queuescope-broker on an ephemeral port with a data directory.
class BrokerProcess {
public:
    bool start(const QString& dataDir, QString* error) {
        process_.start(
            QStringLiteral(QUEUESCOPE_BROKER_EXE),
            {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"), dataDir});
        if (!process_.waitForStarted(kDeadlineMs)) {
            *error = QStringLiteral("did not start");
            return false;
        }
        while (!process_.canReadLine()) {
            if (!process_.waitForReadyRead(kDeadlineMs)) {
                *error = QString::fromUtf8(process_.readAllStandardError());
                return false;
            }
        }
        static const QRegularExpression pattern(QStringLiteral("listening on (\\S+)"));
        const auto match = pattern.match(QString::fromUtf8(process_.readLine()));
        address_ = match.captured(1).toStdString();
        return match.hasMatch();
    }
    void kill() {
        process_.kill();  // SIGKILL
        process_.waitForFinished(kDeadlineMs);
    }
    QByteArray standardError() { return process_.readAllStandardError(); }
    const std::string& address() const { return address_; }
    ~BrokerProcess() {
        if (process_.state() != QProcess::NotRunning)
            kill();
    }

private:
    QProcess process_;
    std::string address_;
};

std::vector<std::string> pullIds(kubemq::kubemq::Stub& stub, const std::string& channel, int max) {
    std::vector<kubemq::QueueMessage> messages;
    if (!pull(stub, channel, max, 1, &messages))
        return {"<pull failed>"};
    std::vector<std::string> ids;
    for (const auto& message : messages)
        ids.push_back(message.messageid());
    return ids;
}

// The store's fsync as the broker calls it, watched: how far the log is known
// to be on disk, and a switch that makes every later fsync fail with EIO.
struct WatchedSync {
    std::atomic<std::int64_t> syncedBytes{0};
    std::atomic<int> calls{0};
    std::atomic<int> failures{0};
    std::atomic<bool> fail{false};

    std::function<int(int)> hook() {
        return [this](int fd) {
            ++calls;
            if (fail.load()) {
                ++failures;
                errno = EIO;
                return -1;
            }
            struct stat info {};
            ::fstat(fd, &info);  // everything written before the fsync is covered by it
            const int result = ::fdatasync(fd);
            if (result == 0 && info.st_size > syncedBytes.load())
                syncedBytes.store(info.st_size);
            return result;
        };
    }
};

// Where each message's Put record ends in the log files of `directory`.
std::map<std::string, std::int64_t> putRecordEnds(const std::string& directory) {
    std::map<std::string, std::int64_t> ends;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        if (!entry.path().filename().string().starts_with("log-"))
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string data((std::istreambuf_iterator<char>(in)), {});
        std::size_t pos = 8;  // the file's magic
        qs::broker::StoreRecord record;
        std::size_t frameBytes = 0;
        while (pos < data.size() &&
               qs::broker::readFrame(std::string_view(data).substr(pos), &record, &frameBytes) ==
                   qs::broker::FrameCheck::Complete) {
            pos += frameBytes;
            if (record.type == qs::broker::RecordType::Put)
                ends[std::string(qs::broker::messageIdOf(record.message.content))] =
                    static_cast<std::int64_t>(pos);
        }
    }
    return ends;
}

kubemq::QueuesUpstreamRequest upstreamRequest(const std::string& channel, int request, int size) {
    kubemq::QueuesUpstreamRequest out;
    out.set_requestid("r" + std::to_string(request));
    for (int i = 0; i < size; ++i)
        *out.add_messages() =
            queueMessage(channel, "r" + std::to_string(request) + "-" + std::to_string(i));
    return out;
}

bool bindable(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

// The real KubeMQ v2.4.0 run directly (its start.sh always cleans the store,
// so it cannot restart on one): the same environment, STORE_CLEAN_STORE=false.
class RealKubemq {
public:
    RealKubemq(const QString& workdir, int port) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("GRPC_PORT"), QString::number(port));
        environment.insert(QStringLiteral("REST_PORT"), QString::number(port + 1));
        environment.insert(QStringLiteral("API_PORT"), QString::number(port + 2));
        environment.insert(QStringLiteral("STORE_CLEAN_STORE"), QStringLiteral("false"));
        environment.insert(QStringLiteral("KUBEMQ_DISABLE_REPORT"), QStringLiteral("true"));
        process_.setProcessEnvironment(environment);
        process_.setWorkingDirectory(workdir);
        process_.setStandardOutputFile(workdir + QStringLiteral("/server.log"), QIODevice::Append);
        process_.setStandardErrorFile(workdir + QStringLiteral("/server.log"), QIODevice::Append);
        process_.start(RealServer::directory() + QStringLiteral("/kubemq"),
                       {QStringLiteral("server")});
        address_ = "127.0.0.1:" + std::to_string(port);
    }
    bool waitUntilServing() {
        auto stub = kubemq::kubemq::NewStub(fastReconnectChannel(address_));
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            grpc::ClientContext context;
            setDeadline(context, 1);
            kubemq::PingResult ping;
            if (stub->Ping(&context, kubemq::Empty(), &ping).ok())
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    void kill() {
        process_.kill();
        process_.waitForFinished(kDeadlineMs);
    }
    ~RealKubemq() {
        if (process_.state() != QProcess::NotRunning) {
            process_.terminate();
            if (!process_.waitForFinished(10000))
                kill();
        }
    }
    const std::string& address() const { return address_; }

private:
    QProcess process_;
    std::string address_;
};

}  // namespace

class TestBrokerDurable : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void queuesSurviveARestartOfTheEmbeddedBroker() {
        QTemporaryDir dir;
        auto options = TestBroker::defaultOptions();
        options.dataDirectory = dir.path().toStdString();
        std::string firstAddress;
        {
            TestBroker broker(options);
            QVERIFY2(broker.ok(), broker.error().c_str());
            auto stub = broker.newStub();
            QVERIFY(sendBatch(*stub, "orders", numberedIds(1, 3)));
            auto limited = queueMessage("policy", "limited");
            limited.mutable_policy()->set_maxreceivecount(1);
            limited.mutable_policy()->set_maxreceivequeue("policy.dead");
            limited.mutable_policy()->set_expirationseconds(3600);
            auto delayed = queueMessage("later", "delayed");
            delayed.mutable_policy()->set_delayseconds(3600);
            for (const auto& message : {limited, delayed}) {
                grpc::ClientContext context;
                kubemq::SendQueueMessageResult result;
                QVERIFY(stub->SendQueueMessage(&context, message, &result).ok());
                QVERIFY(!result.iserror());
            }
            QCOMPARE(pullIds(*stub, "orders", 1), std::vector<std::string>{"m1"});
        }
        TestBroker broker(options);
        QVERIFY2(broker.ok(), broker.error().c_str());
        auto stub = broker.newStub();
        kubemq::QueuesInfoRequest infoRequest;
        kubemq::QueuesInfoResponse info;
        grpc::ClientContext infoContext;
        QVERIFY(stub->QueuesInfo(&infoContext, infoRequest, &info).ok());
        std::vector<std::string> names;
        for (const auto& queue : info.info().queues())
            names.push_back(queue.name());
        QCOMPARE(names, (std::vector<std::string>{"later", "orders", "policy"}));

        std::vector<kubemq::QueueMessage> messages;
        QVERIFY(pull(*stub, "orders", 10, 1, &messages));
        QCOMPARE(messages.size(), std::size_t(2));
        QCOMPARE(messages[0].messageid(), std::string("m2"));
        QCOMPARE(messages[0].attributes().sequence(), std::uint64_t(2));
        QCOMPARE(messages[1].messageid(), std::string("m3"));

        // Policy and expiry kept: a downstream Get shows ReceiveCount 1 and
        // the expiry; a nack then dead-letters it (MaxReceiveCount 1).
        grpc::ClientContext streamContext;
        auto stream = stub->QueuesDownstream(&streamContext);
        kubemq::QueuesDownstreamRequest get;
        get.set_requestid("get");
        get.set_clientid("durable-test");
        get.set_requesttypedata(kubemq::Get);
        get.set_channel("policy");
        get.set_maxitems(1);
        get.set_waittimeout(1000);
        QVERIFY(stream->Write(get));
        kubemq::QueuesDownstreamResponse got;
        QVERIFY(stream->Read(&got));
        QCOMPARE(got.messages_size(), 1);
        QCOMPARE(got.messages(0).attributes().receivecount(), 1);
        QVERIFY(got.messages(0).attributes().expirationat() > 0);
        QCOMPARE(got.messages(0).policy().maxreceivequeue(), std::string("policy.dead"));
        kubemq::QueuesDownstreamRequest nack;
        nack.set_requestid("nack");
        nack.set_clientid("durable-test");
        nack.set_requesttypedata(kubemq::NAckAll);
        nack.set_reftransactionid(got.transactionid());
        QVERIFY(stream->Write(nack));
        stream->WritesDone();
        while (stream->Read(&got)) {
        }
        QVERIFY(stream->Finish().ok());
        QCOMPARE(pullIds(*stub, "policy.dead", 10), std::vector<std::string>{"limited"});

        // The delayed message is still held (its one hour has not passed).
        QVERIFY(pullIds(*stub, "later", 10).empty());
    }

    // The anchor of issue 14, on queuescope-broker.
    void sigkillLosesNothingThatWasAnswered() {
        QTemporaryDir dir;
        QString error;
        std::vector<std::string> firstPulled;
        {
            BrokerProcess broker;
            QVERIFY2(broker.start(dir.path(), &error), qPrintable(error));
            auto stub = kubemq::kubemq::NewStub(fastReconnectChannel(broker.address()));
            for (int from = 1; from <= 2000; from += 100)
                QVERIFY(sendBatch(*stub, "anchor", numberedIds(from, from + 99)));
            while (firstPulled.size() < 500) {
                const auto ids =
                    pullIds(*stub, "anchor", 500 - static_cast<int>(firstPulled.size()));
                firstPulled.insert(firstPulled.end(), ids.begin(), ids.end());
            }
            broker.kill();
        }
        QCOMPARE(firstPulled, numberedIds(1, 500));
        BrokerProcess broker;
        QVERIFY2(broker.start(dir.path(), &error), qPrintable(error));
        auto stub = kubemq::kubemq::NewStub(fastReconnectChannel(broker.address()));
        std::vector<std::string> rest;
        for (;;) {
            const auto ids = pullIds(*stub, "anchor", 1000);
            if (ids.empty())
                break;
            QVERIFY(ids.front() != "<pull failed>");
            rest.insert(rest.end(), ids.begin(), ids.end());
        }
        QCOMPARE(rest.size(), std::size_t(1500));
        QVERIFY(rest == numberedIds(501, 2000));
        QVERIFY(broker.standardError().contains("1500 messages in 1 channels recovered"));
    }

    // The same anchor on the real KubeMQ v2.4.0, so the two can be compared.
    void realKubemqGivesBackTheRestAfterSigkill() {
        if (!RealServer::present())
            QSKIP(qPrintable(RealServer::absentMessage()));
        std::mt19937 draw(std::random_device{}());
        int port = 0;
        for (int attempt = 0; attempt < 100 && port == 0; ++attempt) {
            const int candidate = std::uniform_int_distribution<int>(40000, 59000)(draw);
            if (bindable(candidate) && bindable(candidate + 1) && bindable(candidate + 2))
                port = candidate;
        }
        QVERIFY(port > 0);
        QTemporaryDir workdir;
        std::vector<std::string> firstPulled;
        {
            RealKubemq server(workdir.path(), port);
            QVERIFY(server.waitUntilServing());
            auto stub = kubemq::kubemq::NewStub(fastReconnectChannel(server.address()));
            for (int from = 1; from <= 2000; from += 100)
                QVERIFY(sendBatch(*stub, "anchor", numberedIds(from, from + 99)));
            while (firstPulled.size() < 500) {
                const auto ids =
                    pullIds(*stub, "anchor", 500 - static_cast<int>(firstPulled.size()));
                QVERIFY(ids.empty() || ids.front() != "<pull failed>");
                firstPulled.insert(firstPulled.end(), ids.begin(), ids.end());
            }
            server.kill();
        }
        QCOMPARE(firstPulled, numberedIds(1, 500));
        RealKubemq server(workdir.path(), port);
        QVERIFY(server.waitUntilServing());
        auto stub = kubemq::kubemq::NewStub(fastReconnectChannel(server.address()));
        std::vector<std::string> rest;
        for (;;) {
            const auto ids = pullIds(*stub, "anchor", 1000);
            if (ids.empty())
                break;
            QVERIFY(ids.front() != "<pull failed>");
            rest.insert(rest.end(), ids.begin(), ids.end());
        }
        QCOMPARE(rest.size(), std::size_t(1500));
        QVERIFY(rest == numberedIds(501, 2000));
    }

    // --sync always: one stream's requests are stored while earlier ones wait
    // for their fsync, yet every answer comes in order and only once the
    // fsync covering its messages has returned.
    void pipelinedUpstreamAnswersInOrderAfterTheirFsync() {
        QTemporaryDir dir;
        WatchedSync sync;
        auto options = TestBroker::defaultOptions();
        options.dataDirectory = dir.path().toStdString();
        options.sync = qs::broker::SyncMode::Always;
        options.syncFile = sync.hook();
        TestBroker broker(options);
        QVERIFY2(broker.ok(), broker.error().c_str());
        auto stub = broker.newStub();
        grpc::ClientContext context;
        setDeadline(context, 60);
        auto stream = stub->QueuesUpstream(&context);
        constexpr int kRequests = 200;
        constexpr int kSize = 10;
        // Written from a thread of its own, all at once: the broker reads them
        // while it waits for fsyncs.
        std::thread writer([&] {
            for (int r = 1; r <= kRequests; ++r) {
                if (!stream->Write(upstreamRequest("piped", r, kSize)))
                    return;
            }
            stream->WritesDone();
        });
        std::vector<std::int64_t> syncedWhenAnswered;
        kubemq::QueuesUpstreamResponse response;
        for (int r = 1; r <= kRequests && stream->Read(&response); ++r) {
            syncedWhenAnswered.push_back(sync.syncedBytes.load());
            QCOMPARE(response.refrequestid(), "r" + std::to_string(r));
            QCOMPARE(response.results_size(), kSize);
            for (const auto& result : response.results())
                QVERIFY2(!result.iserror(), result.error().c_str());
        }
        writer.join();
        QVERIFY(!stream->Read(&response));
        QVERIFY(stream->Finish().ok());
        QCOMPARE(static_cast<int>(syncedWhenAnswered.size()), kRequests);
        const auto ends = putRecordEnds(options.dataDirectory);
        for (int r = 1; r <= kRequests; ++r) {
            const std::string last = "r" + std::to_string(r) + "-" + std::to_string(kSize - 1);
            QVERIFY2(ends.contains(last), last.c_str());
            QVERIFY2(syncedWhenAnswered[static_cast<std::size_t>(r - 1)] >= ends.at(last),
                     qPrintable(QStringLiteral("request %1 answered before its fsync").arg(r)));
        }
        // Group commit within the stream: far fewer fsyncs than requests.
        qInfo("%d requests, %d fsyncs", kRequests, sync.calls.load());
    }

    // A failed fsync (or write) breaks the store's promise: every send from
    // then on is answered with KubeMQ's "error during send", on every path.
    void aFailedFsyncAnswersAnError_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("always") << static_cast<int>(qs::broker::SyncMode::Always);
        QTest::newRow("batch") << static_cast<int>(qs::broker::SyncMode::Batch);
    }
    void aFailedFsyncAnswersAnError() {
        QFETCH(int, mode);
        QTemporaryDir dir;
        WatchedSync sync;
        auto options = TestBroker::defaultOptions();
        options.dataDirectory = dir.path().toStdString();
        options.sync = static_cast<qs::broker::SyncMode>(mode);
        options.syncIntervalMs = 5;
        options.syncFile = sync.hook();
        std::mutex logMutex;
        std::vector<std::string> log;
        options.log = [&](std::string_view line) {
            std::lock_guard lock(logMutex);
            log.emplace_back(line);
        };
        TestBroker broker(options);
        QVERIFY2(broker.ok(), broker.error().c_str());
        auto stub = broker.newStub();
        grpc::ClientContext context;
        setDeadline(context, 60);
        auto stream = stub->QueuesUpstream(&context);
        kubemq::QueuesUpstreamResponse response;
        QVERIFY(stream->Write(upstreamRequest("fragile", 1, 3)));
        QVERIFY(stream->Read(&response));
        for (const auto& result : response.results())
            QVERIFY2(!result.iserror(), result.error().c_str());
        // A v1 consumer holds one of them, to send it on modified after the failure.
        grpc::ClientContext v1Context;
        setDeadline(v1Context, 60);
        auto v1 = stub->StreamQueueMessage(&v1Context);
        kubemq::StreamQueueMessagesRequest v1Request;
        v1Request.set_clientid("v1");
        v1Request.set_channel("fragile");
        v1Request.set_streamrequesttypedata(kubemq::ReceiveMessage);
        v1Request.set_waittimeseconds(5);
        kubemq::StreamQueueMessagesResponse v1Response;
        QVERIFY(v1->Write(v1Request));
        QVERIFY(v1->Read(&v1Response));
        QVERIFY2(!v1Response.iserror(), v1Response.error().c_str());

        sync.fail = true;
        // With always its own fsync fails; with batch the background one (its
        // answer may come before or after that, so it is not checked).
        sendBatch(*stub, "fragile", {"b1"});
        QVERIFY(qs::test::waitUntil([&] { return sync.failures.load() > 0; }));
        QVERIFY(stream->Write(upstreamRequest("fragile", 2, 3)));
        QVERIFY(stream->Read(&response));
        QCOMPARE(response.results_size(), 3);
        for (const auto& result : response.results()) {
            QVERIFY(result.iserror());
            QCOMPARE(result.error(), std::string(qs::broker::errors::kSendFailed));
        }
        QVERIFY(!sendBatch(*stub, "fragile", {"b2"}));
        grpc::ClientContext unaryContext;
        kubemq::SendQueueMessageResult unary;
        QVERIFY(stub->SendQueueMessage(&unaryContext, queueMessage("fragile", "u1"), &unary).ok());
        QVERIFY(unary.iserror());
        QCOMPARE(unary.error(), std::string(qs::broker::errors::kSendFailed));
        v1Request.Clear();
        v1Request.set_clientid("v1");
        v1Request.set_streamrequesttypedata(kubemq::SendModifiedMessage);
        *v1Request.mutable_modifiedmessage() = queueMessage("fragile-next", "m1");
        QVERIFY(v1->Write(v1Request));
        QVERIFY(v1->Read(&v1Response));
        QVERIFY(v1Response.iserror());
        QCOMPARE(v1Response.error(), std::string(qs::broker::errors::kSendFailed));
        v1->WritesDone();
        while (v1->Read(&v1Response)) {
        }
        v1->Finish();
        stream->WritesDone();
        QVERIFY(stream->Finish().ok());
        std::lock_guard lock(logMutex);
        QVERIFY(std::any_of(log.begin(), log.end(), [](const std::string& line) {
            return line.find("fdatasync of the log failed") != std::string::npos;
        }));
    }

    void badStoreArgumentsFailClearly() {
        QProcess process;
        process.start(
            QStringLiteral(QUEUESCOPE_BROKER_EXE),
            {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--sync"),
             QStringLiteral("sometimes"), QStringLiteral("--data-dir"), QStringLiteral("/tmp")});
        QVERIFY(process.waitForFinished(kDeadlineMs));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(process.readAllStandardError().contains("--sync"));

        QTemporaryDir dir;
        BrokerProcess first;
        QString error;
        QVERIFY2(first.start(dir.path(), &error), qPrintable(error));
        QProcess second;
        second.start(QStringLiteral(QUEUESCOPE_BROKER_EXE),
                     {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"),
                      dir.path()});
        QVERIFY(second.waitForFinished(kDeadlineMs));
        QCOMPARE(second.exitCode(), 1);
        QVERIFY(second.readAllStandardError().contains("in use by another broker"));
    }
};

QTEST_GUILESS_MAIN(TestBrokerDurable)
#include "tst_broker_durable.moc"
