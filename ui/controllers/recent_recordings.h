#pragma once

#include <QString>
#include <QStringList>

class QSettings;

// File ▸ Open recent recording: the recordings opened last, newest first, at
// most kMaxRecentRecordings, kept in QSettings ("recordings/recent").
namespace qs::ui {

inline constexpr int kMaxRecentRecordings = 8;

QStringList loadRecentRecordings(const QSettings& settings);
// `path` first, without duplicates, trimmed to kMaxRecentRecordings.
QStringList withRecentRecording(QStringList recent, const QString& path);
void saveRecentRecordings(QSettings& settings, const QStringList& recent);

}  // namespace qs::ui
