#include "controllers/recent_recordings.h"

#include <QFileInfo>
#include <QSettings>

namespace qs::ui {

namespace {
const QString kRecentKey = QStringLiteral("recordings/recent");
}

QStringList loadRecentRecordings(const QSettings& settings) {
    return settings.value(kRecentKey).toStringList().mid(0, kMaxRecentRecordings);
}

QStringList withRecentRecording(QStringList recent, const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    return recent.mid(0, kMaxRecentRecordings);
}

void saveRecentRecordings(QSettings& settings, const QStringList& recent) {
    settings.setValue(kRecentKey, recent);
}

}  // namespace qs::ui
