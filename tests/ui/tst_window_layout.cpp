#include <QAbstractButton>
#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTest>
#include <QTextDocument>
#include <QToolButton>

#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "layout_checks.h"
#include "main_window.h"
#include "models/event_log_model.h"
#include "models/lease_board_model.h"
#include "models/message_table_model.h"
#include "models/poll_fairness_model.h"
#include "panels/producer_panel.h"
#include "panels/timeline_panel.h"
#include "panels/worker_pool_panel.h"
#include "run/run.h"
#include "widgets/stepped_slider.h"
#include "widgets/worker_card.h"
#include "window_fixture.h"

using namespace qs;
using namespace qs::ui;

// The console at 1280x720, 1600x1000 and 1920x1080, rendered offscreen mid-run:
// the primary controls are on screen without scrolling, and every visible
// label and button shows its whole text.
class TestWindowLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theChecksFindClippedText();
    void primaryControlsInView_data() { addSizes(); }
    void primaryControlsInView();
    void textsFitTheirWidgets_data() { addSizes(); }
    void textsFitTheirWidgets();
    void docksBehindATabFollowTheRunOnlyInFront();

private:
    static void addSizes() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    // The window at `size`, connected, with 3 workers having acked 12 tasks.
    static void startRun(MainWindow& window, QSize size);
};

namespace {

constexpr int kTasks = 12;

// The acks the worker cards show, summed ("recv 4 · ack 4 · ...").
int ackedOnCards(const MainWindow& window) {
    static const QRegularExpression ack(QStringLiteral("\\back (\\d+)"));
    int sum = 0;
    for (const WorkerCard* card : window.workerPanel()->findChildren<WorkerCard*>()) {
        const QRegularExpressionMatch m = ack.match(card->countersText());
        sum += m.hasMatch() ? m.captured(1).toInt() : 0;
    }
    return sum;
}

}  // namespace

void TestWindowLayout::startRun(MainWindow& window, QSize size) {
    test::runTasksInWindow(window, size, 3, kTasks, 10.0, 30000);
    if (QTest::currentTestFailed()) {
        return;
    }
    QTRY_VERIFY_WITH_TIMEOUT(window.connectionStatusText().startsWith(QStringLiteral("Connected")),
                             10000);
    // The slow refresh (250 ms) fills the cards and labels: wait until the
    // cards add up to the acks, so the texts checked are the final ones.
    QTRY_COMPARE_WITH_TIMEOUT(ackedOnCards(window), kTasks, 10000);
}

void TestWindowLayout::primaryControlsInView() {
    QFETCH(QSize, size);
    MainWindow window(test::offlineOptions());
    startRun(window, size);
    if (QTest::currentTestFailed()) {
        return;
    }
    // The window takes the size asked for: a panel whose minimum grew (a
    // taller legend, a longer label) would make it larger than the screen.
    QVERIFY2(window.size() == size,
             qPrintable(QStringLiteral("the window is %1x%2, its minimum %3x%4")
                            .arg(window.width())
                            .arg(window.height())
                            .arg(window.minimumSizeHint().width())
                            .arg(window.minimumSizeHint().height())));
    std::vector<std::pair<QString, const QWidget*>> primary;
    const QWidget* send = window.producerPanel()->findChild<QWidget*>(QStringLiteral("sendButton"));
    const QWidget* burst = window.producerPanel()->findChild<QWidget*>(QStringLiteral("burstMode"));
    primary.emplace_back(QStringLiteral("Send"), send);
    primary.emplace_back(QStringLiteral("Burst"), burst);
    primary.emplace_back(QStringLiteral("worker count"), window.workerPanel()->workerSpin());
    primary.emplace_back(QStringLiteral("batch slider"), window.workerPanel()->batchSlider());
    primary.emplace_back(QStringLiteral("wait slider"), window.workerPanel()->waitSlider());
    const QWidget* playPause = nullptr;
    for (const QToolButton* b : window.findChildren<QToolButton*>()) {
        if (b->isCheckable() && b->text() == QStringLiteral("Pause")) {
            playPause = b;  // the timeline's Pause / Live
        }
    }
    primary.emplace_back(QStringLiteral("timeline pause"), playPause);
    const QWidget* connectionState = nullptr;
    for (const QLabel* l : window.statusBar()->findChildren<QLabel*>()) {
        if (l->text().contains(QStringLiteral("Connected to"))) {
            connectionState = l;
        }
    }
    primary.emplace_back(QStringLiteral("connection state"), connectionState);

    // The first worker card's buttons (pause, slow, crash, restart) in view:
    // not scrolled off sideways in a narrow worker pool.
    const WorkerCard* first = window.workerPanel()->card(QStringLiteral("worker-1"));
    QVERIFY(first != nullptr);
    for (const QToolButton* b : first->findChildren<QToolButton*>()) {
        primary.emplace_back(QStringLiteral("worker-1's ") + b->text(), b);
    }

    const QString at = QStringLiteral(" at %1x%2").arg(size.width()).arg(size.height());
    for (const auto& [name, widget] : primary) {
        const QString why = test::notInView(widget, &window);
        QVERIFY2(why.isEmpty(), qPrintable(name + QStringLiteral(": ") + why + at));
    }
}

namespace {

// The widest line of a label as drawn, in pixels.
int labelTextWidth(const QLabel* label) {
    const QString text = label->text();
    if (label->textFormat() == Qt::RichText ||
        (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text))) {
        QTextDocument doc;
        doc.setDefaultFont(label->font());
        doc.setDocumentMargin(0);
        doc.setHtml(text);
        return static_cast<int>(std::ceil(doc.idealWidth()));
    }
    int widest = 0;
    for (const QString& line : test::shownLines(label)) {
        widest = std::max(widest, label->fontMetrics().horizontalAdvance(line));
    }
    return widest;
}

// Empty when the text fits; else "needs N px, has M".
QString labelProblem(const QLabel* label) {
    const int room =
        label->contentsRect().width() - 2 * label->margin() - std::max(0, label->indent());
    if (label->wordWrap()) {
        const int needed = label->heightForWidth(label->width());
        return label->height() >= needed ? QString()
                                         : QStringLiteral("wrapped text needs %1 px high, has %2")
                                               .arg(needed)
                                               .arg(label->height());
    }
    const int needed = labelTextWidth(label);
    return needed <= room ? QString() : QStringLiteral("needs %1 px, has %2").arg(needed).arg(room);
}

QString buttonProblem(const QAbstractButton* button) {
    QString text = button->text();
    text.remove(QLatin1Char('&'));
    const int needed = button->fontMetrics().horizontalAdvance(text) +
                       (button->icon().isNull() ? 0 : button->iconSize().width() + 4);
    int room = button->contentsRect().width();
    QStyleOptionButton option;
    option.initFrom(button);
    option.text = text;
    if (qobject_cast<const QCheckBox*>(button)) {
        room =
            button->style()->subElementRect(QStyle::SE_CheckBoxContents, &option, button).width();
    } else if (qobject_cast<const QRadioButton*>(button)) {
        room = button->style()
                   ->subElementRect(QStyle::SE_RadioButtonContents, &option, button)
                   .width();
    } else {
        room -= button->style()->pixelMetric(QStyle::PM_ButtonMargin, &option, button);
    }
    return needed <= room ? QString() : QStringLiteral("needs %1 px, has %2").arg(needed).arg(room);
}

// The console panel a widget belongs to ("qs::ui::WorkerPoolPanel").
QString ownerOf(const QWidget* w) {
    for (const QWidget* p = w; p; p = p->parentWidget()) {
        const QString name = QString::fromLatin1(p->metaObject()->className());
        if (name.startsWith(QLatin1String("qs::ui::")) &&
            name != QLatin1String("qs::ui::MainWindow")) {
            return name;
        }
    }
    return QStringLiteral("qs::ui::MainWindow");
}

}  // namespace

// The checks themselves: a label or button narrower than its text is found.
void TestWindowLayout::theChecksFindClippedText() {
    QWidget host;
    auto* label = new QLabel(QStringLiteral("recv 123456 · ack 123456"), &host);
    auto* button = new QPushButton(QStringLiteral("Send tasks"), &host);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));
    label->setGeometry(0, 0, label->sizeHint().width(), 20);
    button->setGeometry(0, 30, button->sizeHint().width(), 30);
    QCOMPARE(labelProblem(label), QString());
    QCOMPARE(buttonProblem(button), QString());
    label->setGeometry(0, 0, 60, 20);
    button->setGeometry(0, 30, 40, 30);
    QVERIFY(!labelProblem(label).isEmpty());
    QVERIFY(!buttonProblem(button).isEmpty());
}

// Clipped text in any panel fails (the timeline's painted text is checked by
// tst_timeline_labels).
void TestWindowLayout::textsFitTheirWidgets() {
    QFETCH(QSize, size);
    MainWindow window(test::offlineOptions());
    startRun(window, size);
    if (QTest::currentTestFailed()) {
        return;
    }
    QStringList clipped;
    int checked = 0;
    for (const QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisible() || w->property("elidesByDesign").toBool()) {
            continue;
        }
        QString problem;
        QString text;
        if (const auto* label = qobject_cast<const QLabel*>(w)) {
            text = label->text();
            if (text.isEmpty()) {
                continue;
            }
            problem = labelProblem(label);
        } else if (const auto* button = qobject_cast<const QAbstractButton*>(w)) {
            text = button->text();
            if (text.isEmpty()) {
                continue;
            }
            problem = buttonProblem(button);
        } else {
            continue;
        }
        ++checked;
        if (problem.isEmpty()) {
            continue;
        }
        const QString owner = ownerOf(w);
        const QString line = QStringLiteral("%1 %2 \"%3\" in %4: %5")
                                 .arg(QString::fromLatin1(w->metaObject()->className()),
                                      w->objectName(), text.left(60), owner, problem);
        qWarning("clipped: %s", qPrintable(line));
        clipped << line;
    }
    QVERIFY2(checked >= 40, qPrintable(QString::number(checked)));
    QVERIFY2(clipped.isEmpty(), qPrintable(QStringLiteral("%1 clipped text(s) at %2x%3: ")
                                               .arg(clipped.size())
                                               .arg(size.width())
                                               .arg(size.height()) +
                                           clipped.join(QStringLiteral("; "))));
}

// QMainWindow moves a dock behind another tab off screen; it stays visible.
// The event log, the in-flight board and the polls table behind the Messages
// tab must not take a live run's rows for nobody, and must catch up when
// their tab comes to the front.
void TestWindowLayout::docksBehindATabFollowTheRunOnlyInFront() {
    MainWindow window(test::offlineOptions());
    test::runTasksInWindow(window, QSize(1600, 1000), 2, 6, 10.0, 30000);
    if (QTest::currentTestFailed()) {
        return;
    }
    EventLogModel* log = window.eventLog();
    QVERIFY(log->isPaused());
    QCOMPARE(log->rowCount(), 0);
    QVERIFY(!window.leaseBoard()->isActive());
    QVERIFY(!window.pollFairness()->isActive());
    window.showDock(QStringLiteral("eventLogDock"));
    QTRY_VERIFY(!log->isPaused());
    QTRY_COMPARE(static_cast<std::uint64_t>(log->rowCount()),
                 window.consoleRun()->run().eventCount());
    QVERIFY(!window.leaseBoard()->isActive());
    window.showDock(QStringLiteral("leasesDock"));
    QTRY_VERIFY(window.leaseBoard()->isActive());
    QVERIFY(log->isPaused());
    window.showDock(QStringLiteral("pollsDock"));
    QTRY_VERIFY(window.pollFairness()->isActive());
    QVERIFY(!window.leaseBoard()->isActive());
    window.showDock(QStringLiteral("messagesDock"));
    QTRY_VERIFY(!window.pollFairness()->isActive());
    QVERIFY(log->isPaused() && !window.leaseBoard()->isActive());
}

QTEST_MAIN(TestWindowLayout)
#include "tst_window_layout.moc"
