#pragma once

#include <QDialog>

#include "controllers/embedded_store.h"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

// File → Embedded broker storage…: keep the embedded broker's queues in
// memory or in a data directory with a durability level. A folder that
// cannot hold the store is said under the field and Save stays off. The
// choice applies when the embedded broker next starts; "Save and restart"
// asks for that now (restartRequested()). UI thread.
namespace qs::ui {

class EmbeddedStoreDialog : public QDialog {
    Q_OBJECT
public:
    EmbeddedStoreDialog(const EmbeddedStore& current, const QString& suggestedDirectory,
                        QWidget* parent = nullptr);

    EmbeddedStore store() const;
    bool restartRequested() const { return restart_; }

    // For tests.
    QCheckBox* onDiskBox() const { return onDisk_; }
    QLineEdit* directoryField() const { return directory_; }
    QComboBox* syncBox() const { return sync_; }
    QString problemText() const;
    QPushButton* saveButton() const { return save_; }
    QPushButton* saveAndRestartButton() const { return saveAndRestart_; }

private:
    void check();
    void browse();

    QCheckBox* onDisk_;
    QLineEdit* directory_;
    QPushButton* browse_;
    QComboBox* sync_;
    QLabel* promise_;
    QLabel* problem_;
    QPushButton* save_ = nullptr;
    QPushButton* saveAndRestart_ = nullptr;
    bool restart_ = false;
};

}  // namespace qs::ui
