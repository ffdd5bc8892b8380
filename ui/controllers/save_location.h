#pragma once

#include <QString>

class QWidget;

// Where save and export dialogs start: the folder the user last saved into
// (this session), else the user's documents folder — never the working
// directory, which is often a source tree. UI thread only.
namespace qs::ui {

// `fileName` in the folder a save dialog should open in.
QString suggestedSavePath(const QString& fileName);
// Remembers the folder of a path the user saved to.
void noteSavedTo(const QString& path);
// Forgets the last folder (tests).
void resetLastSaveFolder();

// QFileDialog::getSaveFileName starting at suggestedSavePath(fileName); a
// chosen path is remembered with noteSavedTo(). Empty when cancelled.
QString askSavePath(QWidget* parent, const QString& title, const QString& fileName,
                    const QString& filter);

}  // namespace qs::ui
