#pragma once

#include <QImage>
#include <QRgb>
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "models/timeline_summary.h"
#include "widgets/theme.h"
#include "widgets/timeline_geometry.h"

class QPainter;

// The timeline's bars too thin to draw one by one (under 2 px at the span
// shown) as pixel columns: each is counted into its lane sub-row's column, a
// problem winning over an ack so a lone redelivery stays visible, and a
// lane's columns are written straight into an image of the plot and drawn
// as one strip. With 64 workers at 100,000 events/s hundreds of thousands of
// bars are in view: a QPainter fill per run of columns cost more than all the
// rest of the frame. The pixels are those the fills painted. Keeps its
// buffers from one paint to the next; UI thread only.
namespace qs::ui {

class TimelineColumns {
public:
    // Starts a paint of `g` onto a device of `deviceHeight` logical pixels at `dpr`.
    void begin(const TimelineGeometry& g, int deviceHeight, double dpr, const Theme& theme);
    // One lane's count in progress. The paint keeps it, and the first and last
    // column counted, in locals while it walks the lane's bars (hundreds of
    // thousands a frame): held as members, every one was read again after
    // each cell written through a char pointer.
    struct LaneTally {
        std::int8_t* cells = nullptr;  // per sub-row and pixel column: the outcome, -1 = none
        double left = 0;
        int columns = 0;

        // Counts a thin bar starting at x (widget coordinates) in `slot`: its
        // column, or -1 when x is outside the plot.
        int count(int slot, double x, Outcome outcome) const {
            const int col = static_cast<int>(x - left);
            if (col < 0 || col >= columns) {
                return -1;
            }
            std::int8_t& c = cells[static_cast<std::size_t>(slot) * columns + col];
            if (newOutcomeShows(c)) {
                c = static_cast<std::int8_t>(outcome);
            }
            return col;
        }
        // Sets what a sub-row shows in a column of the plot where nothing is counted yet.
        void setFresh(int slot, int col, Outcome outcome) const {
            cells[static_cast<std::size_t>(slot) * columns + col] = static_cast<std::int8_t>(outcome);
        }
        // As count(), in a column known to be in the plot.
        void countIn(int slot, int col, Outcome outcome) const {
            std::int8_t& c = cells[static_cast<std::size_t>(slot) * columns + col];
            if (newOutcomeShows(c)) {
                c = static_cast<std::int8_t>(outcome);
            }
        }
    };

    // Starts a lane with `slotsUsed` sub-rows (nothing counted yet).
    LaneTally beginLane(int slotsUsed);
    // Writes the lane's columns `first` to `last` (those counted; none when
    // last < first) into the image where each sub-row's bars are drawn
    // (TimelineGeometry::slotRect; later sub-rows over earlier ones) and draws
    // them with `p` (its clip applies).
    void endLane(int first, int last, int laneIndex, QPainter& p);

private:
    void writeRow(const std::int8_t* row, int first, int last, uchar* bits, int y0, int y1);

    const TimelineGeometry* g_ = nullptr;
    double left_ = 0;
    double dpr_ = 1;
    int columns_ = 0;
    int slotsUsed_ = 1;
    std::vector<int> deviceX_;        // per column and one more: its left edge in the image
    std::vector<std::int8_t> cells_;  // per sub-row and pixel column: the outcome, -1 = none
    std::array<QRgb, static_cast<int>(Outcome::Count)> colors_{};
    QImage image_;  // from the plot's left edge, the device's whole height
};

}  // namespace qs::ui
