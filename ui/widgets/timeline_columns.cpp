#include "widgets/timeline_columns.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace qs::ui {

void TimelineColumns::begin(const TimelineGeometry& g, int deviceHeight, double dpr,
                            const Theme& theme) {
    g_ = &g;
    left_ = g.plot.left();
    dpr_ = dpr;
    columns_ = static_cast<int>(g.plot.width()) + 2;
    for (int o = 0; o < static_cast<int>(Outcome::Count); ++o) {
        colors_[static_cast<std::size_t>(o)] = theme.outcome(static_cast<Outcome>(o)).rgba();
    }
    const QSize size(static_cast<int>(std::ceil((columns_ + 1) * dpr)),
                     static_cast<int>(std::ceil(std::max(1, deviceHeight) * dpr)));
    // Where each column starts in the image's own pixels (QPainter rounds a fill's edges).
    deviceX_.resize(static_cast<std::size_t>(columns_) + 1);
    const long origin = std::lround(left_ * dpr);
    for (int col = 0; col <= columns_; ++col) {
        deviceX_[static_cast<std::size_t>(col)] = std::min(
            size.width(), static_cast<int>(std::lround((left_ + col) * dpr) - origin));
    }
    if (image_.size() != size) {  // transparent between lanes: each clears what it drew
        image_ = QImage(size, QImage::Format_ARGB32_Premultiplied);
        image_.setDevicePixelRatio(dpr);
        image_.fill(Qt::transparent);
    }
}

TimelineColumns::LaneTally TimelineColumns::beginLane(int slotsUsed) {
    slotsUsed_ = std::max(1, slotsUsed);
    cells_.assign(static_cast<std::size_t>(slotsUsed_) * static_cast<std::size_t>(columns_), -1);
    return LaneTally{cells_.data(), left_, columns_};
}

void TimelineColumns::endLane(int first, int last, int laneIndex, QPainter& p) {
    if (last < first) {
        return;
    }
    uchar* bits = image_.bits();
    int top = image_.height();
    int bottom = 0;
    for (int s = 0; s < slotsUsed_; ++s) {
        // The rows a fill of the sub-row's rect covers (QPainter rounds its edges).
        const QRectF r = g_->slotRect(laneIndex, slotsUsed_, s, left_, 1);
        const int y0 = std::max(0, static_cast<int>(std::lround(r.top() * dpr_)));
        const int y1 = std::min(image_.height(), static_cast<int>(std::lround(r.bottom() * dpr_)));
        if (y0 < y1) {
            writeRow(cells_.data() + static_cast<std::size_t>(s) * columns_, first, last, bits, y0,
                     y1);
            top = std::min(top, y0);
            bottom = std::max(bottom, y1);
        }
    }
    if (top >= bottom) {
        return;
    }
    // Drawn in the lane's turn, as its fills were, so what the next lanes paint
    // covers it where thin lanes' sub-rows overlap; then the strip is cleared.
    const int x0 = deviceX_[static_cast<std::size_t>(first)];
    const int x1 = deviceX_[static_cast<std::size_t>(last) + 1];
    const QRectF source(x0, top, x1 - x0, bottom - top);
    p.drawImage(QRectF(left_ + x0 / dpr_, top / dpr_, (x1 - x0) / dpr_, (bottom - top) / dpr_),
                image_, source);
    const auto stride = static_cast<std::size_t>(image_.bytesPerLine());
    for (int y = top; y < bottom; ++y) {
        auto* line = reinterpret_cast<QRgb*>(bits + static_cast<std::size_t>(y) * stride);
        std::fill(line + x0, line + x1, QRgb{0});
    }
}

// Row by row, left to right (one pass over each line of the image), with the
// column edges and colours in locals: a QRgb written may alias the members.
void TimelineColumns::writeRow(const std::int8_t* row, int first, int last, uchar* bits, int y0,
                               int y1) {
    const auto stride = static_cast<std::size_t>(image_.bytesPerLine());
    const int* const edge = deviceX_.data();
    const std::array<QRgb, static_cast<int>(Outcome::Count)> colors = colors_;
    for (int y = y0; y < y1; ++y) {
        auto* line = reinterpret_cast<QRgb*>(bits + static_cast<std::size_t>(y) * stride);
        for (int col = first; col <= last; ++col) {
            const std::int8_t c = row[col];
            if (c >= 0) {
                std::fill(line + edge[col], line + edge[col + 1],
                          colors[static_cast<std::size_t>(c)]);
            }
        }
    }
}

}  // namespace qs::ui
