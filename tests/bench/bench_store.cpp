// bench_store: the two storage candidates for the broker's durable store
// (docs/broker.md, Durable store), measured the same way:
//   log    - the chosen one: core/broker's checksummed append-only log under
//            the queue engine (QueueEngine + DurableLog)
//   sqlite - SQLite 3 (Debian's, as core/recording uses it) in WAL mode, one
//            row per stored message, a transaction per batch
// For each: send throughput (4 producer threads, batches of --batch messages,
// one commit per batch) per sync level, then recovery of --recover messages
// (open + load into memory), median of --runs runs. Not a ctest test.
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "broker/durable_log.h"
#include "broker/event_sink.h"
#include "broker/message_codec.h"
#include "broker/queue_engine.h"

using namespace qs::broker;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    long sendMessages = 200000;
    long alwaysMessages = 20000;
    long recoverMessages = 1000000;
    int batch = 100;
    int threads = 4;
    int runs = 3;
    int bodyBytes = 256;
    std::string directory = "/tmp/queuescope-bench-store";
};

StoredMessage makeMessage(long n, int bodyBytes) {
    kubemq::QueueMessage wire;
    wire.set_clientid("bench");
    wire.set_channel("bench");
    wire.set_body(std::string(static_cast<std::size_t>(bodyBytes), 'x'));
    StoredMessage message;
    message.content = encodeContent(wire, "id-" + std::to_string(n));
    message.maxReceiveCount = 1024;
    return message;
}

double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

void freshDirectory(const std::string& directory) {
    fs::remove_all(directory);
    fs::create_directories(directory);
}

// ---- candidate: the log -------------------------------------------------

struct LogEngine {
    LogEngine(const std::string& directory, SyncMode sync) {
        DurableLogOptions options;
        options.directory = directory;
        options.sync = sync;
        RecoveredState state;
        std::string error;
        log = DurableLog::open(options, &state, &error);
        if (!log) {
            std::fprintf(stderr, "bench_store: %s\n", error.c_str());
            std::exit(1);
        }
        recovered = state.messageCount();
        engine.attachStore(*log, std::move(state));
        engine.start();
    }
    ~LogEngine() {
        engine.stop();
        log->close();
    }
    EventSink sink;
    std::unique_ptr<DurableLog> log;
    QueueEngine engine{sink};
    std::size_t recovered = 0;
};

double logSendRate(const Options& options, SyncMode sync, long messages) {
    freshDirectory(options.directory);
    LogEngine store(options.directory, sync);
    const long perThread = messages / options.threads;
    const auto start = Clock::now();
    std::vector<std::thread> producers;
    for (int t = 0; t < options.threads; ++t) {
        producers.emplace_back([&, t] {
            for (long n = 0; n < perThread;) {
                const QueueEngine::CommitScope scope(store.engine);
                for (int i = 0; i < options.batch && n < perThread; ++i, ++n)
                    store.engine.send("bench", makeMessage(t * perThread + n, options.bodyBytes),
                                      "bench");
            }
        });
    }
    for (auto& producer : producers)
        producer.join();
    return static_cast<double>(perThread * options.threads) / seconds(start);
}

double logRecovery(const Options& options, std::size_t* recovered, std::uint64_t* diskBytes) {
    const auto start = Clock::now();
    LogEngine store(options.directory, SyncMode::None);
    const double elapsed = seconds(start);
    *recovered = store.recovered;
    *diskBytes = store.log->diskBytes();
    return elapsed;
}

// ---- candidate: SQLite --------------------------------------------------

sqlite3* openSqlite(const std::string& directory, SyncMode sync) {
    sqlite3* db = nullptr;
    sqlite3_open((directory + "/store.sqlite").c_str(), &db);
    const char* syncPragma = sync == SyncMode::Always  ? "PRAGMA synchronous=FULL;"
                             : sync == SyncMode::Batch ? "PRAGMA synchronous=NORMAL;"
                                                       : "PRAGMA synchronous=OFF;";
    sqlite3_exec(db, "PRAGMA journal_mode=WAL;", nullptr, nullptr, nullptr);
    sqlite3_exec(db, syncPragma, nullptr, nullptr, nullptr);
    sqlite3_exec(db,
                 "CREATE TABLE IF NOT EXISTS messages(channel TEXT, sequence INTEGER, "
                 "timestamp INTEGER, expiration_at INTEGER, delayed_to INTEGER, "
                 "receive_count INTEGER, policy INTEGER, content BLOB, "
                 "PRIMARY KEY(channel, sequence)) WITHOUT ROWID;",
                 nullptr, nullptr, nullptr);
    return db;
}

double sqliteSendRate(const Options& options, SyncMode sync, long messages) {
    freshDirectory(options.directory);
    sqlite3* db = openSqlite(options.directory, sync);
    std::mutex writer;  // SQLite has one writer
    const long perThread = messages / options.threads;
    const auto start = Clock::now();
    std::vector<std::thread> producers;
    for (int t = 0; t < options.threads; ++t) {
        producers.emplace_back([&, t] {
            for (long n = 0; n < perThread;) {
                std::vector<StoredMessage> batch;
                for (int i = 0; i < options.batch && n < perThread; ++i, ++n)
                    batch.push_back(makeMessage(t * perThread + n, options.bodyBytes));
                std::lock_guard lock(writer);
                sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
                sqlite3_stmt* insert = nullptr;
                sqlite3_prepare_v2(db, "INSERT INTO messages VALUES(?,?,?,?,?,?,?,?)", -1, &insert,
                                   nullptr);
                static std::int64_t sequence = 0;
                for (const auto& message : batch) {
                    sqlite3_bind_text(insert, 1, "bench", -1, SQLITE_STATIC);
                    sqlite3_bind_int64(insert, 2, ++sequence);
                    sqlite3_bind_int64(insert, 3, 1);
                    sqlite3_bind_int64(insert, 4, 0);
                    sqlite3_bind_int64(insert, 5, 0);
                    sqlite3_bind_int64(insert, 6, 0);
                    sqlite3_bind_int64(insert, 7, message.maxReceiveCount);
                    sqlite3_bind_blob(insert, 8, message.content.data(),
                                      static_cast<int>(message.content.size()), SQLITE_STATIC);
                    sqlite3_step(insert);
                    sqlite3_reset(insert);
                }
                sqlite3_finalize(insert);
                sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
            }
        });
    }
    for (auto& producer : producers)
        producer.join();
    const double rate = static_cast<double>(perThread * options.threads) / seconds(start);
    sqlite3_close(db);
    return rate;
}

double sqliteRecovery(const Options& options, std::size_t* recovered) {
    const auto start = Clock::now();
    sqlite3* db = openSqlite(options.directory, SyncMode::None);
    std::map<std::uint64_t, StoredMessage> messages;
    sqlite3_stmt* select = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT sequence, timestamp, expiration_at, delayed_to, receive_count, "
                       "policy, content FROM messages ORDER BY channel, sequence",
                       -1, &select, nullptr);
    while (sqlite3_step(select) == SQLITE_ROW) {
        StoredMessage message;
        message.sequence = static_cast<std::uint64_t>(sqlite3_column_int64(select, 0));
        message.timestamp = sqlite3_column_int64(select, 1);
        message.expirationAt = sqlite3_column_int64(select, 2);
        message.delayedTo = sqlite3_column_int64(select, 3);
        message.receiveCount = sqlite3_column_int(select, 4);
        message.maxReceiveCount = sqlite3_column_int(select, 5);
        message.content.assign(static_cast<const char*>(sqlite3_column_blob(select, 6)),
                               static_cast<std::size_t>(sqlite3_column_bytes(select, 6)));
        messages.emplace_hint(messages.end(), message.sequence, std::move(message));
    }
    sqlite3_finalize(select);
    sqlite3_close(db);
    *recovered = messages.size();
    return seconds(start);
}

long numberAfter(int& i, int argc, char** argv) {
    if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_store: %s needs a value\n", argv[i]);
        std::exit(2);
    }
    return std::strtol(argv[++i], nullptr, 10);
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--messages")
            options.sendMessages = numberAfter(i, argc, argv);
        else if (arg == "--always-messages")
            options.alwaysMessages = numberAfter(i, argc, argv);
        else if (arg == "--recover")
            options.recoverMessages = numberAfter(i, argc, argv);
        else if (arg == "--runs")
            options.runs = static_cast<int>(numberAfter(i, argc, argv));
        else if (arg == "--dir" && i + 1 < argc)
            options.directory = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: bench_store [--messages N] [--always-messages N] [--recover N] "
                         "[--runs N] [--dir DIR]\n");
            return arg == "--help" ? 0 : 2;
        }
    }
    std::printf("bench_store: %d producer threads, batches of %d, %d-byte bodies, medians of %d "
                "runs, in %s\n",
                options.threads, options.batch, options.bodyBytes, options.runs,
                options.directory.c_str());
    for (const SyncMode sync : {SyncMode::Always, SyncMode::Batch, SyncMode::None}) {
        const long messages =
            sync == SyncMode::Always ? options.alwaysMessages : options.sendMessages;
        std::vector<double> logRates, sqliteRates;
        for (int run = 0; run < options.runs; ++run) {
            logRates.push_back(logSendRate(options, sync, messages));
            sqliteRates.push_back(sqliteSendRate(options, sync, messages));
        }
        std::printf("send, sync %-6s: log %9.0f msg/s   sqlite %9.0f msg/s   (%ld messages)\n",
                    std::string(syncModeName(sync)).c_str(), qs::bench::median(logRates),
                    qs::bench::median(sqliteRates), messages);
    }

    std::size_t recovered = 0;
    std::uint64_t diskBytes = 0;
    logSendRate(options, SyncMode::None, options.recoverMessages);
    std::vector<double> logTimes;
    for (int run = 0; run < options.runs; ++run)
        logTimes.push_back(logRecovery(options, &recovered, &diskBytes));
    std::printf("recovery, log:    %zu messages in %.2f s (median; runs:", recovered,
                qs::bench::median(logTimes));
    for (double t : logTimes)
        std::printf(" %.2f", t);
    std::printf("), %.0f MB on disk\n", static_cast<double>(diskBytes) / 1e6);

    sqliteSendRate(options, SyncMode::None, options.recoverMessages);
    std::vector<double> sqliteTimes;
    for (int run = 0; run < options.runs; ++run)
        sqliteTimes.push_back(sqliteRecovery(options, &recovered));
    std::printf("recovery, sqlite: %zu messages in %.2f s (median; runs:", recovered,
                qs::bench::median(sqliteTimes));
    for (double t : sqliteTimes)
        std::printf(" %.2f", t);
    std::printf(")\n");
    fs::remove_all(options.directory);
    return 0;
}
