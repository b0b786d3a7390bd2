#include "profiles/store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <tuple>
#include <thread>

namespace perfplan::profiles {
namespace {

// How long a writer waits for another process's write transaction before Begin fails.
constexpr int kBusyTimeoutMilliseconds = 30000;

constexpr const char* kMigrationsTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " component TEXT PRIMARY KEY, version INTEGER NOT NULL)";

// SQLite's memory statistics (sqlite3_memory_used, the soft heap limit), which perfplan does not
// use, take a global mutex around every allocation: about 1% of `ingest spark`. Off before the
// first connection (sqlite3_config refuses once the library is initialised; then they stay on).
void DisableMemoryStatistics() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// sqlite3_create_function's entry point for a SqlFunction (its user data).
void CallSqlFunction(sqlite3_context* context, int argc, sqlite3_value** argv) {
  const auto* f = static_cast<const SqlFunction*>(sqlite3_user_data(context));
  // One vector per thread, reused: the functions do not run SQL, so calls never nest.
  thread_local std::vector<SqlArgument> args;
  args.resize(static_cast<std::size_t>(argc));
  for (int i = 0; i < argc; ++i) {
    SqlArgument& a = args[static_cast<std::size_t>(i)];
    a = SqlArgument{};
    switch (sqlite3_value_type(argv[i])) {
      case SQLITE_INTEGER:
        a.type = SqlArgument::Type::kInteger;
        a.integer = sqlite3_value_int64(argv[i]);
        break;
      case SQLITE_FLOAT:
        a.type = SqlArgument::Type::kReal;
        a.integer = sqlite3_value_int64(argv[i]);
        break;
      case SQLITE_TEXT: {
        a.type = SqlArgument::Type::kText;
        const unsigned char* t = sqlite3_value_text(argv[i]);
        a.bytes = std::string_view(reinterpret_cast<const char*>(t),
                                   static_cast<std::size_t>(sqlite3_value_bytes(argv[i])));
        break;
      }
      case SQLITE_BLOB: {
        a.type = SqlArgument::Type::kBlob;
        const void* b = sqlite3_value_blob(argv[i]);
        a.bytes = std::string_view(static_cast<const char*>(b),
                                   static_cast<std::size_t>(sqlite3_value_bytes(argv[i])));
        break;
      }
      default:
        break;
    }
  }
  SqlResult result(context);
  if (Status s = f->call(args, result); !s.ok()) {
    sqlite3_result_error(context, s.message().c_str(), static_cast<int>(s.message().size()));
  }
}

}  // namespace

void SqlResult::Integer(std::int64_t value) { sqlite3_result_int64(context_, value); }
void SqlResult::Blob(std::string_view value) {
  sqlite3_result_blob(context_, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}
void SqlResult::Null() { sqlite3_result_null(context_); }

Status Store::RegisterFunctions(const std::vector<Migrations>& components) {
  for (const Migrations& m : components) {
    for (const SqlFunction& f : m.functions) {
      // The connection owns a copy, deleted when it closes.
      auto* copy = new SqlFunction(f);
      const int rc = sqlite3_create_function_v2(
          db_, copy->name.c_str(), copy->arguments,
          SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, copy, CallSqlFunction, nullptr,
          nullptr, [](void* p) { delete static_cast<SqlFunction*>(p); });
      if (rc != SQLITE_OK) {
        return Status::Failed(path_ + ": cannot register the SQL function " + f.name + ": " +
                              sqlite3_errmsg(db_));
      }
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<Store>> Store::Open(const std::string& path,
                                           const std::vector<Migrations>& components) {
  DisableMemoryStatistics();
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Status::Failed(path + ": cannot open the store: " + message);
  }
  std::unique_ptr<Store> store(new Store(db, path));
  sqlite3_busy_timeout(db, kBusyTimeoutMilliseconds);
  // WAL keeps readers going while an ingester writes; synchronous=NORMAL is durable in WAL mode
  // against process crashes (the failure the ingesters are tested for).
  // Pages of 16 KiB for a new store (an existing one keeps its own): every page goes through the
  // WAL and is copied again by the checkpoint with a few system calls a page, so larger pages
  // cut `ingest hdfs`'s CPU time by ~20% (its chunks fill whole overflow pages) and Spark's by
  // ~10% (its wide task rows and WITHOUT ROWID B-trees are rebalanced a third as often;
  // docs/performance.md, "session 12").
  if (path != ":memory:") store->Exec("PRAGMA page_size=16384");
  if (path != ":memory:") store->Exec("PRAGMA journal_mode=WAL");
  if (Status s = store->Exec("PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL"); !s.ok()) {
    return Status::Failed(path + ": " + s.message());
  }
  if (Status s = store->Exec(kMigrationsTable); !s.ok()) {
    return Status::Failed(path + ": not a perfplan store: " + s.message());
  }
  if (Status s = store->RegisterFunctions(components); !s.ok()) return s;
  for (const Migrations& m : components) {
    if (Status s = store->Migrate(m); !s.ok()) return s;
  }
  return store;
}

namespace {

// "file:" URI of a path for sqlite3_open_v2 with SQLITE_OPEN_URI ('%', '?' and '#' escaped).
std::string FileUri(const std::string& path, const std::string& query) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char hex[4];
      std::snprintf(hex, sizeof(hex), "%%%02X", static_cast<unsigned char>(c));
      uri += hex;
    } else {
      uri += c;
    }
  }
  return uri + "?" + query;
}

// The versions recorded in schema_migrations; empty optional when the table cannot be read.
std::optional<std::vector<std::pair<std::string, int>>> RecordedVersions(sqlite3* db) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT component, version FROM schema_migrations", -1, &stmt,
                         nullptr) != SQLITE_OK) {
    return std::nullopt;
  }
  std::vector<std::pair<std::string, int>> out;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const unsigned char* name = sqlite3_column_text(stmt, 0);
    out.emplace_back(name ? reinterpret_cast<const char*>(name) : "", sqlite3_column_int(stmt, 1));
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) return std::nullopt;
  return out;
}

int VersionOf(const std::vector<std::pair<std::string, int>>& versions, const std::string& name) {
  for (const auto& [component, version] : versions) {
    if (component == name) return version;
  }
  return 0;
}

}  // namespace

Result<std::unique_ptr<Store>> Store::OpenReadOnly(const std::string& path,
                                                   const std::vector<Migrations>& components) {
  DisableMemoryStatistics();
  if (path == ":memory:") return Open(path, components);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Status::NotFound(path + ": no such store");
    return Status::Failed(path + ": cannot open the store: " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return Status::Failed(path + ": is a directory, not a store");
  // First a plain read-only connection (a WAL reader); if the file system refuses the shared
  // memory file it needs, the store cannot change under us either: open it immutable.
  auto connect = [&](bool immutable) -> std::pair<sqlite3*, std::string> {
    sqlite3* db = nullptr;
    const std::string name = immutable ? FileUri(path, "immutable=1") : path;
    const int flags =
        SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0);
    const int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
    if (rc != SQLITE_OK) {
      std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
      sqlite3_close(db);
      return {nullptr, message};
    }
    sqlite3_busy_timeout(db, kBusyTimeoutMilliseconds);
    return {db, ""};
  };
  bool upgraded = false;
  for (;;) {
    auto [db, error] = connect(false);
    std::optional<std::vector<std::pair<std::string, int>>> versions;
    if (db) versions = RecordedVersions(db);
    if (db && !versions) {
      std::string message = sqlite3_errmsg(db);
      const int code = sqlite3_extended_errcode(db) & 0xff;
      sqlite3_close(db);
      db = nullptr;
      if (code == SQLITE_CANTOPEN || code == SQLITE_READONLY || code == SQLITE_IOERR) {
        std::tie(db, error) = connect(true);
        if (db) versions = RecordedVersions(db);
        if (db && !versions) {
          error = sqlite3_errmsg(db);
          sqlite3_close(db);
          db = nullptr;
        }
      } else {
        error = message;
      }
    }
    if (!db) return Status::Failed(path + ": not a perfplan store: " + error);
    std::unique_ptr<Store> store(new Store(db, path));
    bool behind = false;
    for (const Migrations& m : components) {
      const int have = VersionOf(*versions, m.component);
      const int known = static_cast<int>(m.steps.size());
      if (have > known) {
        return Status::Failed(path + ": the " + m.component + " schema is at version " +
                              std::to_string(have) + ", newer than this perfplan knows (" +
                              std::to_string(known) + "); use a newer perfplan");
      }
      if (have < known) behind = true;
    }
    if (!behind) {
      if (Status s = store->Exec("PRAGMA foreign_keys=ON"); !s.ok()) {
        return Status::Failed(path + ": " + s.message());
      }
      if (Status s = store->RegisterFunctions(components); !s.ok()) return s;
      return store;
    }
    // An older schema: upgrade it once when this process may write the file, else say why not.
    if (!upgraded && ::access(path.c_str(), W_OK) == 0) {
      store.reset();
      auto writable = Open(path, components);
      if (!writable.ok()) return writable.status();
      upgraded = true;
      continue;
    }
    for (const Migrations& m : components) {
      const int have = VersionOf(*versions, m.component);
      const int known = static_cast<int>(m.steps.size());
      if (have == known) continue;
      return Status::Failed(
          path + ": the store " +
          (have == 0 ? "has no " + m.component + " data (schema at version "
                     : "has an older " + m.component + " schema (at version ") +
          std::to_string(have) + ", this perfplan reads " +
          std::to_string(known) +
          ") and cannot be upgraded here (no write permission); upgrade it with any perfplan "
          "command that writes the store, e.g. `perfplan ingest`, where it is writable");
    }
  }
}

Store::~Store() { sqlite3_close_v2(db_); }

Status Store::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string message = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    return Status::Failed("SQLite: " + message);
  }
  return Status::Ok();
}

Result<Statement> Store::Prepare(const std::string& sql) {
  if (observer_) observer_(sql);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return Status::Failed("SQLite: " + std::string(sqlite3_errmsg(db_)) + " in: " + sql);
  }
  return Statement(stmt, sql);
}

Result<std::vector<Store::PlanStep>> Store::ExplainQueryPlan(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  const std::string explain = "EXPLAIN QUERY PLAN " + sql;
  if (sqlite3_prepare_v2(db_, explain.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return Status::Failed("SQLite: " + std::string(sqlite3_errmsg(db_)) + " in: " + sql);
  }
  Statement st(stmt, explain);
  std::vector<PlanStep> out;
  while (st.Step()) {
    out.push_back({static_cast<int>(st.ColumnInt(0)), static_cast<int>(st.ColumnInt(1)),
                   st.ColumnText(3)});
  }
  if (!st.Error().ok()) return st.Error();
  return out;
}

Status Store::Begin() {
  Status s = Exec("BEGIN IMMEDIATE");
  if (s.ok() || (sqlite3_errcode(db_) & 0xff) != SQLITE_BUSY) return s;
  return Status::Failed(path_ +
                        ": the store is busy: another process has held its write lock for " +
                        std::to_string(kBusyTimeoutMilliseconds / 1000) +
                        " s (writers take turns one transaction at a time); try again when it is "
                        "done");
}
Status Store::Commit() { return Exec("COMMIT"); }
Status Store::Rollback() { return Exec("ROLLBACK"); }

Store::ExclusiveLock& Store::ExclusiveLock::operator=(ExclusiveLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

Store::ExclusiveLock::~ExclusiveLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

Result<Store::ExclusiveLock> Store::LockExclusively(const std::string& what) {
  if (path_ == ":memory:") return ExclusiveLock();
  const std::string lock_path = path_ + ".lock";
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::Failed(lock_path +
                          ": cannot open the store's lock file: " + std::strerror(errno));
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMilliseconds);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      return Status::Failed(lock_path + ": cannot lock: " + reason);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::close(fd);
      return Status::Failed(path_ + ": another perfplan " + what +
                            " is running on this store (it holds " + lock_path +
                            ") and did not "
                            "finish within " +
                            std::to_string(kBusyTimeoutMilliseconds / 1000) +
                            " s; try again when it is done");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return ExclusiveLock(fd);
}

int Store::SchemaVersion(const std::string& component) {
  Result<Statement> st = Prepare("SELECT version FROM schema_migrations WHERE component = ?");
  if (!st.ok()) return 0;
  st.value().Bind(1, component);
  return st.value().Step() ? static_cast<int>(st.value().ColumnInt(0)) : 0;
}

std::int64_t Store::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }
int Store::Changes() const { return sqlite3_changes(db_); }

Status Store::Migrate(const Migrations& m) {
  const int known = static_cast<int>(m.steps.size());
  // Each step reads the version inside its own write transaction, so two processes opening a new
  // store at once serialize: the second sees the first's steps done instead of repeating them.
  for (;;) {
    if (Status s = Begin(); !s.ok()) return s;
    const int have = SchemaVersion(m.component);
    if (have > known) {
      Rollback();
      return Status::Failed(path_ + ": the " + m.component + " schema is at version " +
                            std::to_string(have) + ", newer than this perfplan knows (" +
                            std::to_string(known) + "); use a newer perfplan");
    }
    if (have == known) return Commit();
    Status s = Exec(m.steps[have]);
    if (s.ok()) {
      Result<Statement> st = Prepare(
          "INSERT INTO schema_migrations(component, version) VALUES(?, ?) "
          "ON CONFLICT(component) DO UPDATE SET version = excluded.version");
      s = st.ok() ? st.value().Bind(1, m.component).Bind(2, std::int64_t{have + 1}).Run()
                  : st.status();
    }
    if (!s.ok()) {
      Rollback();
      return Status::Failed(path_ + ": migrating " + m.component + " to version " +
                            std::to_string(have + 1) + " failed: " + s.message());
    }
    if (Status c = Commit(); !c.ok()) return c;
  }
}

Statement::Statement(Statement&& o) noexcept
    : stmt_(o.stmt_), sql_(std::move(o.sql_)), error_(std::move(o.error_)) {
  o.stmt_ = nullptr;
}
Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    sqlite3_finalize(stmt_);
    stmt_ = o.stmt_;
    sql_ = std::move(o.sql_);
    error_ = std::move(o.error_);
    o.stmt_ = nullptr;
  }
  return *this;
}
Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::Bind(int i, std::int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Statement& Statement::Bind(int i, double v) {
  sqlite3_bind_double(stmt_, i, v);
  return *this;
}
Statement& Statement::Bind(int i, const std::string& v) {
  sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::BindUncopied(int i, std::string_view v) {
  sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
  return *this;
}
Statement& Statement::BindBlobUncopied(int i, std::string_view v) {
  sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
  return *this;
}
Statement& Statement::BindNull(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}
Statement& Statement::Bind(int i, std::optional<double> v) { return v ? Bind(i, *v) : BindNull(i); }
Statement& Statement::Bind(int i, const std::optional<std::int64_t>& v) {
  return v ? Bind(i, *v) : BindNull(i);
}
Statement& Statement::Bind(int i, const std::optional<std::string>& v) {
  return v ? Bind(i, *v) : BindNull(i);
}

bool Statement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) {
    error_ = Status::Failed("SQLite: " + std::string(sqlite3_errmsg(sqlite3_db_handle(stmt_))) +
                            " in: " + sql_);
  }
  return false;
}

Status Statement::Run() {
  while (Step()) {
  }
  Status s = error_;
  sqlite3_reset(stmt_);
  return s;
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  error_ = Status::Ok();
}

void Statement::ResetKeepingBindings() {
  sqlite3_reset(stmt_);
  error_ = Status::Ok();
}

std::int64_t Statement::ColumnInt(int i) const { return sqlite3_column_int64(stmt_, i); }
double Statement::ColumnDouble(int i) const { return sqlite3_column_double(stmt_, i); }
std::string Statement::ColumnText(int i) const { return std::string(ColumnView(i)); }
std::string_view Statement::ColumnView(int i) const {
  const unsigned char* t = sqlite3_column_text(stmt_, i);
  return t ? std::string_view(reinterpret_cast<const char*>(t),
                              static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)))
           : std::string_view();
}
std::string_view Statement::ColumnBlob(int i) const {
  const void* b = sqlite3_column_blob(stmt_, i);
  return b ? std::string_view(static_cast<const char*>(b),
                              static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)))
           : std::string_view();
}
bool Statement::ColumnIsNull(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }

}  // namespace perfplan::profiles
