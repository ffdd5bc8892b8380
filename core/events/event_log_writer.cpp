#include "events/event_log_writer.h"

#include <nlohmann/json.hpp>
#include <ostream>

#include "events/event_fields.h"

namespace qs {
namespace {

// The kind's named fields, e.g. "received": 3, "waited_ms": 120.
void addNamedFields(nlohmann::json& j, const Event& e) {
    const EventFieldNames names = eventFieldNames(e.kind);
    if (!names.value.empty()) {
        j[std::string(names.value)] = e.value;
    }
    if (!names.count2.empty()) {
        j[std::string(names.count2)] = e.count2;
    }
    if (!names.detail.empty()) {
        j[std::string(names.detail)] = e.detail;
    }
}

nlohmann::json toJson(const Event& e, std::int64_t originNs) {
    nlohmann::json j;
    j["time_ns"] = e.timeNs - originNs;
    j["kind"] = toString(e.kind);
    j["source"] = toString(e.source);
    j["actor"] = e.actor;
    j["channel"] = e.channel;
    j["message_id"] = e.messageId;
    j["sequence"] = e.sequence;
    j["receive_count"] = e.receiveCount;
    j["transaction"] = e.transaction;
    addNamedFields(j, e);
    return j;
}

// The CSV cells of the named columns: the kind's fields where it has them.
void writeNamedCells(std::ostream& out, const Event& e) {
    const EventFieldNames names = eventFieldNames(e.kind);
    for (const std::string_view column : allEventFieldNames()) {
        out << ',';
        if (column == names.value) {
            out << e.value;
        } else if (column == names.count2) {
            out << e.count2;
        } else if (column == names.detail) {
            out << csvField(e.detail);
        }
    }
}

}  // namespace

std::vector<std::string_view> eventLogCsvColumns() {
    std::vector<std::string_view> columns(kEventLogCommonColumns.begin(),
                                          kEventLogCommonColumns.end());
    const auto named = allEventFieldNames();
    columns.insert(columns.end(), named.begin(), named.end());
    return columns;
}

std::string csvField(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 2);
    out.push_back('"');
    for (const char c : text) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
    return out;
}

EventLogWriter::EventLogWriter(std::ostream& out, EventLogFormat format, std::int64_t originNs)
    : out_(out), format_(format), originNs_(originNs) {
    if (format_ == EventLogFormat::Csv) {
        const auto columns = eventLogCsvColumns();
        for (std::size_t i = 0; i < columns.size(); ++i) {
            if (i > 0)
                out_ << ',';
            out_ << columns[i];
        }
        out_ << '\n';
        checkStream();
    }
}

bool EventLogWriter::checkStream() {
    if (error_.empty() && !out_)
        error_ = "event log: writing to the output stream failed";
    return error_.empty();
}

bool EventLogWriter::write(const Event& e) {
    if (!ok())
        return false;
    if (format_ == EventLogFormat::Csv) {
        out_ << (e.timeNs - originNs_) << ',' << toString(e.kind) << ',' << toString(e.source)
             << ',' << csvField(e.actor) << ',' << csvField(e.channel) << ','
             << csvField(e.messageId) << ',' << e.sequence << ',' << e.receiveCount << ','
             << csvField(e.transaction);
        writeNamedCells(out_, e);
        out_ << '\n';
    } else {
        const nlohmann::json j = toJson(e, originNs_);
        std::string line;
        try {
            line = j.dump();
        } catch (const nlohmann::json::type_error&) {  // invalid UTF-8 in a string field
            line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            ++invalidUtf8_;
        }
        out_ << line << '\n';
    }
    if (!checkStream())
        return false;
    ++written_;
    return true;
}

bool EventLogWriter::write(std::span<const Event> events) {
    for (const Event& e : events) {
        if (!write(e))
            return false;
    }
    return ok();
}

EventLogResult writeEventLog(std::ostream& out, EventLogFormat format,
                             std::span<const Event> events, std::int64_t originNs) {
    EventLogWriter writer(out, format, originNs);
    writer.write(events);
    out.flush();
    EventLogResult r;
    r.written = writer.written();
    r.invalidUtf8Events = writer.invalidUtf8Events();
    r.error = writer.error();
    if (r.error.empty() && !out)
        r.error = "event log: flushing the output stream failed";
    r.ok = r.error.empty();
    return r;
}

EventLogResult writeEventsCsv(std::ostream& out, std::span<const Event> events,
                              std::int64_t originNs) {
    return writeEventLog(out, EventLogFormat::Csv, events, originNs);
}

EventLogResult writeEventsJsonLines(std::ostream& out, std::span<const Event> events,
                                    std::int64_t originNs) {
    return writeEventLog(out, EventLogFormat::JsonLines, events, originNs);
}

}  // namespace qs
