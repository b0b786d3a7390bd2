#include "models/hdfs_workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
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

HdfsWorkload AnalyzeHdfsWorkload(const std::vector<HdfsAuditRecord>& audits,
                                 const std::vector<HdfsTransferRecord>& transfers,
                                 const std::vector<HdfsBlockRecord>& unsorted_blocks,
                                 const HdfsWorkloadOptions& options) {
  HdfsWorkload w;
  std::vector<HdfsBlockRecord> blocks = unsorted_blocks;
  std::sort(blocks.begin(), blocks.end(), [](const HdfsBlockRecord& x, const HdfsBlockRecord& y) {
    return std::tie(x.time_ms, x.block, x.path) < std::tie(y.time_ms, y.block, y.path);
  });
  const std::int64_t from = options.from_ms >= 0 ? options.from_ms : INT64_MIN;
  const std::int64_t to = options.to_ms >= 0 ? options.to_ms : INT64_MAX;
  auto in_window = [&](std::int64_t t) { return t >= from && t < to; };

  // Maps: block → path, block → size (largest write of the block), path → size.
  std::unordered_map<std::string, std::string> block_path;
  for (const HdfsBlockRecord& b : blocks) block_path[b.block] = b.path;
  std::unordered_map<std::string, std::int64_t> block_bytes;
  std::unordered_set<std::string> datanode_ips;
  for (const HdfsTransferRecord& t : transfers) {
    datanode_ips.insert(t.datanode);
    if (!t.is_read) {
      std::int64_t& b = block_bytes[t.block];
      b = std::max(b, t.bytes);
    }
  }
  // A file's size is the sum of the blocks allocated since its latest create (a path rewritten
  // by delete + create starts again).
  std::unordered_map<std::string, std::vector<std::int64_t>> create_times;
  for (const HdfsAuditRecord& a : audits) {
    if (a.allowed && a.cmd == "create") create_times[a.src].push_back(a.time_ms);
  }
  for (auto& [path, times] : create_times) std::sort(times.begin(), times.end());
  std::unordered_map<std::string, std::pair<std::size_t, std::int64_t>> epoch_bytes;
  for (const HdfsBlockRecord& b : blocks) {
    auto it = block_bytes.find(b.block);
    if (it == block_bytes.end()) continue;
    std::size_t epoch = 0;
    auto ct = create_times.find(b.path);
    if (ct != create_times.end()) {
      epoch = static_cast<std::size_t>(
          std::upper_bound(ct->second.begin(), ct->second.end(), b.time_ms) - ct->second.begin());
    }
    auto& [e, sum] = epoch_bytes[b.path];
    if (epoch > e) e = epoch, sum = 0;
    if (epoch == e) sum += it->second;
  }
  std::unordered_map<std::string, std::int64_t> file_bytes;
  for (const auto& [path, e] : epoch_bytes) file_bytes[path] = e.second;

  std::int64_t first = INT64_MAX, last = INT64_MIN;
  for (const HdfsAuditRecord& a : audits) {
    if (!in_window(a.time_ms)) continue;
    first = std::min(first, a.time_ms);
    last = std::max(last, a.time_ms);
  }
  for (const HdfsTransferRecord& t : transfers) {
    if (!in_window(t.time_ms)) continue;
    first = std::min(first, t.time_ms);
    last = std::max(last, t.time_ms);
  }
  HdfsClusterStats& c = w.cluster;
  if (options.from_ms >= 0 && options.to_ms >= 0) {
    first = options.from_ms;
    last = options.to_ms;
  }
  if (first > last) first = last = 0;
  c.window_start_ms = first;
  c.window_end_ms = last;
  c.window_seconds = std::max(1.0, static_cast<double>(last - first) / 1000.0);

  std::map<std::string, Acc> by_client, by_user;
  // (ip, path) → times and users of open/create/append, for attributing transfers to users.
  std::unordered_map<std::string, std::vector<std::pair<std::int64_t, std::string>>> access;
  std::set<std::string> all_read, all_written;
  std::map<std::string, std::vector<std::int64_t>> open_times;  // path → open times
  std::map<std::string, HdfsClientStream> streams;
  for (const HdfsAuditRecord& a : audits) {
    if (!in_window(a.time_ms)) continue;
    ++c.audit_records;
    Acc& ac = by_client[a.ip];
    Acc& au = by_user[a.user];
    if (!a.allowed) {
      ++ac.denied_ops;
      ++au.denied_ops;
      ++c.denied_ops;
      continue;
    }
    switch (Classify(a.cmd)) {
      case OpClass::kRead:
        ++ac.read_ops, ++au.read_ops, ++c.read_ops;
        ac.files_read.insert(a.src);
        au.files_read.insert(a.src);
        all_read.insert(a.src);
        open_times[a.src].push_back(a.time_ms);
        if (options.streams) {
          HdfsClientStream& s = streams[a.ip];
          s.client = a.ip;
          s.files.push_back({a.time_ms, a.src});
        }
        access[a.ip + '\n' + a.src].emplace_back(a.time_ms, a.user);
        break;
      case OpClass::kWrite:
        ++ac.write_ops, ++au.write_ops, ++c.write_ops;
        ac.files_written.insert(a.src);
        au.files_written.insert(a.src);
        all_written.insert(a.src);
        access[a.ip + '\n' + a.src].emplace_back(a.time_ms, a.user);
        break;
      case OpClass::kMetadata:
        ++ac.metadata_ops, ++au.metadata_ops, ++c.metadata_ops;
        break;
    }
  }
  // Sorted by (time, user) so the result depends on the records, not on their order (the
  // map/reduce path delivers them sorted differently from the store).
  for (auto& [key, list] : access) std::sort(list.begin(), list.end());

  std::map<std::string, HdfsDataNodeStats> nodes;
  std::int64_t unknown_blocks = 0;
  for (const HdfsTransferRecord& t : transfers) {
    if (!in_window(t.time_ms)) continue;
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
        continue;
      }
      c.write_bytes += t.bytes;
    }
    Acc& ac = by_client[t.peer];
    (t.is_read ? ac.read_bytes : ac.write_bytes) += t.bytes;
    ++(t.is_read ? ac.block_reads : ac.block_writes);
    ac.bytes_per_datanode[t.datanode] += t.bytes;
    if (options.streams && t.is_read) {
      HdfsClientStream& s = streams[t.peer];
      s.client = t.peer;
      s.blocks.push_back({t.time_ms, t.datanode, t.block, t.bytes});
    }
    // Attribute to a user: block → path → the client's latest open/create at or before t.
    auto bp = block_path.find(t.block);
    if (bp == block_path.end()) {
      ++unknown_blocks;
      c.unattributed_bytes += t.bytes;
      continue;
    }
    auto acc = access.find(t.peer + '\n' + bp->second);
    if (acc == access.end()) {
      c.unattributed_bytes += t.bytes;
      continue;
    }
    const auto& list = acc->second;
    auto it = std::upper_bound(list.begin(), list.end(), t.time_ms,
                               [](std::int64_t v, const auto& e) { return v < e.first; });
    const std::string& user = it == list.begin() ? list.front().second : std::prev(it)->second;
    Acc& au = by_user[user];
    (t.is_read ? au.read_bytes : au.write_bytes) += t.bytes;
    ++(t.is_read ? au.block_reads : au.block_writes);
    au.bytes_per_datanode[t.datanode] += t.bytes;
  }
  if (unknown_blocks) {
    w.warnings.push_back(std::to_string(unknown_blocks) +
                         " transfer(s) of blocks with no allocation line in the NameNode log "
                         "(ingest the NameNode's main log for block → file mapping)");
  }

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
  const auto window_ms = static_cast<std::int64_t>(options.cache_window_seconds * 1000);
  for (auto& [path, times] : open_times) {
    std::sort(times.begin(), times.end());
    std::int64_t best = 0;
    std::size_t lo = 0;
    for (std::size_t hi = 0; hi < times.size(); ++hi) {
      while (times[hi] - times[lo] > window_ms) ++lo;
      best = std::max<std::int64_t>(best, static_cast<std::int64_t>(hi - lo + 1));
    }
    if (best >= options.cache_min_reads) {
      hot.push_back({path, best, static_cast<std::int64_t>(times.size())});
    }
  }
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
