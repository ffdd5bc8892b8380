#include "controllers/redrive_job.h"

#include <algorithm>

#include "client/queues_client.h"
#include "models/core_text.h"

namespace qs::ui {

namespace {

// Messages stored in `channel` now, as the server counts them.
std::optional<std::uint64_t> storedIn(client::QueuesClient& client, const std::string& channel) {
    auto info = client.queuesInfo(channel);
    if (!info.ok()) {
        return std::nullopt;
    }
    for (const client::QueueChannelInfo& q : info.value().queues) {
        if (q.name == channel) {
            return static_cast<std::uint64_t>(std::max<std::int64_t>(q.storedMessages, 0));
        }
    }
    return 0;  // an empty channel is not listed
}

}  // namespace

RedriveJob::RedriveJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<qs::ui::RedriveResult>();
}

RedriveJob::~RedriveJob() {
    cancel();
    if (thread_.joinable()) {
        thread_.join();
    }
}

QString RedriveJob::start(const client::ClientOptions& clientOptions,
                          runner::RedriveOptions options) {
    if (thread_.joinable()) {
        return QStringLiteral("this redrive has already started");
    }
    if (const std::string problem = runner::checkRedriveOptions(options); !problem.empty()) {
        return fromView(problem);
    }
    auto created = client::QueuesClient::create(clientOptions);
    if (!created.ok()) {
        return fromView(created.error().describe());
    }
    client_ = std::shared_ptr<client::QueuesClient>(std::move(created).value());
    options.cancel = &cancel_;
    thread_ = std::thread([this, options = std::move(options)]() mutable { work(std::move(options)); });
    return {};
}

void RedriveJob::cancel() {
    // Only the flag: cancelling the client could cut a send whose copy the
    // target already took, and the redrive would not know it made a duplicate.
    cancel_.store(true);
}

void RedriveJob::work(runner::RedriveOptions options) {
    options.progress = [this](const runner::RedriveProgress& p) {
        const qint64 left = p.waiting == 0 ? -1
                                           : static_cast<qint64>(p.waiting - std::min(p.waiting, p.moved));
        Q_EMIT progressed(p.moved, p.failed, left);
    };
    RedriveResult result;
    result.channel = fromView(options.from);
    result.report = runner::redrive(*client_, options);
    result.left = storedIn(*client_, options.from);
    Q_EMIT finished(result);
}

QString RedriveJob::describe(const RedriveResult& result) {
    const QString details = fromView(runner::describe(result.report));
    const qsizetype firstBreak = details.indexOf(QLatin1Char('\n'));
    const QString counts = firstBreak < 0 ? details : details.left(firstBreak);
    // The reasons (each "\n  ID: why", then "\nstopped: why") on the same line.
    QString reasons = firstBreak < 0 ? QString() : details.mid(firstBreak);
    reasons.replace(QStringLiteral("\n  "), QStringLiteral("; ")).replace(QLatin1Char('\n'), QStringLiteral("; "));
    const QString left = result.left ? QString::number(*result.left)
                                     : QStringLiteral("unknown (the server did not answer)");
    return QStringLiteral("Redrive of %1: %2, left %3%4").arg(result.channel, counts, left, reasons);
}

}  // namespace qs::ui
