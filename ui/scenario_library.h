#pragma once

#include <QString>
#include <QStringList>

#include "runner/scenario.h"

// Finds the bundled scenarios (resources/scenarios/*.json): compiled into the
// executable as Qt resources, next to an installed binary
// (../share/queuescope/scenarios), or in the source tree as a fallback.
namespace qs::ui {

QStringList scenarioNames();  // sorted, without ".json"
// NAME (a bundled scenario) or a path to a JSON file. False with *error when
// not found or invalid.
bool loadScenario(const QString& nameOrPath, runner::Scenario* out, QString* error);

}  // namespace qs::ui
