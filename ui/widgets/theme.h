#pragma once

#include <QColor>
#include <QPalette>
#include <QString>
#include <cstdint>

// Light and dark palettes plus the fixed colours that mean something on every
// view (one colour per message outcome, used by the timeline, table and charts
// alike so a viewer learns them once). UI thread only.
namespace qs::ui {

enum class Outcome : std::uint8_t {
    InFlight,        // assigned, not yet settled
    Acked,           // settled positively
    Rejected,        // NAck: back to the queue with receive count + 1
    Returned,        // its worker crashed: back to the queue unchanged
    ReturnedClosed,  // its worker stopped or closed its client unsettled, no crash: the same
    Requeued,        // moved to another channel
    DeadLettered,    // over MaxReceiveCount
    Expired,
    Count
};

QString outcomeName(Outcome outcome);

enum class ThemeKind { Light, Dark };

struct Theme {
    ThemeKind kind = ThemeKind::Light;
    QColor window;
    QColor panel;    // view backgrounds (timeline lanes, charts)
    QColor laneAlt;  // alternate lane shading
    QColor grid;
    QColor text;
    QColor mutedText;
    QColor marker;  // configuration-change markers
    QColor selection;
    QColor waitFill;  // polls that returned nothing
    QColor highlight;  // what "Show me" points at (timeline lanes)

    QColor outcome(Outcome o) const;
    QColor sentColor() const;
    QColor waitingColor() const;
    QColor inFlightColor() const { return outcome(Outcome::InFlight); }

    static Theme light();
    static Theme dark();
    static const Theme& current();
    static void setCurrent(ThemeKind kind);  // also applies the QPalette to qApp
    QPalette palette() const;
    // A stable, distinct colour per worker lane.
    QColor workerColor(int index) const;
};

}  // namespace qs::ui
