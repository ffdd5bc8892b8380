#include "controllers/embedded_store.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include "models/core_text.h"

namespace qs::ui {

namespace {
const QString kGroup = QStringLiteral("embeddedBroker");
}  // namespace

QString EmbeddedStore::label() const {
    if (!onDisk()) {
        return QStringLiteral("in memory");
    }
    return QStringLiteral("on disk in %1 (sync %2)")
        .arg(QDir::toNativeSeparators(dataDirectory), fromView(broker::syncModeName(sync)));
}

void EmbeddedStore::save(QSettings& settings) const {
    settings.beginGroup(kGroup);
    settings.setValue(QStringLiteral("dataDirectory"), dataDirectory);
    settings.setValue(QStringLiteral("sync"), fromView(broker::syncModeName(sync)));
    settings.endGroup();
}

EmbeddedStore EmbeddedStore::load(QSettings& settings) {
    EmbeddedStore s;
    settings.beginGroup(kGroup);
    s.dataDirectory = settings.value(QStringLiteral("dataDirectory")).toString();
    const std::string sync = settings.value(QStringLiteral("sync")).toString().toStdString();
    settings.endGroup();
    if (const auto mode = broker::parseSyncMode(sync)) {
        s.sync = *mode;  // an unknown value (edited by hand) keeps the default
    }
    return s;
}

QString syncModePromise(broker::SyncMode mode) {
    switch (mode) {
        case broker::SyncMode::Always:
            return QStringLiteral(
                "always: a send is answered once it is on disk; no answered send is lost, even "
                "on power loss, which can only bring back a task acked in the last 50 ms "
                "(slowest)");
        case broker::SyncMode::Batch:
            return QStringLiteral(
                "batch: on disk within 50 ms; a crash of the console loses nothing, a power "
                "loss at most the last 50 ms");
        case broker::SyncMode::None:
            return QStringLiteral(
                "none: the operating system decides when it reaches disk; a crash of the "
                "console loses nothing, a power loss what the OS had not written");
    }
    return {};
}

QString dataDirectoryProblem(const QString& directory) {
    if (directory.trimmed().isEmpty()) {
        return QStringLiteral("Choose a folder for the queues");
    }
    const QFileInfo info(directory);
    if (!info.isAbsolute()) {
        return QStringLiteral("The folder must be a full path (%1 is relative)").arg(directory);
    }
    if (info.exists() && !info.isDir()) {
        return QStringLiteral("%1 is a file, not a folder").arg(directory);
    }
    if (!info.exists()) {
        // Its nearest existing parent must be a folder (the store creates the rest).
        QFileInfo parent(info.absolutePath());
        while (!parent.exists() && parent.absoluteFilePath() != parent.absolutePath()) {
            parent = QFileInfo(parent.absolutePath());
        }
        if (!parent.isDir()) {
            return QStringLiteral("%1 cannot be created: %2 is not a folder")
                .arg(directory, parent.absoluteFilePath());
        }
    }
    return {};
}

}  // namespace qs::ui
