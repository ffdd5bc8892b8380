#pragma once

#include <QString>
#include <QStringList>

#include "runner/scenario.h"

// The console's view of the bundled scenarios: core's runner/scenario_library.h
// (the data folders of an install or a build tree) with Qt strings.
namespace qs::ui {

QStringList scenarioNames();  // sorted, without ".json"
// NAME (a bundled scenario) or a path to a JSON file. False with *error when
// not found or invalid.
bool loadScenario(const QString& nameOrPath, runner::Scenario* out, QString* error);

}  // namespace qs::ui
