#include "models/hdfs_workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>
#include <string_view>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "models/external_sort.h"
#include "models/hdfs_record_streams.h"
#include "models/text.h"

namespace perfplan::models {
namespace {

enum class OpClass { kRead, kWrite, kMetadata };

OpClass Classify(const std::string& cmd) {
  if (cmd == "open") return OpClass::kRead;
  if (cmd == "create" || cmd == "append") return OpClass::kWrite;
  return OpClass::kMetadata;
}

}  // namespace

Status HdfsWorkloadOptions::Validate() const {
  if (!(balancer_gini_threshold >= 0 && balancer_gini_threshold <= 1)) {
    return Status::InvalidArgument(
        "balancer_gini_threshold = " + FormatFixed(balancer_gini_threshold, 3) +
        ": expected a value in [0, 1]");
  }
  if (cache_min_reads < 2) {
    return Status::InvalidArgument("cache_min_reads = " + std::to_string(cache_min_reads) +
                                   ": a file must be read at least 2 times to be re-read");
  }
  if (!(cache_window_seconds > 0)) {
    return Status::InvalidArgument(
        "cache_window_seconds = " + FormatFixed(cache_window_seconds, 3) +
        ": expected a positive number of seconds");
  }
  if (max_cache_directives < 0) {
    return Status::InvalidArgument(
        "max_cache_directives = " + std::to_string(max_cache_directives) + ": must be >= 0");
  }
  if (cache_pool.empty()) return Status::InvalidField("cache_pool", "must not be empty");
  if (sort_run_bytes < 1) {
    return Status::InvalidArgument("sort_run_bytes = " + std::to_string(sort_run_bytes) +
                                   ": must be >= 1");
  }
  if (from_ms >= 0 && to_ms >= 0 && to_ms <= from_ms) {
    return Status::InvalidField("to_ms", "must be after from_ms");
  }
  return Status::Ok();
}

double Gini(std::vector<double> v) {
  if (v.size() < 2) return 0;
  std::sort(v.begin(), v.end());
  double total = 0, weighted = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    total += v[i];
    weighted += static_cast<double>(i + 1) * v[i];
  }
  if (total <= 0) return 0;
  const double n = static_cast<double>(v.size());
  return 2 * weighted / (n * total) - (n + 1) / n;
}

std::string ShellQuote(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '/' || c == '-';
  });
  if (plain) return text;
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

namespace {

// Visits the records of a vector by time, stably (the order the analysis needs), without copying
// them: a sorted index.
template <typename Record>
class VectorCursor : public HdfsRecordCursor<Record> {
 public:
  explicit VectorCursor(const std::vector<Record>& records) : records_(records) {
    order_.resize(records.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    std::stable_sort(order_.begin(), order_.end(), [&records](std::size_t x, std::size_t y) {
      return records[x].time_ms < records[y].time_ms;
    });
  }
  const Record* Next() override {
    return next_ < order_.size() ? &records_[order_[next_++]] : nullptr;
  }

 private:
  const std::vector<Record>& records_;
  std::vector<std::size_t> order_;
  std::size_t next_ = 0;
};


// Small ids for strings seen many times (IPs, users, paths, blocks), so that per-key state is a
// slot of a vector and per-pair state a few integers rather than copies of the strings. Open
// addressing over (id, hash tag) cells: a lookup touches one cell and, on a tag match, the name;
// a node-based std::unordered_map walked scattered nodes (a quarter of `workload`'s CPU).
class Interner {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  std::uint32_t Id(const std::string& s) {
    if ((names_.size() + 1) * 4 > cells_.size() * 3) Grow();
    const std::uint64_t h = Hash(s);
    Cell& cell = cells_[Probe(s, h)];
    if (cell.id != kNone) return cell.id;
    cell = {static_cast<std::uint32_t>(names_.size()), Tag(h)};
    names_.push_back(s);
    hashes_.push_back(h);
    return cell.id;
  }
  // The id of a string seen before, else kNone.
  std::uint32_t Find(const std::string& s) const {
    if (cells_.empty()) return kNone;
    return cells_[Probe(s, Hash(s))].id;
  }
  const std::string& Name(std::uint32_t id) const { return names_[id]; }
  std::size_t size() const { return names_.size(); }

 private:
  struct Cell {
    std::uint32_t id = kNone;
    std::uint32_t tag = 0;  // the hash's high half
  };
  static std::uint64_t Hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
  static std::uint32_t Tag(std::uint64_t h) { return static_cast<std::uint32_t>(h >> 32); }
  // The cell holding `s`, or the empty cell where it belongs.
  std::size_t Probe(std::string_view s, std::uint64_t h) const {
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Cell& c = cells_[i];
      if (c.id == kNone || (c.tag == Tag(h) && names_[c.id] == s)) return i;
    }
  }
  void Grow() {
    std::vector<Cell> cells(std::max<std::size_t>(64, cells_.size() * 2));
    mask_ = cells.size() - 1;
    for (std::uint32_t id = 0; id < names_.size(); ++id) {
      std::size_t i = hashes_[id] & mask_;
      while (cells[i].id != kNone) i = (i + 1) & mask_;
      cells[i] = {id, Tag(hashes_[id])};
    }
    cells_.swap(cells);
  }
  std::vector<Cell> cells_;
  std::size_t mask_ = 0;
  std::deque<std::string> names_;  // by id; a deque, so Name()'s references stay valid
  std::vector<std::uint64_t> hashes_;  // by id, for growing
};

// The slot of an id in a vector indexed by id, grown on first use.
template <typename T>
T& Slot(std::vector<T>& slots, std::uint32_t id) {
  if (id >= slots.size()) slots.resize(id + 1);
  return slots[id];
}

// Open addressing (linear probing) from a pair of ids to a small value: 8 bytes of key beside
// the value and no node per entry (a std::unordered_map spends ~50 bytes more on each; the
// (client, path) pairs are the one state that grows with history).
template <typename V>
class PairMap {
 public:
  static std::uint64_t Key(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::uint64_t>(a) << 32 | b;
  }
  V* Find(std::uint64_t key) {
    if (keys_.empty()) return nullptr;
    for (std::size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
      if (keys_[i] == key) return &values_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  V& operator[](std::uint64_t key) {
    if ((size_ + 1) * 4 > keys_.size() * 3) Grow();
    std::size_t i = Hash(key) & mask_;
    while (keys_[i] != key && keys_[i] != kEmpty) i = (i + 1) & mask_;
    if (keys_[i] == kEmpty) keys_[i] = key, values_[i] = V{}, ++size_;
    return values_[i];
  }
  // f(first id, second id, value) for every entry, in no particular order.
  template <typename F>
  void ForEach(F&& f) const {
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] != kEmpty) {
        f(static_cast<std::uint32_t>(keys_[i] >> 32), static_cast<std::uint32_t>(keys_[i]),
          values_[i]);
      }
    }
  }

 private:
  // Two ids of kNone: never a key, as kNone is never handed out.
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static std::size_t Hash(std::uint64_t k) {  // the murmur3 finalizer
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return static_cast<std::size_t>(k);
  }
  void Grow() {
    std::vector<std::uint64_t> keys(std::max<std::size_t>(64, keys_.size() * 2), kEmpty);
    std::vector<V> values(keys.size());
    const std::size_t mask = keys.size() - 1;
    for (std::size_t j = 0; j < keys_.size(); ++j) {
      if (keys_[j] == kEmpty) continue;
      std::size_t i = Hash(keys_[j]) & mask;
      while (keys[i] != kEmpty) i = (i + 1) & mask;
      keys[i] = keys_[j];
      values[i] = values_[j];
    }
    keys_.swap(keys);
    values_.swap(values);
    mask_ = mask;
  }
  std::vector<std::uint64_t> keys_;
  std::vector<V> values_;
  std::size_t mask_ = 0, size_ = 0;
};

// What a client (or user) did to a path: read it (an open), wrote it (a create or append).
enum PairFlag : std::uint8_t { kRead = 1, kWritten = 2 };

// One access (an allowed open, create or append in the window) or one transfer of a known block
// by a client, as the sort that joins them holds them: by (path, client, time), at equal times
// the accesses first (an open at t explains a transfer at t), accesses at equal times by the
// user's name. A transfer goes to the user of its client's latest access of the path at or before
// it, else (none yet) of the client's first access. A pair's accesses also say which distinct
// files the client and each user read and wrote. The bytes go to the scratch storage as they
// are: the padding is a member, zeroed by the aggregate initialization that leaves it out (the
// sorter refuses types with implicit padding).
enum RowKind : std::uint8_t { kAccess = 0, kTransfer = 1 };
struct PairRow {
  std::uint32_t path, client;
  std::int64_t time_ms;
  std::int64_t bytes;  // a transfer's; 0 for an access
  std::uint32_t who;   // an access's user id; a transfer's DataNode IP id
  std::uint8_t kind;   // RowKind
  std::uint8_t flag;   // an access's kRead | kWritten; a transfer's is_read (0 or 1)
  std::uint8_t padding[2];
};
static_assert(sizeof(PairRow) == 32);
// A path's cache-window count from the times of all its opens (any order; sorted here): the most
// opens within window_ms of one another, as a window sliding over the history ending at each open
// holds them. Computed in the join, path by path, from the opens' rows of the sort: a ring per
// path sized to the most its window held crept up with a longer history (2.7 MB at 10^7 records
// against 1.5 MB at 10^6), where one vector of the path at hand is reused.
std::int64_t MostOpensInWindow(std::vector<std::int64_t>& times, std::int64_t window_ms) {
  std::sort(times.begin(), times.end());
  std::size_t best = 0;
  for (std::size_t first = 0, i = 0; i < times.size(); ++i) {
    while (times[i] - times[first] > window_ms) ++first;
    best = std::max(best, i - first + 1);
  }
  return static_cast<std::int64_t>(best);
}

// What is known of one path: its creates so far (the epoch of the blocks allocated now: a path
// rewritten by delete + create starts again), its size (the blocks of the latest epoch), whether
// it was read or written in the window, and its opens (all, and the most within the cache window).
struct PathState {
  std::size_t creates = 0, epoch = 0;
  std::int64_t size = 0;
  bool sized = false;
  std::uint8_t flags = 0;  // kRead | kWritten
  std::int64_t opens = 0, most_opens_in_window = 0;
};

// A block's latest allocation (by time, then path name) and its largest write.
struct BlockState {
  std::int64_t allocated_ms = 0;
  std::uint32_t path = Interner::kNone;
  bool written = false;
  std::int64_t write_bytes = 0;
};

// Accumulates one client's or user's figures before they are frozen into HdfsClientStats.
struct Acc {
  bool used = false;
  std::int64_t read_ops = 0, write_ops = 0, metadata_ops = 0, denied_ops = 0;
  std::int64_t read_bytes = 0, write_bytes = 0, block_reads = 0, block_writes = 0;
  // Filled at the end from the pairs: distinct files, and the sums of their known sizes.
  std::int64_t files_read = 0, files_written = 0;
  std::int64_t read_sized = 0, write_sized = 0, read_size_sum = 0, write_size_sum = 0;
  std::vector<std::pair<std::uint32_t, std::int64_t>> bytes_per_datanode;  // IP id, bytes
};

void AddTo(Acc& a, PairMap<std::int64_t>& datanode_bytes, std::uint64_t key, bool is_read,
           std::int64_t bytes, std::int64_t ops) {
  (is_read ? a.read_bytes : a.write_bytes) += bytes;
  (is_read ? a.block_reads : a.block_writes) += ops;
  datanode_bytes[key] += bytes;
}

// Counts one of an owner's distinct files (flags: kRead | kWritten) and adds its known size.
// Sizes are summed as integers: the mean is the same double as summing them one by one in name
// order while the total stays below 2^53 bytes, and exact beyond.
void CountFile(Acc& a, unsigned flags, const PathState& p) {
  if (flags & kRead) {
    ++a.files_read;
    if (p.sized) ++a.read_sized, a.read_size_sum += p.size;
  }
  if (flags & kWritten) {
    ++a.files_written;
    if (p.sized) ++a.write_sized, a.write_size_sum += p.size;
  }
}

double Mean(std::int64_t sum, std::int64_t n) {
  return n ? static_cast<double>(sum) / static_cast<double>(n) : 0;
}

// The used accumulators as stats, most bytes first (ties in name order). `names` names the
// owners, `ips` the DataNodes of bytes_per_datanode.
std::vector<HdfsClientStats> Freeze(std::vector<Acc>& accs, const Interner& names,
                                    const PairMap<std::int64_t>& datanode_bytes,
                                    const Interner& ips, double window_seconds) {
  datanode_bytes.ForEach([&](std::uint32_t owner, std::uint32_t datanode, std::int64_t bytes) {
    accs[owner].bytes_per_datanode.emplace_back(datanode, bytes);
  });
  std::vector<std::uint32_t> order;
  for (std::uint32_t id = 0; id < accs.size(); ++id) {
    if (accs[id].used) order.push_back(id);
  }
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t x, std::uint32_t y) { return names.Name(x) < names.Name(y); });
  std::vector<HdfsClientStats> out;
  out.reserve(order.size());
  for (std::uint32_t id : order) {
    Acc& a = accs[id];
    HdfsClientStats s;
    s.key = names.Name(id);
    s.read_ops = a.read_ops;
    s.write_ops = a.write_ops;
    s.metadata_ops = a.metadata_ops;
    s.denied_ops = a.denied_ops;
    s.read_bytes = a.read_bytes;
    s.write_bytes = a.write_bytes;
    s.block_reads = a.block_reads;
    s.block_writes = a.block_writes;
    s.iops = static_cast<double>(a.read_ops + a.write_ops + a.metadata_ops) / window_seconds;
    s.read_write_ratio =
        a.write_bytes ? static_cast<double>(a.read_bytes) / static_cast<double>(a.write_bytes) : 0;
    s.files_read = a.files_read;
    s.files_written = a.files_written;
    s.mean_read_file_bytes = Mean(a.read_size_sum, a.read_sized);
    s.mean_write_file_bytes = Mean(a.write_size_sum, a.write_sized);
    std::sort(a.bytes_per_datanode.begin(), a.bytes_per_datanode.end(),
              [&](const auto& x, const auto& y) { return ips.Name(x.first) < ips.Name(y.first); });
    s.datanodes_touched = static_cast<std::int64_t>(a.bytes_per_datanode.size());
    s.bytes_per_datanode.reserve(a.bytes_per_datanode.size());
    for (const auto& [datanode, bytes] : a.bytes_per_datanode) {
      s.bytes_per_datanode.emplace_back(ips.Name(datanode), bytes);
    }
    a.bytes_per_datanode = {};
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const HdfsClientStats& x, const HdfsClientStats& y) {
    return x.read_bytes + x.write_bytes > y.read_bytes + y.write_bytes;
  });
  return out;
}

// The names behind the analysis's ids; shared with the reader of the read streams, which outlives
// the analysis.
struct Names {
  Interner ips, users, paths, blocks;
};

// One read of a client's stream as the sort of the streams holds it: by client name, the block
// reads before the file reads, then as HdfsClientStream's vectors are ordered (blocks by time,
// DataNode name, block name, bytes; files by time, path name). Ids, so the row is 32 bytes.
enum StreamKind : std::uint8_t { kBlockRead = 0, kFileRead = 1 };
struct StreamRow {
  std::int64_t time_ms;
  std::int64_t bytes;    // a block read's; 0 for a file read
  std::uint32_t client;  // IP id
  std::uint32_t what;    // a file read's path id; a block read's DataNode IP id
  std::uint32_t block;   // a block read's block id
  std::uint8_t kind;     // StreamKind
  std::uint8_t padding[3];
};
static_assert(sizeof(StreamRow) == 32);
struct StreamLess {
  const Names* names;
  bool operator()(const StreamRow& x, const StreamRow& y) const {
    if (x.client != y.client) return names->ips.Name(x.client) < names->ips.Name(y.client);
    if (x.kind != y.kind) return x.kind < y.kind;
    if (x.time_ms != y.time_ms) return x.time_ms < y.time_ms;
    if (x.kind == kFileRead) {
      return x.what != y.what && names->paths.Name(x.what) < names->paths.Name(y.what);
    }
    if (x.what != y.what) return names->ips.Name(x.what) < names->ips.Name(y.what);
    if (x.block != y.block) return names->blocks.Name(x.block) < names->blocks.Name(y.block);
    return x.bytes < y.bytes;
  }
};
using StreamSorter = ExternalSorter<StreamRow, StreamLess>;

// Hands out the sorted stream rows as reads, with their names. Without a sorter, no reads.
class SortedReadStreams : public HdfsReadStreams {
 public:
  SortedReadStreams(std::shared_ptr<const Names> names, std::unique_ptr<StreamSorter> sorter)
      : names_(std::move(names)), sorter_(std::move(sorter)) {}
  const HdfsStreamRead* Next() override {
    const StreamRow* r = sorter_ ? sorter_->Next() : nullptr;
    if (!r) return nullptr;
    read_.client = &names_->ips.Name(r->client);
    if (r->kind == kFileRead) {
      file_.time_ms = r->time_ms;
      file_.path = names_->paths.Name(r->what);
      read_.file = &file_, read_.block = nullptr;
    } else {
      block_.time_ms = r->time_ms;
      block_.datanode = names_->ips.Name(r->what);
      block_.block = names_->blocks.Name(r->block);
      block_.bytes = r->bytes;
      read_.file = nullptr, read_.block = &block_;
    }
    return &read_;
  }
  Status status() const override { return sorter_ ? sorter_->status() : Status::Ok(); }

 private:
  std::shared_ptr<const Names> names_;
  std::unique_ptr<StreamSorter> sorter_;
  HdfsStreamRead read_;
  HdfsFileRead file_;
  HdfsBlockRead block_;
};

// Reads every record of a cursor; the cursor's status at the end.
template <typename Record, typename F>
Status EachRecord(std::unique_ptr<HdfsRecordCursor<Record>> cursor, F&& f) {
  while (const Record* r = cursor->Next()) f(*r);
  return cursor->status();
}

}  // namespace

std::unique_ptr<HdfsRecordCursor<HdfsAuditRecord>> VectorHdfsStreams::Audits() {
  return std::make_unique<VectorCursor<HdfsAuditRecord>>(audits_);
}
std::unique_ptr<HdfsRecordCursor<HdfsTransferRecord>> VectorHdfsStreams::Transfers() {
  return std::make_unique<VectorCursor<HdfsTransferRecord>>(transfers_);
}
std::unique_ptr<HdfsRecordCursor<HdfsBlockRecord>> VectorHdfsStreams::Blocks() {
  return std::make_unique<VectorCursor<HdfsBlockRecord>>(blocks_);
}

HdfsWorkload AnalyzeHdfsWorkload(const std::vector<HdfsAuditRecord>& audits,
                                 const std::vector<HdfsTransferRecord>& transfers,
                                 const std::vector<HdfsBlockRecord>& blocks,
                                 const HdfsWorkloadOptions& options) {
  VectorHdfsStreams streams(audits, transfers, blocks);
  return std::move(AnalyzeHdfsWorkload(streams, options)).value();  // vectors never fail
}

Result<HdfsWorkload> AnalyzeHdfsWorkload(HdfsRecordStreams& records,
                                         const HdfsWorkloadOptions& options) {
  std::unique_ptr<HdfsReadStreams> reads;
  auto w = AnalyzeHdfsWorkload(records, options, &reads);
  if (!w.ok()) return w;
  if (Status s = CollectReadStreams(*reads, &w.value().streams); !s.ok()) return s;
  return w;
}

Status CollectReadStreams(HdfsReadStreams& reads, std::vector<HdfsClientStream>* streams) {
  const std::size_t first = streams->size();
  while (const HdfsStreamRead* r = reads.Next()) {
    if (streams->size() == first || streams->back().client != *r->client) {
      streams->emplace_back().client = *r->client;
    }
    if (r->file) streams->back().files.push_back(*r->file);
    if (r->block) streams->back().blocks.push_back(*r->block);
  }
  return reads.status();
}

Result<HdfsWorkload> AnalyzeHdfsWorkload(HdfsRecordStreams& records,
                                         const HdfsWorkloadOptions& options,
                                         std::unique_ptr<HdfsReadStreams>* reads) {
  HdfsWorkload w;
  const std::int64_t from = options.from_ms >= 0 ? options.from_ms : INT64_MIN;
  const std::int64_t to = options.to_ms >= 0 ? options.to_ms : INT64_MAX;
  auto in_window = [&](std::int64_t t) { return t >= from && t < to; };
  // Every piece of state below is per distinct key (IP, user, path, block, (client or user,
  // DataNode)) or a sort of bounded memory; no record is held (streams excepted).
  auto names = std::make_shared<Names>();
  Interner &ips = names->ips, &users = names->users, &paths = names->paths, &blocks = names->blocks;
  std::vector<std::uint8_t> is_datanode;  // by IP id
  std::vector<PathState> path_state;      // by path id
  std::vector<BlockState> block_state;    // by block id
  PairMap<std::int64_t> client_datanode_bytes, user_datanode_bytes;  // (owner id, DataNode IP id)
  // What grows with the (client, path) pairs a history touches goes through one sort (bounded
  // memory, runs in the source's scratch storage), joined after the merge: the accesses and the
  // attributable transfers, as PairRow.
  auto pair_less = [&users](const PairRow& x, const PairRow& y) {
    if (x.path != y.path) return x.path < y.path;
    if (x.client != y.client) return x.client < y.client;
    if (x.time_ms != y.time_ms) return x.time_ms < y.time_ms;
    if (x.kind != y.kind) return x.kind < y.kind;
    return x.kind == kAccess && x.who != y.who && users.Name(x.who) < users.Name(y.who);
  };
  ExternalSorter<PairRow, decltype(pair_less)> joined(
      static_cast<std::size_t>(options.sort_run_bytes) / sizeof(PairRow), pair_less,
      [&records] { return records.Scratch(); });
  // The per-client read streams (options.streams) go through a second sort, by client.
  std::unique_ptr<StreamSorter> stream_sort;
  if (options.streams) {
    stream_sort = std::make_unique<StreamSorter>(
        static_cast<std::size_t>(options.sort_run_bytes) / sizeof(StreamRow),
        StreamLess{names.get()}, [&records] { return records.Scratch(); });
  }
  Status spilled = Status::Ok();  // the first failure to add to a sort
  auto path_id = [&](const std::string& path) {
    const std::uint32_t id = paths.Id(path);
    Slot(path_state, id);
    return id;
  };

  // Pass 1: every block (the block → path map: a block's latest allocation, by (time, path)) and
  // every transfer (DataNode IPs, to tell pipeline hops, and block sizes: the largest write).
  std::int64_t block_records = 0;
  Status status = EachRecord(records.Blocks(), [&](const HdfsBlockRecord& b) {
    ++block_records;
    BlockState& x = Slot(block_state, blocks.Id(b.block));
    const std::uint32_t path = path_id(b.path);
    if (x.path == Interner::kNone || b.time_ms > x.allocated_ms ||
        (b.time_ms == x.allocated_ms && path != x.path && paths.Name(path) > paths.Name(x.path))) {
      x.allocated_ms = b.time_ms, x.path = path;
    }
  });
  if (!status.ok()) return status;
  status = EachRecord(records.Transfers(), [&](const HdfsTransferRecord& t) {
    Slot(is_datanode, ips.Id(t.datanode)) = 1;
    if (!t.is_read) {
      BlockState& x = Slot(block_state, blocks.Id(t.block));
      x.write_bytes = x.written ? std::max(x.write_bytes, t.bytes) : t.bytes;
      x.written = true;
    }
  });
  if (!status.ok()) return status;
  // Pass 2: audits, blocks and transfers merged by time (at equal times audits first, then
  // blocks, then transfers: a create or open at t precedes what it explains at t).
  HdfsClusterStats& c = w.cluster;
  std::int64_t first = INT64_MAX, last = INT64_MIN;
  std::vector<Acc> by_client, by_user;  // by IP id, user id
  std::vector<HdfsDataNodeStats> nodes;  // by IP id; used when datanode is set
  std::vector<std::uint8_t> node_used;
  const auto window_ms = static_cast<std::int64_t>(options.cache_window_seconds * 1000);
  std::int64_t unknown_blocks = 0;
  // Whether a record at `t` is inside the window; one that is widens [first, last].
  auto within = [&](std::int64_t t) {
    if (!in_window(t)) return false;
    first = std::min(first, t);
    last = std::max(last, t);
    return true;
  };

  auto on_audit = [&](const HdfsAuditRecord& a) {
    if (a.allowed && a.cmd == "create") ++path_state[path_id(a.src)].creates;
    if (!within(a.time_ms)) return;
    ++c.audit_records;
    const std::uint32_t client = ips.Id(a.ip), user = users.Id(a.user);
    Acc& ac = Slot(by_client, client);
    Acc& au = Slot(by_user, user);
    ac.used = au.used = true;
    if (!a.allowed) {
      ++ac.denied_ops;
      ++au.denied_ops;
      ++c.denied_ops;
      return;
    }
    const OpClass op = Classify(a.cmd);
    if (op == OpClass::kMetadata) {
      ++ac.metadata_ops, ++au.metadata_ops, ++c.metadata_ops;
      return;
    }
    const std::uint32_t path = path_id(a.src);
    PathState& p = path_state[path];
    const PairFlag flag = op == OpClass::kRead ? kRead : kWritten;
    if (op == OpClass::kRead) {
      ++ac.read_ops, ++au.read_ops, ++c.read_ops;
      if (stream_sort && spilled.ok()) {
        spilled = stream_sort->Add({a.time_ms, 0, client, path, 0, kFileRead, {}});
      }
    } else {
      ++ac.write_ops, ++au.write_ops, ++c.write_ops;
    }
    p.flags |= flag;
    if (spilled.ok()) spilled = joined.Add({path, client, a.time_ms, 0, user, kAccess, flag, {}});
  };
  auto on_block = [&](const HdfsBlockRecord& b) {
    const std::uint32_t id = blocks.Find(b.block);
    if (id == Interner::kNone || !block_state[id].written) return;
    PathState& p = path_state[path_id(b.path)];
    if (p.creates > p.epoch) p.epoch = p.creates, p.size = 0;
    if (p.creates == p.epoch) p.size += block_state[id].write_bytes;
    p.sized = true;
  };
  auto on_transfer = [&](const HdfsTransferRecord& t) {
    if (!within(t.time_ms)) return;
    ++c.transfer_records;
    const std::uint32_t datanode = ips.Id(t.datanode), peer = ips.Id(t.peer);
    HdfsDataNodeStats& n = Slot(nodes, datanode);
    Slot(node_used, datanode) = 1;
    const bool pipeline_hop =
        !t.is_read && peer != datanode && peer < is_datanode.size() && is_datanode[peer] != 0;
    if (t.is_read) {
      n.read_bytes += t.bytes;
      ++n.read_ops;
      c.read_bytes += t.bytes;
    } else {
      n.write_bytes += t.bytes;
      ++n.write_ops;
      if (pipeline_hop) {
        n.replication_write_bytes += t.bytes;
        c.replication_write_bytes += t.bytes;
        return;
      }
      c.write_bytes += t.bytes;
    }
    Acc& ac = Slot(by_client, peer);
    ac.used = true;
    AddTo(ac, client_datanode_bytes, PairMap<std::int64_t>::Key(peer, datanode), t.is_read,
          t.bytes, 1);
    // Attributed to a user after the merge (the join below): block → path → the client's latest
    // open/create at or before t (or, when it has none yet, its first one). A read's block is
    // named in the streams, so it gets an id even when nothing allocated or wrote it.
    std::uint32_t block = blocks.Find(t.block);
    if (stream_sort && t.is_read) {
      if (block == Interner::kNone) block = blocks.Id(t.block), Slot(block_state, block);
      if (spilled.ok()) {
        spilled = stream_sort->Add({t.time_ms, t.bytes, peer, datanode, block, kBlockRead, {}});
      }
    }
    if (block == Interner::kNone || block_state[block].path == Interner::kNone) {
      ++unknown_blocks;
      c.unattributed_bytes += t.bytes;
      return;
    }
    if (spilled.ok()) {
      spilled = joined.Add({block_state[block].path,
                            peer,
                            t.time_ms,
                            t.bytes,
                            datanode,
                            kTransfer,
                            static_cast<std::uint8_t>(t.is_read ? 1 : 0),
                            {}});
    }
  };
  {
    auto audit_cursor = records.Audits();
    auto block_cursor = records.Blocks();
    auto transfer_cursor = records.Transfers();
    const HdfsAuditRecord* a = audit_cursor->Next();
    const HdfsBlockRecord* b = block_cursor->Next();
    const HdfsTransferRecord* t = transfer_cursor->Next();
    for (;;) {
      const std::int64_t ta = a ? a->time_ms : INT64_MAX;
      const std::int64_t tb = b ? b->time_ms : INT64_MAX;
      const std::int64_t tt = t ? t->time_ms : INT64_MAX;
      if (a && ta <= tb && ta <= tt) {
        on_audit(*a);
        a = audit_cursor->Next();
      } else if (b && tb <= tt) {
        on_block(*b);
        b = block_cursor->Next();
      } else if (t) {
        on_transfer(*t);
        t = transfer_cursor->Next();
      } else {
        break;
      }
    }
    for (const Status& cursor_status :
         {audit_cursor->status(), block_cursor->status(), transfer_cursor->status(), spilled}) {
      if (!cursor_status.ok()) return cursor_status;
    }
  }

  // The join, pair by pair in (path, client) order: each transfer goes to the user of the latest
  // access at or before it, else of the pair's first access (the transfers before it wait for it,
  // added up by DataNode); a pair with transfers and no access is unattributed. Each path's
  // accesses say its distinct readers and writers among the clients (per pair) and the users
  // (flags by user, per path), and its opens its cache-window count.
  if (Status s = joined.Finish(); !s.ok()) return s;
  {
    std::vector<std::int64_t> opens;  // of the path at hand
    std::vector<std::uint8_t> user_flags(users.size());
    std::vector<std::uint32_t> touched;  // users with flags for this path
    struct Early {
      std::int64_t read_bytes = 0, reads = 0, write_bytes = 0, writes = 0;
    };
    std::vector<Early> early(ips.size());    // by DataNode id, for the pair at hand
    std::vector<std::uint32_t> early_nodes;  // the DataNodes with early transfers
    const PairRow* r = joined.Next();
    while (r) {
      const std::uint32_t path = r->path;
      while (r && r->path == path) {
        const std::uint32_t client = r->client;
        std::uint32_t user = Interner::kNone;  // of the latest access so far
        unsigned flags = 0;
        for (; r && r->path == path && r->client == client; r = joined.Next()) {
          if (r->kind == kTransfer) {
            if (user != Interner::kNone) {
              Acc& au = Slot(by_user, user);
              au.used = true;
              AddTo(au, user_datanode_bytes, PairMap<std::int64_t>::Key(user, r->who), r->flag != 0,
                    r->bytes, 1);
            } else {
              Early& e = early[r->who];
              if (!e.reads && !e.writes) early_nodes.push_back(r->who);
              (r->flag ? e.read_bytes : e.write_bytes) += r->bytes;
              ++(r->flag ? e.reads : e.writes);
            }
            continue;
          }
          if (user == Interner::kNone && !early_nodes.empty()) {  // the pair's first access
            Acc& au = Slot(by_user, r->who);
            au.used = true;
            for (const std::uint32_t node : early_nodes) {
              const std::uint64_t key = PairMap<std::int64_t>::Key(r->who, node);
              const Early& e = early[node];
              if (e.reads) AddTo(au, user_datanode_bytes, key, true, e.read_bytes, e.reads);
              if (e.writes) AddTo(au, user_datanode_bytes, key, false, e.write_bytes, e.writes);
              early[node] = {};
            }
            early_nodes.clear();
          }
          if (r->flag == kRead) opens.push_back(r->time_ms);
          flags |= r->flag;
          if (!user_flags[r->who]) touched.push_back(r->who);
          user_flags[r->who] |= r->flag;
          user = r->who;
        }
        if (user == Interner::kNone) {  // the client never opened or created the file
          for (const std::uint32_t node : early_nodes) {
            c.unattributed_bytes += early[node].read_bytes + early[node].write_bytes;
            early[node] = {};
          }
          early_nodes.clear();
          continue;
        }
        CountFile(Slot(by_client, client), flags, path_state[path]);
      }
      for (const std::uint32_t user : touched) {
        CountFile(Slot(by_user, user), user_flags[user], path_state[path]);
        user_flags[user] = 0;
      }
      touched.clear();
      if (!opens.empty()) {
        PathState& p = path_state[path];
        p.opens = static_cast<std::int64_t>(opens.size());
        p.most_opens_in_window = MostOpensInWindow(opens, window_ms);
        opens.clear();
      }
    }
    if (Status s = joined.status(); !s.ok()) return s;
  }
  if (unknown_blocks) {
    w.warnings.push_back(std::to_string(unknown_blocks) +
                         " transfer(s) of blocks with no allocation line in the NameNode log "
                         "(ingest the NameNode's main log for block → file mapping)");
  }

  if (options.from_ms >= 0 && options.to_ms >= 0) {
    first = options.from_ms;
    last = options.to_ms;
  }
  if (first > last) first = last = 0;
  c.window_start_ms = first;
  c.window_end_ms = last;
  c.window_seconds = std::max(1.0, static_cast<double>(last - first) / 1000.0);

  Slot(by_client, static_cast<std::uint32_t>(ips.size()));  // every IP id has a slot
  Slot(by_user, static_cast<std::uint32_t>(users.size()));
  w.clients = Freeze(by_client, ips, client_datanode_bytes, ips, c.window_seconds);
  w.users = Freeze(by_user, users, user_datanode_bytes, ips, c.window_seconds);

  std::vector<std::uint32_t> node_ids;
  for (std::uint32_t id = 0; id < node_used.size(); ++id) {
    if (node_used[id]) node_ids.push_back(id);
  }
  std::sort(node_ids.begin(), node_ids.end(),
            [&](std::uint32_t x, std::uint32_t y) { return ips.Name(x) < ips.Name(y); });
  std::vector<double> loads;
  std::int64_t total = 0;
  for (std::uint32_t id : node_ids) total += nodes[id].read_bytes + nodes[id].write_bytes;
  for (std::uint32_t id : node_ids) {
    HdfsDataNodeStats& n = nodes[id];
    n.datanode = ips.Name(id);
    n.share_of_bytes = total ? static_cast<double>(n.read_bytes + n.write_bytes) / total : 0;
    loads.push_back(static_cast<double>(n.read_bytes + n.write_bytes));
    w.datanodes.push_back(n);
  }
  std::int64_t read_sized = 0, write_sized = 0, read_size_sum = 0, write_size_sum = 0;
  for (const PathState& p : path_state) {
    if (p.flags & kRead) {
      ++c.files_read;
      if (p.sized) ++read_sized, read_size_sum += p.size;
    }
    if (p.flags & kWritten) {
      ++c.files_written;
      if (p.sized) ++write_sized, write_size_sum += p.size;
    }
  }
  c.clients = static_cast<std::int64_t>(w.clients.size());
  c.users = static_cast<std::int64_t>(w.users.size());
  c.datanodes = static_cast<std::int64_t>(w.datanodes.size());
  c.block_records = block_records;
  c.read_bytes_per_second = static_cast<double>(c.read_bytes) / c.window_seconds;
  c.write_bytes_per_second = static_cast<double>(c.write_bytes) / c.window_seconds;
  c.mean_read_file_bytes = Mean(read_size_sum, read_sized);
  c.mean_write_file_bytes = Mean(write_size_sum, write_sized);
  c.datanode_load_gini = Gini(loads);
  if (!loads.empty() && total > 0) {
    const double mean = static_cast<double>(total) / static_cast<double>(loads.size());
    c.datanode_max_over_mean = *std::max_element(loads.begin(), loads.end()) / mean;
  }

  // Recommendations.
  if (w.datanodes.size() >= 2 && c.datanode_load_gini > options.balancer_gini_threshold) {
    const auto busiest =
        std::max_element(w.datanodes.begin(), w.datanodes.end(), [](const auto& x, const auto& y) {
          return x.read_bytes + x.write_bytes < y.read_bytes + y.write_bytes;
        });
    w.recommendations.push_back(
        {"balancer", "hdfs balancer -threshold 10",
         "DataNode load Gini " + FormatFixed(c.datanode_load_gini, 3) + " exceeds " +
             FormatFixed(options.balancer_gini_threshold, 3) + "; " + busiest->datanode +
             " carries " + FormatFixed(100 * busiest->share_of_bytes, 1) + "% of the bytes (" +
             FormatFixed(c.datanode_max_over_mean, 2) + "x the mean)"});
  }
  struct Hot {
    std::string path;
    std::int64_t reads_in_window;
    std::int64_t reads;
  };
  std::vector<Hot> hot;
  for (std::uint32_t id = 0; id < path_state.size(); ++id) {
    const PathState& p = path_state[id];
    if (p.most_opens_in_window >= options.cache_min_reads) {
      hot.push_back({paths.Name(id), p.most_opens_in_window, p.opens});
    }
  }
  std::sort(hot.begin(), hot.end(), [](const Hot& x, const Hot& y) { return x.path < y.path; });
  std::stable_sort(hot.begin(), hot.end(), [](const Hot& x, const Hot& y) {
    return x.reads_in_window != y.reads_in_window ? x.reads_in_window > y.reads_in_window
                                                  : x.reads > y.reads;
  });
  if (static_cast<std::int64_t>(hot.size()) > options.max_cache_directives) {
    hot.resize(static_cast<std::size_t>(options.max_cache_directives));
  }
  if (!hot.empty()) {
    w.recommendations.push_back({"cache_pool",
                                 "hdfs cacheadmin -addPool " + ShellQuote(options.cache_pool),
                                 "create the pool the cache directives below use (once)"});
  }
  for (const Hot& h : hot) {
    const PathState& p = path_state[paths.Find(h.path)];
    w.recommendations.push_back({"cache",
                                 "hdfs cacheadmin -addDirective -path " + ShellQuote(h.path) +
                                     " -pool " + ShellQuote(options.cache_pool),
                                 "opened " + std::to_string(h.reads_in_window) + " times within " +
                                     FormatFixed(options.cache_window_seconds, 0) + " s (" +
                                     std::to_string(h.reads) + " in all)" +
                                     (p.sized ? "; " + std::to_string(p.size) + " bytes" : "")});
  }
  if (stream_sort) {
    if (Status s = stream_sort->Finish(); !s.ok()) return s;
  }
  *reads = std::make_unique<SortedReadStreams>(std::move(names), std::move(stream_sort));
  return w;
}

}  // namespace perfplan::models
