#pragma once

// Shared set-up of the suites that look at the whole window: a window with
// no saved settings and no probing, and a finished run on the embedded
// broker to look at.
#include <QSize>
#include <QTest>

#include "controllers/connection_controller.h"
#include "controllers/console_run.h"
#include "controllers/run_controller.h"
#include "main_window.h"
#include "panels/producer_panel.h"
#include "run/run.h"
#include "workers/worker_config.h"

namespace qs::test {

inline ui::MainWindowOptions offlineOptions() {
    ui::MainWindowOptions options;
    options.autoConnect = false;
    options.useSettings = false;
    return options;
}

// Shows `window` at `size`, starts the embedded broker and lets `workers`
// workers (`workMs` per task, 1 s wait) ack `tasks` tasks. On a failed check
// the calling test has failed (QTest::currentTestFailed()).
inline void runTasksInWindow(ui::MainWindow& window, QSize size, int workers, int tasks,
                             double workMs, int timeoutMs) {
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString error;
    QVERIFY2(window.connection()->startEmbedded(0, &error), qPrintable(error));
    workers::WorkerConfig c = window.run()->config();
    c.work = workers::WorkProfile::fixed(workMs);
    c.waitMs = 1000;
    QVERIFY(window.run()->setConfig(c));
    QVERIFY(window.run()->setWorkerCount(workers));
    window.producerPanel()->setCount(tasks);
    window.producerPanel()->send();
    QTRY_VERIFY_WITH_TIMEOUT(window.consoleRun()->run().summaryNow().count(MessageState::Acked) ==
                                 static_cast<std::uint64_t>(tasks),
                             timeoutMs);
}

}  // namespace qs::test
