#include "widgets/transport_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>
#include <algorithm>

#include "controllers/console_run.h"
#include "controllers/replay_player.h"
#include "controllers/time_cursor.h"
#include "run/run.h"
#include "widgets/scrub_slider.h"
#include "widgets/steady_label.h"

namespace qs::ui {

namespace {

constexpr double kSpeeds[] = {0.25, 0.5, 1, 2, 4, 8, 16};

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return b;
}

QString landmarkText(Landmark landmark) {
    const std::string_view name = landmarkName(landmark);
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

QString seconds(std::int64_t ns) {
    return QStringLiteral("%1 s").arg(static_cast<double>(ns) / 1e9, 0, 'f', 3);
}

}  // namespace

TransportBar::TransportBar(const ConsoleRun* run, TimeCursor* cursor, ReplayPlayer* player,
                           QWidget* parent)
    : QWidget(parent),
      run_(run),
      cursor_(cursor),
      player_(player),
      back_(toolButton(QStringLiteral("◀ Prev"), QStringLiteral("Jump to the previous one (Alt+Left)"),
                       this)),
      play_(toolButton(QStringLiteral("▶ Play"),
                       QStringLiteral("Play the run back from the cursor (from its start when "
                                      "live) at the chosen speed"),
                       this)),
      forward_(toolButton(QStringLiteral("Next ▶"), QStringLiteral("Jump to the next one (Alt+Right)"),
                          this)),
      landmark_(new QComboBox(this)),
      speed_(new QComboBox(this)),
      slider_(new ScrubSlider(this)),
      time_(new SteadyLabel(this)),
      live_(toolButton(QStringLiteral("● Live"),
                       QStringLiteral("Show the run's newest state in every view (Ctrl+L)"),
                       this)) {
    setObjectName(QStringLiteral("transportBar"));
    describeControls();
    layOut();
    connectControls();
    runGrew();
}

void TransportBar::describeControls() {
    play_->setCheckable(true);
    live_->setCheckable(true);
    live_->setChecked(true);
    for (int i = 0; i < kLandmarkCount; ++i) {
        landmark_->addItem(landmarkText(static_cast<Landmark>(i)), i);
    }
    landmark_->setCurrentIndex(static_cast<int>(Landmark::Crash));
    landmark_->setToolTip(QStringLiteral(
        "What Prev and Next jump to: a redelivery, a dead-lettering, a worker's crash, or a marker\n"
        "(a configuration change). The slider shows each as a tick in its colour."));
    for (const double s : kSpeeds) {
        speed_->addItem(QStringLiteral("%1×").arg(s), s);
    }
    speed_->setCurrentIndex(2);
    speed_->setToolTip(QStringLiteral("Playback speed, against the time the run took"));
    slider_->setToolTip(QStringLiteral(
        "The whole run: drag to move the time cursor; every view shows the run as it was "
        "then.\nTicks mark its crashes, dead-letters, redeliveries and markers, in the "
        "timeline's colours."));
    time_->setObjectName(QStringLiteral("cursorTime"));
    time_->reserveRoomFor(QStringLiteral("0000.000 s / 0000.000 s"));
    landmark_->setAccessibleName(QStringLiteral("Landmark to jump to"));
    speed_->setAccessibleName(QStringLiteral("Playback speed"));
    play_->setAccessibleName(QStringLiteral("Play or pause"));
    back_->setAccessibleName(QStringLiteral("Previous landmark"));
    forward_->setAccessibleName(QStringLiteral("Next landmark"));
    live_->setAccessibleName(QStringLiteral("Live"));
}

void TransportBar::layOut() {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 1, 6, 1);
    layout->setSpacing(4);
    layout->addWidget(play_);
    layout->addWidget(speed_);
    layout->addSpacing(6);
    layout->addWidget(back_);
    layout->addWidget(landmark_);
    layout->addWidget(forward_);
    layout->addWidget(slider_, 1);
    layout->addWidget(time_);
    layout->addWidget(live_);
    setMinimumWidth(380);  // narrow (arrange), it fits beside the docks of a 1280x720 window
}

void TransportBar::connectControls() {
    connect(back_, &QToolButton::clicked, this, &TransportBar::jumpBack);
    connect(forward_, &QToolButton::clicked, this, &TransportBar::jumpForward);
    connect(play_, &QToolButton::clicked, this, &TransportBar::togglePlay);
    connect(live_, &QToolButton::clicked, this, [this] {
        player_->pause();
        cursor_->goLive();
        live_->setChecked(true);
    });
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { player_->setSpeed(speed_->currentData().toDouble()); });
    connect(slider_, &QSlider::valueChanged, this, [this](int ms) {
        cursor_->moveTo(cursor_->startNs() + static_cast<std::int64_t>(ms) * 1'000'000);
    });
    connect(player_, &ReplayPlayer::playingChanged, this, &TransportBar::showPlaying);
    connect(cursor_, &TimeCursor::moved, this, &TransportBar::showCursor);
    connect(cursor_, &TimeCursor::rangeChanged, this, &TransportBar::runGrew);
    connect(run_, &ConsoleRun::wasReset, this, &TransportBar::runReset);
}

// On a narrow timeline (1280x720) the jump buttons lose their words and the
// time label goes (the slider's tooltip and the timeline's axis still say
// it), so the slider stays long enough to scrub in one row: a second row
// would take the timeline's last lanes.
void TransportBar::arrange(bool narrow) {
    narrow_ = narrow;
    showPlaying(player_->isPlaying());
    back_->setText(narrow ? QStringLiteral("◀") : QStringLiteral("◀ Prev"));
    forward_->setText(narrow ? QStringLiteral("▶") : QStringLiteral("Next ▶"));
    time_->setVisible(!narrow);
}

void TransportBar::showPlaying(bool playing) {
    play_->setChecked(playing);
    if (narrow_) {
        play_->setText(playing ? QStringLiteral("❚❚") : QStringLiteral("▶"));
    } else {
        play_->setText(playing ? QStringLiteral("❚❚ Pause") : QStringLiteral("▶ Play"));
    }
}

void TransportBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const bool narrow = event->size().width() < kNarrowBelow;
    if (narrow != narrow_) {
        arrange(narrow);
    }
}

Landmark TransportBar::chosenLandmark() const {
    return static_cast<Landmark>(landmark_->currentData().toInt());
}

QString TransportBar::timeText() const {
    return time_->text();
}

int TransportBar::valueOf(std::int64_t timeNs) const {
    return static_cast<int>(std::max<std::int64_t>(0, timeNs - cursor_->startNs()) / 1'000'000);
}

void TransportBar::jumpBack() {
    jump(false);
}

void TransportBar::jumpForward() {
    jump(true);
}

void TransportBar::jump(bool forward) {
    player_->pause();
    const Landmark l = chosenLandmark();
    if (!cursor_->jump(l, forward)) {
        Q_EMIT statusMessage(QStringLiteral("No %1 %2 the time cursor.")
                                 .arg(landmarkText(l), forward ? QStringLiteral("after")
                                                               : QStringLiteral("before")));
    }
}

void TransportBar::togglePlay() {
    player_->setPlaying(!player_->isPlaying());
}

// New events: the slider reaches the new head; their landmarks become ticks.
void TransportBar::runGrew() {
    const Run& run = run_->run();
    if (run.eventCount() < scanned_) {
        scanned_ = 0;
    }
    for (; scanned_ < run.eventCount(); ++scanned_) {
        if (const auto l = landmarkOf(run.eventKind(scanned_))) {
            slider_->addMark({valueOf(run.streamTimeNs(scanned_)), *l});
        }
    }
    const QSignalBlocker block(slider_);
    slider_->setMaximum(valueOf(cursor_->headNs()));
    showCursor();
}

void TransportBar::runReset() {
    scanned_ = 0;
    slider_->setMarks({});
    runGrew();
}

void TransportBar::showCursor() {
    const QSignalBlocker block(slider_);
    slider_->setValue(valueOf(cursor_->timeNs()));
    live_->setChecked(cursor_->isLive());
    const std::int64_t start = cursor_->startNs();
    time_->showText(cursor_->headNs() == 0
                       ? QStringLiteral("no events yet")
                       : seconds(cursor_->timeNs() - start) + QStringLiteral(" / ") +
                             seconds(cursor_->headNs() - start));
    time_->setToolTip(QStringLiteral("Time cursor since the run's first event / the run's length"));
    slider_->setToolTip(slider_->toolTip().section(QLatin1Char('\n'), 0, 1) +
                        QStringLiteral("\nNow: ") + time_->text());
}

}  // namespace qs::ui
