#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "charts_panel.h"
#include "connection_controller.h"
#include "main_window.h"
#include "message_table_model.h"
#include "producer_panel.h"
#include "run_controller.h"

using namespace qs;
using namespace qs::ui;

class TestScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rendersANonBlankWindow();
    void chartLabelsAreNotElided_data();
    void chartLabelsAreNotElided();
};

void TestScreenshot::rendersANonBlankWindow() {
    MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    MainWindow window(options);
    window.resize(1400, 900);
    window.show();
    QString error;
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    workers::WorkerConfig c = window.run()->config();
    c.work = workers::WorkProfile::fixed(50.0);
    c.waitMs = 1000;
    QVERIFY(window.run()->setConfig(c));
    QVERIFY(window.run()->setWorkerCount(2));
    window.producerPanel()->setCount(12);
    window.producerPanel()->send();
    QTRY_VERIFY_WITH_TIMEOUT(
        window.messages()->stateCounts()[static_cast<int>(MessageState::Acked)] >= 4, 20000);
    QTest::qWait(300);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("window.png"));
    QVERIFY(window.grab().save(path, "PNG"));
    QImage image(path);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 1000);
    // Not blank: many distinct colours (text, bars, charts), sampled on a grid.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) {
            colours.insert(image.pixel(x, y));
        }
    }
    QVERIFY2(colours.size() > 200, qPrintable(QString::number(colours.size())));
    // The outcome colour for "acked" appears (bars on the timeline).
    bool greenSeen = false;
    const QColor acked(0x2e, 0x9e, 0x5b);
    for (QRgb rgb : colours) {
        greenSeen = greenSeen || rgb == acked.rgb();
    }
    QVERIFY(greenSeen);
}

void TestScreenshot::chartLabelsAreNotElided_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720 (projector)") << QSize(1280, 720);
    QTest::newRow("1600x1000 (default)") << QSize(1600, 1000);
}

// Qt elides an axis label that lacks the room to "..." (and hides it when it
// would overlap): no chart may show one, on a projector-sized window too.
void TestScreenshot::chartLabelsAreNotElided() {
    QFETCH(QSize, size);
    MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    MainWindow window(options);
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString error;
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    workers::WorkerConfig c = window.run()->config();
    c.work = workers::WorkProfile::fixed(20.0);
    c.waitMs = 1000;
    QVERIFY(window.run()->setConfig(c));
    QVERIFY(window.run()->setWorkerCount(2));
    window.producerPanel()->setCount(8);
    window.producerPanel()->send();
    QTRY_VERIFY_WITH_TIMEOUT(
        window.messages()->stateCounts()[static_cast<int>(MessageState::Acked)] == 8, 20000);
    QTest::qWait(1500);  // the charts refresh in turn, each once a second

    int labels = 0;
    for (int which = 0; which < 4; ++which) {
        const QChartView* view = window.charts()->chartView(which);
        if (!view) {
            continue;
        }
        for (QGraphicsItem* item : view->scene()->items()) {
            const auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (!text || !text->isVisible()) {
                continue;
            }
            const QString plain = text->toPlainText();
            ++labels;
            QVERIFY2(!plain.endsWith(QStringLiteral("...")) && plain != QStringLiteral("…"),
                     qPrintable(QStringLiteral("chart %1: elided label \"%2\" at %3x%4")
                                    .arg(which)
                                    .arg(plain)
                                    .arg(size.width())
                                    .arg(size.height())));
        }
    }
    QVERIFY2(labels >= 10, qPrintable(QString::number(labels)));
}

QTEST_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
