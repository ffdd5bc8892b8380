// The console's command line (`queuescope [options] [RUN.qsrun]`) read as
// main() reads it: every option lands in its field, every bad value or
// combination is refused with its one line (main() exits 2 with it, checked
// against the executable by tests/packaging/check_console_options.sh), and
// docs/ui.md describes every option --help lists.
#include <QCommandLineParser>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "console_options.h"

using namespace qs::app;

namespace {

// "a|b" is the arguments a and b; "" is none.
QStringList commandLine(const QString& args) {
    QStringList line{QStringLiteral("queuescope")};
    if (!args.isEmpty()) {
        line += args.split(QLatin1Char('|'));
    }
    return line;
}

// The options as main() reads them; parsed = false when Qt's parser refused the words.
ConsoleOptionsRead readArgs(const QStringList& line, bool* parsed = nullptr) {
    QCommandLineParser parser;
    declareConsoleOptions(parser);
    const bool ok = parser.parse(line);
    if (parsed != nullptr) {
        *parsed = ok;
    }
    return readConsoleOptions(parser);
}

QString helpText() {
    QCommandLineParser parser;
    declareConsoleOptions(parser);
    return parser.helpText();
}

QByteArray readSourceFile(const char* relative) {
    QFile file(QStringLiteral(QUEUESCOPE_SOURCE_DIR "/") + QString::fromUtf8(relative));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestConsoleOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nothingGivenIsTheDefaults();
    void everyOptionIsRead();
    void theArgumentOpensARecording();
    void parityIsRead();
    void aRelativeDataDirIsMadeAbsolute();
    void badValuesAreRefused_data();
    void badValuesAreRefused();
    void qtRefusesUnknownOptionsAndMissingValues();
    void frontViewsAreRead_data();
    void frontViewsAreRead();
    void helpListsEveryDocumentedOption();
    void noWindowIsNeededForHelpVersionAndScreenshots_data();
    void noWindowIsNeededForHelpVersionAndScreenshots();
};

void TestConsoleOptions::nothingGivenIsTheDefaults() {
    const ConsoleOptionsRead read = readArgs(commandLine({}));
    QVERIFY2(read.error.isEmpty(), qPrintable(read.error));
    const ConsoleOptions& o = read.options;
    QVERIFY(!o.screenshot);
    QVERIFY(o.scenario.isEmpty());
    QCOMPARE(o.afterSeconds, 5.0);
    QVERIFY(!o.afterGiven);
    QVERIFY(!o.embedded);
    QCOMPARE(o.port, 50000);
    QVERIFY(!o.embeddedStore);
    QVERIFY(!o.firstRun);
    QVERIFY(!o.dark);
    QCOMPARE(o.view, FrontView::Messages);
    QCOMPARE(o.size, QSize(1600, 1000));
    QVERIFY(!o.spanSeconds);
    QVERIFY(o.recording.isEmpty());
    QVERIFY(!o.atSeconds);
    QVERIFY(o.redriveChannel.isEmpty());
    QVERIFY(!o.redriveDialog);
    QVERIFY(o.compareWith.isEmpty());
    QVERIFY(o.lesson.isEmpty());
    QVERIFY(!o.answer);
    QVERIFY(o.parityScenario.isEmpty());
}

// Every option but --parity (which takes no recording) at once.
void TestConsoleOptions::everyOptionIsRead() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(QStringLiteral("queues"));
    const ConsoleOptionsRead read = readArgs(QStringList{QStringLiteral("queuescope"),
                                                         QStringLiteral("--screenshot"),
                                                         QStringLiteral("out.png"),
                                                         QStringLiteral("--scenario"),
                                                         QStringLiteral("04-worker-crash"),
                                                         QStringLiteral("--after"),
                                                         QStringLiteral("2.5"),
                                                         QStringLiteral("--embedded"),
                                                         QStringLiteral("--port"),
                                                         QStringLiteral("0"),
                                                         QStringLiteral("--dark"),
                                                         QStringLiteral("--view"),
                                                         QStringLiteral("rates"),
                                                         QStringLiteral("--size"),
                                                         QStringLiteral("1280x720"),
                                                         QStringLiteral("--span"),
                                                         QStringLiteral("30"),
                                                         QStringLiteral("--first-run"),
                                                         QStringLiteral("--open"),
                                                         QStringLiteral("run.qsrun"),
                                                         QStringLiteral("--at"),
                                                         QStringLiteral("1.5"),
                                                         QStringLiteral("--redrive"),
                                                         QStringLiteral("tasks.dlq"),
                                                         QStringLiteral("--redrive-dialog"),
                                                         QStringLiteral("--compare"),
                                                         QStringLiteral("other.qsrun"),
                                                         QStringLiteral("--lesson"),
                                                         QStringLiteral("01"),
                                                         QStringLiteral("--answer"),
                                                         QStringLiteral("3"),
                                                         QStringLiteral("--data-dir"),
                                                         store,
                                                         QStringLiteral("--sync"),
                                                         QStringLiteral("none")});
    QVERIFY2(read.error.isEmpty(), qPrintable(read.error));
    const ConsoleOptions& o = read.options;
    QVERIFY(o.screenshot);
    QCOMPARE(o.screenshotFile, QStringLiteral("out.png"));
    QCOMPARE(o.scenario, QStringLiteral("04-worker-crash"));
    QCOMPARE(o.afterSeconds, 2.5);
    QVERIFY(o.afterGiven);
    QVERIFY(o.embedded);
    QCOMPARE(o.port, 0);
    QVERIFY(o.dark);
    QCOMPARE(o.view, FrontView::Rates);
    QCOMPARE(o.size, QSize(1280, 720));
    QCOMPARE(o.spanSeconds, std::optional<double>(30.0));
    QVERIFY(o.firstRun);
    QCOMPARE(o.recording, QStringLiteral("run.qsrun"));
    QCOMPARE(o.atSeconds, std::optional<double>(1.5));
    QCOMPARE(o.redriveChannel, QStringLiteral("tasks.dlq"));
    QVERIFY(o.redriveDialog);
    QCOMPARE(o.compareWith, QStringLiteral("other.qsrun"));
    QCOMPARE(o.lesson, QStringLiteral("01"));
    QCOMPARE(o.answer, std::optional<QString>(QStringLiteral("3")));
    QVERIFY(o.embeddedStore);
    QCOMPARE(o.embeddedStore->dataDirectory, store);
    QCOMPARE(o.embeddedStore->sync, qs::broker::SyncMode::None);
}

// `queuescope RUN.qsrun`, as a file manager runs it, is --open RUN.qsrun.
void TestConsoleOptions::theArgumentOpensARecording() {
    const ConsoleOptionsRead read = readArgs(commandLine(QStringLiteral("run.qsrun|--at|0")));
    QVERIFY2(read.error.isEmpty(), qPrintable(read.error));
    QCOMPARE(read.options.recording, QStringLiteral("run.qsrun"));
    QCOMPARE(read.options.atSeconds, std::optional<double>(0.0));
}

void TestConsoleOptions::parityIsRead() {
    const ConsoleOptionsRead read =
        readArgs(commandLine(QStringLiteral("--screenshot|p.png|--parity|01-classic-work-queue")));
    QVERIFY2(read.error.isEmpty(), qPrintable(read.error));
    QCOMPARE(read.options.parityScenario, QStringLiteral("01-classic-work-queue"));
    QVERIFY(read.options.recording.isEmpty());
}

// The store needs a full path; the command line takes one relative to here.
void TestConsoleOptions::aRelativeDataDirIsMadeAbsolute() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir::setCurrent(dir.path()));
    const ConsoleOptionsRead read = readArgs(commandLine(QStringLiteral("--data-dir|queues")));
    QVERIFY2(read.error.isEmpty(), qPrintable(read.error));
    QVERIFY(read.options.embeddedStore);
    QCOMPARE(read.options.embeddedStore->dataDirectory, dir.filePath(QStringLiteral("queues")));
    QCOMPARE(read.options.embeddedStore->sync, qs::broker::SyncMode::Batch);
}

void TestConsoleOptions::badValuesAreRefused_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("error");
    const QString port = QStringLiteral("--port must be 0..65535");
    QTest::newRow("port too large") << QStringLiteral("--port|65536") << port;
    QTest::newRow("port negative") << QStringLiteral("--port|-1") << port;
    QTest::newRow("port not a number") << QStringLiteral("--port|x") << port;
    const QString after = QStringLiteral("--after must be a number of seconds >= 0");
    QTest::newRow("after negative") << QStringLiteral("--after|-1") << after;
    QTest::newRow("after not a number") << QStringLiteral("--after|soon") << after;
    const QString at = QStringLiteral("--at must be a number of seconds >= 0, with a recording");
    QTest::newRow("at without a recording") << QStringLiteral("--at|2") << at;
    QTest::newRow("at negative") << QStringLiteral("--open|r.qsrun|--at|-1") << at;
    QTest::newRow("at not a number") << QStringLiteral("r.qsrun|--at|x") << at;
    QTest::newRow("view unknown")
        << QStringLiteral("--view|nope")
        << QStringLiteral(
               "--view must be messages, inflight, polls, log, channels, rates or "
               "lessons");
    const QString redrive = QStringLiteral("--redrive needs a channel name, with --screenshot");
    QTest::newRow("redrive without screenshot") << QStringLiteral("--redrive|dlq") << redrive;
    QTest::newRow("redrive empty") << QStringLiteral("--screenshot|x.png|--redrive|") << redrive;
    const QString compare =
        QStringLiteral("--compare needs a file, with --screenshot and a recording");
    QTest::newRow("compare without recording")
        << QStringLiteral("--screenshot|x.png|--compare|b.qsrun") << compare;
    QTest::newRow("compare without screenshot")
        << QStringLiteral("a.qsrun|--compare|b.qsrun") << compare;
    QTest::newRow("redrive-dialog alone")
        << QStringLiteral("--redrive-dialog")
        << QStringLiteral("--redrive-dialog needs --redrive CHANNEL");
    const QString parity =
        QStringLiteral("--parity needs a scenario, with --screenshot and no recording");
    QTest::newRow("parity without screenshot") << QStringLiteral("--parity|01") << parity;
    QTest::newRow("parity with a recording")
        << QStringLiteral("--screenshot|x.png|--parity|01|a.qsrun") << parity;
    const QString size = QStringLiteral("--size must be WxH, at least 400x300");
    QTest::newRow("size too small") << QStringLiteral("--size|399x300") << size;
    QTest::newRow("size too short") << QStringLiteral("--size|400x299") << size;
    QTest::newRow("size not WxH") << QStringLiteral("--size|1600") << size;
    QTest::newRow("sync without data-dir")
        << QStringLiteral("--sync|batch") << QStringLiteral("--sync needs --data-dir");
    QTest::newRow("data-dir a file")
        << QStringLiteral("--data-dir|" QUEUESCOPE_SOURCE_DIR "/README.md")
        << QStringLiteral("--data-dir: " QUEUESCOPE_SOURCE_DIR
                          "/README.md is a file, not a folder");
    QTest::newRow("sync unknown") << QStringLiteral(
                                         "--data-dir|/tmp/queuescope-options-test|--sync|sometimes")
                                  << QStringLiteral("--sync must be always, batch or none");
    const QString span = QStringLiteral("--span must be a number of seconds >= 1");
    QTest::newRow("span below 1") << QStringLiteral("--span|0.5") << span;
    QTest::newRow("span not a number") << QStringLiteral("--span|wide") << span;
    const QString one = QStringLiteral("give one recording to open, as RUN.qsrun or --open");
    QTest::newRow("two recordings") << QStringLiteral("a.qsrun|b.qsrun") << one;
    QTest::newRow("argument and --open") << QStringLiteral("a.qsrun|--open|b.qsrun") << one;
    // The first bad option in the order of the checks is the one said.
    QTest::newRow("size before span") << QStringLiteral("--span|0|--size|10x10") << size;
    QTest::newRow("port before view") << QStringLiteral("--view|nope|--port|x") << port;
}

void TestConsoleOptions::badValuesAreRefused() {
    QFETCH(QString, args);
    QFETCH(QString, error);
    bool parsed = false;
    const ConsoleOptionsRead read = readArgs(commandLine(args), &parsed);
    QVERIFY(parsed);
    QCOMPARE(read.error, error);
    QVERIFY(kBadOptionExit != 0);
}

// Qt's parser says these itself (main() lets QCommandLineParser::process end with exit 1).
void TestConsoleOptions::qtRefusesUnknownOptionsAndMissingValues() {
    for (const char* args : {"--bogus", "--port", "--screenshot"}) {
        QCommandLineParser parser;
        declareConsoleOptions(parser);
        QVERIFY2(!parser.parse(commandLine(QString::fromUtf8(args))), args);
        QVERIFY2(!parser.errorText().isEmpty(), args);
    }
}

void TestConsoleOptions::frontViewsAreRead_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<FrontView>("view");
    QTest::newRow("messages") << QStringLiteral("messages") << FrontView::Messages;
    QTest::newRow("inflight") << QStringLiteral("inflight") << FrontView::Inflight;
    QTest::newRow("polls") << QStringLiteral("polls") << FrontView::Polls;
    QTest::newRow("log") << QStringLiteral("log") << FrontView::Log;
    QTest::newRow("channels") << QStringLiteral("channels") << FrontView::Channels;
    QTest::newRow("rates") << QStringLiteral("rates") << FrontView::Rates;
    QTest::newRow("lessons") << QStringLiteral("lessons") << FrontView::Lessons;
}

void TestConsoleOptions::frontViewsAreRead() {
    QFETCH(QString, name);
    QFETCH(FrontView, view);
    const ConsoleOptionsRead read = readArgs(commandLine(QStringLiteral("--view|") + name));
    QVERIFY2(read.error.isEmpty(), qPrintable(read.error));
    QCOMPARE(read.options.view, view);
}

// Every option --help lists is in docs/ui.md (packaging_files checks the man page).
void TestConsoleOptions::helpListsEveryDocumentedOption() {
    const QString help = helpText();
    const QByteArray guide = readSourceFile("docs/ui.md");
    QVERIFY(!guide.isEmpty());
    // The option column: "  --name <value>" (continuation lines are indented further).
    static const QRegularExpression optionLine(QStringLiteral("^  (?:-\\w, )?(--[a-z-]+)"));
    int options = 0;
    for (const QString& line : help.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = optionLine.match(line);
        const QString name = match.captured(1);
        if (!match.hasMatch() || name == QStringLiteral("--help") ||
            name == QStringLiteral("--help-all") || name == QStringLiteral("--version")) {
            continue;
        }
        ++options;
        QVERIFY2(guide.contains(name.toUtf8()),
                 qPrintable(name + QStringLiteral(": not in docs/ui.md")));
    }
    QCOMPARE(options, 20);
    QVERIFY(help.contains(QStringLiteral("[RUN.qsrun]")));
    QVERIFY(help.contains(QStringLiteral("queuescope lesson NAME")));
}

void TestConsoleOptions::noWindowIsNeededForHelpVersionAndScreenshots_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<bool>("noWindow");
    QTest::newRow("nothing") << QString() << false;
    QTest::newRow("scenario") << QStringLiteral("--scenario|01") << false;
    QTest::newRow("screenshot") << QStringLiteral("--screenshot|x.png") << true;
    QTest::newRow("screenshot=") << QStringLiteral("--screenshot=x.png") << true;
    QTest::newRow("help") << QStringLiteral("--help") << true;
    QTest::newRow("-h") << QStringLiteral("-h") << true;
    QTest::newRow("help-all") << QStringLiteral("--help-all") << true;
    QTest::newRow("version") << QStringLiteral("--version") << true;
    QTest::newRow("-v") << QStringLiteral("--embedded|-v") << true;
}

void TestConsoleOptions::noWindowIsNeededForHelpVersionAndScreenshots() {
    QFETCH(QString, args);
    QFETCH(bool, noWindow);
    std::vector<QByteArray> words;
    for (const QString& word : commandLine(args)) {
        words.push_back(word.toUtf8());
    }
    std::vector<char*> argv;
    for (QByteArray& word : words) {
        argv.push_back(word.data());
    }
    QCOMPARE(showsNoWindow(static_cast<int>(argv.size()), argv.data()), noWindow);
}

QTEST_GUILESS_MAIN(TestConsoleOptions)
#include "tst_console_options.moc"
