#include <QApplication>
#include <QHeaderView>
#include <QImage>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

#include "widgets/cached_text_delegate.h"

using namespace qs::ui;

namespace {

// A table like the message table: left- and right-aligned texts, one too long
// for its column, an empty cell, alternate rows and a selected row.
struct Table {
    QStandardItemModel model{6, 3};
    QTableView view;

    Table() {
        for (int r = 0; r < model.rowCount(); ++r) {
            model.setItem(r, 0, new QStandardItem(QStringLiteral("Task #%1").arg(r + 1)));
            auto* count = new QStandardItem(QString::number(r * 7));
            count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            model.setItem(r, 1, count);
            model.setItem(r, 2, new QStandardItem(r == 3 ? QString() : QStringLiteral(
                                 "a text far too long for the column it is shown in, %1")
                                                                               .arg(r)));
        }
        view.setModel(&model);
        view.setAlternatingRowColors(true);
        view.setWordWrap(false);
        view.setSelectionBehavior(QAbstractItemView::SelectRows);
        view.verticalHeader()->hide();
        view.setColumnWidth(0, 90);
        view.setColumnWidth(1, 60);
        view.setColumnWidth(2, 140);
        view.resize(320, 200);
        view.selectRow(2);
    }
    QImage picture() { return view.viewport()->grab().toImage(); }
};

}  // namespace

// The message table is painted whole five times a second in a live run; its
// delegate keeps the cells' texts laid out. It must paint what the usual
// delegate paints, and lay out only texts it has not seen.
class TestCachedTextDelegate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paintsWhatTheStyledDelegatePaints();
    void aFocusedCellAsTheStyledDelegatePaintsIt();
    void aSecondPaintLaysOutNothing();
    void aNarrowerColumnElidesAgain();
    void cellsWithAnIconGoTheUsualWay();
};

void TestCachedTextDelegate::paintsWhatTheStyledDelegatePaints() {
    Table t;
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    const QImage usual = t.picture();
    auto* cached = new CachedTextDelegate(&t.view);
    t.view.setItemDelegate(cached);
    const QImage ours = t.picture();
    QVERIFY(cached->textsLaidOut() > 0);
    QCOMPARE(ours.size(), usual.size());
    QVERIFY2(ours == usual, "the cached delegate paints other pixels than QStyledItemDelegate");
}

// The current cell of a focused view carries the style's focus frame.
void TestCachedTextDelegate::aFocusedCellAsTheStyledDelegatePaintsIt() {
    Table t;
    t.view.show();
    QVERIFY(QTest::qWaitForWindowActive(&t.view));
    t.view.setCurrentIndex(t.model.index(4, 1));
    t.view.clearFocus();
    const QImage unfocused = t.picture();
    t.view.setFocus();
    QTRY_VERIFY(t.view.hasFocus());
    const QImage usual = t.picture();
    QVERIFY2(usual != unfocused, "no focus frame was painted: the case is not checked");
    t.view.setItemDelegate(new CachedTextDelegate(&t.view));
    QVERIFY2(t.picture() == usual, "the focused cell differs from QStyledItemDelegate's");
}

void TestCachedTextDelegate::aSecondPaintLaysOutNothing() {
    Table t;
    auto* cached = new CachedTextDelegate(&t.view);
    t.view.setItemDelegate(cached);
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    t.picture();
    const quint64 first = cached->textsLaidOut();
    QVERIFY(first > 0);
    t.picture();
    QCOMPARE(cached->textsLaidOut(), first);
    // A new text is laid out, once.
    t.model.item(0, 0)->setText(QStringLiteral("Task #100"));
    t.picture();
    QCOMPARE(cached->textsLaidOut(), first + 1);
}

void TestCachedTextDelegate::aNarrowerColumnElidesAgain() {
    Table t;
    t.view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t.view));
    t.view.setColumnWidth(0, 40);  // "Task #1" no longer fits
    const QImage usual = t.picture();
    auto* cached = new CachedTextDelegate(&t.view);
    t.view.setItemDelegate(cached);
    t.view.setColumnWidth(0, 90);
    t.picture();
    t.view.setColumnWidth(0, 40);
    QVERIFY2(t.picture() == usual, "an elided text differs from QStyledItemDelegate's");
}

void TestCachedTextDelegate::cellsWithAnIconGoTheUsualWay() {
    QStandardItemModel model(1, 1);
    QPixmap dot(8, 8);
    dot.fill(Qt::red);
    model.setItem(0, 0, new QStandardItem(QIcon(dot), QStringLiteral("with an icon")));
    QTableView view;
    view.setModel(&model);
    auto* cached = new CachedTextDelegate(&view);
    view.setItemDelegate(cached);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.viewport()->grab();
    QCOMPARE(cached->textsLaidOut(), quint64(0));
}

QTEST_MAIN(TestCachedTextDelegate)
#include "tst_cached_text_delegate.moc"
