#include "recording/sqlite_handle.h"

#include <sqlite3.h>

namespace qs::recording {

Database::~Database() {
    close();
}

bool Database::open(const std::string& path, int flags, std::string* error) {
    close();
    const int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        *error = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        close();
        return false;
    }
    sqlite3_extended_result_codes(db_, 1);
    return true;
}

void Database::close() {
    if (db_ != nullptr) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
    }
}

bool Database::exec(std::string_view sql, std::string* error) {
    const std::string text(sql);
    char* message = nullptr;
    if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        *error = message != nullptr ? message : lastError();
        sqlite3_free(message);
        return false;
    }
    return true;
}

std::string Database::lastError() const {
    return db_ != nullptr ? sqlite3_errmsg(db_) : "no database";
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

bool Statement::prepare(Database& db, std::string_view sql, std::string* error) {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    if (sqlite3_prepare_v3(db.get(), sql.data(), static_cast<int>(sql.size()),
                           SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK) {
        *error = db.lastError();
        return false;
    }
    return true;
}

void Statement::bindInt(int index, std::int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
}

void Statement::bindDouble(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
}

void Statement::bindText(int index, std::string_view text) {
    // SQLITE_STATIC: the caller keeps the text alive until step(); every byte
    // (NULs and invalid UTF-8 included) is stored as given.
    // An empty view may have no data pointer, which SQLite would bind as NULL.
    const char* bytes = text.data() != nullptr ? text.data() : "";
    sqlite3_bind_text(stmt_, index, bytes, static_cast<int>(text.size()), SQLITE_STATIC);
}

void Statement::bindBlob(int index, std::string_view bytes) {
    // An empty blob binds as a zero-length blob, not NULL.
    sqlite3_bind_blob(stmt_, index, bytes.data() != nullptr ? bytes.data() : "",
                      static_cast<int>(bytes.size()), SQLITE_STATIC);
}

void Statement::bindNull(int index) {
    sqlite3_bind_null(stmt_, index);
}

int Statement::step() {
    return sqlite3_step(stmt_);
}

void Statement::reset() {
    // Bindings are kept: every caller binds every parameter before a step.
    sqlite3_reset(stmt_);
}

std::int64_t Statement::columnInt(int index) const {
    return sqlite3_column_int64(stmt_, index);
}

double Statement::columnDouble(int index) const {
    return sqlite3_column_double(stmt_, index);
}

std::string_view Statement::columnText(int index) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, index));
    const int bytes = sqlite3_column_bytes(stmt_, index);
    return text != nullptr ? std::string_view(text, static_cast<std::size_t>(bytes))
                           : std::string_view();
}

std::string_view Statement::columnBlob(int index) const {
    const void* bytes = sqlite3_column_blob(stmt_, index);
    const int size = sqlite3_column_bytes(stmt_, index);
    return bytes != nullptr
               ? std::string_view(static_cast<const char*>(bytes), static_cast<std::size_t>(size))
               : std::string_view();
}

bool Statement::columnIsNull(int index) const {
    return sqlite3_column_type(stmt_, index) == SQLITE_NULL;
}

int Statement::columnType(int index) const {
    return sqlite3_column_type(stmt_, index);
}

}  // namespace qs::recording
