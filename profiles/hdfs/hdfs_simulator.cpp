#include "profiles/hdfs/hdfs_simulator.h"

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "models/random.h"

namespace perfplan::profiles {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDir = "/benchmarks/TestDFSIO";
constexpr std::int64_t kBytesPerChecksum = 512;
constexpr std::int64_t kChecksumBytes = 4;  // CRC32C per chunk
constexpr double kDiskBytesPerSecond = 100e6;

std::string Timestamp(std::int64_t ms) {
  const std::int64_t days = ms / 86400000, rem = ms % 86400000;
  // civil_from_days (H. Hinnant)
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const long long y = static_cast<long long>(yoe) + era * 400 + (m <= 2);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u %02d:%02d:%02d,%03d", y, m, d,
                static_cast<int>(rem / 3600000), static_cast<int>(rem / 60000 % 60),
                static_cast<int>(rem / 1000 % 60), static_cast<int>(rem % 1000));
  return buf;
}

// One log being written: lines kept in memory, split into rotated parts at the end.
struct Log {
  std::string path;
  std::vector<std::string> parts{std::string()};
  std::int64_t rotate_bytes = 0;
  void Add(const std::string& line) {
    if (rotate_bytes > 0 && !parts.back().empty() &&
        static_cast<std::int64_t>(parts.back().size() + line.size() + 1) > rotate_bytes) {
      parts.emplace_back();
    }
    parts.back() += line;
    parts.back() += '\n';
  }
  Status Write() const {
    fs::create_directories(fs::path(path).parent_path());
    const std::size_t n = parts.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t age = n - 1 - i;  // 0 = live file
      if (age >= 2) {
        const std::string name = path + "." + std::to_string(age) + ".gz";
        gzFile gz = gzopen(name.c_str(), "wb");
        if (gz == nullptr) return Status::Failed(name + ": cannot write");
        const int wrote = gzwrite(gz, parts[i].data(), static_cast<unsigned>(parts[i].size()));
        gzclose(gz);
        if (wrote != static_cast<int>(parts[i].size())) {
          return Status::Failed(name + ": write failed");
        }
        continue;
      }
      const std::string name = age == 0 ? path : path + ".1";
      std::ofstream out(name, std::ios::binary | std::ios::trunc);
      out << parts[i];
      if (!out) return Status::Failed(name + ": cannot write");
    }
    return Status::Ok();
  }
};

class Generator {
 public:
  Generator(const HdfsSimulationOptions& s, const std::string& out)
      : s_(s), rng_(s.seed), now_ms_(s.start_ms) {
    audit_.path = out + "/namenode/hdfs-audit.log";
    nn_.path = out + "/namenode/hadoop-hdfs-namenode-nn1.log";
    audit_.rotate_bytes = nn_.rotate_bytes = s.rotate_bytes;
    for (std::int64_t d = 0; d < s.datanodes; ++d) {
      Log log;
      const std::string name = "dn" + std::to_string(d + 1);
      log.path = out + "/" + name + "/hadoop-hdfs-datanode-" + name + ".log";
      log.rotate_bytes = s.rotate_bytes;
      dn_.push_back(log);
    }
    replication_ = std::min(s.replication, s.datanodes);
  }

  void Run() {
    const std::int64_t control_len = ControlFileBytes();
    for (const char* test : {"write", "read"}) {
      const bool write_test = std::string(test) == "write";
      // Job client: (re)create the control directory and files.
      Audit(0, "delete", std::string(kDir) + "/io_control", "null");
      Audit(0, "mkdirs", std::string(kDir) + "/io_control", "user1:supergroup:rwxr-xr-x");
      for (std::int64_t i = 0; i < s_.files; ++i) {
        WriteFile(0, ControlPath(i), control_len, false);
      }
      for (std::int64_t i = 0; i < s_.files; ++i) {
        const int client = static_cast<int>(i % s_.clients);
        ReadFile(client, ControlPath(i), false);
        if (write_test) {
          WriteFile(client, DataPath(i), s_.file_bytes, true);
        } else {
          ReadFile(client, DataPath(i), true);
        }
      }
      const std::string result = std::string(kDir) + (write_test ? "/io_write" : "/io_read");
      Audit(0, "mkdirs", result, "user1:supergroup:rwxr-xr-x");
      WriteFile(0, result + "/part-00000", ResultFileBytes(), false);
      Audit(0, "getfileinfo", result + "/part-00000", "null");
    }
  }

  Status Write(HdfsSimulation* out) {
    for (const Log* log : {&audit_, &nn_}) {
      Status st = log->Write();
      if (!st.ok()) return st;
    }
    for (std::size_t d = 0; d < dn_.size(); ++d) {
      Status st = dn_[d].Write();
      if (!st.ok()) return st;
      out->datanode_logs.emplace_back("dn" + std::to_string(d + 1), dn_[d].path);
    }
    out->audit_log = audit_.path;
    out->namenode_log = nn_.path;
    out->truth = truth_;
    return Status::Ok();
  }

 private:
  struct FileInfo {
    std::vector<std::pair<std::int64_t, std::int64_t>> blocks;  // (id, bytes)
    std::vector<std::vector<int>> replicas;                     // DataNode indices per block
  };

  static std::string ClientIp(int c) { return "10.0.2." + std::to_string(c + 1); }
  static std::string DnIp(int d) { return "10.0.1." + std::to_string(d + 1); }
  static std::string User(int c) { return "user" + std::to_string(c + 1); }
  static std::string ControlPath(std::int64_t i) {
    return std::string(kDir) + "/io_control/in_file_test_io_" + std::to_string(i);
  }
  static std::string DataPath(std::int64_t i) {
    return std::string(kDir) + "/io_data/test_io_" + std::to_string(i);
  }
  std::string ClientId(int c) const {
    return "DFSClient_NONMAPREDUCE_" + std::to_string(-1000 - c) + "_1";
  }
  // A SequenceFile with one (Text name, LongWritable size) record: header + record, about the
  // size TestDFSIO's control files have. Fixed here so the answer is known.
  static std::int64_t ControlFileBytes() { return 152; }
  static std::int64_t ResultFileBytes() { return 210; }

  void Tick(std::int64_t ms) { now_ms_ += ms; }

  void Audit(int client, const std::string& cmd, const std::string& src, const std::string& perm) {
    Tick(3);
    audit_.Add(Timestamp(now_ms_) + " INFO FSNamesystem.audit: allowed=true\tugi=" + User(client) +
               " (auth:SIMPLE)\tip=/" + ClientIp(client) + "\tcmd=" + cmd + "\tsrc=" + src +
               "\tdst=null\tperm=" + perm + "\tproto=rpc");
    if (cmd == "open")
      ++truth_.read_ops;
    else if (cmd == "create" || cmd == "append")
      ++truth_.write_ops;
    else
      ++truth_.metadata_ops;
  }

  void Trace(int dn, const std::string& src, const std::string& dest, std::int64_t bytes, bool read,
             int client, std::int64_t block_id) {
    const std::int64_t duration_ns =
        static_cast<std::int64_t>(static_cast<double>(bytes) / kDiskBytesPerSecond * 1e9) + 50000;
    Tick(duration_ns / 1000000 + 1);
    std::string line = Timestamp(now_ms_) +
                       " INFO org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace: src: /" +
                       src + ", dest: /" + dest;
    if (s_.version == HadoopVersion::k34) line += ", volume: /data/dfs/dn";
    line += ", bytes: " + std::to_string(bytes) + ", op: " + (read ? "HDFS_READ" : "HDFS_WRITE") +
            ", cliID: " + ClientId(client) + ", offset: 0, srvID: " + SrvId(dn) +
            ", blockid: BP-1473286386-10.0.0.1-1704067200000:blk_" + std::to_string(block_id) +
            "_" + std::to_string(block_id - 1073741825 + 1001) +
            (s_.version == HadoopVersion::k2 ? ", duration: " : ", duration(ns): ") +
            std::to_string(duration_ns);
    dn_[static_cast<std::size_t>(dn)].Add(line);
  }

  static std::string SrvId(int dn) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "8f2c6d1e-0b7a-4c1d-9e3f-%012d", dn + 1);
    return buf;
  }

  void WriteFile(int client, const std::string& path, std::int64_t bytes, bool data) {
    Audit(client, "create", path, User(client) + ":supergroup:rw-r--r--");
    Tick(1);
    nn_.Add(Timestamp(now_ms_) +
            " DEBUG org.apache.hadoop.hdfs.StateChange: *DIR* "
            "NameNode.create: file " +
            path + " for " + ClientId(client) + " at " + ClientIp(client) + ".");
    FileInfo& info = files_[path];
    info = FileInfo();
    std::int64_t left = bytes;
    while (left > 0) {  // an empty file has no blocks
      const std::int64_t len = std::min(left, s_.block_bytes);
      const std::int64_t id = next_block_++;
      std::vector<int> replicas;
      for (std::int64_t r = 0; r < replication_; ++r) {
        replicas.push_back(static_cast<int>((next_placement_ + r) % s_.datanodes));
      }
      ++next_placement_;
      std::string where;
      for (int d : replicas) where += (where.empty() ? "" : ", ") + DnIp(d) + ":9866";
      Tick(1);
      nn_.Add(Timestamp(now_ms_) +
              " INFO org.apache.hadoop.hdfs.StateChange: BLOCK* allocate blk_" +
              std::to_string(id) + "_" + std::to_string(id - 1073741825 + 1001) +
              ", replicas=" + where + " for " + path);
      // The pipeline: client → r0 → r1 → …; each DataNode logs what it received.
      for (std::size_t r = 0; r < replicas.size(); ++r) {
        const int d = replicas[r];
        const std::string src = r == 0 ? ClientIp(client) + ":" + std::to_string(40000 + r)
                                       : DnIp(replicas[r - 1]) + ":9866";
        Trace(d, src, DnIp(d) + ":9866", len, false, client, id);
        truth_.datanode_write_bytes[DnIp(d)] += len;
        if (r == 0) {
          truth_.write_bytes += len;
          truth_.client_write_bytes[ClientIp(client)] += len;
          truth_.user_write_bytes[User(client)] += len;
        } else {
          truth_.replication_write_bytes += len;
        }
      }
      ++truth_.blocks;
      info.blocks.emplace_back(id, len);
      info.replicas.push_back(replicas);
      left -= len;
    }
    (data ? truth_.data_bytes : truth_.control_bytes) += bytes;
    Tick(1);
    nn_.Add(Timestamp(now_ms_) + " INFO org.apache.hadoop.hdfs.StateChange: DIR* completeFile: " +
            path + " is closed by " + ClientId(client));
  }

  void ReadFile(int client, const std::string& path, bool data) {
    Audit(client, "open", path, "null");
    const FileInfo& info = files_[path];
    for (std::size_t b = 0; b < info.blocks.size(); ++b) {
      const auto [id, len] = info.blocks[b];
      const auto& replicas = info.replicas[b];
      const int d = replicas[rng_.Below(replicas.size())];
      const std::int64_t chunks = (len + kBytesPerChecksum - 1) / kBytesPerChecksum;
      const std::int64_t sent = len + kChecksumBytes * chunks;
      Trace(d, DnIp(d) + ":9866", ClientIp(client) + ":" + std::to_string(50000 + b), sent, true,
            client, id);
      truth_.read_bytes += sent;
      if (data) truth_.data_read_bytes += sent;
      truth_.client_read_bytes[ClientIp(client)] += sent;
      truth_.user_read_bytes[User(client)] += sent;
      truth_.datanode_read_bytes[DnIp(d)] += sent;
    }
  }

  const HdfsSimulationOptions& s_;
  models::Rng rng_;
  std::int64_t now_ms_;
  std::int64_t replication_ = 1;
  std::int64_t next_block_ = 1073741825;
  std::int64_t next_placement_ = 0;
  Log audit_, nn_;
  std::vector<Log> dn_;
  std::map<std::string, FileInfo> files_;
  HdfsSimulationTruth truth_;
};

}  // namespace

Result<HadoopVersion> ParseHadoopVersion(const std::string& text) {
  if (text == "2") return HadoopVersion::k2;
  if (text == "3.3") return HadoopVersion::k33;
  if (text == "3.4") return HadoopVersion::k34;
  return Status::InvalidField("hadoop_version", "\"" + text + "\": expected 2, 3.3 or 3.4");
}

Status HdfsSimulationOptions::Validate() const {
  auto at_least = [](const char* name, std::int64_t v, std::int64_t min) {
    return v < min ? Status::InvalidArgument(std::string(name) + " = " + std::to_string(v) +
                                             ": must be at least " + std::to_string(min))
                   : Status::Ok();
  };
  for (Status s :
       {at_least("files", files, 1), at_least("file_bytes", file_bytes, 0),
        at_least("clients", clients, 1), at_least("datanodes", datanodes, 1),
        at_least("block_bytes", block_bytes, 512), at_least("replication", replication, 1)}) {
    if (!s.ok()) return s;
  }
  if (clients > 250 || datanodes > 250) {
    return Status::InvalidArgument("clients and datanodes: at most 250 each (one /24 subnet)");
  }
  if (rotate_bytes != 0 && rotate_bytes < 4096) {
    return Status::InvalidArgument("rotate_bytes = " + std::to_string(rotate_bytes) +
                                   ": must be 0 (never roll) or at least 4096");
  }
  return Status::Ok();
}

Result<HdfsSimulation> SimulateHdfs(const HdfsSimulationOptions& settings,
                                    const std::string& out_dir) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) return Status::Failed(out_dir + ": cannot create (" + ec.message() + ")");
  // Remove earlier runs' logs (rotated parts included) so the folder holds exactly one run.
  for (const char* sub : {"namenode"}) fs::remove_all(fs::path(out_dir) / sub, ec);
  for (fs::directory_iterator it(out_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("dn", 0) == 0 && it->is_directory()) fs::remove_all(it->path(), ec);
  }
  Generator g(settings, out_dir);
  g.Run();
  HdfsSimulation out;
  if (Status s = g.Write(&out); !s.ok()) return s;
  return out;
}

}  // namespace perfplan::profiles
