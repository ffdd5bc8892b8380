#include <QTest>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "events/record_ids.h"
#include "events/record_keys.h"

using qs::ledger_detail::RecordIds;
using qs::ledger_detail::RecordKeys;

namespace {

struct Record {
    std::string id;
    std::uint32_t key = 0;
};

struct IdOf {
    std::string_view operator()(const Record& r) const { return r.id; }
};

}  // namespace

// The ledger's two flat indexes (events/record_keys.h, events/record_ids.h)
// against std::unordered_map, through random inserts and erases that keep the
// tables small, so runs of full slots wrap around the end and erases shift
// slots back across it.
class TestRecordIndex : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keysEqualAMapThroughChurn();
    void keysFindNothingForZeroOrUnknown();
    void keysReservedAheadDoNotMove();
    void idsEqualAMapThroughChurn();
    void idsGrowAndVisitEveryRecordOnce();
};

void TestRecordIndex::keysEqualAMapThroughChurn() {
    std::vector<Record> records(200);
    for (std::size_t i = 0; i < records.size(); ++i)
        records[i].key = static_cast<std::uint32_t>(i + 1);
    RecordKeys<Record> keys;
    std::unordered_map<std::uint32_t, Record*> expected;
    std::mt19937 random(7);
    for (int step = 0; step < 200000; ++step) {
        Record& r = records[random() % records.size()];
        const bool held = expected.count(r.key) != 0;
        // Stay under 32 held: one 64-slot table, long runs, wrap-around.
        if (!held && expected.size() < 31) {
            keys.insert(r.key, &r);
            expected.emplace(r.key, &r);
        } else if (held) {
            keys.erase(r.key);
            expected.erase(r.key);
        }
        QCOMPARE(keys.size(), expected.size());
        if (step % 97 == 0) {
            for (const Record& each : records) {
                const auto it = expected.find(each.key);
                QCOMPARE(keys.find(each.key), it == expected.end() ? nullptr : it->second);
            }
        }
    }
}

void TestRecordIndex::keysFindNothingForZeroOrUnknown() {
    RecordKeys<Record> keys;
    Record r{"a", 5};
    QCOMPARE(keys.find(5), nullptr);  // empty table
    keys.insert(5, &r);
    QCOMPARE(keys.find(5), &r);
    QCOMPARE(keys.find(0), nullptr);
    QCOMPARE(keys.find(6), nullptr);
    keys.erase(6);  // not held: nothing happens
    keys.erase(0);
    QCOMPARE(keys.size(), std::size_t{1});
    keys.erase(5);
    QCOMPARE(keys.find(5), nullptr);
    QCOMPARE(keys.size(), std::size_t{0});
}

void TestRecordIndex::keysReservedAheadDoNotMove() {
    RecordKeys<Record> keys;
    keys.reserve(1000);
    const std::size_t bytes = keys.memoryBytes();
    QVERIFY(bytes >= 2000 * sizeof(void*));
    std::vector<Record> records(1000);
    for (std::size_t i = 0; i < records.size(); ++i) {
        records[i].key = static_cast<std::uint32_t>(i * 7919 + 1);  // spread, not dense
        keys.insert(records[i].key, &records[i]);
    }
    QCOMPARE(keys.memoryBytes(), bytes);  // no growth: no rehash on the appending thread
    for (const Record& r : records)
        QCOMPARE(keys.find(r.key), &r);
}

void TestRecordIndex::idsEqualAMapThroughChurn() {
    std::vector<Record> records(300);
    for (std::size_t i = 0; i < records.size(); ++i)  // ids of one length, as NUIDs are
        records[i].id = "id-" + std::to_string(100000 + i * 37);
    RecordIds<Record, IdOf> ids;
    std::unordered_map<std::string, Record*> expected;
    std::mt19937 random(11);
    for (int step = 0; step < 200000; ++step) {
        Record& r = records[random() % records.size()];
        const bool held = expected.count(r.id) != 0;
        if (!held && expected.size() < 31) {
            ids.insert(&r);
            expected.emplace(r.id, &r);
        } else if (held) {
            ids.erase(&r);
            expected.erase(r.id);
        }
        QCOMPARE(ids.size(), expected.size());
        if (step % 97 == 0) {
            for (const Record& each : records) {
                const auto it = expected.find(each.id);
                QCOMPARE(ids.find(each.id), it == expected.end() ? nullptr : it->second);
            }
            QCOMPARE(ids.find("id-unknown"), nullptr);
        }
    }
}

void TestRecordIndex::idsGrowAndVisitEveryRecordOnce() {
    std::vector<Record> records(5000);
    RecordIds<Record, IdOf> ids;
    QCOMPARE(ids.find("x"), nullptr);
    for (std::size_t i = 0; i < records.size(); ++i) {
        records[i].id = std::to_string(i);
        ids.insert(&records[i]);  // grows by doubling, several times
    }
    QCOMPARE(ids.size(), records.size());
    QVERIFY(ids.slotCount() >= 2 * records.size());
    for (const Record& r : records)
        QCOMPARE(ids.find(r.id), &r);
    std::unordered_map<const Record*, int> visits;
    ids.forEach([&](const Record& r) { ++visits[&r]; });
    QCOMPARE(visits.size(), records.size());
    for (const auto& [record, count] : visits)
        QCOMPARE(count, 1);
    for (std::size_t i = 0; i < records.size(); i += 2)
        ids.erase(&records[i]);
    for (std::size_t i = 0; i < records.size(); ++i)
        QCOMPARE(ids.find(records[i].id), i % 2 == 0 ? nullptr : &records[i]);
}

QTEST_APPLESS_MAIN(TestRecordIndex)
#include "tst_record_index.moc"
