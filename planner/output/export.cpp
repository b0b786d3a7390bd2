#include "planner/output/export.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "models/task_vectors.h"
#include "tuning/spark_units.h"
#include "models/json_text.h"

namespace perfplan::planner {
namespace {

// Shortest text that reads back as the same double ("%.17g" trimmed by trying fewer digits).
std::string FormatDouble(double v) {
  char buf[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string CsvField(const ExportCell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "";
  if (const double* d = std::get_if<double>(&cell)) return FormatDouble(*d);
  if (const long long* i = std::get_if<long long>(&cell)) return std::to_string(*i);
  std::string text = std::get<std::string>(cell);
  if (!text.empty() && (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@')) {
    text.insert(text.begin(), '\'');
  }
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string JoinWarnings(const std::vector<std::string>& warnings) {
  std::string out;
  for (const std::string& w : warnings) out += (out.empty() ? "" : "; ") + w;
  return out;
}

void AddBreakdown(const models::Breakdown& b, std::vector<ExportCell>* row) {
  row->insert(row->end(), {b.disk_seconds, b.network_seconds, b.compute_seconds,
                           b.reduction_seconds, b.global_reduction_seconds});
}

ExportCell Optional(const std::optional<double>& v) { return v ? ExportCell{*v} : ExportCell{}; }

const char* kBreakdownColumns[] = {"disk_seconds", "network_seconds", "compute_seconds",
                                   "reduction_seconds", "global_reduction_seconds"};

}  // namespace

std::string ToCsv(const ExportTable& table) {
  std::string out;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    out += (i ? "," : "") + CsvField(table.columns[i]);
  }
  out += "\r\n";
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + CsvField(row[i]);
    out += "\r\n";
  }
  return out;
}

std::string ToJson(const ExportTable& table) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : table.rows) {
    nlohmann::json r = nlohmann::json::object();
    for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i) {
      std::visit(
          [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
              r[table.columns[i]] = nullptr;
            } else {
              r[table.columns[i]] = v;
            }
          },
          row[i]);
    }
    rows.push_back(std::move(r));
  }
  nlohmann::json j = {{"schema_version", kExportSchemaVersion},
                      {"what", table.what},
                      {"columns", table.columns},
                      {"rows", rows}};
  return JsonLine(j);
}

ExportTable PredictionsTable(const std::vector<PredictAnswer>& answers) {
  ExportTable t;
  t.what = "predictions";
  t.columns = {"application",    "site",          "dataset_bytes",
               "storage_nodes",  "compute_nodes", "bandwidth_bytes_per_second",
               "runtime_seconds"};
  t.columns.insert(t.columns.end(), std::begin(kBreakdownColumns), std::end(kBreakdownColumns));
  t.columns.push_back("warnings");
  for (const PredictAnswer& a : answers) {
    std::vector<ExportCell> row = {
        a.model.application,         a.site.empty() ? ExportCell{} : ExportCell{a.site},
        a.target.dataset_bytes,      a.target.storage_nodes,
        a.target.compute_nodes,      a.target.bandwidth_bytes_per_second,
        a.prediction.runtime_seconds};
    AddBreakdown(a.prediction.breakdown, &row);
    row.push_back(JoinWarnings(a.prediction.warnings));
    t.rows.push_back(std::move(row));
  }
  return t;
}

ExportTable SelectionTable(const SelectAnswer& answer) {
  ExportTable t;
  t.what = "selection";
  t.columns = {"rank",
               "application",
               "dataset",
               "replica_site",
               "compute_site",
               "compute_nodes",
               "storage_nodes",
               "bandwidth_bytes_per_second",
               "latency_seconds",
               "runtime_seconds",
               "node_seconds"};
  t.columns.insert(t.columns.end(), std::begin(kBreakdownColumns), std::end(kBreakdownColumns));
  t.columns.push_back("warnings");
  long long rank = 0;
  for (const Alternative& a : answer.selection.alternatives) {
    std::vector<ExportCell> row = {++rank,
                                   answer.model.application,
                                   answer.selection.dataset,
                                   a.replica_site,
                                   a.compute_site,
                                   static_cast<long long>(a.compute_nodes),
                                   a.storage_nodes,
                                   a.bandwidth_bytes_per_second,
                                   a.latency_seconds,
                                   a.runtime_seconds,
                                   a.node_seconds};
    AddBreakdown(a.breakdown, &row);
    row.push_back(JoinWarnings(a.warnings));
    t.rows.push_back(std::move(row));
  }
  return t;
}

ExportTable StragglersTable(const StragglersAnswer& answer) {
  ExportTable t;
  t.what = "stragglers";
  t.columns = {"application",
               "stage_id",
               "attempt_id",
               "tasks",
               "task_seconds",
               "included",
               "excluded_reason",
               "weight",
               "gini",
               "change_point",
               "change_point_fraction",
               "area_l",
               "area_lstar",
               "h_index",
               "efficiency",
               "speedup",
               "max_over_median",
               "above_1_5x_median",
               "above_5x_median",
               "h_job"};
  const ExportCell h_job = answer.h_job ? ExportCell{*answer.h_job} : ExportCell{};
  for (const StageStragglers& s : answer.stages) {
    std::vector<ExportCell> row = {answer.app_id,
                                   static_cast<long long>(s.stage_id),
                                   static_cast<long long>(s.attempt_id),
                                   static_cast<long long>(s.tasks),
                                   s.task_seconds,
                                   std::string(s.included ? "true" : "false"),
                                   s.excluded_reason,
                                   s.weight};
    if (s.included) {
      const models::HIndexResult& r = *s.result;
      row.insert(row.end(),
                 {r.gini, static_cast<long long>(r.change_point), r.change_point_fraction, r.area_l,
                  r.area_lstar, r.h_index, r.efficiency, r.speedup});
    } else {
      row.resize(row.size() + 8);
    }
    row.push_back(s.max_over_median ? ExportCell{*s.max_over_median} : ExportCell{});
    if (s.included) {
      row.push_back(static_cast<long long>(s.result->above_speculation_threshold));
      row.push_back(static_cast<long long>(s.result->above_skew_threshold));
    } else {
      row.resize(row.size() + 2);
    }
    row.push_back(h_job);
    t.rows.push_back(std::move(row));
  }
  return t;
}

ExportTable ScoresTable(const std::vector<ScoreAnswer>& answers) {
  ExportTable t;
  t.what = "scores";
  t.columns = {"application",         "score",          "task_type", "provisional",
               "provisional_reasons", "worst_dimension"};
  for (const models::DimensionInfo& d : models::Dimensions()) {
    t.columns.push_back(std::string(d.name));
    t.columns.push_back(std::string(d.name) + "_score");
  }
  t.columns.push_back("warnings");
  for (const ScoreAnswer& a : answers) {
    const models::ScoreResult& r = a.result;
    std::vector<ExportCell> row = {a.app_id,
                                   r.score,
                                   std::string(models::ToString(r.type)),
                                   std::string(r.provisional ? "true" : "false"),
                                   JoinWarnings(r.provisional_reasons),
                                   r.worst_first.empty()
                                       ? ExportCell{}
                                       : ExportCell{r.dimensions[r.worst_first.front()].name}};
    for (std::size_t j = 0; j < models::Dimensions().size(); ++j) {
      const models::DimensionScore* d = j < r.dimensions.size() ? &r.dimensions[j] : nullptr;
      row.push_back(d ? Optional(d->value) : ExportCell{});
      row.push_back(d ? Optional(d->score) : ExportCell{});
    }
    std::vector<std::string> warnings = a.warnings;
    warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
    row.push_back(JoinWarnings(warnings));
    t.rows.push_back(std::move(row));
  }
  return t;
}

ExportTable SensitivityTable(const tuning::Sensitivity& s) {
  ExportTable t;
  t.what = "sensitivity";
  t.columns = {"rank", "target",        "parameter", "unit",      "value", "step",
               "eta",  "scaled_change", "direction", "predicted", "model", "cv_mre"};
  for (const tuning::ParameterSensitivity& p : s.parameters) {
    t.rows.push_back({static_cast<long long>(p.rank), s.target, p.name,
                      std::string(tuning::ToString(p.unit)), p.value, p.step, p.eta, p.scaled,
                      p.direction, s.predicted, std::string(tuning::ToString(s.kind)),
                      s.cv_mre < 0 ? ExportCell{} : ExportCell{s.cv_mre}});
  }
  return t;
}

namespace {

// The columns of WorkloadTable, in order.
enum WorkloadColumn {
  kKind,
  kKey,
  kReadOps,
  kWriteOps,
  kMetadataOps,
  kDeniedOps,
  kReadBytes,
  kWriteBytes,
  kReplicationWriteBytes,
  kBlockReads,
  kBlockWrites,
  kOpsPerSecond,
  kReadWriteRatio,
  kFilesRead,
  kFilesWritten,
  kMeanReadFileBytes,
  kMeanWriteFileBytes,
  kDatanodesTouched,
  kShareOfBytes,
  kWindowSeconds,
  kDatanodeLoadGini,
  kCommand,
  kReason,
  kWorkloadColumns
};

std::vector<ExportCell> WorkloadRow(const char* kind, const std::string& key) {
  std::vector<ExportCell> row(kWorkloadColumns);
  row[kKind] = std::string(kind);
  row[kKey] = key;
  return row;
}

std::vector<ExportCell> ClientRow(const char* kind, const models::HdfsClientStats& c) {
  std::vector<ExportCell> row = WorkloadRow(kind, c.key);
  row[kReadOps] = static_cast<long long>(c.read_ops);
  row[kWriteOps] = static_cast<long long>(c.write_ops);
  row[kMetadataOps] = static_cast<long long>(c.metadata_ops);
  row[kDeniedOps] = static_cast<long long>(c.denied_ops);
  row[kReadBytes] = static_cast<long long>(c.read_bytes);
  row[kWriteBytes] = static_cast<long long>(c.write_bytes);
  row[kBlockReads] = static_cast<long long>(c.block_reads);
  row[kBlockWrites] = static_cast<long long>(c.block_writes);
  row[kOpsPerSecond] = c.iops;
  row[kReadWriteRatio] = c.read_write_ratio;
  row[kFilesRead] = static_cast<long long>(c.files_read);
  row[kFilesWritten] = static_cast<long long>(c.files_written);
  row[kMeanReadFileBytes] = c.mean_read_file_bytes;
  row[kMeanWriteFileBytes] = c.mean_write_file_bytes;
  row[kDatanodesTouched] = static_cast<long long>(c.datanodes_touched);
  return row;
}

}  // namespace

ExportTable WorkloadTable(const WorkloadAnswer& answer) {
  ExportTable t;
  t.what = "workload";
  t.columns = {"kind",
               "key",
               "read_ops",
               "write_ops",
               "metadata_ops",
               "denied_ops",
               "read_bytes",
               "write_bytes",
               "replication_write_bytes",
               "block_reads",
               "block_writes",
               "ops_per_second",
               "read_write_ratio",
               "files_read",
               "files_written",
               "mean_read_file_bytes",
               "mean_write_file_bytes",
               "datanodes_touched",
               "share_of_bytes",
               "window_seconds",
               "datanode_load_gini",
               "command",
               "reason"};
  const models::HdfsWorkload& w = answer.workload;
  const models::HdfsClusterStats& c = w.cluster;
  std::vector<ExportCell> cluster = WorkloadRow("cluster", "");
  cluster[kReadOps] = static_cast<long long>(c.read_ops);
  cluster[kWriteOps] = static_cast<long long>(c.write_ops);
  cluster[kMetadataOps] = static_cast<long long>(c.metadata_ops);
  cluster[kDeniedOps] = static_cast<long long>(c.denied_ops);
  cluster[kReadBytes] = static_cast<long long>(c.read_bytes);
  cluster[kWriteBytes] = static_cast<long long>(c.write_bytes);
  cluster[kReplicationWriteBytes] = static_cast<long long>(c.replication_write_bytes);
  cluster[kOpsPerSecond] =
      static_cast<double>(c.read_ops + c.write_ops + c.metadata_ops) / c.window_seconds;
  cluster[kReadWriteRatio] =
      c.write_bytes > 0 ? static_cast<double>(c.read_bytes) / c.write_bytes : 0.0;
  cluster[kFilesRead] = static_cast<long long>(c.files_read);
  cluster[kFilesWritten] = static_cast<long long>(c.files_written);
  cluster[kMeanReadFileBytes] = c.mean_read_file_bytes;
  cluster[kMeanWriteFileBytes] = c.mean_write_file_bytes;
  cluster[kDatanodesTouched] = static_cast<long long>(c.datanodes);
  cluster[kShareOfBytes] = 1.0;
  cluster[kWindowSeconds] = c.window_seconds;
  cluster[kDatanodeLoadGini] = c.datanode_load_gini;
  t.rows.push_back(std::move(cluster));
  for (const models::HdfsDataNodeStats& d : w.datanodes) {
    std::vector<ExportCell> row = WorkloadRow("datanode", d.datanode);
    row[kReadOps] = static_cast<long long>(d.read_ops);
    row[kWriteOps] = static_cast<long long>(d.write_ops);
    row[kReadBytes] = static_cast<long long>(d.read_bytes);
    row[kWriteBytes] = static_cast<long long>(d.write_bytes);
    row[kReplicationWriteBytes] = static_cast<long long>(d.replication_write_bytes);
    row[kShareOfBytes] = d.share_of_bytes;
    t.rows.push_back(std::move(row));
  }
  for (const models::HdfsClientStats& client : w.clients)
    t.rows.push_back(ClientRow("client", client));
  for (const models::HdfsClientStats& user : w.users) t.rows.push_back(ClientRow("user", user));
  for (const models::HdfsRecommendation& r : w.recommendations) {
    std::vector<ExportCell> row = WorkloadRow("recommendation", r.kind);
    row[kCommand] = r.command;
    row[kReason] = r.reason;
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace perfplan::planner
