// JSON for the HDFS answers (DESIGN §6: ingest hdfs → records, skipped[], checkpoints[];
// workload → clients[], users[], datanodes[], cluster{}, recommendations[]).
#include <nlohmann/json.hpp>
#include <ostream>

#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/hdfs/hdfs.h"
#include "planner/output/skip_report.h"
#include "profiles/hdfs/hdfs_log.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json ProblemsJson(const std::vector<profiles::Problem>& problems) {
  json out = json::array();
  for (const auto& p : problems) {
    out.push_back({{"file", p.file}, {"line", p.line}, {"reason", p.message}, {"field", p.field}});
  }
  return out;
}

json ClientJson(const models::HdfsClientStats& s, const char* key_name) {
  json per_node = json::object();
  for (const auto& [dn, bytes] : s.bytes_per_datanode) per_node[dn] = bytes;
  json j = PERFPLAN_JSON_FIELDS(s, read_ops, write_ops, metadata_ops, denied_ops, read_bytes,
                                write_bytes, block_reads, block_writes, iops, read_write_ratio,
                                files_read, files_written, mean_read_file_bytes,
                                mean_write_file_bytes, datanodes_touched);
  j[key_name] = s.key;
  j["bytes_per_datanode"] = per_node;
  return j;
}

}  // namespace

std::string ToJson(const profiles::HdfsIngestReport& r) {
  json checkpoints = json::array();
  for (const auto& c : r.checkpoints) {
    checkpoints.push_back(PERFPLAN_JSON_FIELDS(c, node, path, device, inode, fingerprint,
                                               fingerprint_bytes, offset_bytes, lines,
                                               last_time_ms));
  }
  const auto& n = r.counts;
  json lines = {{"total", n.lines}, {"time_backwards", n.time_backwards}};
  for (const profiles::HdfsLineKindCount& k : profiles::HdfsLineKinds()) {
    lines[k.name] = n.*k.count;
  }
  json doc = PERFPLAN_JSON_FIELDS(r, records, files_read, files_unchanged, timezone, skipped_total);
  doc["lines"] = lines;
  doc["skipped"] = ProblemsJson(r.skipped);
  doc["skipped_reasons"] = SkipReasonsJson(r.skipped_reasons);
  doc["warnings"] = ProblemsJson(r.warnings);
  doc["checkpoints"] = checkpoints;
  return JsonLine(doc);
}

namespace {

json FileReadJson(const models::HdfsFileRead& f) {
  return {{"time_ms", f.time_ms}, {"path", f.path}};
}

json BlockReadJson(const models::HdfsBlockRead& b) {
  return {{"time_ms", b.time_ms}, {"datanode", b.datanode}, {"block", b.block}, {"bytes", b.bytes}};
}

// The answer's document without "streams".
json WorkloadDoc(const WorkloadAnswer& answer) {
  const models::HdfsWorkload& w = answer.workload;
  json clients = json::array(), users = json::array(), datanodes = json::array(),
       recs = json::array();
  for (const auto& c : w.clients) clients.push_back(ClientJson(c, "client"));
  for (const auto& u : w.users) users.push_back(ClientJson(u, "user"));
  for (const auto& d : w.datanodes) {
    datanodes.push_back(PERFPLAN_JSON_FIELDS(d, datanode, read_bytes, write_bytes, read_ops,
                                             write_ops, replication_write_bytes, share_of_bytes));
  }
  for (const auto& r : w.recommendations) {
    recs.push_back({{"kind", r.kind}, {"command", r.command}, {"reason", r.reason}});
  }
  const auto& c = w.cluster;
  // The arrays are moved in, not copied (an initializer list copies them): the per-client
  // objects are the largest part of the answer, and two copies of them were `workload`'s peak
  // memory. Keys print in name order either way.
  json doc = json::object();
  doc["clients"] = std::move(clients);
  doc["users"] = std::move(users);
  doc["datanodes"] = std::move(datanodes);
  doc["cluster"] = PERFPLAN_JSON_FIELDS(
      c, window_start_ms, window_end_ms, window_seconds, audit_records, transfer_records,
      block_records, read_ops, write_ops, metadata_ops, denied_ops, read_bytes, write_bytes,
      replication_write_bytes, unattributed_bytes, read_bytes_per_second, write_bytes_per_second,
      mean_read_file_bytes, mean_write_file_bytes, files_read, files_written, clients, users,
      datanodes, datanode_load_gini, datanode_max_over_mean);
  doc["recommendations"] = std::move(recs);
  doc["warnings"] = w.warnings;
  if (!answer.store_path.empty()) doc["store"] = answer.store_path;
  return doc;
}

// Writes a document's "streams" member read by read, as JsonLine(doc) would print it were the
// streams in it (2-space indents, keys in name order: "blocks", "client", "files"), buffering at
// most kFlushBytes of text. Everything else of the document is printed by JsonLine: the members
// before "streams" as one document whose closing brace is left off, those after it as one whose
// opening brace is.
class StreamsWriter {
 public:
  explicit StreamsWriter(std::ostream& out) : out_(out) {}

  Status Write(json doc, models::HdfsReadStreams& reads) {
    const models::HdfsStreamRead* r = reads.Next();
    if (!r) {
      if (Status s = reads.status(); !s.ok()) return s;
      text_ = JsonLine(doc);  // no stream: no "streams" member
      return Flush();
    }
    json after = json::object();
    for (auto it = doc.begin(); it != doc.end();) {
      if (it.key() > "streams") {
        after[it.key()] = std::move(it.value());
        it = doc.erase(it);
      } else {
        ++it;
      }
    }
    text_ = JsonLine(doc);  // "{\n  …\n}\n": the closing "\n}\n" goes
    text_.resize(text_.size() - 3);
    text_ += ",\n  \"streams\": [";
    for (bool first = true; r; r = reads.Next(), first = false) {
      if (first || *r->client != client_) {
        if (!first) EndClient();
        text_ += first ? "\n    {\n      \"blocks\": [" : ",\n    {\n      \"blocks\": [";
        client_ = *r->client;
        in_files_ = false;
        items_ = 0;
      }
      if (r->file && !in_files_) EndBlocks();
      Item(r->file ? FileReadJson(*r->file) : BlockReadJson(*r->block));
      if (text_.size() >= kFlushBytes) {
        if (Status s = Flush(); !s.ok()) return s;
      }
    }
    if (Status s = reads.status(); !s.ok()) {
      Flush();
      return s;
    }
    EndClient();
    text_ += "\n  ]";
    std::string tail = JsonLine(after);  // "{\n  \"users\": …": the opening brace goes
    text_ += ",";
    text_.append(tail, 1);
    return Flush();
  }

 private:
  static constexpr std::size_t kFlushBytes = 1 << 16;
  // One block or file read of the array open at the depth of 4 indents.
  void Item(const json& item) {
    text_ += items_++ ? ",\n" : "\n";
    std::string one = JsonText(item, 2);
    text_.append(8, ' ');
    for (const char c : one) {  // a newline only between members: strings escape theirs
      text_ += c;
      if (c == '\n') text_.append(8, ' ');
    }
  }
  void EndArray() { text_ += items_ ? "\n      ]" : "]"; }
  void EndBlocks() {
    EndArray();
    text_ += ",\n      \"client\": " + JsonText(json(client_)) + ",\n      \"files\": [";
    in_files_ = true;
    items_ = 0;
  }
  void EndClient() {
    if (!in_files_) EndBlocks();
    EndArray();
    text_ += "\n    }";
  }
  Status Flush() {
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
    return out_ ? Status::Ok() : Status::Failed("writing the workload answer failed");
  }

  std::ostream& out_;
  std::string text_;       // written at the next Flush
  std::string client_;     // whose stream is open
  bool in_files_ = false;  // its blocks are closed, its files open
  std::size_t items_ = 0;  // in the array open
};

}  // namespace

std::string ToJson(const WorkloadAnswer& answer) {
  json doc = WorkloadDoc(answer);
  const models::HdfsWorkload& w = answer.workload;
  if (!w.streams.empty()) {
    json streams = json::array();
    for (const auto& s : w.streams) {
      json files = json::array(), blocks = json::array();
      for (const auto& f : s.files) files.push_back(FileReadJson(f));
      for (const auto& b : s.blocks) blocks.push_back(BlockReadJson(b));
      json stream = json::object();
      stream["client"] = s.client;
      stream["files"] = std::move(files);
      stream["blocks"] = std::move(blocks);
      streams.push_back(std::move(stream));
    }
    doc["streams"] = std::move(streams);
  }
  return JsonLine(doc);
}

Status WriteJson(StreamedWorkloadAnswer& answer, std::ostream& out) {
  return StreamsWriter(out).Write(WorkloadDoc(answer.answer), *answer.streams);
}

std::string ToJson(const profiles::HdfsSimulation& s) {
  const auto& t = s.truth;
  json dns = json::array();
  json nodes = json::array({"nn1=" + s.audit_log, "nn1=" + s.namenode_log});
  for (const auto& [name, path] : s.datanode_logs) {
    dns.push_back({{"node", name}, {"path", path}});
    nodes.push_back(name + "=" + path);
  }
  json doc = {{"audit_log", s.audit_log},
              {"namenode_log", s.namenode_log},
              {"datanode_logs", dns},
              {"ingest_nodes", nodes},
              {"truth", PERFPLAN_JSON_FIELDS(
                            t, data_bytes, control_bytes, write_bytes, replication_write_bytes,
                            read_bytes, data_read_bytes, read_ops, write_ops, metadata_ops, blocks,
                            client_read_bytes, client_write_bytes, user_read_bytes,
                            user_write_bytes, datanode_read_bytes, datanode_write_bytes)}};
  return JsonLine(doc);
}

}  // namespace perfplan::planner
