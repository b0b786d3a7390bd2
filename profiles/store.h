// The profile store: one SQLite database (a file, or ":memory:" in tests) shared by every ingester.
//
// Schema is versioned per component ("spark", "hdfs", "ganglia", …): each component owns an
// ordered list of migrations, and the table schema_migrations records which have run. Opening a
// store applies the pending migrations of the components asked for, each in its own transaction,
// so a store is never left half-migrated. A store written by a newer perfplan (a component version
// above what this build knows) is refused rather than guessed at.
//
// Thread-safety: one Store per thread (SQLite connection semantics). sqlite3 types stay in
// store.cpp; callers use Statement.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

struct sqlite3;
struct sqlite3_context;
struct sqlite3_stmt;

namespace perfplan::profiles {

// One argument of an application-defined SQL function: its SQLite type and value (`bytes` views
// the text or blob, valid during the call only).
struct SqlArgument {
  enum class Type { kNull, kInteger, kReal, kText, kBlob };
  Type type = Type::kNull;
  std::int64_t integer = 0;  // kInteger (and kReal truncated)
  std::string_view bytes;    // kText, kBlob
};

// Where an application-defined SQL function puts its value.
class SqlResult {
 public:
  explicit SqlResult(sqlite3_context* context) : context_(context) {}  // made by the Store
  void Integer(std::int64_t value);
  void Blob(std::string_view value);  // copied
  void Null();

 private:
  sqlite3_context* context_;
};

// A deterministic SQL scalar function a component's migrations and queries use, registered on
// every connection that opens the component (Store::Open and OpenReadOnly), before migrating. A
// non-ok status from `call` fails the statement with its message. `call` runs on the
// connection's thread.
struct SqlFunction {
  std::string name;
  int arguments = 0;
  std::function<Status(const std::vector<SqlArgument>& args, SqlResult& result)> call;
};

// One component's migrations: migration i (0-based) brings the component to version i + 1.
struct Migrations {
  std::string component;             // e.g. "spark"
  std::vector<std::string> steps;    // SQL scripts, applied in order
  std::vector<SqlFunction> functions = {};  // what the scripts and the component's SQL call
};

class Statement;

class Store {
 public:
  // Opens (creating if needed) the database at `path` and applies pending migrations of
  // `components`. Fails with the SQLite message and the path when the file cannot be opened, is
  // not a database, or is newer than this build.
  static Result<std::unique_ptr<Store>> Open(const std::string& path,
                                             const std::vector<Migrations>& components);
  // Opens an existing store for reading only, for commands and servers that never write: no
  // file is created, no lock is taken, and (WAL mode) reading never waits for a writer. A store
  // the process may write whose schema is older than this build is upgraded first (once, through
  // Open). When SQLite cannot use the store's shared-memory WAL index there (a read-only file
  // system), the file is read as immutable (nobody can be writing it).
  // Fails NotFound "PATH: no such store" when nothing is at `path`, and Failed when `path` is a
  // directory, is not a store, is newer than this build, or lacks a component
  // or has an older one, it cannot upgrade ("PATH: the store has no spark data (schema at
  // version 0, this perfplan reads 2) and cannot be upgraded here (no write permission); …").
  static Result<std::unique_ptr<Store>> OpenReadOnly(const std::string& path,
                                                     const std::vector<Migrations>& components);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Runs SQL with no results (may be several statements).
  Status Exec(const std::string& sql);
  // Prepares one statement; fails with SQLite's message and the SQL.
  Result<Statement> Prepare(const std::string& sql);

  // BEGIN IMMEDIATE / COMMIT / ROLLBACK. Nesting is not supported. Writers in several processes
  // take turns one transaction at a time: Begin waits up to 30 s for another process's write
  // transaction, then fails "PATH: the store is busy: ...".
  Status Begin();
  Status Commit();
  Status Rollback();

  // An exclusive advisory lock on "<path>.lock" (flock), held until the returned object is
  // destroyed; the kernel releases it when the process dies, SIGKILL included. For ingesters that
  // read their position (checkpoints) once and then write many transactions: two of them on one
  // store run one after the other instead of both reading from the same position. Waits up to
  // 30 s for the holder, then fails "PATH: another perfplan WHAT is running on this store ...".
  // A ":memory:" store needs no lock (ok, holds nothing).
  class ExclusiveLock {
   public:
    ExclusiveLock() = default;
    ExclusiveLock(ExclusiveLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    ExclusiveLock& operator=(ExclusiveLock&& other) noexcept;
    ~ExclusiveLock();

   private:
    friend class Store;
    explicit ExclusiveLock(int fd) : fd_(fd) {}
    int fd_ = -1;
  };
  Result<ExclusiveLock> LockExclusively(const std::string& what);

  // Calls `observer` with the SQL of every statement prepared from now on (nullptr: stop). For
  // tests that check the query plans of a read path (see ExplainQueryPlan).
  void ObservePrepares(std::function<void(const std::string& sql)> observer) {
    observer_ = std::move(observer);
  }
  // One line of SQLite's EXPLAIN QUERY PLAN: `id` and `parent` give the tree, `detail` is e.g.
  // "SEARCH t USING PRIMARY KEY (attempt_key=?)" or "SCAN spark_tasks".
  struct PlanStep {
    int id = 0, parent = 0;
    std::string detail;
  };
  // The query plan of `sql` (parameters unbound); fails like Prepare.
  Result<std::vector<PlanStep>> ExplainQueryPlan(const std::string& sql);

  // Version of `component` recorded in the store (0 if never migrated).
  int SchemaVersion(const std::string& component);
  std::int64_t LastInsertRowId() const;
  int Changes() const;  // rows changed by the last statement
  const std::string& path() const { return path_; }

 private:
  Store(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  Status Migrate(const Migrations& m);
  Status RegisterFunctions(const std::vector<Migrations>& components);
  sqlite3* db_;
  std::string path_;
  std::function<void(const std::string&)> observer_;
};

// A prepared statement bound to a Store. Movable, not copyable; finalized on destruction.
class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  ~Statement();

  // Bind by 1-based index. Return *this for chaining.
  Statement& Bind(int index, std::int64_t value);
  Statement& Bind(int index, double value);
  Statement& Bind(int index, const std::string& value);
  // Binds text without copying it (large values written once): `value` must stay unchanged
  // until the statement has been stepped and is reset or bound again.
  Statement& BindUncopied(int index, std::string_view value);
  Statement& BindNull(int index);
  // Binds a blob without copying it (same lifetime rule as BindUncopied).
  Statement& BindBlobUncopied(int index, std::string_view value);
  Statement& Bind(int index, std::optional<double> value);
  // Absent optionals bind NULL.
  Statement& Bind(int index, const std::optional<std::int64_t>& value);
  Statement& Bind(int index, const std::optional<std::string>& value);

  // Steps once: true when a row is available, false when done. An SQLite error is returned as a
  // non-ok status by Error() (Step() then returns false).
  bool Step();
  Status Error() const { return error_; }
  // Steps to completion for statements without results.
  Status Run();
  void Reset();  // resets and clears bindings for reuse
  // Resets for reuse keeping the bindings: for a statement whose every parameter is bound again
  // before it runs (clearing them would be wasted work).
  void ResetKeepingBindings();

  std::int64_t ColumnInt(int index) const;
  double ColumnDouble(int index) const;
  std::string ColumnText(int index) const;
  // The same text without a copy: valid until the next Step, Reset or the statement's end.
  std::string_view ColumnView(int index) const;
  bool ColumnIsNull(int index) const;
  // A blob column's bytes without a copy (valid as ColumnView); empty for NULL.
  std::string_view ColumnBlob(int index) const;

 private:
  friend class Store;
  Statement(sqlite3_stmt* stmt, std::string sql) : stmt_(stmt), sql_(std::move(sql)) {}
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
  Status error_;
};

}  // namespace perfplan::profiles
