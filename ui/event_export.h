#pragma once

#include <QIODevice>
#include <QString>
#include <vector>

#include "events/event.h"

// Writes events as CSV (RFC 4180 quoting, header row) or JSON Lines (one
// object per line). Times are given both as wall-clock ISO 8601 and as the
// raw monotonic nanoseconds the events carry.
namespace qs::ui {

enum class ExportFormat { Csv, JsonLines };

// false (with *error) when the device cannot be written.
bool exportEvents(const std::vector<const Event*>& events, ExportFormat format, QIODevice& out,
                  QString* error = nullptr);
bool exportEventsToFile(const std::vector<const Event*>& events, ExportFormat format,
                        const QString& path, QString* error = nullptr);

}  // namespace qs::ui
