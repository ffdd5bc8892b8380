#include "controllers/scenario_library.h"

#include "runner/scenario_library.h"

namespace qs::ui {

QStringList scenarioNames() {
    QStringList names;
    for (const std::string& name : runner::bundledScenarioNames()) {
        names << QString::fromStdString(name);
    }
    return names;
}

bool loadScenario(const QString& nameOrPath, runner::Scenario* out, QString* error) {
    std::string why;
    if (!runner::loadScenario(nameOrPath.toStdString(), out, &why)) {
        *error = QString::fromStdString(why);
        return false;
    }
    return true;
}

}  // namespace qs::ui
