// `queuescope trace`: scenario 04 (worker-2 crashes holding two tasks) recorded
// headless, exported, parsed back as trace-event JSON: a track per worker, a
// slice per delivery coloured by its end, a flow from each crashed hand-out to
// the next hand-out of the same message on another worker, the crash instant
// and the queue depth counters; nesting on every track (scenario 06); bad
// command lines and files.
#include <QtTest/QtTest>
#include <map>
#include <set>

#include "analysis/recorded_run.h"
#include "analysis/trace_command.h"
#include "analysis_test_support.h"

using namespace qs;
using nlohmann::json;
using qs::test::call;

class TraceExport : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string recording_;
    json trace_;
    std::map<int, std::string> trackNames_;  // tid -> thread_name

    std::string path(const char* name) const {
        return dir_.filePath(QString::fromUtf8(name)).toStdString();
    }
    std::vector<json> events(const std::string& phase) const {
        std::vector<json> out;
        for (const json& e : trace_["traceEvents"]) {
            if (e["ph"] == phase) {
                out.push_back(e);
            }
        }
        return out;
    }
    int tidOf(const std::string& worker) const {
        for (const auto& [tid, name] : trackNames_) {
            if (name == worker) {
                return tid;
            }
        }
        return -1;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        recording_ = path("04.qsrun");
        qs::test::record(
            {"--scenario", qs::test::scenarioPath("04-worker-crash.json"), "--seed", "7"},
            recording_);
        const std::string out = path("04.trace.json");
        const auto r = call(&analysis::runTrace, {recording_, "--out", out});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(r.out.find("11 deliveries on 3 worker tracks") != std::string::npos,
                 r.out.c_str());
        trace_ = json::parse(qs::test::readFile(out));  // throws (fails) if not JSON
        for (const json& m : events("M")) {
            if (m["name"] == "thread_name") {
                trackNames_[m["tid"].get<int>()] = m["args"]["name"].get<std::string>();
            }
        }
    }

    void oneTrackPerWorker() {
        QCOMPARE(trackNames_.size(), std::size_t{3});
        for (const char* w : {"worker-1", "worker-2", "worker-3"}) {
            QVERIFY2(tidOf(w) > 0, w);
        }
        QVERIFY(trace_["displayTimeUnit"] == "ms");
        QVERIFY(trace_["otherData"]["scenario"] == "worker crash mid-batch");
    }

    // Every hand-out of the run is one complete slice on its worker's track,
    // named and coloured by how it ended.
    void oneSlicePerDelivery() {
        std::string error;
        const auto run = analysis::RecordedRun::load(recording_, &error);
        QVERIFY2(run, error.c_str());
        const std::vector<json> slices = events("X");
        QCOMPARE(slices.size(), std::size_t{run->summary().result.totals.deliveries});
        QCOMPARE(slices.size(), std::size_t{11});
        std::map<std::string, int> byEnd;
        for (const json& s : slices) {
            QVERIFY(trackNames_.count(s["tid"].get<int>()) == 1);
            QVERIFY(s["dur"].get<double>() >= 0);
            QVERIFY(s["cat"] == "delivery");
            QVERIFY(!s["cname"].get<std::string>().empty());
            ++byEnd[s["name"].get<std::string>()];
            if (s["name"] == "crashed") {
                QCOMPARE(s["tid"].get<int>(), tidOf("worker-2"));
                QCOMPARE(s["cname"].get<std::string>(), std::string("black"));
            }
            if (s["name"] == "acked") {
                QCOMPARE(s["cname"].get<std::string>(), std::string("good"));
            }
            QVERIFY(s["args"]["task"].get<std::string>().rfind("Task #", 0) == 0);
        }
        QCOMPARE(byEnd["acked"], 9);
        QCOMPARE(byEnd["crashed"], 2);
    }

    // Each redelivered message: a flow from its crashed hand-out on worker-2
    // to its next hand-out on another worker, carried by those two slices
    // (bind_id, flow_out on the first, flow_in on the second); no other slice
    // has a flow.
    void flowsLinkAttemptsAcrossWorkers() {
        std::map<std::string, std::vector<json>> flows;  // bind_id -> its slices
        for (const json& s : events("X")) {
            if (s.contains("bind_id")) {
                flows[s["bind_id"].get<std::string>()].push_back(s);
            } else {
                QVERIFY(!s.contains("flow_in") && !s.contains("flow_out"));
            }
        }
        QCOMPARE(flows.size(), std::size_t{2});  // the two tasks worker-2 held
        for (const auto& [id, slices] : flows) {
            QCOMPARE(slices.size(), std::size_t{2});
            const json& out = slices[0].value("flow_out", false) ? slices[0] : slices[1];
            const json& in = slices[0].value("flow_in", false) ? slices[0] : slices[1];
            QVERIFY(out.value("flow_out", false) && !out.value("flow_in", false));
            QVERIFY(in.value("flow_in", false) && !in.value("flow_out", false));
            QVERIFY(id.rfind("0x", 0) == 0);
            QCOMPARE(out["tid"].get<int>(), tidOf("worker-2"));
            QCOMPARE(out["name"].get<std::string>(), std::string("crashed"));
            QVERIFY(in["tid"].get<int>() != tidOf("worker-2"));
            QCOMPARE(in["name"].get<std::string>(), std::string("acked"));
            QCOMPARE(in["args"]["message id"], out["args"]["message id"]);
            QCOMPARE(out["args"]["hand-out"].get<int>(), 1);
            QCOMPARE(in["args"]["hand-out"].get<int>(), 2);
            QVERIFY(out["ts"].get<double>() < in["ts"].get<double>());
        }
    }

    void crashInstantAndDepthCounters() {
        const std::vector<json> instants = events("i");
        QCOMPARE(instants.size(), std::size_t{1});
        QCOMPARE(instants[0]["tid"].get<int>(), tidOf("worker-2"));
        const std::vector<json> counters = events("C");
        QVERIFY(!counters.empty());
        double last = -1;
        std::uint64_t maxWaiting = 0;
        for (const json& c : counters) {
            QVERIFY(c["name"] == "depth tasks.crash");
            QVERIFY(c["ts"].get<double>() >= last);  // in time order
            last = c["ts"].get<double>();
            maxWaiting = std::max(maxWaiting, c["args"]["waiting"].get<std::uint64_t>());
        }
        QVERIFY(maxWaiting >= 1 && maxWaiting <= 9);  // nine sent, taken three at a time
        QCOMPARE(counters.back()["args"]["waiting"].get<int>(), 0);  // drained
        QCOMPARE(counters.back()["args"]["in flight"].get<int>(), 0);
    }

    // Perfetto and chrome://tracing need the slices of a track to nest. In
    // scenario 06 workers take tasks one by one at 20 a second while they
    // still hold older ones: those overlap, and go to extra tracks of their
    // worker ("worker-1 ·2"); every delivery is still there once.
    void slicesNestOnEveryTrack() {
        const std::string recording = path("06.qsrun");
        qs::test::record(
            {"--scenario", qs::test::scenarioPath("06-live-tuning.json"), "--seed", "7"},
            recording);
        const std::string out = path("06.trace.json");
        const auto r = call(&analysis::runTrace, {recording, "--out", out});
        QVERIFY2(r.code == 0, r.err.c_str());
        const json trace = json::parse(qs::test::readFile(out));
        std::map<int, std::string> names;
        std::map<int, std::vector<std::pair<double, double>>> byTrack;
        std::size_t slices = 0;
        for (const json& e : trace["traceEvents"]) {
            if (e["ph"] == "M" && e["name"] == "thread_name") {
                names[e["tid"].get<int>()] = e["args"]["name"].get<std::string>();
            } else if (e["ph"] == "X") {
                const double from = e["ts"].get<double>();
                byTrack[e["tid"].get<int>()].emplace_back(from, from + e["dur"].get<double>());
                ++slices;
            }
        }
        std::string error;
        const auto run = analysis::RecordedRun::load(recording, &error);
        QVERIFY2(run, error.c_str());
        QCOMPARE(slices, std::size_t{run->summary().result.totals.deliveries});
        for (auto& [tid, spans] : byTrack) {
            QVERIFY(names.count(tid) == 1);
            QVERIFY2(names[tid].rfind("worker-", 0) == 0, names[tid].c_str());
            std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
                return a.first != b.first ? a.first < b.first : a.second > b.second;
            });
            std::vector<double> open;  // ends of the enclosing slices
            for (const auto& [from, to] : spans) {
                while (!open.empty() && open.back() <= from) {
                    open.pop_back();
                }
                QVERIFY2(open.empty() || to <= open.back(), names[tid].c_str());
                open.push_back(to);
            }
        }
    }

    void badCommandLinesAndFiles() {
        QCOMPARE(call(&analysis::runTrace, {recording_}).code, 2);  // no --out
        QCOMPARE(call(&analysis::runTrace, {"--out", path("x.json")}).code, 2);
        QCOMPARE(call(&analysis::runTrace, {recording_, recording_, "--out", path("x.json")}).code,
                 2);
        QCOMPARE(call(&analysis::runTrace, {recording_, "--bogus", "--out", path("x.json")}).code,
                 2);
        const std::string text = path("notes.qsrun");
        std::ofstream(text) << "not a recording\n";
        const auto bad = call(&analysis::runTrace, {text, "--out", path("x.json")});
        QCOMPARE(bad.code, 3);
        QVERIFY2(bad.err.find("notes.qsrun") != std::string::npos, bad.err.c_str());
        QCOMPARE(call(&analysis::runTrace, {path("missing.qsrun"), "--out", path("x.json")}).code,
                 3);
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path("x.json"))));
        // A folder that does not exist: nothing written, exit 1.
        const auto unwritable =
            call(&analysis::runTrace, {recording_, "--out", path("no/such/dir/t.json")});
        QCOMPARE(unwritable.code, 1);
        QVERIFY(!unwritable.err.empty());
        QVERIFY(call(&analysis::runTrace, {"--help"}).out.find("Usage: queuescope trace") == 0);
    }
};

QTEST_APPLESS_MAIN(TraceExport)
#include "tst_trace_export.moc"
