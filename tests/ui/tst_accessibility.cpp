#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>

#include "dialogs/connection_dialog.h"
#include "dialogs/create_channel_dialog.h"
#include "dialogs/embedded_store_dialog.h"
#include "layout_checks.h"
#include "main_window.h"

using namespace qs;
using namespace qs::ui;

// Every control of the console has a name a screen reader can announce, and
// the primary actions have shortcuts shown in their menus and tooltips.
class TestAccessibility : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theCheckFindsAMissingName();
    void everyControlHasAnAccessibleName();
    void primaryActionsHaveShortcutsInMenuAndTooltip();

private:
    static MainWindowOptions offlineOptions() {
        MainWindowOptions options;
        options.autoConnect = false;
        options.useSettings = false;
        return options;
    }
};

// The walker itself: an unnamed field is reported, a labelled one is not.
void TestAccessibility::theCheckFindsAMissingName() {
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* unnamed = new QLineEdit;
    unnamed->setObjectName(QStringLiteral("unnamed"));
    auto* labelled = new QSpinBox;
    auto* label = new QLabel(QStringLiteral("&Count"));
    label->setBuddy(labelled);
    layout->addWidget(unnamed);
    layout->addWidget(label);
    layout->addWidget(labelled);
    const QStringList missing = test::controlsWithoutName(&window);
    QCOMPARE(missing.size(), 1);
    QVERIFY2(missing[0].contains(QStringLiteral("\"unnamed\"")), qPrintable(missing[0]));
}

// Every control of the main window, and of the dialogs it opens.
void TestAccessibility::everyControlHasAnAccessibleName() {
    MainWindow window(offlineOptions());
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ConnectionDialog connect(ConnectionSettings{}, {});
    CreateChannelDialog create;
    EmbeddedStoreDialog store(EmbeddedStore{}, QStringLiteral("/tmp/queues"));
    QStringList missing = test::controlsWithoutName(&window);
    missing += test::controlsWithoutName(&connect);
    missing += test::controlsWithoutName(&create);
    missing += test::controlsWithoutName(&store);
    for (const QString& m : missing) {
        qWarning("no accessible name: %s", qPrintable(m));  // QVERIFY2 cuts a long list
    }
    QVERIFY2(
        missing.isEmpty(),
        qPrintable(
            QStringLiteral("%1 control(s) without an accessible name:\n  ").arg(missing.size()) +
            missing.join(QStringLiteral("\n  "))));
}

void TestAccessibility::primaryActionsHaveShortcutsInMenuAndTooltip() {
    MainWindow window(offlineOptions());
    QHash<QString, QAction*> byText;
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* a : menu->menu()->actions()) {
            QString text = a->text();
            byText.insert(text.remove(QLatin1Char('&')), a);
        }
    }
    for (const char* name : {"Send tasks", "Pause all workers", "Resume all workers",
                             "Connect to server…", "Pause / follow timeline"}) {
        QAction* a = byText.value(QString::fromUtf8(name));
        QVERIFY2(a, name);
        QVERIFY2(!a->shortcut().isEmpty(), name);  // a menu shows its action's shortcut
        const QString keys = a->shortcut().toString(QKeySequence::NativeText);
        QVERIFY2(a->toolTip().contains(keys),
                 qPrintable(QString::fromUtf8(name) + QStringLiteral(": tooltip \"") +
                            a->toolTip() + QStringLiteral("\" lacks ") + keys));
    }
}

QTEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
