#include "controllers/recording_loader.h"

#include "runner/run_recording.h"

namespace qs::ui {

std::optional<LoadedRecording> loadRecording(const QString& path, QString* error) {
    LoadedRecording loaded;
    loaded.path = path;
    runner::ReplayVisitor visitor;
    visitor.opened = [&loaded](const recording::RecordingReader&, const LedgerOptions& options) {
        loaded.ledgerOptions = options;
    };
    visitor.applied = [&loaded](const Event& e) { loaded.events.push_back(e); };
    runner::ReplayedRun replayed;
    std::string why;
    if (!runner::replayRecording(path.toStdString(), &replayed, &why, visitor)) {
        if (error != nullptr) {
            *error = QString::fromStdString(why);
        }
        return std::nullopt;
    }
    loaded.name = QString::fromStdString(replayed.scenario.name);
    loaded.channel = QString::fromStdString(replayed.scenario.channel);
    loaded.finished = replayed.finished;
    return loaded;
}

}  // namespace qs::ui
