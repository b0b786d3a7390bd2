#include "profiles/hdfs/hdfs_store_streams.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "profiles/hdfs/hdfs_chunk.h"
#include "profiles/scratch_file.h"

namespace perfplan::profiles {
namespace {

// Chunks are held as their text and an index (profiles/hdfs/hdfs_chunk.h), in slots that are
// reused with their capacity, and a record is decoded when it is handed out, into one record
// whose strings are reused: after the first chunks no allocation is made per chunk or per record,
// so a long history neither grows nor fragments the heap (decoded chunk vectors did both).
template <typename Record>
class ChunkCursor : public models::HdfsRecordCursor<Record> {
 public:
  ChunkCursor(Store& store, const char* table, std::int64_t from_ms, std::int64_t to_ms)
      : from_ms_(from_ms), to_ms_(to_ms) {
    // The chunks by first time, without their text (the time index covers the audits' and
    // transfers'; the few block chunks are sorted, as ids and times only: sorting their texts
    // made SQLite hold and spill every block chunk); ties are broken by chunk id in the heap.
    // Each chunk's text is read by id when the chunk is opened, inside the read transaction
    // that the id statement holds while it runs.
    auto ids = store.Prepare(std::string("SELECT id,min_time_ms FROM ") + table +
                             " WHERE min_time_ms<?2 AND max_time_ms>=?1 ORDER BY min_time_ms");
    auto data = store.Prepare(std::string("SELECT data FROM ") + table + " WHERE id=?1");
    for (const Status& s : {ids.status(), data.status()}) {
      if (!s.ok()) {
        status_ = s;
        return;
      }
    }
    rows_.emplace(std::move(ids).value());
    data_.emplace(std::move(data).value());
    rows_->Bind(1, from_ms).Bind(2, to_ms);
    StepRow();
  }

  const Record* Next() override {
    if (!status_.ok()) return nullptr;
    // Open every chunk that may hold a record before the earliest one in hand.
    while (has_row_ && (heap_.empty() || row_min_time_ <= std::get<0>(heap_.top()))) {
      if (!Open()) return nullptr;
    }
    if (heap_.empty()) return nullptr;
    const auto [time, id, slot] = heap_.top();
    heap_.pop();
    Chunk& c = chunks_[slot];
    status_ = ReadHdfsChunkRecord(id, std::string_view(c.text.data(), c.text.size()),
                                  c.entries[c.next++].offset, &record_);
    if (!status_.ok()) return nullptr;
    if (c.next < c.entries.size()) {
      heap_.emplace(c.entries[c.next].time_ms, id, slot);
    } else {
      free_.push_back(slot);  // its text and index keep their capacity for the next chunk
    }
    return &record_;
  }
  Status status() const override { return status_; }

 private:
  struct Chunk {
    std::vector<char> text;               // the chunk's JSON
    std::vector<HdfsChunkEntry> entries;  // its records in the window, by (time, position)
    std::size_t next = 0;
  };

  void StepRow() {
    has_row_ = rows_->Step();
    if (has_row_) {
      row_min_time_ = rows_->ColumnInt(1);
    } else if (!rows_->Error().ok()) {
      status_ = rows_->Error();
    }
  }

  bool Open() {
    std::size_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = chunks_.size();
      chunks_.emplace_back();
    }
    Chunk& c = chunks_[slot];
    const std::int64_t id = rows_->ColumnInt(0);
    data_->Bind(1, id);
    if (!data_->Step()) {
      status_ = !data_->Error().ok()
                    ? data_->Error()
                    : Status::Failed("hdfs chunk " + std::to_string(id) + ": gone while read");
      return false;
    }
    const std::string_view text = data_->ColumnView(0);
    // Room for the largest chunk the ingester writes, asked for once: only the bytes a chunk
    // fills become resident, and the slot is not reallocated (a string would double its
    // capacity whenever a chunk is a little longer than any before).
    c.text.reserve(std::max(text.size(), kMaxChunkBytes + kMaxChunkBytes / 8));
    c.text.assign(text.begin(), text.end());
    data_->Reset();
    c.entries.reserve(kMaxChunkRecords);
    c.entries.clear();
    c.next = 0;
    status_ = IndexHdfsChunk<Record>(id, std::string_view(c.text.data(), c.text.size()), from_ms_,
                                     to_ms_, &c.entries);
    if (status_.ok()) StepRow();
    if (!status_.ok()) return false;
    if (c.entries.empty()) {
      free_.push_back(slot);
      return true;
    }
    // Offsets follow the chunk's order, so this is the stable order by time.
    const auto by_time = [](const HdfsChunkEntry& x, const HdfsChunkEntry& y) {
      return std::tie(x.time_ms, x.offset) < std::tie(y.time_ms, y.offset);
    };
    if (!std::is_sorted(c.entries.begin(), c.entries.end(), by_time)) {
      std::sort(c.entries.begin(), c.entries.end(), by_time);
    }
    heap_.emplace(c.entries.front().time_ms, id, slot);
    return true;
  }

  std::int64_t from_ms_, to_ms_;
  std::optional<Statement> rows_;  // chunk ids by first time
  std::optional<Statement> data_;  // one chunk's text by id
  bool has_row_ = false;
  std::int64_t row_min_time_ = 0;
  Status status_;
  std::vector<Chunk> chunks_;
  std::vector<std::size_t> free_;
  Record record_;  // the record handed out last
  // (time of the chunk's next record, chunk id, slot): the earliest first, ties by chunk id.
  using Head = std::tuple<std::int64_t, std::int64_t, std::size_t>;
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heap_;
};

class StoreStreams : public models::HdfsRecordStreams {
 public:
  StoreStreams(Store& store, std::int64_t from_ms, std::int64_t to_ms)
      : store_(store), from_ms_(from_ms), to_ms_(to_ms) {}
  std::unique_ptr<models::HdfsRecordCursor<models::HdfsAuditRecord>> Audits() override {
    return std::make_unique<ChunkCursor<models::HdfsAuditRecord>>(store_, "hdfs_audit_chunk",
                                                                  from_ms_, to_ms_);
  }
  std::unique_ptr<models::HdfsRecordCursor<models::HdfsTransferRecord>> Transfers() override {
    return std::make_unique<ChunkCursor<models::HdfsTransferRecord>>(
        store_, "hdfs_transfer_chunk", from_ms_, to_ms_);
  }
  std::unique_ptr<models::HdfsRecordCursor<models::HdfsBlockRecord>> Blocks() override {
    return std::make_unique<ChunkCursor<models::HdfsBlockRecord>>(store_, "hdfs_block_chunk",
                                                                  INT64_MIN, INT64_MAX);
  }
  Result<std::unique_ptr<models::ScratchFile>> Scratch() override { return OpenScratchFile(); }

 private:
  Store& store_;
  std::int64_t from_ms_, to_ms_;
};

}  // namespace

std::unique_ptr<models::HdfsRecordStreams> HdfsStoreStreams(Store& store, std::int64_t from_ms,
                                                            std::int64_t to_ms) {
  return std::make_unique<StoreStreams>(store, from_ms, to_ms);
}

}  // namespace perfplan::profiles
