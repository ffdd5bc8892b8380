#pragma once

#include <optional>

#include "console_options.h"
#include "main_window.h"

// What the console's options ask of its window once it exists: the palette,
// the greeting, the size and span, the recording to open (and where its time
// cursor goes), the embedded broker, the scenario to play, the lesson to run
// and the dock in front. The screenshot itself is screenshot_driver's.
//
// Threading: UI thread. The window must outlive the event loop.
namespace qs::app {

// The window's options: a screenshot uses no settings and connects nowhere
// but to an embedded broker of its own.
ui::MainWindowOptions mainWindowOptions(const ConsoleOptions& options);

// Applies `options` to `window`, shows it and starts what they ask. nullopt:
// the console runs (the event loop may start); else the exit code, said on
// stderr (1: the embedded broker or the scenario did not start; 2: no such
// lesson or answer).
std::optional<int> startConsole(ui::MainWindow& window, const ConsoleOptions& options);

}  // namespace qs::app
