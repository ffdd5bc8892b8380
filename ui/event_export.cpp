#include "event_export.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include "event_time.h"

namespace qs::ui {

namespace {

QString sv(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

QString csvField(const QString& s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
        s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r'))) {
        QString q = s;
        q.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    }
    return s;
}

QString isoTime(std::int64_t monoNs) {
    return QDateTime::fromMSecsSinceEpoch(monoToUnixMs(monoNs)).toUTC().toString(Qt::ISODateWithMs);
}

}  // namespace

bool exportEvents(const std::vector<const Event*>& events, ExportFormat format, QIODevice& out,
                  QString* error) {
    auto write = [&](const QString& line) {
        const QByteArray bytes = line.toUtf8();
        return out.write(bytes) == bytes.size();
    };
    bool ok = true;
    if (format == ExportFormat::Csv) {
        ok =
            write(QStringLiteral("time,time_ns,source,kind,actor,channel,message_id,sequence,"
                                 "receive_count,transaction,value,"
                                 "count2,detail\n"));
        for (const Event* e : events) {
            if (!ok) {
                break;
            }
            const QStringList fields = {isoTime(e->timeNs),
                                        QString::number(e->timeNs),
                                        sv(toString(e->source)),
                                        sv(toString(e->kind)),
                                        csvField(QString::fromStdString(e->actor)),
                                        csvField(QString::fromStdString(e->channel)),
                                        csvField(QString::fromStdString(e->messageId)),
                                        QString::number(e->sequence),
                                        QString::number(e->receiveCount),
                                        csvField(QString::fromStdString(e->transaction)),
                                        QString::number(e->value),
                                        QString::number(e->count2),
                                        csvField(QString::fromStdString(e->detail))};
            ok = write(fields.join(QLatin1Char(',')) + QLatin1Char('\n'));
        }
    } else {
        for (const Event* e : events) {
            if (!ok) {
                break;
            }
            QJsonObject o;
            o.insert(QStringLiteral("time"), isoTime(e->timeNs));
            o.insert(QStringLiteral("timeNs"), QString::number(e->timeNs));
            o.insert(QStringLiteral("source"), sv(toString(e->source)));
            o.insert(QStringLiteral("kind"), sv(toString(e->kind)));
            o.insert(QStringLiteral("actor"), QString::fromStdString(e->actor));
            o.insert(QStringLiteral("channel"), QString::fromStdString(e->channel));
            o.insert(QStringLiteral("messageId"), QString::fromStdString(e->messageId));
            o.insert(QStringLiteral("sequence"), static_cast<qint64>(e->sequence));
            o.insert(QStringLiteral("receiveCount"), e->receiveCount);
            o.insert(QStringLiteral("transaction"), QString::fromStdString(e->transaction));
            o.insert(QStringLiteral("value"), static_cast<qint64>(e->value));
            o.insert(QStringLiteral("count2"), static_cast<qint64>(e->count2));
            o.insert(QStringLiteral("detail"), QString::fromStdString(e->detail));
            const QByteArray line = QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
            ok = out.write(line) == line.size();
        }
    }
    if (!ok && error) {
        *error = out.errorString();
    }
    return ok;
}

bool exportEventsToFile(const std::vector<const Event*>& events, ExportFormat format,
                        const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) {
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        }
        return false;
    }
    if (!exportEvents(events, format, file, error)) {
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (error) {
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        }
        return false;
    }
    return true;
}

}  // namespace qs::ui
