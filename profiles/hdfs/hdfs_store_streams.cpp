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

template <typename Record>
class ChunkCursor : public models::HdfsRecordCursor<Record> {
 public:
  ChunkCursor(Store& store, const char* table, std::int64_t from_ms, std::int64_t to_ms)
      : from_ms_(from_ms), to_ms_(to_ms) {
    // The time index gives the chunks by first time; ties are broken by chunk id in the heap.
    auto st = store.Prepare(std::string("SELECT id,min_time_ms,data FROM ") + table +
                            " WHERE min_time_ms<?2 AND max_time_ms>=?1 ORDER BY min_time_ms");
    if (!st.ok()) {
      status_ = st.status();
      return;
    }
    rows_.emplace(std::move(st).value());
    rows_->Bind(1, from_ms).Bind(2, to_ms);
    StepRow();
  }

  const Record* Next() override {
    if (done_ >= 0) {  // the chunk the previous record came from is used up: free it
      chunks_[static_cast<std::size_t>(done_)] = Chunk();
      free_.push_back(static_cast<std::size_t>(done_));
      done_ = -1;
    }
    if (!status_.ok()) return nullptr;
    // Open every chunk that may hold a record before the earliest one in hand.
    while (has_row_ && (heap_.empty() || row_min_time_ <= std::get<0>(heap_.top()))) {
      if (!Open()) return nullptr;
    }
    if (heap_.empty()) return nullptr;
    const auto [time, id, slot] = heap_.top();
    heap_.pop();
    Chunk& c = chunks_[slot];
    const Record* out = &c.records[c.next++];
    if (c.next < c.records.size()) {
      heap_.emplace(c.records[c.next].time_ms, id, slot);
    } else {
      done_ = static_cast<std::ptrdiff_t>(slot);
    }
    return out;
  }
  Status status() const override { return status_; }

 private:
  struct Chunk {
    std::vector<Record> records;  // in the window, stably sorted by time
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
    Chunk c;
    const std::int64_t id = rows_->ColumnInt(0);
    Status s = DecodeHdfsChunk(id, rows_->ColumnText(2), from_ms_, to_ms_, &c.records);
    if (!s.ok()) {
      status_ = s;
      return false;
    }
    StepRow();
    if (!status_.ok()) return false;
    if (c.records.empty()) return true;
    std::stable_sort(c.records.begin(), c.records.end(),
                     [](const Record& x, const Record& y) { return x.time_ms < y.time_ms; });
    std::size_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
      chunks_[slot] = std::move(c);
    } else {
      slot = chunks_.size();
      chunks_.push_back(std::move(c));
    }
    heap_.emplace(chunks_[slot].records.front().time_ms, id, slot);
    return true;
  }

  std::int64_t from_ms_, to_ms_;
  std::optional<Statement> rows_;
  bool has_row_ = false;
  std::int64_t row_min_time_ = 0;
  Status status_;
  std::vector<Chunk> chunks_;
  std::vector<std::size_t> free_;
  std::ptrdiff_t done_ = -1;
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
