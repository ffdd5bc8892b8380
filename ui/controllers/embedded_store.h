#pragma once

#include <QString>

#include "broker/sync_mode.h"

class QSettings;

// Where the console's embedded broker keeps its queues: in memory (the
// default: gone when the console closes), or in a data directory with a
// durability level, as `queuescope-broker --data-dir DIR --sync MODE` does
// (docs/broker.md, Durable store). Saved in QSettings; used by
// ConnectionController::startEmbedded(). Value type; UI thread.
namespace qs::ui {

struct EmbeddedStore {
    QString dataDirectory;  // empty = memory only
    broker::SyncMode sync = broker::SyncMode::Batch;

    bool onDisk() const { return !dataDirectory.isEmpty(); }
    QString label() const;  // "in memory" / "on disk in DIR (sync batch)"

    void save(QSettings& settings) const;
    static EmbeddedStore load(QSettings& settings);

    bool operator==(const EmbeddedStore&) const = default;
};

// What each durability level promises, one line, for the dialog and tooltips.
QString syncModePromise(broker::SyncMode mode);

// Empty when `directory` can hold the store (absolute, not a file, creatable);
// else why not, in words.
QString dataDirectoryProblem(const QString& directory);

}  // namespace qs::ui
