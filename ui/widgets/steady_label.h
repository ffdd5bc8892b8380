#pragma once

#include <QLabel>

// A label whose text changes every frame (a live counter, the time cursor)
// without asking its window for a new layout each time: a QLabel's setText()
// makes the layouts up to the main window recompute unless the label's size
// is fixed. This one has a fixed size that only grows, when a text needs
// more room than any before; it is measured again when the font or style
// changes. Plain text only. UI thread only.
namespace qs::ui {

class SteadyLabel : public QLabel {
    Q_OBJECT
public:
    explicit SteadyLabel(QWidget* parent = nullptr);

    // Shows `text`; grows the label first when it does not fit.
    void showText(const QString& text);
    // Room for `text` from the start (the widest text expected), so a live
    // run does not grow the label step by step.
    void reserveRoomFor(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    int widthFor(const QString& text) const;
    void fitTo(int width);

    QString widest_;  // the widest text reserved or shown so far
};

}  // namespace qs::ui
