// The shipped lessons against the real KubeMQ v2.4.0 of ../shared/kubemq-server
// (skipped with a message when it is absent): every lesson it can serve passes
// its checks; the one needing channel management says the server lacks it;
// a check only the embedded broker's events can decide (expiry) says
// undecided, with the reason, instead of passing or failing.
#include <QtTest/QtTest>

#include "lessons/lesson_library.h"
#include "lessons/lesson_player.h"
#include "real_server.h"

using namespace qs::lessons;
using qs::test::RealServer;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

class TstLessonsRealServer : public QObject {
    Q_OBJECT

    std::unique_ptr<RealServer> server_;

private Q_SLOTS:
    void initTestCase() {
#ifdef QUEUESCOPE_UNDER_TSAN
        QSKIP("ThreadSanitizer cannot fork this process to start the real KubeMQ server");
#endif
        if (!RealServer::present())
            QSKIP(qPrintable(RealServer::absentMessage()));
        server_ = std::make_unique<RealServer>();
        QString why;
        QVERIFY2(server_->start(&why), qPrintable(QStringLiteral("cannot start kubemq: ") + why));
    }
    void cleanupTestCase() {
        server_.reset();
    }

    void everyLessonItCanServePasses_data() {
        QTest::addColumn<QString>("name");
        for (const std::string& n : bundledLessonNames()) {
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
        }
    }
    void everyLessonItCanServePasses() {
        QFETCH(QString, name);
        Lesson lesson;
        std::string error;
        QVERIFY2(loadLesson(name.toStdString(), &lesson, &error), error.c_str());
        PlayOptions options;
        options.address = server_->address();
        const LessonReport report = playLesson(lesson, options);
        for (Need need : lesson.needs) {
            if (need == Need::ChannelManagement) {
                QCOMPARE(report.exitCode(), 3);
                QVERIFY2(has(report.unavailable, "does not serve") &&
                             has(report.unavailable, server_->address()),
                         report.unavailable.c_str());
                return;
            }
        }
        QVERIFY2(report.unavailable.empty(), report.unavailable.c_str());
        QCOMPARE(report.steps.size(), lesson.steps.size());
        for (const StepReport& s : report.steps) {
            QVERIFY2(s.runError.empty(), s.runError.c_str());
            QVERIFY(s.facts && !s.facts->brokerReported());
            for (const CheckResult& c : s.checks) {
                const std::string what = "step " + std::to_string(s.index + 1) + ": " + c.title +
                                         ": " + std::string(verdictName(c.verdict)) + ": " +
                                         c.sentence;
                if (c.verdict == Verdict::Undecided &&
                    has(c.sentence, "does not report expiries")) {
                    continue;  // only the embedded broker's own events show expiries
                }
                QVERIFY2(c.verdict == Verdict::Pass, what.c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TstLessonsRealServer)
#include "tst_lessons_real_server.moc"
