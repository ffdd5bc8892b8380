// A scenario's pool-wide "set" reaches every worker, including one that was
// given its own configuration earlier; a worker that refuses its patched
// configuration is reported and keeps the one it had. Real embedded broker,
// real workers.
#include <QTest>
#include <string>
#include <vector>

#include "pool_fixture.h"
#include "runner/pool_patch.h"
#include "test_broker.h"
#include "workers/worker_pool.h"

using namespace qs;

class TestPoolPatch : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(broker_.ok(), broker_.error().c_str()); }

    void reachesWorkersWithTheirOwnConfiguration() {
        workers::WorkerPool pool(test::poolOptionsFor(broker_, "patch.all"),
                                 test::sharedPoolConfig());
        QVERIFY(startTwoWithOwnWorker2(pool));

        runner::ConfigPatch patch;
        patch.failureRate = 0.25;
        std::vector<std::string> problems;
        const workers::WorkerConfig after = runner::applyPoolWidePatch(pool, patch, &problems);
        QVERIFY(problems.empty());
        QCOMPARE(after.failureRate, 0.25);
        QCOMPARE(after.batchSize, 2);
        // worker-2 has the patch on top of its own batch size ...
        QCOMPARE(pool.workerConfig("worker-2")->failureRate, 0.25);
        QCOMPARE(pool.workerConfig("worker-2")->batchSize, 3);
        // ... worker-1 follows the shared configuration once the caller installs it.
        QCOMPARE(pool.workerConfig("worker-1")->failureRate, 0.0);
        QVERIFY(pool.setConfig(after));
        QCOMPARE(pool.workerConfig("worker-1")->failureRate, 0.25);
        QCOMPARE(pool.workerConfig("worker-2")->batchSize, 3);
        pool.stop();
    }

    void aRefusedPatchIsReportedAndChangesNothing() {
        workers::WorkerPool pool(test::poolOptionsFor(broker_, "patch.bad"),
                                 test::sharedPoolConfig());
        QVERIFY(startTwoWithOwnWorker2(pool));

        runner::ConfigPatch patch;
        patch.batchSize = 0;  // out of range (1-1024)
        std::vector<std::string> problems;
        runner::applyPoolWidePatch(pool, patch, &problems);
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(problems.front().rfind("worker-2: ", 0) == 0, problems.front().c_str());
        QCOMPARE(pool.workerConfig("worker-2")->batchSize, 3);
        pool.stop();
    }

private:
    // Two workers; worker-2 has its own configuration (batch 3).
    static bool startTwoWithOwnWorker2(workers::WorkerPool& pool) {
        workers::WorkerConfig own = test::sharedPoolConfig();
        own.batchSize = 3;
        return pool.addWorkers(2).size() == 2u && pool.setWorkerConfig("worker-2", own);
    }

    test::TestBroker broker_;
};

QTEST_APPLESS_MAIN(TestPoolPatch)
#include "tst_pool_patch.moc"
