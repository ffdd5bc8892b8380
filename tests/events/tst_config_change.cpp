// The typed content of a ConfigChanged event: setting names, the one text
// form and its parse, the changed-settings bits, and old events brought up to
// date.
#include <QtTest/QtTest>
#include <set>

#include "events/config_change.h"
#include "events/event_fields.h"

using namespace qs;

class TstConfigChange : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everySettingHasANameThatReadsBack() {
        for (int i = 0; i < static_cast<int>(ConfigSetting::Count); ++i) {
            const auto setting = static_cast<ConfigSetting>(i);
            const std::string_view name = toString(setting);
            QVERIFY(!name.empty() && name != "?");
            QVERIFY(configSettingFromString(name) == std::optional(setting));
        }
        QVERIFY(configSettingFromString("batchSize") == std::nullopt);
    }

    void valuesWithSpacesSurviveTheTextForm() {
        const std::vector<SettingChange> changes = {{ConfigSetting::BatchSize, "5"},
                                                    {ConfigSetting::Work, "fixed 100 ms"},
                                                    {ConfigSetting::AutoAck, "true"},
                                                    {ConfigSetting::Slowdown, "2.5"}};
        const std::string text = formatSettingChanges(changes);
        QCOMPARE(text, std::string("batch=5 work=fixed 100 ms autoAck=true slowdown=2.5"));
        const auto back = parseSettingChanges(text);
        QVERIFY(back.has_value());
        QCOMPARE(back->size(), changes.size());
        for (std::size_t i = 0; i < changes.size(); ++i) {
            QVERIFY(back->at(i) == changes[i]);
        }
    }

    void typedReadingsOfAValue() {
        QVERIFY(SettingChange({ConfigSetting::BatchSize, "200"}).integer() ==
                std::optional<std::int64_t>(200));
        QVERIFY(SettingChange({ConfigSetting::BatchSize, "2x"}).integer() == std::nullopt);
        QVERIFY(SettingChange({ConfigSetting::FailureRate, "0.2"}).number() ==
                std::optional<double>(0.2));
        QVERIFY(SettingChange({ConfigSetting::Work, "fixed 1 ms"}).number() == std::nullopt);
        QVERIFY(SettingChange({ConfigSetting::AutoAck, "false"}).flag() == std::optional(false));
        QVERIFY(SettingChange({ConfigSetting::AutoAck, "1"}).flag() == std::nullopt);
    }

    void textNotInTheFormIsRefusedWithAReason() {
        std::string why;
        QVERIFY(!parseSettingChanges("", &why));
        QCOMPARE(why, std::string("no setting"));
        QVERIFY(!parseSettingChanges("batch", &why));
        QCOMPARE(why, std::string("\"batch\" has no '='"));
        QVERIFY(!parseSettingChanges("colour=red", &why));
        QCOMPARE(why, std::string("unknown setting \"colour\""));
    }

    void theEventCarriesTheChangedSettingsAsBits() {
        const Event e = makeConfigChangedEvent(
            {{ConfigSetting::WaitMs, "1000"}, {ConfigSetting::Workers, "8"}});
        QVERIFY(e.kind == EventKind::ConfigChanged);
        QCOMPARE(e.value, settingBit(ConfigSetting::WaitMs) | settingBit(ConfigSetting::Workers));
        QCOMPARE(e.detail, std::string("waitMs=1000 workers=8"));
        const auto changes = settingChangesOf(e);
        QCOMPARE(changes.size(), 2u);
        QVERIFY(changes[1].setting == ConfigSetting::Workers);
        QVERIFY(changes[1].integer() == std::optional<std::int64_t>(8));

        Event other = e;
        other.kind = EventKind::Error;
        QVERIFY(settingChangesOf(other).empty());
    }

    void eventsRecordedBeforeTheTypedFieldsAreUpgraded() {
        Event config;
        config.kind = EventKind::ConfigChanged;
        config.detail = "batch=1 crashRate=0.5";
        upgradeLegacyEventFields(config);
        QCOMPARE(config.value,
                 settingBit(ConfigSetting::BatchSize) | settingBit(ConfigSetting::CrashRate));

        Event poll;
        poll.kind = EventKind::PollStarted;
        poll.value = 5;
        poll.detail = "10000";
        upgradeLegacyEventFields(poll);
        QCOMPARE(poll.count2, std::int64_t(10000));
        QVERIFY(poll.detail.empty());

        Event odd = poll;
        odd.detail = "soon";  // not a number: left as it was, nothing invented
        odd.count2 = 0;
        upgradeLegacyEventFields(odd);
        QCOMPARE(odd.count2, std::int64_t(0));
        QCOMPARE(odd.detail, std::string("soon"));
    }

    void everyFieldNameIsListedOnce() {
        const auto names = allEventFieldNames();
        std::set<std::string_view> seen(names.begin(), names.end());
        QCOMPARE(seen.size(), names.size());
        QVERIFY(seen.count("waited_ms") == 1);
        QVERIFY(seen.count("count2") == 0 && seen.count("value") == 0 && seen.count("detail") == 0);
        const EventFieldNames poll = eventFieldNames(EventKind::PollStarted);
        QVERIFY(poll.value == "max_messages");
        QVERIFY(poll.count2 == "wait_timeout_ms");
        QVERIFY(poll.detail.empty());
    }
};

QTEST_APPLESS_MAIN(TstConfigChange)
#include "tst_config_change.moc"
