#include "models/hdfs_workload.h"

#include "models/hdfs_record_streams.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace perfplan::models {
namespace {

enum class OpClass { kRead, kWrite, kMetadata };

OpClass Classify(const std::string& cmd) {
  if (cmd == "open") return OpClass::kRead;
  if (cmd == "create" || cmd == "append") return OpClass::kWrite;
  return OpClass::kMetadata;
}

// Accumulates one client's or user's figures before they are frozen into HdfsClientStats.
struct Acc {
  std::int64_t read_ops = 0, write_ops = 0, metadata_ops = 0, denied_ops = 0;
  std::int64_t read_bytes = 0, write_bytes = 0, block_reads = 0, block_writes = 0;
  std::set<std::string> files_read, files_written;
  std::map<std::string, std::int64_t> bytes_per_datanode;
};

double MeanSize(const std::set<std::string>& files,
                const std::unordered_map<std::string, std::int64_t>& file_bytes) {
  double sum = 0;
  std::int64_t n = 0;
  for (const std::string& f : files) {
    auto it = file_bytes.find(f);
    if (it == file_bytes.end()) continue;
    sum += static_cast<double>(it->second);
    ++n;
  }
  return n ? sum / static_cast<double>(n) : 0;
}

std::vector<HdfsClientStats> Freeze(const std::map<std::string, Acc>& accs, double window_seconds,
                                    const std::unordered_map<std::string, std::int64_t>& sizes) {
  std::vector<HdfsClientStats> out;
  for (const auto& [key, a] : accs) {
    HdfsClientStats s;
    s.key = key;
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
    s.files_read = static_cast<std::int64_t>(a.files_read.size());
    s.files_written = static_cast<std::int64_t>(a.files_written.size());
    s.mean_read_file_bytes = MeanSize(a.files_read, sizes);
    s.mean_write_file_bytes = MeanSize(a.files_written, sizes);
    s.datanodes_touched = static_cast<std::int64_t>(a.bytes_per_datanode.size());
    s.bytes_per_datanode.assign(a.bytes_per_datanode.begin(), a.bytes_per_datanode.end());
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const HdfsClientStats& x, const HdfsClientStats& y) {
    return x.read_bytes + x.write_bytes > y.read_bytes + y.write_bytes;
  });
  return out;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

Status HdfsWorkloadOptions::Validate() const {
  if (!(balancer_gini_threshold >= 0 && balancer_gini_threshold <= 1)) {
    return Status::InvalidArgument(
        "balancer_gini_threshold = " + Fixed(balancer_gini_threshold, 3) +
        ": expected a value in [0, 1]");
  }
  if (cache_min_reads < 2) {
    return Status::InvalidArgument("cache_min_reads = " + std::to_string(cache_min_reads) +
                                   ": a file must be read at least 2 times to be re-read");
  }
  if (!(cache_window_seconds > 0)) {
    return Status::InvalidArgument("cache_window_seconds = " + Fixed(cache_window_seconds, 3) +
                                   ": expected a positive number of seconds");
  }
  if (max_cache_directives < 0) {
    return Status::InvalidArgument(
        "max_cache_directives = " + std::to_string(max_cache_directives) + ": must be >= 0");
  }
  if (cache_pool.empty()) return Status::InvalidField("cache_pool", "must not be empty");
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

// Small ids for strings seen many times (users, client IPs, paths), so that per-pair state is
// a few integers rather than copies of the strings.
class Interner {
 public:
  std::uint32_t Id(const std::string& s) {
    auto [it, inserted] = ids_.try_emplace(s, static_cast<std::uint32_t>(names_.size()));
    if (inserted) names_.push_back(&it->first);
    return it->second;
  }
  const std::string& Name(std::uint32_t id) const { return *names_[id]; }

 private:
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<const std::string*> names_;  // keys of ids_ (node-based: stable addresses)
};

// A client's opens and creates of one path, for attributing its transfers to a user: the latest
// access at or before a transfer, else (none yet) the client's first access. (time, user)
// pairs compare by time, then by the user's name.
struct Access {
  bool seen = false;
  std::int64_t latest_ms = 0, first_ms = 0;
  std::uint32_t latest_user = 0, first_user = 0;
  // Transfers that came before any access, per DataNode: they go to the first access at the end.
  struct Pending {
    std::int64_t read_bytes = 0, write_bytes = 0, reads = 0, writes = 0;
  };
  std::unique_ptr<std::map<std::string, Pending>> pending;
};

// The opens of one path inside the cache window ending at the latest, and the best count seen.
struct OpenWindow {
  std::vector<std::int64_t> times;  // times[head..] are inside the window
  std::size_t head = 0;
  std::int64_t best = 0, total = 0;
  void Add(std::int64_t t, std::int64_t window_ms) {
    times.push_back(t);
    while (t - times[head] > window_ms) ++head;
    if (head > 64 && head * 2 > times.size()) {  // drop the expired front now and then
      times.erase(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
    best = std::max<std::int64_t>(best, static_cast<std::int64_t>(times.size() - head));
    ++total;
  }
};

void AddTo(Acc& a, const std::string& datanode, bool is_read, std::int64_t bytes,
           std::int64_t ops) {
  (is_read ? a.read_bytes : a.write_bytes) += bytes;
  (is_read ? a.block_reads : a.block_writes) += ops;
  a.bytes_per_datanode[datanode] += bytes;
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
  HdfsWorkload w;
  const std::int64_t from = options.from_ms >= 0 ? options.from_ms : INT64_MIN;
  const std::int64_t to = options.to_ms >= 0 ? options.to_ms : INT64_MAX;
  auto in_window = [&](std::int64_t t) { return t >= from && t < to; };

  // Pass 1: every block (the block → path map: a block's latest allocation, by (time, path)), and
  // every transfer: DataNode IPs (to tell pipeline hops) and block sizes (the largest write).
  std::vector<HdfsBlockRecord> blocks;
  {
    auto cursor = records.Blocks();
    while (const HdfsBlockRecord* b = cursor->Next()) blocks.push_back(*b);
    if (!cursor->status().ok()) return cursor->status();
  }
  std::sort(blocks.begin(), blocks.end(), [](const HdfsBlockRecord& x, const HdfsBlockRecord& y) {
    return std::tie(x.time_ms, x.block, x.path) < std::tie(y.time_ms, y.block, y.path);
  });
  std::unordered_map<std::string, std::string> block_path;
  for (const HdfsBlockRecord& b : blocks) block_path[b.block] = b.path;
  std::unordered_map<std::string, std::int64_t> block_bytes;
  std::unordered_set<std::string> datanode_ips;
  {
    auto cursor = records.Transfers();
    while (const HdfsTransferRecord* t = cursor->Next()) {
      datanode_ips.insert(t->datanode);
      if (!t->is_read) {
        std::int64_t& b = block_bytes[t->block];
        b = std::max(b, t->bytes);
      }
    }
    if (!cursor->status().ok()) return cursor->status();
  }

  // Pass 2: audits, blocks and transfers merged by time (at equal times audits first, then
  // blocks, then transfers: a create or open at t precedes what it explains at t).
  //
  // A file's size is the sum of the blocks allocated since its latest create (a path rewritten
  // by delete + create starts again): creates_seen counts a path's creates so far, the epoch of
  // the blocks allocated now.
  std::unordered_map<std::string, std::size_t> creates_seen;
  std::unordered_map<std::string, std::pair<std::size_t, std::int64_t>> epoch_bytes;
  HdfsClusterStats& c = w.cluster;
  std::int64_t first = INT64_MAX, last = INT64_MIN;
  std::map<std::string, Acc> by_client, by_user;
  Interner users, ips, paths;
  // (client IP id, path id) → its accesses.
  std::unordered_map<std::uint64_t, Access> access;
  auto access_key = [&](const std::string& ip, const std::string& path) {
    return static_cast<std::uint64_t>(ips.Id(ip)) << 32 | paths.Id(path);
  };
  auto before = [&users](std::int64_t t1, std::uint32_t u1, std::int64_t t2, std::uint32_t u2) {
    return t1 != t2 ? t1 < t2 : u1 != u2 && users.Name(u1) < users.Name(u2);
  };
  std::set<std::string> all_read, all_written;
  const auto window_ms = static_cast<std::int64_t>(options.cache_window_seconds * 1000);
  std::unordered_map<std::string, OpenWindow> opens;  // path → its cache window
  std::map<std::string, HdfsClientStream> streams;
  std::map<std::string, HdfsDataNodeStats> nodes;
  std::int64_t unknown_blocks = 0;

  auto on_audit = [&](const HdfsAuditRecord& a) {
    if (a.allowed && a.cmd == "create") ++creates_seen[a.src];
    if (!in_window(a.time_ms)) return;
    first = std::min(first, a.time_ms);
    last = std::max(last, a.time_ms);
    ++c.audit_records;
    Acc& ac = by_client[a.ip];
    Acc& au = by_user[a.user];
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
    if (op == OpClass::kRead) {
      ++ac.read_ops, ++au.read_ops, ++c.read_ops;
      ac.files_read.insert(a.src);
      au.files_read.insert(a.src);
      all_read.insert(a.src);
      opens[a.src].Add(a.time_ms, window_ms);
      if (options.streams) {
        HdfsClientStream& s = streams[a.ip];
        s.client = a.ip;
        s.files.push_back({a.time_ms, a.src});
      }
    } else {
      ++ac.write_ops, ++au.write_ops, ++c.write_ops;
      ac.files_written.insert(a.src);
      au.files_written.insert(a.src);
      all_written.insert(a.src);
    }
    Access& x = access[access_key(a.ip, a.src)];
    const std::uint32_t user = users.Id(a.user);
    if (!x.seen || before(x.latest_ms, x.latest_user, a.time_ms, user)) {
      x.latest_ms = a.time_ms, x.latest_user = user;
    }
    if (!x.seen || before(a.time_ms, user, x.first_ms, x.first_user)) {
      x.first_ms = a.time_ms, x.first_user = user;
    }
    x.seen = true;
  };
  auto on_block = [&](const HdfsBlockRecord& b) {
    auto it = block_bytes.find(b.block);
    if (it == block_bytes.end()) return;
    auto cs = creates_seen.find(b.path);
    const std::size_t epoch = cs == creates_seen.end() ? 0 : cs->second;
    auto& [e, sum] = epoch_bytes[b.path];
    if (epoch > e) e = epoch, sum = 0;
    if (epoch == e) sum += it->second;
  };
  auto on_transfer = [&](const HdfsTransferRecord& t) {
    if (!in_window(t.time_ms)) return;
    first = std::min(first, t.time_ms);
    last = std::max(last, t.time_ms);
    ++c.transfer_records;
    HdfsDataNodeStats& n = nodes[t.datanode];
    n.datanode = t.datanode;
    const bool pipeline_hop = !t.is_read && t.peer != t.datanode && datanode_ips.count(t.peer) != 0;
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
    AddTo(by_client[t.peer], t.datanode, t.is_read, t.bytes, 1);
    if (options.streams && t.is_read) {
      HdfsClientStream& s = streams[t.peer];
      s.client = t.peer;
      s.blocks.push_back({t.time_ms, t.datanode, t.block, t.bytes});
    }
    // Attribute to a user: block → path → the client's latest open/create at or before t (or,
    // when it has none yet, its first one).
    auto bp = block_path.find(t.block);
    if (bp == block_path.end()) {
      ++unknown_blocks;
      c.unattributed_bytes += t.bytes;
      return;
    }
    Access& x = access[access_key(t.peer, bp->second)];
    if (x.seen) {
      AddTo(by_user[users.Name(x.latest_user)], t.datanode, t.is_read, t.bytes, 1);
      return;
    }
    if (!x.pending) x.pending = std::make_unique<std::map<std::string, Access::Pending>>();
    Access::Pending& p = (*x.pending)[t.datanode];
    (t.is_read ? p.read_bytes : p.write_bytes) += t.bytes;
    ++(t.is_read ? p.reads : p.writes);
  };
  {
    auto audit_cursor = records.Audits();
    auto transfer_cursor = records.Transfers();
    const HdfsAuditRecord* a = audit_cursor->Next();
    const HdfsTransferRecord* t = transfer_cursor->Next();
    std::size_t bi = 0;
    for (;;) {
      const std::int64_t ta = a ? a->time_ms : INT64_MAX;
      const std::int64_t tb = bi < blocks.size() ? blocks[bi].time_ms : INT64_MAX;
      const std::int64_t tt = t ? t->time_ms : INT64_MAX;
      if (a && ta <= tb && ta <= tt) {
        on_audit(*a);
        a = audit_cursor->Next();
      } else if (bi < blocks.size() && tb <= tt) {
        on_block(blocks[bi++]);
      } else if (t) {
        on_transfer(*t);
        t = transfer_cursor->Next();
      } else {
        break;
      }
    }
    if (!audit_cursor->status().ok()) return audit_cursor->status();
    if (!transfer_cursor->status().ok()) return transfer_cursor->status();
  }
  // Transfers that came before any access of their client to their file: to its first access;
  // unattributed when it never accessed the file.
  for (auto& [key, x] : access) {
    if (!x.pending) continue;
    for (const auto& [datanode, p] : *x.pending) {
      if (!x.seen) {
        c.unattributed_bytes += p.read_bytes + p.write_bytes;
        continue;
      }
      Acc& au = by_user[users.Name(x.first_user)];
      if (p.reads) AddTo(au, datanode, true, p.read_bytes, p.reads);
      if (p.writes) AddTo(au, datanode, false, p.write_bytes, p.writes);
    }
  }
  if (unknown_blocks) {
    w.warnings.push_back(std::to_string(unknown_blocks) +
                         " transfer(s) of blocks with no allocation line in the NameNode log "
                         "(ingest the NameNode's main log for block → file mapping)");
  }
  std::unordered_map<std::string, std::int64_t> file_bytes;
  for (const auto& [path, e] : epoch_bytes) file_bytes[path] = e.second;

  if (options.from_ms >= 0 && options.to_ms >= 0) {
    first = options.from_ms;
    last = options.to_ms;
  }
  if (first > last) first = last = 0;
  c.window_start_ms = first;
  c.window_end_ms = last;
  c.window_seconds = std::max(1.0, static_cast<double>(last - first) / 1000.0);

  w.clients = Freeze(by_client, c.window_seconds, file_bytes);
  w.users = Freeze(by_user, c.window_seconds, file_bytes);
  std::vector<double> loads;
  std::int64_t total = 0;
  for (auto& [ip, n] : nodes) total += n.read_bytes + n.write_bytes;
  for (auto& [ip, n] : nodes) {
    n.share_of_bytes = total ? static_cast<double>(n.read_bytes + n.write_bytes) / total : 0;
    loads.push_back(static_cast<double>(n.read_bytes + n.write_bytes));
    w.datanodes.push_back(n);
  }
  c.clients = static_cast<std::int64_t>(w.clients.size());
  c.users = static_cast<std::int64_t>(w.users.size());
  c.datanodes = static_cast<std::int64_t>(w.datanodes.size());
  c.block_records = static_cast<std::int64_t>(blocks.size());
  c.read_bytes_per_second = static_cast<double>(c.read_bytes) / c.window_seconds;
  c.write_bytes_per_second = static_cast<double>(c.write_bytes) / c.window_seconds;
  c.files_read = static_cast<std::int64_t>(all_read.size());
  c.files_written = static_cast<std::int64_t>(all_written.size());
  c.mean_read_file_bytes = MeanSize(all_read, file_bytes);
  c.mean_write_file_bytes = MeanSize(all_written, file_bytes);
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
    w.recommendations.push_back({"balancer", "hdfs balancer -threshold 10",
                                 "DataNode load Gini " + Fixed(c.datanode_load_gini, 3) +
                                     " exceeds " + Fixed(options.balancer_gini_threshold, 3) +
                                     "; " + busiest->datanode + " carries " +
                                     Fixed(100 * busiest->share_of_bytes, 1) + "% of the bytes (" +
                                     Fixed(c.datanode_max_over_mean, 2) + "x the mean)"});
  }
  struct Hot {
    std::string path;
    std::int64_t reads_in_window;
    std::int64_t reads;
  };
  std::vector<Hot> hot;
  for (const auto& [path, o] : opens) {
    if (o.best >= options.cache_min_reads) hot.push_back({path, o.best, o.total});
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
    auto size = file_bytes.find(h.path);
    w.recommendations.push_back(
        {"cache",
         "hdfs cacheadmin -addDirective -path " + ShellQuote(h.path) + " -pool " +
             ShellQuote(options.cache_pool),
         "opened " + std::to_string(h.reads_in_window) + " times within " +
             Fixed(options.cache_window_seconds, 0) + " s (" + std::to_string(h.reads) +
             " in all)" +
             (size != file_bytes.end() ? "; " + std::to_string(size->second) + " bytes" : "")});
  }
  for (auto& [client, s] : streams) {
    std::sort(s.files.begin(), s.files.end(), [](const HdfsFileRead& x, const HdfsFileRead& y) {
      return std::tie(x.time_ms, x.path) < std::tie(y.time_ms, y.path);
    });
    std::sort(s.blocks.begin(), s.blocks.end(), [](const HdfsBlockRead& x, const HdfsBlockRead& y) {
      return std::tie(x.time_ms, x.datanode, x.block, x.bytes) <
             std::tie(y.time_ms, y.datanode, y.block, y.bytes);
    });
    w.streams.push_back(std::move(s));
  }
  return w;
}

}  // namespace perfplan::models
