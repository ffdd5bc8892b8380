#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <fstream>

#include "client/queues_client.h"
#include "controllers/connection_controller.h"
#include "dialogs/embedded_store_dialog.h"

using namespace qs;
using namespace qs::ui;
using namespace std::chrono_literals;

// The console's embedded broker on disk (File → Embedded broker storage…,
// queuescope --data-dir): its queues are there again after a restart; a
// folder it cannot have is said and nothing crashes; the dialog checks the
// folder where it is typed; the choice is saved.
class TestEmbeddedStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void queuesSurviveARestartOfTheEmbeddedBroker();
    void aFolderThatIsAFileIsSaid();
    void aFolderInUseByAnotherBrokerIsSaid();
    void theDialogChecksTheFolder();
    void theChoiceIsSaved();

private:
    static bool connected(ConnectionController& c) {
        return QTest::qWaitFor([&] { return c.state() == ConnectionController::State::Connected; },
                               20000);
    }
};

void TestEmbeddedStore::queuesSurviveARestartOfTheEmbeddedBroker() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ConnectionController c;
    c.setEmbeddedStore({dir.filePath(QStringLiteral("queues")), broker::SyncMode::Always});
    QString error;
    QVERIFY2(c.startEmbedded(0, &error), qPrintable(error));
    QVERIFY(connected(c));
    for (int i = 1; i <= 3; ++i) {
        client::QueueMessage m;
        m.channel = "kept";
        m.body = "task " + std::to_string(i);
        auto sent = c.client()->send(m);
        QVERIFY(sent.ok() && !sent->isError);
    }
    QVERIFY2(c.startEmbedded(0, &error), qPrintable(error));  // a restart, on the same folder
    QVERIFY(connected(c));
    auto back = c.client()->receive("kept", 10, 1000ms);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->size(), std::size_t{3});
    QCOMPARE(back->messages().front().message().body, std::string("task 1"));
    QVERIFY(back->ackAll().ok());
}

void TestEmbeddedStore::aFolderThatIsAFileIsSaid() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("a-file"));
    std::ofstream(file.toStdString()) << "not a folder";
    QVERIFY(!dataDirectoryProblem(file).isEmpty());
    ConnectionController c;
    c.setEmbeddedStore({file, broker::SyncMode::Batch});
    QString error;
    QVERIFY(!c.startEmbedded(0, &error));
    QVERIFY2(error.contains(file), qPrintable(error));
    QCOMPARE(c.state(), ConnectionController::State::Disconnected);
    QVERIFY(!c.isEmbedded());
}

void TestEmbeddedStore::aFolderInUseByAnotherBrokerIsSaid() {
    QTemporaryDir dir;
    const EmbeddedStore store{dir.filePath(QStringLiteral("shared")), broker::SyncMode::Batch};
    ConnectionController first;
    first.setEmbeddedStore(store);
    QString error;
    QVERIFY2(first.startEmbedded(0, &error), qPrintable(error));
    ConnectionController second;
    second.setEmbeddedStore(store);
    QVERIFY(!second.startEmbedded(0, &error));
    QVERIFY2(!error.isEmpty(), "no reason given");
    QVERIFY(first.isEmbedded());  // the first keeps its broker and its store
    QVERIFY(connected(first));
}

void TestEmbeddedStore::theDialogChecksTheFolder() {
    QTemporaryDir dir;
    EmbeddedStoreDialog dialog(EmbeddedStore{}, dir.filePath(QStringLiteral("broker")));
    QVERIFY(!dialog.onDiskBox()->isChecked());
    QVERIFY(dialog.saveButton()->isEnabled());
    QVERIFY(!dialog.store().onDisk());
    dialog.onDiskBox()->setChecked(true);
    QVERIFY(dialog.problemText().isEmpty());
    QCOMPARE(dialog.store().dataDirectory, dir.filePath(QStringLiteral("broker")));
    dialog.directoryField()->setText(QStringLiteral("relative/queues"));
    QVERIFY2(dialog.problemText().contains(QStringLiteral("full path")),
             qPrintable(dialog.problemText()));
    QVERIFY(!dialog.saveButton()->isEnabled());
    QVERIFY(!dialog.saveAndRestartButton()->isEnabled());
    dialog.directoryField()->setText(dir.path());
    QVERIFY(dialog.saveButton()->isEnabled());
    dialog.syncBox()->setCurrentIndex(dialog.syncBox()->findText(QStringLiteral("always")));
    QCOMPARE(dialog.store().sync, broker::SyncMode::Always);
}

void TestEmbeddedStore::theChoiceIsSaved() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    QCOMPARE(EmbeddedStore::load(settings), EmbeddedStore{});  // first run: in memory
    const EmbeddedStore store{dir.path(), broker::SyncMode::None};
    store.save(settings);
    QCOMPARE(EmbeddedStore::load(settings), store);
    QCOMPARE(store.label(), QStringLiteral("on disk in %1 (sync none)").arg(dir.path()));
}

QTEST_MAIN(TestEmbeddedStore)
#include "tst_embedded_store.moc"
