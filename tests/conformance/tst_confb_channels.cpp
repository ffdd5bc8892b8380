// Spec §4 cases 76-79: channel management through SendRequest on
// kubemq.cluster.internal.requests (create, list, search, delete).
#include <QTest>
#include <memory>
#include <nlohmann/json.hpp>

#include "conformance_qt.h"
#include "conformance_streams.h"
#include "test_broker.h"

using namespace qs::test::conf;
using json = nlohmann::json;

class TestConfbChannels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void case76_createChannelThenListed();
    void case77_listShape();
    void case78_listSearch_data();
    void case78_listSearch();
    void case79_deleteChannel();

private:
    // Runs list-channels with the given extra tags; nullopt (and a test
    // failure message) when the call fails or the Body is not a JSON array.
    std::optional<json> list(
        const std::vector<std::pair<std::string, std::string>>& extraTags = {});
    QStringList listedNames(const std::vector<std::pair<std::string, std::string>>& extraTags = {});

    std::unique_ptr<qs::test::TestBroker> broker_;
    std::unique_ptr<Stub> stub_;
};

void TestConfbChannels::init() {
    broker_ = std::make_unique<qs::test::TestBroker>();
    QVERIFY2(broker_->ok(), broker_->error().c_str());
    stub_ = broker_->newStub();
}

void TestConfbChannels::cleanup() {
    stub_.reset();
    broker_.reset();
}

std::optional<json> TestConfbChannels::list(
    const std::vector<std::pair<std::string, std::string>>& extraTags) {
    std::vector<std::pair<std::string, std::string>> tags{{"channel_type", "queues"}};
    tags.insert(tags.end(), extraTags.begin(), extraTags.end());
    const auto rpc = sendRequest(*stub_, managementRequest("list-channels", tags));
    const auto& response = rpc.reply;
    if (!rpc.ok() || !response.executed() || !response.error().empty()) {
        qWarning("list-channels failed: %s / %s", describe(rpc.status).c_str(),
                 response.error().c_str());
        return std::nullopt;
    }
    json body = json::parse(response.body(), nullptr, /*allow_exceptions=*/false);
    if (!body.is_array()) {
        qWarning("list-channels Body is not a JSON array: %s", response.body().c_str());
        return std::nullopt;
    }
    return body;
}

QStringList TestConfbChannels::listedNames(
    const std::vector<std::pair<std::string, std::string>>& extraTags) {
    QStringList names;
    const auto body = list(extraTags);
    if (!body)
        return {QStringLiteral("<list failed>")};
    for (const auto& item : *body) {
        if (item.is_object() && item.contains("name") && item["name"].is_string()) {
            names << qstr(item["name"].get<std::string>());
        } else {
            names << QStringLiteral("<object without name>");
        }
    }
    names.sort();
    return names;
}

void TestConfbChannels::case76_createChannelThenListed() {
    const auto createdRpc = sendRequest(
        *stub_,
        managementRequest("create-channel",
                          {{"channel_type", "queues"}, {"channel", "qm1"}, {"client_id", "c"}}));
    QVERIFY2(createdRpc.ok(), describe(createdRpc.status).c_str());
    const auto& created = createdRpc.reply;
    QCOMPARE(created.executed(), true);
    QCOMPARE(qstr(created.error()), QString());

    const auto body = list();
    QVERIFY(body);
    bool found = false;
    for (const auto& item : *body) {
        if (item.value("name", std::string()) == "qm1") {
            found = true;
            QCOMPARE(qstr(item.value("type", std::string())), QStringLiteral("queues"));
        }
    }
    QVERIFY2(found, body->dump().c_str());
}

void TestConfbChannels::case77_listShape() {
    // No queues: the Body is exactly "[]".
    const auto emptyRpc =
        sendRequest(*stub_, managementRequest("list-channels", {{"channel_type", "queues"}}));
    QVERIFY2(emptyRpc.ok(), describe(emptyRpc.status).c_str());
    const auto& empty = emptyRpc.reply;
    QCOMPARE(empty.executed(), true);
    QCOMPARE(qstr(empty.error()), QString());
    QCOMPARE(qstr(empty.body()), QStringLiteral("[]"));

    QCOMPARE(qstr(sendMany(*stub_, "shape_a", 2, "a")), QString());
    QCOMPARE(qstr(sendMany(*stub_, "shape_b", 1, "b")), QString());

    const auto body = list();
    QVERIFY(body);
    QCOMPARE(body->size(), std::size_t(2));
    for (const auto& item : *body) {
        const QByteArray dump = QByteArray::fromStdString(item.dump());
        QVERIFY2(item.is_object(), dump.constData());
        QVERIFY2(item.contains("name") && item["name"].is_string(), dump.constData());
        QVERIFY2(item.contains("type") && item["type"] == "queues", dump.constData());
        QVERIFY2(item.contains("lastActivity") && item["lastActivity"].is_number_integer(),
                 dump.constData());
        QVERIFY2(item.contains("isActive") && item["isActive"].is_boolean(), dump.constData());
        // lastActivity is Unix milliseconds: recent, not seconds or nanoseconds.
        const auto nowMs = QDateTime::currentMSecsSinceEpoch();
        const auto lastActivity = item["lastActivity"].get<std::int64_t>();
        QVERIFY2(lastActivity > nowMs - 600000 && lastActivity <= nowMs + 5000, dump.constData());
        for (const char* side : {"incoming", "outgoing"}) {
            QVERIFY2(item.contains(side) && item[side].is_object(), dump.constData());
            for (const char* key : {"messages", "volume", "waiting", "expired", "delayed"}) {
                QVERIFY2(item[side].contains(key) && item[side][key].is_number_integer(),
                         qPrintable(QString::fromLatin1(side) + QLatin1Char('.') +
                                    QString::fromLatin1(key) + QLatin1Char(' ') +
                                    QString::fromUtf8(dump)));
            }
        }
    }
}

void TestConfbChannels::case78_listSearch_data() {
    QTest::addColumn<QString>("tag");
    QTest::newRow("channel_search") << QStringLiteral("channel_search");
    QTest::newRow("search (kubemq-cpp)") << QStringLiteral("search");
}

void TestConfbChannels::case78_listSearch() {
    QFETCH(QString, tag);
    for (const char* name : {"py_a1", "py_a2", "other"}) {
        const auto result = send(*stub_, makeMessage(name, "x")).reply;
        QVERIFY2(!result.iserror(), result.error().c_str());
    }
    std::vector<std::pair<std::string, std::string>> extra{{tag.toStdString(), "py_a"}};
    if (tag == QStringLiteral("search")) {
        // What kubemq-cpp sends alongside the filter.
        extra.emplace_back("channel", "");
        extra.emplace_back("client_id", "cpp-client");
    }
    QCOMPARE(listedNames(extra), (QStringList{QStringLiteral("py_a1"), QStringLiteral("py_a2")}));
    QCOMPARE(listedNames(), (QStringList{QStringLiteral("other"), QStringLiteral("py_a1"),
                                         QStringLiteral("py_a2")}));
}

void TestConfbChannels::case79_deleteChannel() {
    const auto createdRpc = sendRequest(
        *stub_,
        managementRequest("create-channel",
                          {{"channel_type", "queues"}, {"channel", "qm1"}, {"client_id", "c"}}));
    QVERIFY2(createdRpc.ok(), describe(createdRpc.status).c_str());
    const auto& created = createdRpc.reply;
    QCOMPARE(created.executed(), true);
    QCOMPARE(qstr(sendMany(*stub_, "qm1", 3, "qm1")), QString());
    QVERIFY(listedNames().contains(QStringLiteral("qm1")));

    const auto deletedRpc = sendRequest(
        *stub_,
        managementRequest("delete-channel",
                          {{"channel_type", "queues"}, {"channel", "qm1"}, {"client_id", "c"}}));
    QVERIFY2(deletedRpc.ok(), describe(deletedRpc.status).c_str());
    const auto& deleted = deletedRpc.reply;
    QCOMPARE(deleted.executed(), true);
    QCOMPARE(qstr(deleted.error()), QString());

    QVERIFY(!listedNames().contains(QStringLiteral("qm1")));
    const auto pulled = pull(*stub_, "qm1", 3, 1).reply;
    QCOMPARE(pulled.iserror(), false);
    QCOMPARE(pulled.messagesreceived(), 0);
    QCOMPARE(pulled.messages_size(), 0);
}

QTEST_APPLESS_MAIN(TestConfbChannels)
#include "tst_confb_channels.moc"
