#include "controllers/save_location.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>

namespace qs::ui {

namespace {
QString& lastFolder() {
    static QString folder;  // UI thread only
    return folder;
}
}  // namespace

QString suggestedSavePath(const QString& fileName) {
    QString folder = lastFolder();
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) {
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    }
    if (folder.isEmpty()) {
        folder = QDir::homePath();
    }
    return QDir(folder).filePath(fileName);
}

void noteSavedTo(const QString& path) {
    if (!path.isEmpty()) {
        lastFolder() = QFileInfo(path).absolutePath();
    }
}

void resetLastSaveFolder() {
    lastFolder().clear();
}

QString askSavePath(QWidget* parent, const QString& title, const QString& fileName,
                    const QString& filter) {
    const QString path =
        QFileDialog::getSaveFileName(parent, title, suggestedSavePath(fileName), filter);
    noteSavedTo(path);
    return path;
}

}  // namespace qs::ui
