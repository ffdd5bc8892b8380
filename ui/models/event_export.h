#pragma once

#include <QIODevice>
#include <QString>
#include <vector>

#include "events/event.h"

// Exports what the event log shows as CSV or JSON Lines through core's
// EventLogWriter: the columns of docs/events.md, time_ns counted from the first
// exported event.
namespace qs::ui {

enum class ExportFormat { Csv, JsonLines };

// false (with *error) when the device cannot be written.
bool exportEvents(const std::vector<const Event*>& events, ExportFormat format, QIODevice& out,
                  QString* error = nullptr);
bool exportEventsToFile(const std::vector<const Event*>& events, ExportFormat format,
                        const QString& path, QString* error = nullptr);

}  // namespace qs::ui
