#include <QTest>
#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "event_test_names.h"
#include "events/event_fields.h"
#include "events/event_log_reader.h"
#include "events/event_log_writer.h"

using namespace qs;

namespace {

// Independent RFC 4180 reader for checking the writer's output.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    bool fieldStarted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field.push_back('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field.push_back(c);
            }
        } else if (c == '"' && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            fieldStarted = false;
        } else if (c == '\n') {
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            fieldStarted = false;
        } else {
            field.push_back(c);
            fieldStarted = true;
        }
    }
    return rows;
}

std::vector<Event> sampleEvents() {
    std::vector<Event> events;
    Event a;
    a.timeNs = 1'000'500;
    a.kind = EventKind::TaskSent;  // a kind that uses value, count2 and detail
    a.source = EventSource::Producer;
    a.actor = "worker \"one\"";
    a.channel = "tasks,urgent";
    a.messageId = "MSG-1";
    a.sequence = std::numeric_limits<std::uint64_t>::max();
    a.receiveCount = 2;
    a.transaction = "0f8c7c1e-4a3b-4c55-9a7e-1d2b3c4d5e6f";
    a.value = -5;
    a.count2 = std::numeric_limits<std::int64_t>::min();
    a.detail = "line one\nline two, with \"quotes\"\r\nand \xc3\xa9t\xc3\xa9 \xe2\x9c\x93";
    events.push_back(a);
    Event b;
    b.timeNs = 999'000;  // before the origin: negative relative time
    b.kind = EventKind::BrokerDeadLettered;
    b.source = EventSource::Broker;
    b.channel = "q";
    b.detail = "";
    events.push_back(b);
    Event c;
    c.timeNs = 2'000'000;
    c.kind = EventKind::EventsDropped;
    c.source = EventSource::Pool;
    c.actor = "event-stream";
    c.value = 12;
    c.count2 = 40;
    c.detail = "plain";
    events.push_back(c);
    return events;
}

std::size_t columnOf(const std::vector<std::string>& header, std::string_view name) {
    const auto it = std::find(header.begin(), header.end(), name);
    return static_cast<std::size_t>(it - header.begin());
}

bool sameEvent(const Event& x, const Event& y) {
    return x.timeNs == y.timeNs && x.kind == y.kind && x.source == y.source && x.actor == y.actor &&
           x.channel == y.channel && x.messageId == y.messageId && x.sequence == y.sequence &&
           x.receiveCount == y.receiveCount && x.transaction == y.transaction &&
           x.value == y.value && x.count2 == y.count2 && x.detail == y.detail;
}

}  // namespace

class TestEventLog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void csvFieldQuoting();
    void csvHasStableColumnsAndQuotesProperly();
    void csvOfNoEventsIsJustTheHeader();
    void jsonLinesRoundTrip();
    void jsonLinesUsesColumnNames();
    void logsWrittenBeforeTheNamedFieldsStillRead();
    void invalidUtf8IsReplacedAndCounted();
    void readerReportsTheBadLine();
    void readerChecksTypesAndRanges();
    void failedStreamIsReported();
    void writerAppendsBatches();
};

void TestEventLog::csvFieldQuoting() {
    QCOMPARE(csvField("plain"), std::string("plain"));
    QCOMPARE(csvField(""), std::string(""));
    QCOMPARE(csvField("a,b"), std::string("\"a,b\""));
    QCOMPARE(csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
    QCOMPARE(csvField("two\nlines"), std::string("\"two\nlines\""));
    QCOMPARE(csvField("cr\r"), std::string("\"cr\r\""));
    QCOMPARE(csvField(" spaced "), std::string(" spaced "));
}

void TestEventLog::csvHasStableColumnsAndQuotesProperly() {
    const auto events = sampleEvents();
    std::ostringstream out;
    const EventLogResult r = writeEventsCsv(out, events, 1'000'000);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.written, events.size());
    const auto rows = parseCsv(out.str());
    QCOMPARE(rows.size(), events.size() + 1);
    const std::vector<std::string> common = {"time_ns",  "kind",          "source",
                                             "actor",    "channel",       "message_id",
                                             "sequence", "receive_count", "transaction"};
    const auto& header = rows[0];
    QVERIFY(std::equal(common.begin(), common.end(), header.begin()));
    QCOMPARE(header.size(), common.size() + allEventFieldNames().size());
    for (const char* generic : {"value", "count2", "detail"})
        QCOMPARE(columnOf(header, generic), header.size());  // no column says "count2"
    for (const auto& row : rows)
        QCOMPARE(row.size(), header.size());
    const auto& a = rows[1];
    QCOMPARE(a[0], std::string("500"));
    QCOMPARE(a[1], std::string("task-sent"));
    QCOMPARE(a[2], std::string("producer"));
    QCOMPARE(a[3], events[0].actor);
    QCOMPARE(a[4], events[0].channel);
    QCOMPARE(a[5], std::string("MSG-1"));
    QCOMPARE(a[6], std::string("18446744073709551615"));
    QCOMPARE(a[7], std::string("2"));
    QCOMPARE(a[8], events[0].transaction);
    QCOMPARE(a[columnOf(header, "delay_seconds")], std::string("-5"));
    QCOMPARE(a[columnOf(header, "task_number")], std::string("-9223372036854775808"));
    QCOMPARE(a[columnOf(header, "body_excerpt")], events[0].detail);
    QCOMPARE(a[columnOf(header, "dropped")], std::string());  // not a field of task-sent
    QCOMPARE(rows[2][0], std::string("-1000"));
    QCOMPARE(rows[2][1], std::string("broker-dead-lettered"));
    QCOMPARE(rows[2][columnOf(header, "dead_letter_channel")], std::string());
    QCOMPARE(rows[3][1], std::string("events-dropped"));
    QCOMPARE(rows[3][columnOf(header, "dropped")], std::string("12"));
    QCOMPARE(rows[3][columnOf(header, "dropped_total")], std::string("40"));
    QCOMPARE(rows[3][columnOf(header, "notice")], std::string("plain"));
}

void TestEventLog::csvOfNoEventsIsJustTheHeader() {
    std::ostringstream out;
    const EventLogResult r = writeEventsCsv(out, {});
    QVERIFY(r.ok);
    QCOMPARE(r.written, std::size_t(0));
    std::string header;
    for (const std::string_view column : eventLogCsvColumns())
        header += (header.empty() ? "" : ",") + std::string(column);
    QCOMPARE(out.str(), header + "\n");
    QVERIFY(out.str().rfind("time_ns,kind,source,actor,channel,message_id,sequence,"
                            "receive_count,transaction,delay_seconds,task_number,body_excerpt,",
                            0) == 0);
}

void TestEventLog::jsonLinesRoundTrip() {
    const auto events = sampleEvents();
    std::stringstream io;
    const EventLogResult w = writeEventsJsonLines(io, events, 1'000'000);
    QVERIFY2(w.ok, w.error.c_str());
    QCOMPARE(w.written, events.size());
    QCOMPARE(w.invalidUtf8Events, std::size_t(0));
    // One object per line, even with newlines inside strings.
    const std::string text = io.str();
    QCOMPARE(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), events.size());

    std::vector<Event> back;
    const EventLogReadResult r = readEventsJsonLines(io, back, 1'000'000);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.read, events.size());
    QCOMPARE(back.size(), events.size());
    for (std::size_t i = 0; i < events.size(); ++i)
        QVERIFY2(sameEvent(back[i], events[i]), qPrintable(QString::number(i)));

    // Another origin shifts only the times.
    std::istringstream again(text);
    std::vector<Event> shifted;
    QVERIFY(readEventsJsonLines(again, shifted, 0).ok);
    QCOMPARE(shifted[0].timeNs, 500);
}

void TestEventLog::jsonLinesUsesColumnNames() {
    std::ostringstream out;
    writeEventsJsonLines(out, sampleEvents(), 1'000'000);
    std::istringstream in(out.str());
    std::string line;
    std::getline(in, line);
    const auto j = nlohmann::json::parse(line);
    QCOMPARE(j.size(), kEventLogCommonColumns.size() + 3);
    for (const auto column : kEventLogCommonColumns)
        QVERIFY(j.contains(std::string(column)));
    QCOMPARE(j["time_ns"].get<std::int64_t>(), 500);
    QCOMPARE(j["kind"].get<std::string>(), std::string("task-sent"));
    QCOMPARE(j["sequence"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
    QCOMPARE(j["delay_seconds"].get<std::int64_t>(), -5);
    QVERIFY(j.contains("body_excerpt") && !j.contains("detail") && !j.contains("count2"));
    std::getline(in, line);
    const auto deadLettered = nlohmann::json::parse(line);  // only its own field
    QCOMPARE(deadLettered.size(), kEventLogCommonColumns.size() + 1);
    QVERIFY(deadLettered.contains("dead_letter_channel"));
}

void TestEventLog::logsWrittenBeforeTheNamedFieldsStillRead() {
    // The keys of the first exports, and a poll's wait timeout as text.
    const auto poll = parseEventJsonLine(
        "{\"kind\":\"poll-started\",\"value\":5,\"count2\":0,\"detail\":\"10000\"}");
    QVERIFY(poll.has_value());
    QCOMPARE(poll->value, std::int64_t(5));
    QCOMPARE(poll->count2, std::int64_t(10000));
    QVERIFY(poll->detail.empty());
    const auto now = parseEventJsonLine(
        "{\"kind\":\"poll-started\",\"max_messages\":5,\"wait_timeout_ms\":10000}");
    QVERIFY(now.has_value());
    QCOMPARE(now->count2, std::int64_t(10000));
    std::string why;
    QVERIFY(!parseEventJsonLine("{\"kind\":\"poll-returned\",\"waited_ms\":\"long\"}", 0, &why));
    QVERIFY2(why.find("waited_ms") != std::string::npos, why.c_str());
}

void TestEventLog::invalidUtf8IsReplacedAndCounted() {
    Event e;
    e.kind = EventKind::Error;
    e.detail = std::string("bad \xff\xfe bytes");
    std::ostringstream out;
    const EventLogResult r = writeEventsJsonLines(out, std::vector<Event>{e, Event{}});
    QVERIFY(r.ok);
    QCOMPARE(r.written, std::size_t(2));
    QCOMPARE(r.invalidUtf8Events, std::size_t(1));
    std::istringstream in(out.str());
    std::vector<Event> back;
    QVERIFY(readEventsJsonLines(in, back).ok);
    QCOMPARE(back.size(), std::size_t(2));
    QVERIFY(back[0].detail.find("bad ") == 0);
    QVERIFY(back[0].detail.find("\xef\xbf\xbd") != std::string::npos);  // U+FFFD
}

void TestEventLog::readerReportsTheBadLine() {
    std::istringstream in(
        "{\"kind\":\"acked\",\"time_ns\":5}\n\n{\"kind\":\"acked\"\n"
        "{\"kind\":\"acked\"}\n");
    std::vector<Event> out;
    const EventLogReadResult r = readEventsJsonLines(in, out);
    QVERIFY(!r.ok);
    QCOMPARE(r.read, std::size_t(1));
    QCOMPARE(out.size(), std::size_t(1));  // the good line before it is kept
    QS_COMPARE_NAME(out[0].kind, EventKind::Acked);
    QCOMPARE(out[0].timeNs, 5);
    QVERIFY2(r.error.rfind("line 3: ", 0) == 0, r.error.c_str());
}

void TestEventLog::readerChecksTypesAndRanges() {
    std::string why;
    QVERIFY(!parseEventJsonLine("{\"kind\":\"no-such-kind\"}", 0, &why));
    QVERIFY2(why.find("unknown kind") != std::string::npos, why.c_str());
    QVERIFY(!parseEventJsonLine("{\"time_ns\":1}", 0, &why));
    QVERIFY2(why.find("kind") != std::string::npos, why.c_str());
    QVERIFY(!parseEventJsonLine("{\"kind\":\"acked\",\"sequence\":-1}", 0, &why));
    QVERIFY2(why.find("sequence") != std::string::npos, why.c_str());
    QVERIFY(!parseEventJsonLine("{\"kind\":\"acked\",\"receive_count\":4294967296}", 0, &why));
    QVERIFY2(why.find("receive_count") != std::string::npos, why.c_str());
    QVERIFY(!parseEventJsonLine("{\"kind\":\"acked\",\"actor\":5}", 0, &why));
    QVERIFY2(why.find("actor") != std::string::npos, why.c_str());
    QVERIFY(!parseEventJsonLine("{\"kind\":\"acked\",\"source\":\"moon\"}", 0, &why));
    QVERIFY(!parseEventJsonLine("[1,2]", 0, &why));
    QVERIFY(!parseEventJsonLine("{\"kind\":\"acked\",\"value\":1.5}", 0, &why));
    // Unknown keys are fine (newer logs).
    const auto ok = parseEventJsonLine("{\"kind\":\"acked\",\"extra\":true}", 0, &why);
    QVERIFY(ok.has_value());
}

void TestEventLog::failedStreamIsReported() {
    std::ostringstream out;
    out.setstate(std::ios::badbit);
    const EventLogResult r = writeEventsJsonLines(out, sampleEvents());
    QVERIFY(!r.ok);
    QVERIFY(!r.error.empty());
    QCOMPARE(r.written, std::size_t(0));
    std::ostringstream csv;
    csv.setstate(std::ios::failbit);
    QVERIFY(!writeEventsCsv(csv, sampleEvents()).ok);
}

void TestEventLog::writerAppendsBatches() {
    const auto events = sampleEvents();
    std::ostringstream out;
    EventLogWriter writer(out, EventLogFormat::Csv, 1'000'000);
    QVERIFY(writer.write(std::span<const Event>(events).first(1)));
    QVERIFY(writer.write(std::span<const Event>(events).subspan(1)));
    QCOMPARE(writer.written(), events.size());
    const auto rows = parseCsv(out.str());
    QCOMPARE(rows.size(), events.size() + 1);  // one header only
    QCOMPARE(rows[3][1], std::string("events-dropped"));
}

QTEST_APPLESS_MAIN(TestEventLog)
#include "tst_event_log.moc"
