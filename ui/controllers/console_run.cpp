#include "controllers/console_run.h"

#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>
#include <QThread>
#include <algorithm>
#include <limits>

namespace qs::ui {

namespace {

// Posted after everything else (the lowest priority): when it comes through
// and nothing after it, the UI thread has nothing left to do.
const QEvent::Type kSentinel = static_cast<QEvent::Type>(QEvent::registerEventType());
constexpr int kAfterEverything = std::numeric_limits<int>::min();

}  // namespace

ConsoleRun::ConsoleRun(QObject* parent) : ConsoleRun(defaultSpillFolder(), parent) {}

ConsoleRun::ConsoleRun(const QString& spillFolder, QObject* parent)
    : QObject(parent), spillFolder_(spillFolder) {
    if (QCoreApplication* app = QCoreApplication::instance()) {
        // Sees every event of the UI thread's objects first: the run is back before any reads it.
        app->installEventFilter(this);
    }
    if (QAbstractEventDispatcher* loop = thread()->eventDispatcher()) {
        connect(loop, &QAbstractEventDispatcher::aboutToBlock, this,
                &ConsoleRun::loopAboutToBlock, Qt::DirectConnection);
    }
    reset();
}

ConsoleRun::~ConsoleRun() {
    takeBack();
}

LedgerOptions ConsoleRun::defaultLedgerOptions() {
    return LedgerOptions{};
}

QString ConsoleRun::defaultSpillFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
}

void ConsoleRun::append(const std::vector<Event>& batch) {
    takeBack();
    appendWaiting();
    appendHere(batch);
    announce();
}

void ConsoleRun::appendHere(const std::vector<Event>& events) {
    run::appendNoting(*run_, events, notes_);
    if (follower_) {
        follower_(*run_);
    }
}

void ConsoleRun::setFollower(std::function<void(const Run&)> follower) {
    takeBack();
    follower_ = std::move(follower);
}

void ConsoleRun::appendLive(const std::vector<Event>& batch) {
    tellViews();
    waiting_.insert(waiting_.end(), batch.begin(), batch.end());
    waitingFromThisFrame_ = true;
    postSentinel();
}

void ConsoleRun::tellViews() {
    takeBack();
    if (!waitingFromThisFrame_) {
        appendWaiting();  // not handed over in a whole frame (a nested event loop)
    }
    waitingFromThisFrame_ = false;
    if (run_->eventCount() != toldEvents_) {
        announce();
    }
}

void ConsoleRun::appendWaiting() {
    if (!waiting_.empty()) {
        appendHere(waiting_);
        waiting_.clear();
    }
}

void ConsoleRun::takeBack() const {
    if (ingest_.busy()) {
        ingest_.wait(notes_);
    }
}

// Only from the top event loop (or none): a handler that opened a nested
// loop (a dialog) may hold the run across it, and read it after.
void ConsoleRun::sleepsNow() {
    if (waiting_.empty() || ingest_.busy() || thread()->loopLevel() > 1) {
        return;
    }
    std::function<void()> then;
    if (follower_) {
        then = [follower = follower_, &run = *run_] { follower(run); };
    }
    ingest_.start(*run_, std::move(waiting_), std::move(then));
    waiting_.clear();
    ++handedOver_;
}

void ConsoleRun::postSentinel() {
    if (!sentinelPosted_) {
        sentinelPosted_ = true;
        QCoreApplication::postEvent(this, new QEvent(kSentinel), kAfterEverything);
    }
}

// The loop says so before each wait, also when something is ready and it
// will not wait: only a sentinel with no event after it means nothing is.
void ConsoleRun::loopAboutToBlock() {
    if (!sentinelSeen_) {
        return;
    }
    sentinelSeen_ = false;
    if (eventsSeen_ == sentinelSeenAt_) {
        sleepsNow();
    } else if (!waiting_.empty()) {
        postSentinel();  // more came after it: after those, try again
    }
}

void ConsoleRun::announce() {
    touched_.clear();
    run_->takeTouchedMessages(touched_);
    returnedBy_ = std::move(notes_.returnedBy);
    lastCoreAppendNs_ = notes_.coreNs;
    notes_ = run::AppendNotes{};
    toldEvents_ = run_->eventCount();
    checkSpill();
    Q_EMIT appended();
}

bool ConsoleRun::event(QEvent* event) {
    if (event->type() == kSentinel) {
        sentinelPosted_ = false;
        sentinelSeen_ = true;
        sentinelSeenAt_ = eventsSeen_;
        return true;
    }
    return QObject::event(event);
}

bool ConsoleRun::eventFilter(QObject* watched, QEvent* event) {
    ++eventsSeen_;
    takeBack();
    return QObject::eventFilter(watched, event);
}

// A spill that could not start, or a write that failed, costs the run memory,
// not events: it is told once, in plain words.
void ConsoleRun::checkSpill() {
    if (spillChecked_ || spillFolder_.isEmpty()) {
        return;
    }
    const std::string why = run_->spillProblem();
    if (!why.empty()) {
        spillChecked_ = true;
        Q_EMIT spillProblemFound(QString::fromStdString(why));
    }
}

std::vector<std::uint32_t> ConsoleRun::messagesReturnedBy(std::uint64_t event) const {
    for (const auto& [index, messages] : returnedBy_) {
        if (index == event) {
            return messages;
        }
    }
    return {};
}

void ConsoleRun::reset(const LedgerOptions& options) {
    takeBack();
    waiting_.clear();
    notes_ = run::AppendNotes{};
    toldEvents_ = 0;
    returnedBy_.clear();
    RunModelOptions runOptions;
    runOptions.ledger = options;
    if (!spillFolder_.isEmpty()) {
        QDir().mkpath(spillFolder_);  // if it cannot be made, the Run says why
        runOptions.spill.directory = QDir::toNativeSeparators(spillFolder_).toStdString();
    }
    run_ = std::make_unique<Run>(runOptions);
    spillChecked_ = false;
    touched_.clear();
    Q_EMIT wasReset();
}

}  // namespace qs::ui
