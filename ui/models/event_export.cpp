#include "models/event_export.h"

#include <QSaveFile>
#include <sstream>

#include "events/event_log_writer.h"

namespace qs::ui {

bool exportEvents(const std::vector<const Event*>& events, ExportFormat format, QIODevice& out,
                  QString* error) {
    // The same writer (columns, quoting, UTF-8 handling) as the headless
    // runner's recorder, so an exported log reads back with EventLogReader.
    std::ostringstream text;
    const std::int64_t origin = events.empty() ? 0 : events.front()->timeNs;
    EventLogWriter writer(
        text, format == ExportFormat::Csv ? EventLogFormat::Csv : EventLogFormat::JsonLines,
        origin);
    for (const Event* e : events) {
        writer.write(*e);
    }
    if (!writer.ok()) {
        if (error) {
            *error = QString::fromStdString(writer.error());
        }
        return false;
    }
    const std::string bytes = std::move(text).str();
    const auto size = static_cast<qint64>(bytes.size());
    if (out.write(bytes.data(), size) != size) {
        if (error) {
            *error = out.errorString();
        }
        return false;
    }
    return true;
}

bool exportEventsToFile(const std::vector<const Event*>& events, ExportFormat format,
                        const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) {
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        }
        return false;
    }
    if (!exportEvents(events, format, file, error)) {
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (error) {
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        }
        return false;
    }
    return true;
}

}  // namespace qs::ui
