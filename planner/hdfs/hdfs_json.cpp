// JSON for the HDFS answers (DESIGN §6: ingest hdfs → records, skipped[], checkpoints[];
// workload → clients[], users[], datanodes[], cluster{}, recommendations[]).
#include <nlohmann/json.hpp>

#include "planner/hdfs/hdfs.h"
#include "planner/output/skip_report.h"
#include "models/json_text.h"

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
  return {{key_name, s.key},
          {"read_ops", s.read_ops},
          {"write_ops", s.write_ops},
          {"metadata_ops", s.metadata_ops},
          {"denied_ops", s.denied_ops},
          {"read_bytes", s.read_bytes},
          {"write_bytes", s.write_bytes},
          {"block_reads", s.block_reads},
          {"block_writes", s.block_writes},
          {"iops", s.iops},
          {"read_write_ratio", s.read_write_ratio},
          {"files_read", s.files_read},
          {"files_written", s.files_written},
          {"mean_read_file_bytes", s.mean_read_file_bytes},
          {"mean_write_file_bytes", s.mean_write_file_bytes},
          {"datanodes_touched", s.datanodes_touched},
          {"bytes_per_datanode", per_node}};
}

}  // namespace

std::string ToJson(const profiles::HdfsIngestReport& r) {
  json checkpoints = json::array();
  for (const auto& c : r.checkpoints) {
    checkpoints.push_back({{"node", c.node},
                           {"path", c.path},
                           {"device", c.device},
                           {"inode", c.inode},
                           {"fingerprint", c.fingerprint},
                           {"fingerprint_bytes", c.fingerprint_bytes},
                           {"offset_bytes", c.offset_bytes},
                           {"lines", c.lines},
                           {"last_time_ms", c.last_time_ms}});
  }
  const auto& n = r.counts;
  json doc = {{"records", r.records},
              {"files_read", r.files_read},
              {"files_unchanged", r.files_unchanged},
              {"timezone", r.timezone},
              {"lines",
               {{"total", n.lines},
                {"audit", n.audit},
                {"transfer", n.transfer},
                {"block", n.block},
                {"create", n.create},
                {"complete", n.complete},
                {"other_trace", n.other_trace},
                {"other", n.other},
                {"continuation", n.continuation},
                {"blank", n.blank},
                {"garbled", n.garbled},
                {"time_backwards", n.time_backwards}}},
              {"skipped", ProblemsJson(r.skipped)},
              {"skipped_total", r.skipped_total},
              {"skipped_reasons", SkipReasonsJson(r.skipped_reasons)},
              {"warnings", ProblemsJson(r.warnings)},
              {"checkpoints", checkpoints}};
  return JsonLine(doc);
}

std::string ToJson(const WorkloadAnswer& answer) {
  const models::HdfsWorkload& w = answer.workload;
  json clients = json::array(), users = json::array(), datanodes = json::array(),
       recs = json::array();
  for (const auto& c : w.clients) clients.push_back(ClientJson(c, "client"));
  for (const auto& u : w.users) users.push_back(ClientJson(u, "user"));
  for (const auto& d : w.datanodes) {
    datanodes.push_back({{"datanode", d.datanode},
                         {"read_bytes", d.read_bytes},
                         {"write_bytes", d.write_bytes},
                         {"read_ops", d.read_ops},
                         {"write_ops", d.write_ops},
                         {"replication_write_bytes", d.replication_write_bytes},
                         {"share_of_bytes", d.share_of_bytes}});
  }
  for (const auto& r : w.recommendations) {
    recs.push_back({{"kind", r.kind}, {"command", r.command}, {"reason", r.reason}});
  }
  const auto& c = w.cluster;
  json doc = {{"clients", clients},
              {"users", users},
              {"datanodes", datanodes},
              {"cluster",
               {{"window_start_ms", c.window_start_ms},
                {"window_end_ms", c.window_end_ms},
                {"window_seconds", c.window_seconds},
                {"audit_records", c.audit_records},
                {"transfer_records", c.transfer_records},
                {"block_records", c.block_records},
                {"read_ops", c.read_ops},
                {"write_ops", c.write_ops},
                {"metadata_ops", c.metadata_ops},
                {"denied_ops", c.denied_ops},
                {"read_bytes", c.read_bytes},
                {"write_bytes", c.write_bytes},
                {"replication_write_bytes", c.replication_write_bytes},
                {"unattributed_bytes", c.unattributed_bytes},
                {"read_bytes_per_second", c.read_bytes_per_second},
                {"write_bytes_per_second", c.write_bytes_per_second},
                {"mean_read_file_bytes", c.mean_read_file_bytes},
                {"mean_write_file_bytes", c.mean_write_file_bytes},
                {"files_read", c.files_read},
                {"files_written", c.files_written},
                {"clients", c.clients},
                {"users", c.users},
                {"datanodes", c.datanodes},
                {"datanode_load_gini", c.datanode_load_gini},
                {"datanode_max_over_mean", c.datanode_max_over_mean}}},
              {"recommendations", recs},
              {"warnings", w.warnings}};
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
      streams.push_back({{"client", s.client}, {"files", files}, {"blocks", blocks}});
    }
    doc["streams"] = streams;
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
              {"truth",
               {{"data_bytes", t.data_bytes},
                {"control_bytes", t.control_bytes},
                {"write_bytes", t.write_bytes},
                {"replication_write_bytes", t.replication_write_bytes},
                {"read_bytes", t.read_bytes},
                {"data_read_bytes", t.data_read_bytes},
                {"read_ops", t.read_ops},
                {"write_ops", t.write_ops},
                {"metadata_ops", t.metadata_ops},
                {"blocks", t.blocks},
                {"client_read_bytes", t.client_read_bytes},
                {"client_write_bytes", t.client_write_bytes},
                {"user_read_bytes", t.user_read_bytes},
                {"user_write_bytes", t.user_write_bytes},
                {"datanode_read_bytes", t.datanode_read_bytes},
                {"datanode_write_bytes", t.datanode_write_bytes}}}};
  return JsonLine(doc);
}

}  // namespace perfplan::planner
