// JSON for the HDFS answers (DESIGN §6: ingest hdfs → records, skipped[], checkpoints[];
// workload → clients[], users[], datanodes[], cluster{}, recommendations[]).
#include <nlohmann/json.hpp>

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

std::string ToJson(const WorkloadAnswer& answer) {
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
  if (!w.streams.empty()) {
    json streams = json::array();
    for (const auto& s : w.streams) {
      json files = json::array(), blocks = json::array();
      for (const auto& f : s.files) files.push_back({{"time_ms", f.time_ms}, {"path", f.path}});
      for (const auto& b : s.blocks) {
        blocks.push_back({{"time_ms", b.time_ms},
                          {"datanode", b.datanode},
                          {"block", b.block},
                          {"bytes", b.bytes}});
      }
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
