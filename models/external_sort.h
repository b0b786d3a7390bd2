// Sorting more fixed-size records than should be held in memory (an external merge sort), for
// analyses whose memory must not grow with the number of records they join (the HDFS workload's
// transfers against the accesses of their (client, path) pair, models/hdfs_workload.cpp).
//
// Records are gathered into a run of at most run_records; a full run is sorted and appended to
// scratch storage; Finish() sorts the last run and Next() merges the runs. A merge reads at most
// max_fan_in runs at once: when more were written, Finish() first merges the oldest max_fan_in
// into one longer run (appended to the same storage) until max_fan_in are left, so each record
// is written once more per such pass (log base max_fan_in of the runs). Memory: one run while
// adding, then at most max_fan_in read buffers of kReadBufferBytes (plus one to write while
// merging), however many records there are. When every record fits in one run nothing is written
// and no scratch storage is asked for.
//
// The storage is injected (ScratchFile), so models/ does no I/O itself: MemoryScratch for callers
// that hold their records anyway, a temporary file from profiles/ (profiles/scratch_file.h) for
// the store. Records compare by `less` (a strict weak order); equal records come in no
// particular order. Thread-safety: one thread. T must be trivially copyable and have no padding
// (std::has_unique_object_representations): its bytes are written as they are, and padding bytes
// would be uninitialized memory in the scratch storage (declare the padding as a zeroed member).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <queue>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

// Append-only bytes read back at offsets.
class ScratchFile {
 public:
  virtual ~ScratchFile() = default;
  // Appends `bytes` bytes at the end; Failed naming the storage and the error when it cannot.
  virtual Status Append(const void* data, std::size_t bytes) = 0;
  // Reads `bytes` bytes at `offset`, all appended before; Failed on a read error.
  virtual Status Read(std::uint64_t offset, void* data, std::size_t bytes) = 0;
};

// Scratch storage in memory (a vector): for sources whose records are in memory already.
class MemoryScratch : public ScratchFile {
 public:
  Status Append(const void* data, std::size_t bytes) override {
    const auto* p = static_cast<const char*>(data);
    bytes_.insert(bytes_.end(), p, p + bytes);
    return Status::Ok();
  }
  Status Read(std::uint64_t offset, void* data, std::size_t bytes) override {
    if (offset > bytes_.size() || bytes > bytes_.size() - offset) {
      return Status::Failed("scratch memory: read of " + std::to_string(bytes) + " bytes at " +
                            std::to_string(offset) + " past its end (" +
                            std::to_string(bytes_.size()) + " bytes)");
    }
    std::memcpy(data, bytes_.data() + offset, bytes);
    return Status::Ok();
  }

 private:
  std::vector<char> bytes_;
};

// Makes the storage for a sorter's runs, when the first run is written.
using ScratchFactory = std::function<Result<std::unique_ptr<ScratchFile>>()>;

template <typename T, typename Less>
class ExternalSorter {
  static_assert(std::is_trivially_copyable_v<T>, "records are written as bytes");
  static_assert(std::has_unique_object_representations_v<T>,
                "records are written as bytes: declare padding as a member, initialized");

 public:
  static constexpr std::size_t kReadBufferBytes = 64 * 1024;
  // Runs merged at once by default: 1 MiB of read buffers; 16 runs of 8 MiB are 128 MiB of
  // records before a second pass is needed.
  static constexpr std::size_t kDefaultMaxFanIn = 16;

  // run_records: at most this many records in memory before a run is written (at least 1).
  // max_fan_in: at most this many runs read at once (at least 2).
  ExternalSorter(std::size_t run_records, Less less, ScratchFactory scratch,
                 std::size_t max_fan_in = kDefaultMaxFanIn)
      : run_records_(std::max<std::size_t>(1, run_records)),
        max_fan_in_(std::max<std::size_t>(2, max_fan_in)),
        less_(std::move(less)),
        make_scratch_(std::move(scratch)) {}
  ExternalSorter(const ExternalSorter&) = delete;  // the heap's order points at this
  ExternalSorter& operator=(const ExternalSorter&) = delete;

  // Adds a record (before Finish). Fails, and stays failed, when a full run cannot be written.
  Status Add(const T& record) {
    if (!status_.ok()) return status_;
    if (buffer_.capacity() == 0) buffer_.reserve(run_records_);
    buffer_.push_back(record);
    if (buffer_.size() >= run_records_) status_ = WriteRun();
    return status_;
  }

  // Ends adding; from now on Next() hands out the records in order.
  Status Finish() {
    if (!status_.ok()) return status_;
    if (runs_.empty()) {  // everything fits in memory
      std::sort(buffer_.begin(), buffer_.end(), less_);
      return status_;
    }
    if (!buffer_.empty()) status_ = WriteRun();
    buffer_ = std::vector<T>();
    while (status_.ok() && runs_.size() > max_fan_in_) status_ = MergeOldest();
    if (!status_.ok()) return status_;
    Start(runs_.size());
    return status_;
  }

  // The next record in order, or nullptr at the end or on a read error (status() says which).
  // The record stays valid until the next call.
  const T* Next() {
    if (!status_.ok()) return nullptr;
    if (runs_.empty()) return next_ < buffer_.size() ? &buffer_[next_++] : nullptr;
    return Pop(&current_) ? &current_ : nullptr;
  }

  Status status() const { return status_; }
  // How many sorted runs were written to scratch storage (0 when everything fitted in memory).
  std::size_t runs_written() const { return sorted_runs_; }
  // How many runs merging wrote to bring the runs down to max_fan_in (0 when no more were
  // written), and how many runs Next() merges (at most max_fan_in); after Finish.
  std::size_t merged_runs_written() const { return merged_runs_; }
  std::size_t final_fan_in() const { return runs_.size(); }

 private:
  struct Run {
    std::uint64_t offset = 0;  // in the scratch storage
    std::size_t count = 0;     // records
    std::size_t read = 0;      // records read so far
    std::vector<T> buffer;     // buffer[position..] not handed out yet
    std::size_t position = 0;
  };
  // Orders run indices for a min-heap by their current record.
  struct HeapOrder {
    const ExternalSorter* sorter;
    bool operator()(std::size_t x, std::size_t y) const {
      const Run& a = sorter->runs_[x];
      const Run& b = sorter->runs_[y];
      return sorter->less_(b.buffer[b.position], a.buffer[a.position]);
    }
  };

  Status WriteRun() {
    if (!scratch_) {
      auto made = make_scratch_();
      if (!made.ok()) return made.status();
      scratch_ = std::move(made).value();
    }
    std::sort(buffer_.begin(), buffer_.end(), less_);
    const std::size_t bytes = buffer_.size() * sizeof(T);
    if (Status s = scratch_->Append(buffer_.data(), bytes); !s.ok()) return s;
    runs_.push_back({written_bytes_, buffer_.size(), 0, {}, 0});
    written_bytes_ += bytes;
    ++sorted_runs_;
    buffer_.clear();
    return Status::Ok();
  }

  // Reads the run's next records (at most `records`) into its buffer; false on an error.
  bool Refill(Run& run, std::size_t records) {
    const std::size_t n = std::min(records, run.count - run.read);
    run.buffer.resize(n);
    run.position = 0;
    status_ = scratch_->Read(run.offset + run.read * sizeof(T), run.buffer.data(), n * sizeof(T));
    run.read += n;
    return status_.ok();
  }

  // Fills the read buffers of the first `count` runs and puts them in the heap.
  void Start(std::size_t count) {
    const std::size_t read_records = std::max<std::size_t>(1, kReadBufferBytes / sizeof(T));
    for (std::size_t i = 0; i < count; ++i) {
      runs_[i].buffer.reserve(std::min(read_records, runs_[i].count));
      if (!Refill(runs_[i], read_records)) return;
      heap_.push(i);
    }
  }

  // Moves the least record of the runs in the heap to *out; false at the end or on a read error.
  bool Pop(T* out) {
    if (heap_.empty()) return false;
    const std::size_t i = heap_.top();
    heap_.pop();
    Run& run = runs_[i];
    *out = run.buffer[run.position++];
    if (run.position == run.buffer.size() && run.read < run.count) {
      if (!Refill(run, run.buffer.capacity())) return false;
    }
    if (run.position < run.buffer.size()) heap_.push(i);
    return true;
  }

  // Merges the max_fan_in oldest runs into one run at the end of the scratch storage.
  Status MergeOldest() {
    Start(max_fan_in_);
    Run merged{written_bytes_, 0, 0, {}, 0};
    buffer_.reserve(std::max<std::size_t>(1, kReadBufferBytes / sizeof(T)));
    T record;
    for (;;) {
      const bool more = Pop(&record);
      if (!status_.ok()) return status_;
      if (more) buffer_.push_back(record);
      if (buffer_.size() == buffer_.capacity() || (!more && !buffer_.empty())) {
        const std::size_t bytes = buffer_.size() * sizeof(T);
        if (Status s = scratch_->Append(buffer_.data(), bytes); !s.ok()) return s;
        written_bytes_ += bytes;
        merged.count += buffer_.size();
        buffer_.clear();
      }
      if (!more) break;
    }
    buffer_ = std::vector<T>();
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(max_fan_in_));
    runs_.push_back(std::move(merged));
    ++merged_runs_;
    return Status::Ok();
  }

  std::size_t run_records_;
  std::size_t max_fan_in_;
  Less less_;
  ScratchFactory make_scratch_;
  std::unique_ptr<ScratchFile> scratch_;
  Status status_ = Status::Ok();
  std::vector<T> buffer_;  // the run being gathered; after Finish, all records when no run was written
  std::size_t next_ = 0;   // in buffer_, when no run was written
  std::vector<Run> runs_;
  std::uint64_t written_bytes_ = 0;
  std::size_t sorted_runs_ = 0;  // runs written by WriteRun
  std::size_t merged_runs_ = 0;  // runs written by MergeOldest
  std::priority_queue<std::size_t, std::vector<std::size_t>, HeapOrder> heap_{HeapOrder{this}};
  T current_{};
};

}  // namespace perfplan::models
