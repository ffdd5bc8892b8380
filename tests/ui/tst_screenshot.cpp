#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QImage>
#include <QScrollBar>
#include <QSet>
#include <QStyle>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "main_window.h"
#include "models/message_table_model.h"
#include "panels/charts_panel.h"
#include "panels/message_panel.h"
#include "panels/producer_panel.h"
#include "panels/timeline_panel.h"
#include "run/run.h"
#include "window_fixture.h"

using namespace qs;
using namespace qs::ui;

class TestScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rendersANonBlankWindow();
    void chartLabelsAreNotElided_data();
    void chartLabelsAreNotElided();
    void legendAndMessageTableFit_data();
    void legendAndMessageTableFit();

private:
    static void addSizes();
    static void startRun(MainWindow& window, QSize size);
};

void TestScreenshot::addSizes() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720 (projector)") << QSize(1280, 720);
    QTest::newRow("1600x1000 (default)") << QSize(1600, 1000);
}

// The window at `size` with 8 tasks acked by 2 workers.
void TestScreenshot::startRun(MainWindow& window, QSize size) {
    test::runTasksInWindow(window, size, 2, 8, 20.0, 20000);
}

void TestScreenshot::rendersANonBlankWindow() {
    MainWindow window(test::offlineOptions());
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
        window.consoleRun()->run().summaryNow().count(qs::MessageState::Acked) >= 4, 20000);
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
    addSizes();
}

// Qt elides an axis label that lacks the room to "..." (and hides it when it
// would overlap): no chart may show one, on a projector-sized window too.
void TestScreenshot::chartLabelsAreNotElided() {
    QFETCH(QSize, size);
    MainWindow window(test::offlineOptions());
    startRun(window, size);
    if (QTest::currentTestFailed()) {
        return;
    }
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

void TestScreenshot::legendAndMessageTableFit_data() {
    addSizes();
}

// Every entry of the timeline's colour legend is drawn whole inside the
// window, and the message table shows all its columns without a horizontal
// scroll bar, none so narrow that its header or (except the elastic message ID
// and body) a value is elided.
void TestScreenshot::legendAndMessageTableFit() {
    QFETCH(QSize, size);
    MainWindow window(test::offlineOptions());
    startRun(window, size);
    if (QTest::currentTestFailed()) {
        return;
    }
    const QString at = QStringLiteral(" at %1x%2").arg(size.width()).arg(size.height());

    const auto* legend = window.findChild<LegendWidget*>(QStringLiteral("timelineLegend"));
    QVERIFY(legend);
    QVERIFY(legend->isVisible());
    const QList<LegendWidget::Entry> entries = legend->entries(legend->width());
    QStringList names;
    for (const LegendWidget::Entry& e : entries) {
        names << e.text;
        const QRect drawn = e.swatch.united(e.label);
        QVERIFY2(e.label.width() >= legend->fontMetrics().horizontalAdvance(e.text),
                 qPrintable(e.text + at));
        // Inside the legend and inside every widget that holds it.
        const QRect inWindow(legend->mapTo(&window, drawn.topLeft()), drawn.size());
        for (const QWidget* w = legend; w; w = w->parentWidget()) {
            const QRect box(w->mapTo(&window, QPoint(0, 0)), w->size());
            QVERIFY2(box.contains(inWindow),
                     qPrintable(
                         QStringLiteral("legend entry \"%1\" cut off by %2%3")
                             .arg(e.text, QString::fromLatin1(w->metaObject()->className()), at)));
        }
    }
    for (const char* name : {"in flight", "acked", "rejected", "returned (crash)", "re-queued",
                             "dead-lettered", "empty poll"}) {
        QVERIFY2(names.contains(QString::fromLatin1(name)), name);
    }

    QTableView* table = window.messagePanel()->view();
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 8, 3000);
    QTest::qWait(100);  // a layout pass after the rows arrived
    const QHeaderView* header = table->horizontalHeader();
    QVERIFY2(
        table->horizontalScrollBar()->maximum() == 0,
        qPrintable(QStringLiteral("horizontal scroll range %1 (columns %2 px, viewport %3 px)%4")
                       .arg(table->horizontalScrollBar()->maximum())
                       .arg(header->length())
                       .arg(table->viewport()->width())
                       .arg(at)));
    QVERIFY(!table->horizontalScrollBar()->isVisible());
    const QFontMetrics headerFm = header->fontMetrics();
    const QFontMetrics cellFm = table->fontMetrics();
    const int cellMargin =
        table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1;
    for (int c = 0; c < table->model()->columnCount(); ++c) {
        QVERIFY(!table->isColumnHidden(c));
        const QString label = table->model()->headerData(c, Qt::Horizontal).toString();
        // The rectangle QHeaderView elides the label to (sort arrow included).
        QStyleOptionHeader opt;
        opt.initFrom(header);
        opt.orientation = Qt::Horizontal;
        opt.state |= QStyle::State_Horizontal;
        opt.rect = QRect(0, 0, header->sectionSize(c), header->height());
        opt.sortIndicator = header->sortIndicatorSection() == c
                                ? (header->sortIndicatorOrder() == Qt::AscendingOrder
                                       ? QStyleOptionHeader::SortUp
                                       : QStyleOptionHeader::SortDown)
                                : QStyleOptionHeader::None;
        const QRect labelRect =
            header->style()->subElementRect(QStyle::SE_HeaderLabel, &opt, header);
        QVERIFY2(headerFm.horizontalAdvance(label) <= labelRect.width(),
                 qPrintable(QStringLiteral("header \"%1\" elided: %2 px in %3 px%4")
                                .arg(label)
                                .arg(headerFm.horizontalAdvance(label))
                                .arg(labelRect.width())
                                .arg(at)));
        if (c == MessageTableModel::IdColumn || c == MessageTableModel::BodyColumn) {
            QVERIFY2(table->columnWidth(c) >= cellFm.horizontalAdvance(QStringLiteral("Task #00")),
                     qPrintable(label + at));
            continue;
        }
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, c);
            const QString text = index.data().toString();
            const int room = table->columnWidth(c) - 2 * cellMargin;
            QVERIFY2(cellFm.horizontalAdvance(text) <= room,
                     qPrintable(QStringLiteral("%1 \"%2\" elided: %3 px in %4 px%5")
                                    .arg(label, text)
                                    .arg(cellFm.horizontalAdvance(text))
                                    .arg(room)
                                    .arg(at)));
        }
    }
}

QTEST_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
