#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

// Minimal owners of an SQLite connection and a prepared statement, for the
// recording's writer and reader (internal to core/recording). Not thread-safe:
// each is used by one thread at a time.
namespace qs::recording {

class Database {
public:
    Database() = default;
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // flags: SQLITE_OPEN_*; the connection is opened without SQLite's own
    // mutexes (SQLITE_OPEN_NOMUTEX): one thread at a time uses it.
    // False with *error ("why") on failure.
    bool open(const std::string& path, int flags, std::string* error);
    void close();
    sqlite3* get() const { return db_; }

    // Runs one or more statements with no results.
    bool exec(std::string_view sql, std::string* error);
    std::string lastError() const;

private:
    sqlite3* db_ = nullptr;
};

class Statement {
public:
    Statement() = default;
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool prepare(Database& db, std::string_view sql, std::string* error);
    sqlite3_stmt* get() const { return stmt_; }

    void bindInt(int index, std::int64_t value);
    void bindDouble(int index, double value);
    void bindText(int index, std::string_view text);  // not copied: must outlive step()
    void bindNull(int index);
    void bindBlob(int index, std::string_view bytes);  // not copied: must outlive step()
    // Steps once: SQLITE_ROW, SQLITE_DONE or an error code.
    int step();
    void reset();  // keeps the bindings

    std::int64_t columnInt(int index) const;
    double columnDouble(int index) const;
    std::string_view columnText(int index) const;  // valid until the next step()/reset()
    std::string_view columnBlob(int index) const;  // valid until the next step()/reset()
    bool columnIsNull(int index) const;
    int columnType(int index) const;

private:
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace qs::recording
