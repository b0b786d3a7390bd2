#include "profiles/hdfs/hdfs_store.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <limits>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <optional>

#include "models/bounded_queue.h"
#include "models/fnv1a.h"
#include "profiles/hdfs/hdfs_chunk.h"
#include "profiles/hdfs/hdfs_ingest_parallel.h"
#include "profiles/hdfs/log4j_time_zone.h"

namespace perfplan::profiles {
namespace {

namespace fs = std::filesystem;

// Early return for Status-returning calls, local to this file.
#define PERFPLAN_RETURN_IF_ERROR_(expr) \
  do {                                  \
    Status status_ = (expr);            \
    if (!status_.ok()) return status_;  \
  } while (0)

const char* const kSchemaV1 = R"sql(
CREATE TABLE hdfs_audit(
  id INTEGER PRIMARY KEY, node TEXT NOT NULL, time_ms INTEGER NOT NULL, allowed INTEGER NOT NULL,
  user TEXT NOT NULL, real_user TEXT NOT NULL, ip TEXT NOT NULL, cmd TEXT NOT NULL,
  src TEXT NOT NULL, dst TEXT NOT NULL, proto TEXT NOT NULL);
CREATE INDEX hdfs_audit_time ON hdfs_audit(time_ms);
CREATE TABLE hdfs_transfer(
  id INTEGER PRIMARY KEY, node TEXT NOT NULL, time_ms INTEGER NOT NULL, is_read INTEGER NOT NULL,
  datanode TEXT NOT NULL, peer TEXT NOT NULL, bytes INTEGER NOT NULL, block TEXT NOT NULL,
  client_id TEXT NOT NULL, duration_ns INTEGER NOT NULL);
CREATE INDEX hdfs_transfer_time ON hdfs_transfer(time_ms);
CREATE TABLE hdfs_block(
  id INTEGER PRIMARY KEY, node TEXT NOT NULL, time_ms INTEGER NOT NULL, block TEXT NOT NULL,
  path TEXT NOT NULL);
CREATE TABLE hdfs_skipped(
  id INTEGER PRIMARY KEY, node TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL,
  reason TEXT NOT NULL);
CREATE TABLE hdfs_checkpoint(
  id INTEGER PRIMARY KEY, node TEXT NOT NULL, path TEXT NOT NULL, device INTEGER NOT NULL,
  inode INTEGER NOT NULL, size_bytes INTEGER NOT NULL, fingerprint TEXT NOT NULL,
  fingerprint_bytes INTEGER NOT NULL, offset_bytes INTEGER NOT NULL, lines INTEGER NOT NULL,
  last_time_ms INTEGER NOT NULL, at_end INTEGER NOT NULL, UNIQUE(node, fingerprint));
)sql";

// One record kind of v2: its v1 table (now a view) and the v1 columns after id and node, in the
// order of the chunk arrays (profiles/hdfs/hdfs_chunk.h).
struct ChunkedKind {
  const char* table;
  std::vector<const char*> columns;
  bool time_index;  // audits and transfers are read by time window; blocks always whole
};

// v2: records in chunks (profiles/hdfs/hdfs_chunk.h), one INSERT per chunk instead of one per
// record; the v1 tables become views with the same columns, read through json_each. The index on
// (min_time_ms, max_time_ms) serves the time-window reads. The migration packs the v1 rows into
// chunks of at most 4,096 in id order, one per run of consecutive ids of one node (an ingest
// writes a node's batch contiguously), so "ORDER BY time_ms, id" gives the same order before and
// after. hdfs_v1_groups numbers the chunks; its (run, part, id) index makes the GROUP BY read
// each chunk's rows in id order, the order json_group_array keeps.
std::string SchemaV2() {
  const ChunkedKind kinds[] = {
      {"hdfs_audit", {"time_ms", "allowed", "user", "real_user", "ip", "cmd", "src", "dst", "proto"},
       true},
      {"hdfs_transfer",
       {"time_ms", "is_read", "datanode", "peer", "bytes", "block", "client_id", "duration_ns"},
       true},
      {"hdfs_block", {"time_ms", "block", "path"}, false}};
  std::string sql =
      "CREATE TABLE hdfs_v1_groups(id INTEGER PRIMARY KEY, run INTEGER NOT NULL, part INTEGER "
      "NOT NULL);\n"
      "CREATE INDEX hdfs_v1_groups_order ON hdfs_v1_groups(run, part, id);\n";
  for (const ChunkedKind& k : kinds) {
    const std::string t = k.table, chunk = t + "_chunk";
    std::string names, values, array;
    for (std::size_t i = 0; i < k.columns.size(); ++i) {
      names += std::string(", ") + k.columns[i];
      values += ", r.value ->> " + std::to_string(i);
      array += std::string(i ? ", " : "") + "r." + k.columns[i];
    }
    sql += "CREATE TABLE " + chunk +
           "(id INTEGER PRIMARY KEY, node TEXT NOT NULL, min_time_ms INTEGER NOT NULL, "
           "max_time_ms INTEGER NOT NULL, records INTEGER NOT NULL, data TEXT NOT NULL);\n";
    if (k.time_index) {
      sql += "CREATE INDEX " + chunk + "_time ON " + chunk + "(min_time_ms, max_time_ms);\n";
    }
    sql += "DELETE FROM hdfs_v1_groups;\n"
           "INSERT INTO hdfs_v1_groups(id, run, part) SELECT id, run, (row_number() OVER "
           "(PARTITION BY run ORDER BY id) - 1) / 4096 FROM (SELECT id, sum(starts) OVER (ORDER "
           "BY id) AS run FROM (SELECT id, node IS NOT lag(node) OVER (ORDER BY id) AS starts "
           "FROM " + t + "));\n"
           "INSERT INTO " + chunk + "(node, min_time_ms, max_time_ms, records, data) "
           "SELECT r.node, min(r.time_ms), max(r.time_ms), count(*), json_group_array(json_array(" +
           array + ")) FROM hdfs_v1_groups AS g JOIN " + t +
           " AS r ON r.id = g.id GROUP BY g.run, g.part ORDER BY g.run, g.part;\n"
           "DROP TABLE " + t + ";\n"
           "CREATE VIEW " + t + "(id, node" + names + ") AS SELECT c.id * 65536 + r.key, c.node" +
           values + " FROM " + chunk + " AS c, json_each(c.data) AS r;\n";
  }
  return sql + "DROP TABLE hdfs_v1_groups;\n";
}

// The stored fingerprints were summed from the short basis; a new one must match them.
std::string Fingerprint(std::string_view bytes) {
  return models::Fnv1a64Hex(bytes, models::kFnv1a64ShortOffset);
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct StoredCheckpoint {
  std::int64_t id = 0;
  HdfsCheckpoint cp;
  std::int64_t size_bytes = 0;
  bool at_end = false;
};

// Prepared statements of one ingestion run: audit, transfer and block insert chunks.
struct Writer {
  Statement audit, transfer, block, skipped, cp_insert, cp_update;
};

Result<Writer> PrepareWriter(Store& store) {
  auto chunk_insert = [&store](const char* table) {
    return store.Prepare(std::string("INSERT INTO ") + table +
                         "(node,min_time_ms,max_time_ms,records,data) VALUES(?,?,?,?,?)");
  };
  auto audit = chunk_insert("hdfs_audit_chunk");
  if (!audit.ok()) return audit.status();
  auto transfer = chunk_insert("hdfs_transfer_chunk");
  if (!transfer.ok()) return transfer.status();
  auto block = chunk_insert("hdfs_block_chunk");
  if (!block.ok()) return block.status();
  auto skipped = store.Prepare("INSERT INTO hdfs_skipped(node,file,line,reason) VALUES(?,?,?,?)");
  if (!skipped.ok()) return skipped.status();
  auto cp_insert = store.Prepare(
      "INSERT INTO hdfs_checkpoint(node,path,device,inode,size_bytes,fingerprint,"
      "fingerprint_bytes,offset_bytes,lines,last_time_ms,at_end) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
  if (!cp_insert.ok()) return cp_insert.status();
  auto cp_update = store.Prepare(
      "UPDATE hdfs_checkpoint SET path=?,device=?,inode=?,size_bytes=?,fingerprint=?,"
      "fingerprint_bytes=?,offset_bytes=?,lines=?,last_time_ms=?,at_end=? WHERE id=?");
  if (!cp_update.ok()) return cp_update.status();
  return Writer{std::move(audit).value(),     std::move(transfer).value(),
                std::move(block).value(),     std::move(skipped).value(),
                std::move(cp_insert).value(), std::move(cp_update).value()};
}

Result<std::vector<StoredCheckpoint>> LoadCheckpoints(Store& store, const std::string& node) {
  auto st = store.Prepare(
      "SELECT id,path,device,inode,size_bytes,fingerprint,fingerprint_bytes,offset_bytes,lines,"
      "last_time_ms,at_end FROM hdfs_checkpoint WHERE node=? ORDER BY id");
  if (!st.ok()) return st.status();
  Statement& s = st.value();
  s.Bind(1, node);
  std::vector<StoredCheckpoint> out;
  while (s.Step()) {
    StoredCheckpoint c;
    c.id = s.ColumnInt(0);
    c.cp.node = node;
    c.cp.path = s.ColumnText(1);
    c.cp.device = s.ColumnInt(2);
    c.cp.inode = s.ColumnInt(3);
    c.size_bytes = s.ColumnInt(4);
    c.cp.fingerprint = s.ColumnText(5);
    c.cp.fingerprint_bytes = s.ColumnInt(6);
    c.cp.offset_bytes = s.ColumnInt(7);
    c.cp.lines = s.ColumnInt(8);
    c.cp.last_time_ms = s.ColumnInt(9);
    c.at_end = s.ColumnInt(10) != 0;
    out.push_back(std::move(c));
  }
  if (!s.Error().ok()) return s.Error();
  return out;
}

Status Check(Statement& s) {
  Status st = s.Run();
  s.Reset();
  return st;
}

// Where a FileIngester's batches go: the store itself (StoreSink), or in a parallel ingest a queue
// that the writer replays into the store in the same order (RecordingSink).
class Sink {
 public:
  virtual ~Sink() = default;
  virtual Status Begin() = 0;
  virtual Status Commit() = 0;
  virtual void Rollback() = 0;
  enum ChunkKind { kAuditChunk, kTransferChunk, kBlockChunk };
  // Stores the (non-empty) chunk and clears it.
  virtual Status Chunk(ChunkKind kind, const std::string& node, HdfsChunkBuilder& chunk) = 0;
  virtual Status Skipped(const std::string& node, const std::string& path, std::int64_t line,
                         const std::string& reason) = 0;
  // Inserts `c` when it has no id yet (giving it one) and updates it otherwise.
  virtual Status Checkpoint(StoredCheckpoint& c) = 0;
};

class StoreSink : public Sink {
 public:
  StoreSink(Store& store, Writer& writer) : store_(store), w_(writer) {}
  Status Begin() override { return store_.Begin(); }
  Status Commit() override { return store_.Commit(); }
  void Rollback() override { store_.Rollback(); }
  Status Chunk(ChunkKind kind, const std::string& node, HdfsChunkBuilder& chunk) override {
    Status st = InsertChunk(kind, node, chunk.min_time_ms(), chunk.max_time_ms(), chunk.records(),
                            chunk.Json());
    chunk.Clear();
    return st;
  }
  Status InsertChunk(ChunkKind kind, const std::string& node, std::int64_t min_time_ms,
                     std::int64_t max_time_ms, std::int64_t records, const std::string& json) {
    Statement& insert = kind == kAuditChunk ? w_.audit : kind == kTransferChunk ? w_.transfer
                                                                                : w_.block;
    insert.Bind(1, node).Bind(2, min_time_ms).Bind(3, max_time_ms);
    insert.Bind(4, records).BindUncopied(5, json);  // Check resets it before json changes
    return Check(insert);
  }
  Status Skipped(const std::string& node, const std::string& path, std::int64_t line,
                 const std::string& reason) override {
    Statement& s = w_.skipped;
    s.Bind(1, node).Bind(2, path).Bind(3, line).Bind(4, reason);
    return Check(s);
  }
  // A negative id is a recording's stand-in for the id its first insert got here.
  Status Checkpoint(StoredCheckpoint& c) override {
    const std::int64_t standin = c.id < 0 ? c.id : 0;
    if (standin != 0) {
      auto it = ids_.find(standin);
      c.id = it == ids_.end() ? 0 : it->second;
    }
    if (c.id == 0) {
      Statement& s = w_.cp_insert;
      s.Bind(1, c.cp.node).Bind(2, c.cp.path).Bind(3, c.cp.device).Bind(4, c.cp.inode);
      s.Bind(5, c.size_bytes).Bind(6, c.cp.fingerprint).Bind(7, c.cp.fingerprint_bytes);
      s.Bind(8, c.cp.offset_bytes).Bind(9, c.cp.lines).Bind(10, c.cp.last_time_ms);
      s.Bind(11, static_cast<std::int64_t>(c.at_end));
      PERFPLAN_RETURN_IF_ERROR_(Check(s));
      c.id = store_.LastInsertRowId();
      if (standin != 0) ids_[standin] = c.id;
      return Status::Ok();
    }
    Statement& s = w_.cp_update;
    s.Bind(1, c.cp.path).Bind(2, c.cp.device).Bind(3, c.cp.inode).Bind(4, c.size_bytes);
    s.Bind(5, c.cp.fingerprint).Bind(6, c.cp.fingerprint_bytes).Bind(7, c.cp.offset_bytes);
    s.Bind(8, c.cp.lines).Bind(9, c.cp.last_time_ms).Bind(10, static_cast<std::int64_t>(c.at_end));
    s.Bind(11, c.id);
    return Check(s);
  }

 private:
  Store& store_;
  Writer& w_;
  std::map<std::int64_t, std::int64_t> ids_;  // stand-in id → the store's
};

// Reads one file from its checkpoint, committing every batch with its checkpoint.
class FileIngester {
 public:
  FileIngester(Sink& sink, const HdfsIngestOptions& options, const Log4jTimeZone& zone,
               HdfsIngestReport& report, SkipTally<Problem>& skips)
      : sink_(sink),
        options_(options),
        zone_(zone),
        report_(report),
        skips_(skips) {}

  Status Run(const std::string& node, const std::string& path, bool live,
             std::vector<StoredCheckpoint>& checkpoints) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
      skips_.Add({path, 0, "file", "disappeared before it could be read"});
      return Status::Ok();
    }
    auto opened = HdfsLogReader::Open(path, static_cast<std::size_t>(options_.max_line_bytes));
    if (!opened.ok()) {
      skips_.Add({path, 0, "file", opened.status().message()});
      return Status::Ok();
    }
    HdfsLogReader& reader = *opened.value();
    // The identity prefix: the first fingerprint_bytes uncompressed bytes (fewer if shorter).
    // Raw bytes, so the prefix of an append-only file never changes as it grows.
    auto peeked = reader.Peek(options_.fingerprint_bytes);
    if (!peeked.ok()) {
      skips_.Add({path, 0, "file", peeked.status().message()});
      return Status::Ok();
    }
    const std::string prefix = std::move(peeked).value();
    if (prefix.empty()) return Status::Ok();  // empty file: nothing to identify or read

    StoredCheckpoint* match = nullptr;
    for (StoredCheckpoint& c : checkpoints) {
      if (c.cp.fingerprint_bytes <= static_cast<std::int64_t>(prefix.size()) &&
          Fingerprint(std::string_view(prefix).substr(
              0, static_cast<std::size_t>(c.cp.fingerprint_bytes))) == c.cp.fingerprint) {
        match = &c;
        break;
      }
    }
    StoredCheckpoint fresh;
    if (match == nullptr) {
      fresh.cp.node = node;
      fresh.cp.path = path;
      match = &fresh;
    } else if (match->at_end && match->size_bytes == static_cast<std::int64_t>(info.st_size) &&
               match->cp.inode == static_cast<std::int64_t>(info.st_ino)) {
      ++report_.files_unchanged;
      if (match->cp.path != path) {  // renamed only: remember where it is now
        match->cp.path = path;
        PERFPLAN_RETURN_IF_ERROR_(sink_.Begin());
        PERFPLAN_RETURN_IF_ERROR_(WriteCheckpoint(*match, info, prefix, true));
        PERFPLAN_RETURN_IF_ERROR_(sink_.Commit());
      }
      return Status::Ok();
    }
    StoredCheckpoint& cp = *match;
    Status seek = reader.Seek(cp.cp.offset_bytes);
    if (!seek.ok()) {
      skips_.Add({path, 0, "file",
                  "shorter than its checkpoint (" + std::to_string(cp.cp.offset_bytes) +
                      " bytes already read); it was truncated in place — lines written after the "
                      "truncation up to that offset cannot be told apart and are not read"});
      return Status::Ok();
    }
    const bool was_fresh = cp.id == 0;
    std::int64_t line_number = cp.cp.lines;
    std::int64_t last_time_ms = cp.cp.last_time_ms;
    std::int64_t batch = 0;
    std::int64_t batch_records = 0;
    HdfsParseCounts batch_counts;
    std::vector<Problem> batch_skipped, batch_warnings;
    bool any = false;
    bool at_end = true;
    HdfsLine parsed;
    std::string_view line;
    bool terminated = true;
    PERFPLAN_RETURN_IF_ERROR_(sink_.Begin());
    auto commit = [&](bool end) -> Status {
      cp.cp.path = path;
      cp.cp.lines = line_number;
      cp.cp.last_time_ms = last_time_ms;
      Status s = FlushChunks(node);
      if (s.ok()) s = WriteCheckpoint(cp, info, prefix, end);
      if (!s.ok()) {
        sink_.Rollback();
        return s;
      }
      s = sink_.Commit();
      if (!s.ok()) {
        sink_.Rollback();
        return s;
      }
      report_.records += batch_records;
      report_.counts.Merge(batch_counts);
      for (auto& p : batch_skipped) skips_.Add(std::move(p));
      for (auto& p : batch_warnings) {
        if (report_.warnings.size() < HdfsParseCounts::kMaxProblems) {
          report_.warnings.push_back(std::move(p));
        }
      }
      batch_counts = HdfsParseCounts();
      batch_skipped.clear();
      batch_warnings.clear();
      batch_records = 0;
      batch = 0;
      return Status::Ok();
    };
    std::int64_t consumed_offset = cp.cp.offset_bytes;
    const std::int64_t start_offset = consumed_offset;
    while (reader.Next(&line, &terminated)) {
      if (!terminated && !reader.error().ok()) {
        // The stream broke inside this line (a truncated .gz): its bytes are not a whole record.
        at_end = false;
        batch_skipped.push_back({path, static_cast<int>(line_number + 1), "line",
                                 "partial last line of a broken compressed stream; not stored"});
        break;
      }
      if (!terminated && live && !options_.complete_files) {
        at_end = false;
        batch_warnings.push_back({path, static_cast<int>(line_number + 1), "line",
                                  "last line has no line break yet; held back until it has "
                                  "one (or set complete_files)"});
        break;
      }
      any = true;
      ++line_number;
      consumed_offset = reader.offset();
      ParseHdfsReaderLine(reader, line, &parsed);
      if (!zone_.is_utc() && parsed.time_ms >= 0) {
        const std::int64_t utc = zone_.ToUtc(parsed.time_ms);
        parsed.audit.time_ms = parsed.transfer.time_ms = parsed.block.time_ms = utc;
        parsed.time_ms = utc;
      }
      batch_counts.Add(parsed);
      if (parsed.time_ms >= 0) {
        if (parsed.time_ms < last_time_ms) {
          ++batch_counts.time_backwards;
          batch_warnings.push_back({path, static_cast<int>(line_number), "time",
                                    "timestamp earlier than the previous line's"});
        }
        last_time_ms = std::max(last_time_ms, parsed.time_ms);
      }
      Status s = StoreLine(node, path, line_number, parsed, &batch_records, &batch_skipped);
      if (!s.ok()) {
        sink_.Rollback();
        return s;
      }
      if (++batch >= options_.batch_lines) {
        cp.cp.offset_bytes = consumed_offset;
        PERFPLAN_RETURN_IF_ERROR_(commit(false));
        PERFPLAN_RETURN_IF_ERROR_(sink_.Begin());
      }
    }
    if (!reader.error().ok()) {
      at_end = false;
      batch_skipped.push_back(
          {path, static_cast<int>(line_number + 1), "file", reader.error().message()});
    }
    cp.cp.offset_bytes = consumed_offset;
    bytes_read_ += consumed_offset - start_offset;
    PERFPLAN_RETURN_IF_ERROR_(commit(at_end));
    if (any)
      ++report_.files_read;
    else
      ++report_.files_unchanged;
    if (was_fresh) checkpoints.push_back(cp);
    return Status::Ok();
  }

  // Uncompressed bytes of the lines read so far (all files).
  std::int64_t bytes_read() const { return bytes_read_; }

 private:
  Status WriteCheckpoint(StoredCheckpoint& c, const struct stat& info, const std::string& prefix,
                         bool at_end) {
    c.cp.device = static_cast<std::int64_t>(info.st_dev);
    c.cp.inode = static_cast<std::int64_t>(info.st_ino);
    c.size_bytes = static_cast<std::int64_t>(info.st_size);
    c.cp.fingerprint = Fingerprint(prefix);
    c.cp.fingerprint_bytes = static_cast<std::int64_t>(prefix.size());
    c.at_end = at_end;
    return sink_.Checkpoint(c);
  }

  Status StoreLine(const std::string& node, const std::string& path, std::int64_t line_number,
                   const HdfsLine& l, std::int64_t* records, std::vector<Problem>* skipped) {
    switch (l.kind) {
      case HdfsLineKind::kAudit:
        ++*records;
        return AddToChunk(audits_, Sink::kAuditChunk, node, l.audit);
      case HdfsLineKind::kTransfer:
        ++*records;
        return AddToChunk(transfers_, Sink::kTransferChunk, node, l.transfer);
      case HdfsLineKind::kBlock:
        ++*records;
        return AddToChunk(blocks_, Sink::kBlockChunk, node, l.block);
      case HdfsLineKind::kGarbled: {
        skipped->push_back({path, static_cast<int>(line_number), "garbled", l.reason});
        return sink_.Skipped(node, path, line_number, l.reason);
      }
      default:
        return Status::Ok();
    }
  }

  template <typename View>
  Status AddToChunk(HdfsChunkBuilder& chunk, Sink::ChunkKind kind, const std::string& node,
                    const View& record) {
    chunk.Add(record);
    return chunk.full() ? Flush(chunk, kind, node) : Status::Ok();
  }

  Status Flush(HdfsChunkBuilder& chunk, Sink::ChunkKind kind, const std::string& node) {
    return chunk.empty() ? Status::Ok() : sink_.Chunk(kind, node, chunk);
  }

  // Every record read so far goes into the transaction: called before each commit.
  Status FlushChunks(const std::string& node) {
    PERFPLAN_RETURN_IF_ERROR_(Flush(audits_, Sink::kAuditChunk, node));
    PERFPLAN_RETURN_IF_ERROR_(Flush(transfers_, Sink::kTransferChunk, node));
    return Flush(blocks_, Sink::kBlockChunk, node);
  }

  Sink& sink_;
  std::int64_t bytes_read_ = 0;
  const HdfsIngestOptions& options_;
  const Log4jTimeZone& zone_;
  HdfsIngestReport& report_;
  SkipTally<Problem>& skips_;
  HdfsChunkBuilder audits_, transfers_, blocks_;
};

// ---- Parallel ingest (hdfs_ingest_parallel.h) ----

// One recorded Sink call.
struct SinkOp {
  enum Kind { kBegin, kCommit, kRollback, kChunk, kSkipped, kCheckpoint } op = kBegin;
  Sink::ChunkKind chunk = Sink::kAuditChunk;
  std::string node, text;  // text: the chunk's JSON, or the skipped line's path
  std::int64_t a = 0, b = 0, c = 0;  // chunk: min and max time, records; skipped: line
  std::string reason;
  StoredCheckpoint checkpoint;
};

// The queue between one source's parser and the writer: bounded by the bytes of chunk text it
// holds (a parser waits while kQueueBytes are queued), closed by the parser when done.
class OpQueue : public models::BoundedQueue<SinkOp> {
 public:
  static constexpr std::size_t kQueueBytes = std::size_t{8} << 20;
  OpQueue() : BoundedQueue(kQueueBytes) {}
  void Push(SinkOp op) {
    const std::size_t bytes = op.text.size();
    BoundedQueue::Push(std::move(op), bytes);
  }
};

// Records a FileIngester's calls for the writer; new checkpoints get stand-in ids -1, -2, …
class RecordingSink : public Sink {
 public:
  explicit RecordingSink(OpQueue& queue) : queue_(queue) {}
  Status Begin() override { return Push(SinkOp::kBegin); }
  Status Commit() override { return Push(SinkOp::kCommit); }
  void Rollback() override { Push(SinkOp::kRollback); }
  Status Chunk(ChunkKind kind, const std::string& node, HdfsChunkBuilder& chunk) override {
    SinkOp op;
    op.op = SinkOp::kChunk;
    op.chunk = kind;
    op.node = node;
    op.a = chunk.min_time_ms();
    op.b = chunk.max_time_ms();
    op.c = chunk.records();
    op.text = chunk.Json();
    chunk.Clear();
    queue_.Push(std::move(op));
    return Status::Ok();
  }
  Status Skipped(const std::string& node, const std::string& path, std::int64_t line,
                 const std::string& reason) override {
    SinkOp op;
    op.op = SinkOp::kSkipped;
    op.node = node;
    op.text = path;
    op.a = line;
    op.reason = reason;
    queue_.Push(std::move(op));
    return Status::Ok();
  }
  Status Checkpoint(StoredCheckpoint& c) override {
    if (c.id == 0) c.id = next_standin_--;
    SinkOp op;
    op.op = SinkOp::kCheckpoint;
    op.checkpoint = c;
    queue_.Push(std::move(op));
    return Status::Ok();
  }

 private:
  Status Push(SinkOp::Kind kind) {
    SinkOp op;
    op.op = kind;
    queue_.Push(std::move(op));
    return Status::Ok();
  }
  OpQueue& queue_;
  std::int64_t next_standin_ = -1;
};

// Replays one source's recorded calls into the store, in order. A failure rolls back the open
// batch, as the sequential ingest does.
Status Replay(OpQueue& queue, StoreSink& sink) {
  SinkOp op;
  bool open = false;
  while (queue.Pop(&op)) {
    Status st;
    switch (op.op) {
      case SinkOp::kBegin:
        st = sink.Begin();
        open = st.ok();
        break;
      case SinkOp::kCommit:
        st = sink.Commit();
        open = !st.ok();
        break;
      case SinkOp::kRollback:
        sink.Rollback();
        open = false;
        break;
      case SinkOp::kChunk:
        st = sink.InsertChunk(op.chunk, op.node, op.a, op.b, op.c, op.text);
        break;
      case SinkOp::kSkipped:
        st = sink.Skipped(op.node, op.text, op.a, op.reason);
        break;
      case SinkOp::kCheckpoint:
        st = sink.Checkpoint(op.checkpoint);
        break;
    }
    if (!st.ok()) {
      if (open) sink.Rollback();
      queue.Abandon();
      return st;
    }
  }
  if (open) sink.Rollback();  // the parser stopped inside a batch (it failed)
  return Status::Ok();
}

// What a source's parser leaves for the writer besides its queue.
struct ParsedSource {
  OpQueue queue;
  HdfsIngestReport report;  // records, files, counts, warnings of this source alone
  SkipTally<Problem> skips;
  Status status;
  std::int64_t bytes_read = 0;  // uncompressed bytes of the new lines
  bool direct = false;  // the writer reads this source itself (its node came earlier)
};

// Adds one source's report to the run's, as the sequential ingest would have added it.
void MergeSourceReport(ParsedSource& p, HdfsIngestReport* report, SkipTally<Problem>* skips) {
  report->records += p.report.records;
  report->files_read += p.report.files_read;
  report->files_unchanged += p.report.files_unchanged;
  report->counts.Merge(p.report.counts);
  for (Problem& w : p.report.warnings) {
    if (report->warnings.size() < HdfsParseCounts::kMaxProblems) {
      report->warnings.push_back(std::move(w));
    }
  }
  skips->Merge(std::move(p.skips));
}

}  // namespace

const Migrations& HdfsMigrations() {
  static const Migrations kMigrations{"hdfs", {kSchemaV1, SchemaV2()}};
  return kMigrations;
}

Result<HdfsSource> ParseHdfsSource(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    return Status::InvalidField(
        "sources", "\"" + text + "\": expected NAME=PATH, e.g. nn1=/var/log/hadoop/hdfs-audit.log");
  }
  return HdfsSource{text.substr(0, eq), text.substr(eq + 1)};
}

Status HdfsIngestOptions::Validate() const {
  if (batch_lines < 1) {
    return Status::InvalidArgument("batch_lines = " + std::to_string(batch_lines) +
                                   ": must be at least 1");
  }
  if (fingerprint_bytes < 16) {
    return Status::InvalidArgument("fingerprint_bytes = " + std::to_string(fingerprint_bytes) +
                                   ": must be at least 16");
  }
  if (max_line_bytes < 1024) {
    return Status::InvalidArgument("max_line_bytes = " + std::to_string(max_line_bytes) +
                                   ": must be at least 1024");
  }
  return Log4jTimeZone::Parse(timezone).status();
}

std::vector<std::string> RotatedFamily(const std::string& path) {
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string base = p.filename().string() + ".";
  std::vector<std::pair<long long, std::string>> numbered;
  std::vector<std::string> dated;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(base, 0) != 0 || !it->is_regular_file(ec)) continue;
    std::string rest = name.substr(base.size());
    if (rest.size() > 3 && rest.substr(rest.size() - 3) == ".gz") rest.resize(rest.size() - 3);
    const std::string full = p.has_parent_path() ? (dir / name).string() : name;
    if (AllDigits(rest) && rest.size() < 10) {
      numbered.emplace_back(std::stoll(rest), full);
    } else if (rest.size() >= 8 && rest[0] >= '0' && rest[0] <= '9') {
      dated.push_back(full);  // yyyy-MM-dd[-HH] and similar date patterns
    }
  }
  std::sort(dated.begin(), dated.end());
  std::sort(numbered.begin(), numbered.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out = dated;
  for (auto& [n, name] : numbered) out.push_back(name);
  if (fs::is_regular_file(p, ec)) out.push_back(path);
  return out;
}

Result<HdfsIngestReport> IngestHdfs(Store& store, const std::vector<HdfsSource>& sources,
                                    const HdfsIngestOptions& options) {
  return IngestHdfsParallel(store, sources, options, 1);
}

Result<HdfsIngestReport> IngestHdfsParallel(Store& store, const std::vector<HdfsSource>& sources,
                                            const HdfsIngestOptions& options, int jobs,
                                            const HdfsIngestProgress& progress) {
  if (jobs < 1 || jobs > 256) {
    return Status::InvalidField("jobs", "expected 1 to 256, got " + std::to_string(jobs));
  }
  if (Status s = options.Validate(); !s.ok()) return s;
  const Log4jTimeZone zone = Log4jTimeZone::Parse(options.timezone).value();
  // The same file under two node names would get two checkpoints and be counted twice.
  {
    std::vector<std::pair<std::string, std::string>> seen;  // (canonical path, node)
    for (const HdfsSource& source : sources) {
      std::error_code ec;
      const fs::path canonical = fs::weakly_canonical(source.path, ec);
      const std::string key = ec ? source.path : canonical.string();
      for (const auto& [path, node] : seen) {
        if (path == key && node != source.node) {
          return Status::InvalidField("sources", source.node + "=" + source.path +
                                                     ": the same file is already given for node " +
                                                     node + "; a file belongs to one node");
        }
      }
      seen.emplace_back(key, source.node);
    }
  }
  // Checkpoints are read once per file and advanced batch by batch: a second ingester on the same
  // store must wait for this one, or both would read the same lines.
  auto lock = store.LockExclusively("ingest hdfs");
  if (!lock.ok()) return lock.status();
  // Across runs too: a file whose (device, inode) another node's checkpoint holds was ingested
  // under that node before; reading it again here would count every line twice.
  for (const HdfsSource& source : sources) {
    struct stat info {};
    if (::stat(source.path.c_str(), &info) != 0) continue;  // missing: reported below
    auto st = store.Prepare(
        "SELECT node FROM hdfs_checkpoint WHERE device=? AND inode=? AND node<>? LIMIT 1");
    if (!st.ok()) return st.status();
    st.value()
        .Bind(1, static_cast<std::int64_t>(info.st_dev))
        .Bind(2, static_cast<std::int64_t>(info.st_ino))
        .Bind(3, source.node);
    if (st.value().Step()) {
      return Status::InvalidField("sources", source.node + "=" + source.path +
                                                 ": the same file was ingested for node " +
                                                 st.value().ColumnText(0) +
                                                 " in an earlier run; a file belongs to one node");
    }
    if (!st.value().Error().ok()) return st.value().Error();
  }
  auto writer = PrepareWriter(store);
  if (!writer.ok()) return writer.status();
  HdfsIngestReport report;
  SkipTally<Problem> skips;
  std::vector<std::string> nodes;
  // One source, read by the writer itself: the sequential ingest.
  std::int64_t bytes_read = 0;
  auto ingest_here = [&](const HdfsSource& source) -> Status {
    auto checkpoints = LoadCheckpoints(store, source.node);
    if (!checkpoints.ok()) return checkpoints.status();
    const std::vector<std::string> family = RotatedFamily(source.path);
    if (family.empty()) {
      skips.Add(
          {source.path, 0, "file", "no such file (nor rotated copies " + source.path + ".N[.gz])"});
      return Status::Ok();
    }
    StoreSink sink(store, writer.value());
    FileIngester ingester(sink, options, zone, report, skips);
    Status st;
    for (const std::string& file : family) {
      st = ingester.Run(source.node, file, file == source.path, checkpoints.value());
      if (!st.ok()) break;
    }
    bytes_read += ingester.bytes_read();
    return st;
  };
  for (const HdfsSource& source : sources) {
    if (!RotatedFamily(source.path).empty() &&
        std::find(nodes.begin(), nodes.end(), source.node) == nodes.end()) {
      nodes.push_back(source.node);
    }
  }
  if (jobs == 1 || sources.size() < 2) {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      PERFPLAN_RETURN_IF_ERROR_(ingest_here(sources[i]));
      if (progress) progress(i + 1, sources.size(), bytes_read);
    }
  } else {
    // Parsers record each source's batches; the writer replays them in source order. A node
    // named again later depends on the checkpoints the earlier source writes: the writer reads
    // that source itself.
    std::vector<std::unique_ptr<ParsedSource>> parsed;
    std::vector<std::vector<StoredCheckpoint>> snapshots(sources.size());
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      parsed.push_back(std::make_unique<ParsedSource>());
      if (std::find(seen.begin(), seen.end(), sources[i].node) != seen.end()) {
        parsed[i]->direct = true;
        continue;
      }
      seen.push_back(sources[i].node);
      auto checkpoints = LoadCheckpoints(store, sources[i].node);
      if (!checkpoints.ok()) return checkpoints.status();
      snapshots[i] = std::move(checkpoints).value();
    }
    std::mutex mu;
    std::condition_variable cv;
    std::size_t next = 0, written = 0;
    bool stop = false;
    const auto parse = [&](std::size_t i) {
      ParsedSource& p = *parsed[i];
      const HdfsSource& source = sources[i];
      const std::vector<std::string> family = RotatedFamily(source.path);
      if (family.empty()) {
        p.skips.Add({source.path, 0, "file",
                     "no such file (nor rotated copies " + source.path + ".N[.gz])"});
      } else {
        RecordingSink sink(p.queue);
        FileIngester ingester(sink, options, zone, p.report, p.skips);
        try {
          for (const std::string& file : family) {
            p.status = ingester.Run(source.node, file, file == source.path, snapshots[i]);
            if (!p.status.ok()) break;
          }
        } catch (const std::exception& e) {  // reported by the writer, not a terminate()
          p.status = Status::Failed(source.path + ": " + e.what());
        }
        p.bytes_read = ingester.bytes_read();
      }
      p.queue.Close();
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < jobs && static_cast<std::size_t>(t) < sources.size(); ++t) {
      threads.emplace_back([&] {
        for (;;) {
          std::size_t i = 0;
          {
            std::unique_lock lock(mu);
            cv.wait(lock, [&] {
              return stop || next >= sources.size() ||
                     next < written + static_cast<std::size_t>(jobs);
            });
            if (stop || next >= sources.size()) return;
            i = next++;
          }
          if (parsed[i]->direct) {
            parsed[i]->queue.Close();
          } else {
            parse(i);
          }
        }
      });
    }
    Status failed;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      ParsedSource& p = *parsed[i];
      if (p.direct) {
        SinkOp ignored;
        while (p.queue.Pop(&ignored)) {
        }
        failed = ingest_here(sources[i]);
      } else {
        StoreSink sink(store, writer.value());
        failed = Replay(p.queue, sink);
        if (failed.ok()) failed = p.status;
        if (failed.ok()) MergeSourceReport(p, &report, &skips);
        bytes_read += p.bytes_read;
      }
      {
        std::lock_guard lock(mu);
        written = i + 1;
        if (!failed.ok()) stop = true;
        cv.notify_all();
      }
      if (!failed.ok()) {
        for (auto& q : parsed) q->queue.Abandon();
        break;
      }
      if (progress) progress(i + 1, sources.size(), bytes_read);
    }
    {
      std::lock_guard lock(mu);
      stop = true;
      cv.notify_all();
    }
    for (std::thread& t : threads) t.join();
    if (!failed.ok()) return failed;
  }
  for (const std::string& node : nodes) {
    auto checkpoints = LoadCheckpoints(store, node);
    if (!checkpoints.ok()) return checkpoints.status();
    for (auto& c : checkpoints.value()) report.checkpoints.push_back(std::move(c.cp));
  }
  report.timezone = zone.name();
  report.skipped = std::move(skips.mutable_examples());
  report.skipped_total = skips.total();
  report.skipped_reasons = skips.Reasons();
  return report;
}

namespace {

// Appends the records of `table`'s chunks that overlap [from_ms, to_ms) and lie in it, ordered by
// time then insertion (chunk id, then position in the chunk: the order they were read). The
// chunks come in index order (the time index serves the window); the decoded runs are put back
// in chunk order before the stable sort by time.
template <typename Record>
Status LoadChunks(Store& store, const char* table, std::int64_t from_ms, std::int64_t to_ms,
                  std::vector<Record>* out) {
  auto st = store.Prepare(std::string("SELECT id,data FROM ") + table +
                          " WHERE min_time_ms<?2 AND max_time_ms>=?1");
  if (!st.ok()) return st.status();
  Statement& s = st.value();
  s.Bind(1, from_ms).Bind(2, to_ms);
  struct Run {
    std::int64_t chunk_id;
    std::size_t begin, end;
  };
  std::vector<Run> runs;
  std::vector<Record> decoded;
  while (s.Step()) {
    const std::int64_t id = s.ColumnInt(0);
    const std::size_t begin = decoded.size();
    PERFPLAN_RETURN_IF_ERROR_(DecodeHdfsChunk(id, s.ColumnText(1), from_ms, to_ms, &decoded));
    runs.push_back({id, begin, decoded.size()});
  }
  if (!s.Error().ok()) return s.Error();
  std::sort(runs.begin(), runs.end(),
            [](const Run& a, const Run& b) { return a.chunk_id < b.chunk_id; });
  out->reserve(out->size() + decoded.size());
  for (const Run& r : runs) {
    std::move(decoded.begin() + static_cast<std::ptrdiff_t>(r.begin),
              decoded.begin() + static_cast<std::ptrdiff_t>(r.end), std::back_inserter(*out));
  }
  std::stable_sort(out->begin(), out->end(),
                   [](const Record& a, const Record& b) { return a.time_ms < b.time_ms; });
  return Status::Ok();
}

}  // namespace

Result<HdfsRecords> LoadHdfsRecords(Store& store, std::int64_t from_ms, std::int64_t to_ms) {
  HdfsRecords out;
  PERFPLAN_RETURN_IF_ERROR_(LoadChunks(store, "hdfs_audit_chunk", from_ms, to_ms, &out.audits));
  PERFPLAN_RETURN_IF_ERROR_(
      LoadChunks(store, "hdfs_transfer_chunk", from_ms, to_ms, &out.transfers));
  // Every block, whatever the window: a file allocated before the window is read inside it.
  PERFPLAN_RETURN_IF_ERROR_(LoadChunks(store, "hdfs_block_chunk", INT64_MIN, INT64_MAX,
                                       &out.blocks));
  return out;
}

}  // namespace perfplan::profiles
