#include "scenario_library.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include "runner/scenario_json.h"

namespace qs::ui {

namespace {
QStringList searchDirs() {
    QStringList dirs;
    dirs << QStringLiteral(":/scenarios");
    if (QCoreApplication::instance()) {
        const QString app = QCoreApplication::applicationDirPath();
        dirs << app + QStringLiteral("/../share/queuescope/scenarios")
             << app + QStringLiteral("/scenarios");
    }
#ifdef QUEUESCOPE_SOURCE_DIR
    dirs << QStringLiteral(QUEUESCOPE_SOURCE_DIR "/resources/scenarios");
#endif
    return dirs;
}

bool parseFile(const QString& path, runner::Scenario* out, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    const QByteArray data = f.readAll();
    std::string why;
    if (!runner::parseScenarioJson(
            std::string_view(data.constData(), static_cast<std::size_t>(data.size())), out, &why)) {
        *error =
            QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(why));
        return false;
    }
    return true;
}
}  // namespace

QStringList scenarioNames() {
    QSet<QString> names;
    for (const QString& dir : searchDirs()) {
        const QDir d(dir);
        for (const QString& f : d.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            names.insert(f.chopped(5));
        }
    }
    QStringList list(names.begin(), names.end());
    list.sort();
    return list;
}

bool loadScenario(const QString& nameOrPath, runner::Scenario* out, QString* error) {
    if (QFileInfo::exists(nameOrPath) && QFileInfo(nameOrPath).isFile()) {
        return parseFile(nameOrPath, out, error);
    }
    for (const QString& dir : searchDirs()) {
        const QString path = dir + QLatin1Char('/') + nameOrPath + QStringLiteral(".json");
        if (QFileInfo::exists(path)) {
            return parseFile(path, out, error);
        }
    }
    *error = QStringLiteral("No scenario \"%1\" (known: %2)")
                 .arg(nameOrPath, scenarioNames().join(QStringLiteral(", ")));
    return false;
}

}  // namespace qs::ui
