#include "profiles/hdfs/hdfs_store_streams.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "profiles/hdfs/hdfs_chunk.h"
#include "profiles/scratch_file.h"

namespace perfplan::profiles {
namespace {

// An open chunk is its text and an index (profiles/hdfs/hdfs_chunk.h), and a record is decoded
// when it is handed out, into one record whose strings are reused. The texts of a cursor's open
// chunks share one buffer (the arena): a chunk is appended after the others, and when it would
// take the buffer past the most it has held, the parts not read yet are first moved to its front.
// So the memory is the most unread text ever open at once, plus one chunk: two chunks that share
// a millisecond at their boundary cost the first one's last records, not a second text. No
// allocation is made per chunk or per record once the buffer and the index slots have grown, so
// a long history neither grows nor fragments the heap (decoded chunk vectors did both).
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
    status_ = ReadHdfsChunkRecord(id, std::string_view(arena_.get() + c.at, c.size - c.kept_from),
                                  c.entries[c.next++].offset, &record_, c.kept_from);
    if (!status_.ok()) return nullptr;
    if (c.next < c.entries.size()) {
      heap_.emplace(c.entries[c.next].time_ms, id, slot);
    } else {
      Close(slot);
    }
    return &record_;
  }
  Status status() const override { return status_; }

 private:
  struct Chunk {
    std::uint32_t size = 0;               // of the chunk's text
    std::uint32_t kept_from = 0;          // its bytes [kept_from, size) are in the arena,
    std::size_t at = 0;                   // from arena_[at] on
    std::vector<HdfsChunkEntry> entries;  // its records in the window, by (time, position)
    bool by_position = true;              // entries are also in offset order
    std::size_t next = 0;
    bool open = false;
  };

  void StepRow() {
    has_row_ = rows_->Step();
    if (has_row_) {
      row_min_time_ = rows_->ColumnInt(1);
    } else if (!rows_->Error().ok()) {
      status_ = rows_->Error();
    }
  }

  void Close(std::size_t slot) {
    chunks_[slot].open = false;
    free_.push_back(slot);  // its index keeps its capacity for the next chunk
    if (--open_ == 0) arena_end_ = 0;
  }

  // Moves the unread part of every open chunk to the front of the arena, in arena order.
  void Compact() {
    std::vector<Chunk*> open;
    for (Chunk& c : chunks_) {
      if (c.open) open.push_back(&c);
    }
    std::sort(open.begin(), open.end(),
              [](const Chunk* x, const Chunk* y) { return x->at < y->at; });
    std::size_t to = 0;
    for (Chunk* c : open) {
      std::uint32_t from = c->entries[c->next].offset;  // the first byte still to be read
      if (!c->by_position) {
        for (std::size_t i = c->next; i < c->entries.size(); ++i) {
          from = std::min(from, c->entries[i].offset);
        }
      }
      const std::size_t n = c->size - from;
      std::memmove(arena_.get() + to, arena_.get() + c->at + (from - c->kept_from), n);
      c->at = to;
      c->kept_from = from;
      to += n;
    }
    arena_end_ = to;
  }

  // Room for `bytes` more in the arena: where they go.
  std::size_t Place(std::size_t bytes) {
    if (arena_end_ + bytes > high_water_) Compact();
    if (arena_end_ + bytes > capacity_) {
      // Asked for at least twice the largest chunk the ingester writes: only the bytes written
      // become resident.
      capacity_ =
          std::max({arena_end_ + bytes, 2 * capacity_, kMaxChunkBytes + kMaxChunkBytes / 8});
      std::unique_ptr<char[]> bigger(new char[capacity_]);
      if (arena_end_ > 0) std::memcpy(bigger.get(), arena_.get(), arena_end_);
      arena_ = std::move(bigger);
    }
    const std::size_t at = arena_end_;
    arena_end_ += bytes;
    high_water_ = std::max(high_water_, arena_end_);
    return at;
  }

  bool Open() {
    const std::int64_t id = rows_->ColumnInt(0);
    data_->Bind(1, id);
    if (!data_->Step()) {
      status_ = !data_->Error().ok()
                    ? data_->Error()
                    : Status::Failed("hdfs chunk " + std::to_string(id) + ": gone while read");
      return false;
    }
    const std::string_view text = data_->ColumnView(0);
    if (text.size() > UINT32_MAX) {
      status_ = Status::Failed("hdfs chunk " + std::to_string(id) + ": " +
                               std::to_string(text.size()) + " bytes, more than a chunk holds");
      return false;
    }
    const std::size_t at = Place(text.size());
    if (!text.empty()) std::memcpy(arena_.get() + at, text.data(), text.size());
    data_->Reset();
    std::size_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = chunks_.size();
      chunks_.emplace_back();
    }
    Chunk& c = chunks_[slot];
    c.size = static_cast<std::uint32_t>(text.size());
    c.kept_from = 0;
    c.at = at;
    c.entries.reserve(kMaxChunkRecords);
    c.entries.clear();
    c.next = 0;
    c.open = true;
    ++open_;
    status_ = IndexHdfsChunk<Record>(id, std::string_view(arena_.get() + at, c.size), from_ms_,
                                     to_ms_, &c.entries);
    if (status_.ok()) StepRow();
    if (!status_.ok()) return false;
    if (c.entries.empty()) {
      Close(slot);
      return true;
    }
    // Offsets follow the chunk's order, so this is the stable order by time.
    const auto by_time = [](const HdfsChunkEntry& x, const HdfsChunkEntry& y) {
      return std::tie(x.time_ms, x.offset) < std::tie(y.time_ms, y.offset);
    };
    c.by_position = std::is_sorted(c.entries.begin(), c.entries.end(), by_time);
    if (!c.by_position) std::sort(c.entries.begin(), c.entries.end(), by_time);
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
  std::size_t open_ = 0;           // chunks with records not handed out yet
  std::unique_ptr<char[]> arena_;  // the open chunks' texts: [0, arena_end_) in use
  std::size_t capacity_ = 0, arena_end_ = 0, high_water_ = 0;
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
