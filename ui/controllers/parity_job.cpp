#include "controllers/parity_job.h"

#include <QFileInfo>
#include <QMetaObject>
#include <exception>
#include <filesystem>

#include "analysis/run_comparison.h"
#include "controllers/connection_settings.h"
#include "controllers/scenario_library.h"
#include "models/core_text.h"

namespace qs::ui {

namespace {

QString plural(std::size_t n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

ComparisonResult comparisonOf(const analysis::ParityResult& r) {
    ComparisonResult c;
    c.a = fromView(r.embedded.recording);
    c.b = fromView(r.server.recording);
    c.comparison = *r.comparison;
    c.differs = c.comparison.differs();
    // What "Copy as text" copies: the tables `queuescope parity` prints.
    c.text = fromView(analysis::formatComparison(c.comparison, "embedded broker " + r.embedded.address,
                                                 "server " + r.server.address));
    return c;
}

}  // namespace

ParityJob::ParityJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<qs::ui::ParityReport>();
}

ParityJob::~ParityJob() {
    stop();
    if (thread_.joinable()) {
        thread_.join();
    }
}

QString ParityJob::start(const QString& scenario, const QString& address,
                         const QString& authToken) {
    if (thread_.joinable()) {
        return QStringLiteral("this parity check has already started");
    }
    if (const QString problem = addressProblem(address); !problem.isEmpty()) {
        return problem;
    }
    analysis::ParityOptions options;
    QString error;
    if (!loadScenario(scenario, &options.scenario, &error)) {
        return error;
    }
    options.recordingStem = QFileInfo(scenario).completeBaseName().toStdString();
    options.address = address.trimmed().toStdString();
    options.authToken = authToken.toStdString();
    options.cancelFlag = &stop_;
    running_ = true;
    thread_ = std::thread([this, scenario, options = std::move(options)]() mutable {
        int side = 0;
        options.log = [this, &side](const std::string& line) {
            if (line.rfind("parity: running on the ", 0) == 0) {
                ++side;  // checkParity says so before each run
            }
            Q_EMIT progressed(side, fromView(line));
        };
        analysis::ParityResult result;
        try {
            result = analysis::checkParity(options);
        } catch (const std::exception& e) {
            result.outcome = analysis::ParityOutcome::RunFailed;
            result.problem = std::string("the check failed: ") + e.what();
        }
        const ParityReport report = reportOf(scenario, result);
        QMetaObject::invokeMethod(
            this,
            [this, report] {
                running_ = false;
                Q_EMIT finished(report);
            },
            Qt::QueuedConnection);
    });
    return {};
}

ParityReport reportOf(const QString& scenario, const analysis::ParityResult& result) {
    ParityReport report;
    report.scenario = scenario;
    report.server = fromView(result.server.address);
    report.embedded = fromView(result.embedded.address);
    report.outcome = result.outcome;
    report.seed = result.seed;
    report.exitCode = result.exitCode();
    report.stopped = result.stopped;
    report.problem = fromView(result.problem);
    report.recordDir = fromView(result.recordDir);
    for (const std::string* file : {&result.embedded.recording, &result.server.recording}) {
        std::error_code ec;
        if (!file->empty() && std::filesystem::exists(*file, ec)) {
            report.recordings << fromView(*file);
        }
    }
    if (result.comparison) {
        report.comparison = comparisonOf(result);
    }
    return report;
}

QString ParityJob::verdict(const ParityReport& report) {
    const QString exit = QStringLiteral(" (queuescope parity: exit %1)").arg(report.exitCode);
    if (report.stopped) {  // the core's sentence begins "stopped on request"
        return report.problem.left(1).toUpper() + report.problem.mid(1) + exit;
    }
    if (!report.comparison) {
        return QStringLiteral("Could not run: ") + report.problem + exit;
    }
    const analysis::RunComparison& c = report.comparison->comparison;
    const std::size_t real = c.count(analysis::Verdict::Differs);
    const std::size_t allowed = c.count(analysis::Verdict::Allowed);
    if (real > 0) {
        return QStringLiteral(
                   "Real differences: the server and the embedded broker disagree where the "
                   "work-queue semantics do not allow it (%1, and %2)")
                   .arg(plural(real, "real difference", "real differences"),
                        plural(allowed, "allowed", "allowed")) +
               exit;
    }
    if (allowed > 0) {
        return QStringLiteral(
                   "Only allowed differences: the server did the same work as the embedded "
                   "broker; %1 the work-queue semantics allow")
                   .arg(plural(allowed, "difference", "differences")) +
               exit;
    }
    return QStringLiteral("The same: the server did the same work as the embedded broker") + exit;
}

}  // namespace qs::ui
