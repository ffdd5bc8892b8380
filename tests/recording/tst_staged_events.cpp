// The staged-events codec (recording/staged_events.h) alone: what a writer in
// a busy stretch encodes decodes to the same events, field for field, and a
// blob that is cut short, padded, or names an unknown kind or name is refused
// with the reason, never read as events that were not written.
#include <QtTest/QtTest>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "recording/recording_schema.h"
#include "recording/staged_events.h"

using namespace qs;
using namespace qs::recording;

namespace {

struct Blob {
    std::string data;
    std::vector<Name> names{Name()};
};

Blob encode(const std::vector<Event>& events, std::int64_t origin) {
    Blob blob;
    std::unordered_map<Name, std::int64_t> ids;
    for (const Event& e : events) {
        for (Name n : {e.actor, e.channel}) {
            if (!n.empty() && !ids.contains(n)) {
                ids.emplace(n, static_cast<std::int64_t>(blob.names.size()));
                blob.names.push_back(n);
            }
        }
    }
    encodeStagedEvents(events, origin, ids, blob.data);
    return blob;
}

std::vector<Event> samples() {
    std::vector<Event> events;
    for (int k = 0; k <= static_cast<int>(kLastEventKind); ++k) {
        Event e;
        e.timeNs = 1'000'000 + 10 * k - (k % 3 == 0 ? 25 : 0);  // not in time order
        e.kind = static_cast<EventKind>(k);
        e.source = static_cast<EventSource>(k % (static_cast<int>(kLastEventSource) + 1));
        e.actor = Name(k % 4 == 0 ? "" : "worker-" + std::to_string(k % 3));
        e.channel = Name("tasks");
        e.messageId = k % 5 == 0 ? std::string() : "id-" + std::to_string(k / 2);  // repeats
        e.transaction = k % 2 == 0 ? "txn" : "";
        e.detail = k % 7 == 0 ? std::string(70000, 'd') : std::string();
        e.sequence = static_cast<std::uint64_t>(k) * 977;
        e.receiveCount = k - 3;
        e.value = -k;
        e.count2 = std::int64_t{k} << 40;
        events.push_back(e);
    }
    Event extreme;
    extreme.timeNs = std::numeric_limits<std::int64_t>::max();
    extreme.sequence = std::numeric_limits<std::uint64_t>::max();
    extreme.receiveCount = std::numeric_limits<std::int32_t>::min();
    extreme.value = std::numeric_limits<std::int64_t>::min();
    extreme.count2 = std::numeric_limits<std::int64_t>::max();
    extreme.messageId = std::string("\0\xff", 2) + std::string(500, 'm');
    events.push_back(extreme);
    Event early;  // before the origin, right after the latest time there is
    early.timeNs = std::numeric_limits<std::int64_t>::min() + 5;
    events.push_back(early);
    return events;
}

bool same(const Event& a, const Event& b) {
    return a.timeNs == b.timeNs && a.kind == b.kind && a.source == b.source && a.actor == b.actor &&
           a.channel == b.channel && a.messageId.view() == b.messageId.view() &&
           a.transaction.view() == b.transaction.view() && a.detail == b.detail &&
           a.sequence == b.sequence && a.receiveCount == b.receiveCount && a.value == b.value &&
           a.count2 == b.count2;
}

}  // namespace

class TstStagedEvents : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFieldComesBack() {
        const std::vector<Event> want = samples();
        const Blob blob = encode(want, 0);
        std::vector<Event> got;
        std::string error;
        QVERIFY2(decodeStagedEvents(
                     blob.data, want.size(), 0, blob.names, kSchemaVersion,
                     [&](const Event& e) { got.push_back(e); }, &error),
                 error.c_str());
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QVERIFY2(same(got[i], want[i]), qPrintable(QString::number(i)));
        }
    }

    void repeatsCostLittle() {
        std::vector<Event> events(1000);
        for (std::size_t i = 0; i < events.size(); ++i) {
            events[i].timeNs = static_cast<std::int64_t>(i) * 1000;
            events[i].kind = EventKind::Acked;
            events[i].actor = Name("worker-1");
            events[i].messageId = "0123456789abcdef0123456789abcdef" + std::to_string(i / 8);
            events[i].transaction = "b7f0c6a2-6f1e-4a53-9d55-1c1d2e3f4a5b";
        }
        const Blob blob = encode(events, 0);
        // 8 events a message id, one transaction: well under a row's 38 bytes.
        QVERIFY2(blob.data.size() < 20 * events.size(),
                 qPrintable(QString::number(blob.data.size())));
    }

    // A pool's order: a batch's 50 messages, kind after kind, so consecutive
    // events name different messages. Each text is written once per blob and
    // referred to after; one encoder, thousands of blobs (its table is reused
    // and its generation wraps), every one decodes to its events.
    void laterTextsReferBack() {
        StagedEncoder encoder;
        std::unordered_map<Name, std::int64_t> ids{{Name("worker-1"), 1}};
        const std::vector<Name> names{Name(), Name("worker-1")};
        for (int blobIndex = 0; blobIndex < 5000; ++blobIndex) {
            std::vector<Event> events;
            const int tasks = 1 + blobIndex % 60;
            for (int k = 0; k < 4; ++k) {
                for (int task = 0; task < tasks; ++task) {
                    Event e;
                    e.timeNs = blobIndex * 1000 + k * 100 + task;
                    e.kind = static_cast<EventKind>(k);
                    e.actor = Name("worker-1");
                    e.messageId = "NUIDx7Qp3Lk9Zr" + std::to_string(blobIndex * 100 + task);
                    e.transaction = k == 0 ? "" : "txn-" + std::to_string(blobIndex);
                    if (task == 1 && k == 3) {
                        e.transaction = e.messageId;  // the same text in both
                    }
                    events.push_back(e);
                }
            }
            const std::string blob(encoder.encode(events, 0, ids));
            std::vector<Event> got;
            std::string error;
            QVERIFY2(decodeStagedEvents(
                         blob, events.size(), 0, names, kSchemaVersion,
                         [&](const Event& e) { got.push_back(e); }, &error),
                     error.c_str());
            QCOMPARE(got.size(), events.size());
            for (std::size_t i = 0; i < events.size(); ++i) {
                QVERIFY2(same(got[i], events[i]), qPrintable(QString::number(i)));
            }
            if (tasks == 50) {
                // 200 events: their ids written in full each time would take
                // more than this alone (21 bytes each).
                QVERIFY2(blob.size() < 200 * 21, qPrintable(QString::number(blob.size())));
            }
        }
    }

    // References came with schema version 7: a version-6 file's blob holding
    // one is damaged; a reference to no text is refused in any version; a
    // blob of texts in full reads in both.
    void referencesByVersion() {
        // delta, kind, source, actor, channel, flags, [texts], sequence,
        // receive count, value, count2
        const std::string inFull(
            "\0\0\0\0\0\x01\x02id\0\0\0\0"
            "\0\0\0\0\0\x01\x02id\0\0\0\0",
            26);
        const std::string referring(
            "\0\0\0\0\0\x01\x02id\0\0\0\0"
            "\0\0\0\0\0\x08\0\0\0\0\0",
            24);
        const std::string toNothing("\0\0\0\0\0\x08\0\0\0\0\0", 11);
        const std::vector<Name> names{Name()};
        std::string error;
        std::vector<Event> got;
        auto decode = [&](const std::string& blob, std::uint64_t count, int version) {
            got.clear();
            error.clear();
            return decodeStagedEvents(
                blob, count, 0, names, version, [&](const Event& e) { got.push_back(e); }, &error);
        };
        for (int version : {6, 7}) {
            QVERIFY2(decode(inFull, 2, version), error.c_str());
            QCOMPARE(got.size(), std::size_t{2});
            QCOMPARE(got[1].messageId.view(), std::string_view("id"));
        }
        QVERIFY2(decode(referring, 2, 7), error.c_str());
        QCOMPARE(got[1].messageId.view(), std::string_view("id"));
        QVERIFY(!decode(referring, 2, 6));
        QVERIFY2(error.find("event 2 of 2: an unknown kind, source or flags") != std::string::npos,
                 error.c_str());
        QVERIFY(!decode(toNothing, 1, 7));
        QVERIFY2(error.find("a reference (0) to a text before the first") != std::string::npos,
                 error.c_str());
    }

    void damageIsRefused_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("why");
        QTest::newRow("cut short") << "cut"
                                   << "truncated";
        QTest::newRow("bytes left over") << "padded"
                                         << "bytes left after";
        QTest::newRow("fewer names") << "names"
                                     << "not in the names table";
        QTest::newRow("unknown kind") << "kind"
                                      << "unknown kind";
    }

    void damageIsRefused() {
        QFETCH(QString, how);
        QFETCH(QString, why);
        const std::vector<Event> want = samples();
        Blob blob = encode(want, 0);
        if (how == QLatin1String("cut")) {
            blob.data.resize(blob.data.size() - 3);
        } else if (how == QLatin1String("padded")) {
            blob.data.push_back('\0');
        } else if (how == QLatin1String("names")) {
            blob.names.resize(1);
        } else {
            blob.data[1] = static_cast<char>(0x7f);  // the first event's kind
        }
        std::size_t visited = 0;
        std::string error;
        QVERIFY(!decodeStagedEvents(
            blob.data, want.size(), 0, blob.names, kSchemaVersion, [&](const Event&) { ++visited; },
            &error));
        QVERIFY2(error.find("damaged staged events") == 0 &&
                     error.find(why.toStdString()) != std::string::npos,
                 error.c_str());
        QVERIFY(visited <= want.size());
    }
};

QTEST_APPLESS_MAIN(TstStagedEvents)
#include "tst_staged_events.moc"
