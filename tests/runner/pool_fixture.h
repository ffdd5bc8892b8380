#pragma once

// What the runner's pool tests share: a small shared worker configuration and
// pool options pointing at the test's real broker.
#include <string>

#include "test_broker.h"
#include "workers/worker_config.h"
#include "workers/worker_pool.h"

namespace qs::test {

// Batch 2, 200 ms polls: workers react within a fraction of a second.
inline workers::WorkerConfig sharedPoolConfig() {
    workers::WorkerConfig c;
    c.batchSize = 2;
    c.waitMs = 200;
    return c;
}

inline workers::PoolOptions poolOptionsFor(const TestBroker& broker, const std::string& channel) {
    workers::PoolOptions options;
    options.client.address = broker.address();
    options.channel = channel;
    return options;
}

}  // namespace qs::test
