#include "planner/output/export.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "models/csv_field.h"
#include "models/enum_names.h"
#include "models/json_text.h"
#include "models/task_vectors.h"
#include "models/text.h"
#include "planner/hindex/hindex_fields.h"
#include "planner/plan/combined_plan.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/tuning/tune.h"
#include "tuning/spark_units.h"

namespace perfplan::planner {
namespace {

using models::FormatNumber;

// An H-index value as a cell: flags as "true"/"false", like the other flag columns.
ExportCell Cell(const HIndexValue& v) {
  if (const bool* flag = std::get_if<bool>(&v)) return std::string(*flag ? "true" : "false");
  if (const long long* count = std::get_if<long long>(&v)) return *count;
  if (const double* number = std::get_if<double>(&v)) return *number;
  if (const std::string* text = std::get_if<std::string>(&v)) return *text;
  return ExportCell{};
}

std::string CsvField(const ExportCell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "";
  if (const double* d = std::get_if<double>(&cell)) return FormatNumber(*d);
  if (const long long* i = std::get_if<long long>(&cell)) return std::to_string(*i);
  std::string text = std::get<std::string>(cell);
  if (!text.empty() && (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@')) {
    text.insert(text.begin(), '\'');
  }
  return models::QuoteCsvField(text);
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
  t.columns = {"application",  "stage_id", "attempt_id",      "tasks",
               "task_seconds", "included", "excluded_reason", "weight"};
  // The H-index columns are the keys of every H-index answer (planner/hindex/hindex_fields.h);
  // `n` is `tasks` and max_over_median is given for every stage, also the ones left out.
  const std::vector<std::string_view> keys = HIndexKeys();
  for (std::string_view key : keys) {
    if (key != "n") t.columns.emplace_back(key);
  }
  t.columns.push_back("h_job");
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
    std::vector<HIndexField> fields;
    if (s.included) fields = HIndexFields(*s.result);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (keys[k] == "n") continue;
      if (keys[k] == "max_over_median") {
        row.push_back(s.max_over_median ? ExportCell{*s.max_over_median} : ExportCell{});
      } else {
        row.push_back(fields.empty() ? ExportCell{} : Cell(fields[k].value));
      }
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

// The traffic columns the cluster row and the client and user rows share; Stats is
// models::HdfsClusterStats or models::HdfsClientStats.
template <typename Stats>
std::vector<ExportCell> TrafficRow(const char* kind, const std::string& key, const Stats& c) {
  std::vector<ExportCell> row = WorkloadRow(kind, key);
  row[kReadOps] = static_cast<long long>(c.read_ops);
  row[kWriteOps] = static_cast<long long>(c.write_ops);
  row[kMetadataOps] = static_cast<long long>(c.metadata_ops);
  row[kDeniedOps] = static_cast<long long>(c.denied_ops);
  row[kReadBytes] = static_cast<long long>(c.read_bytes);
  row[kWriteBytes] = static_cast<long long>(c.write_bytes);
  row[kFilesRead] = static_cast<long long>(c.files_read);
  row[kFilesWritten] = static_cast<long long>(c.files_written);
  row[kMeanReadFileBytes] = c.mean_read_file_bytes;
  row[kMeanWriteFileBytes] = c.mean_write_file_bytes;
  return row;
}

std::vector<ExportCell> ClientRow(const char* kind, const models::HdfsClientStats& c) {
  std::vector<ExportCell> row = TrafficRow(kind, c.key, c);
  row[kBlockReads] = static_cast<long long>(c.block_reads);
  row[kBlockWrites] = static_cast<long long>(c.block_writes);
  row[kOpsPerSecond] = c.iops;
  row[kReadWriteRatio] = c.read_write_ratio;
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
  std::vector<ExportCell> cluster = TrafficRow("cluster", "", c);
  cluster[kReplicationWriteBytes] = static_cast<long long>(c.replication_write_bytes);
  cluster[kOpsPerSecond] =
      static_cast<double>(c.read_ops + c.write_ops + c.metadata_ops) / c.window_seconds;
  cluster[kReadWriteRatio] =
      c.write_bytes > 0 ? static_cast<double>(c.read_bytes) / c.write_bytes : 0.0;
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

ExportTable PlanTable(const PlanAnswer& answer) {
  ExportTable t;
  t.what = "plan";
  t.columns = {"replica_site", "compute_site", "compute_nodes", "runtime_seconds",   "node_seconds",
               "cost",         "list_cost",    "currency",      "billed_node_hours", "select_rank",
               "chosen",       "on_front",     "feasible",      "instance_type"};
  for (std::size_t i = 0; i < answer.alternatives.size(); ++i) {
    const PlanAlternative& a = answer.alternatives[i];
    const bool chosen = answer.chosen && *answer.chosen == i;
    t.rows.push_back({a.select.replica_site, a.select.compute_site,
                      static_cast<long long>(a.select.compute_nodes), a.select.runtime_seconds,
                      a.select.node_seconds, a.priced ? ExportCell{a.cost.cost} : ExportCell{},
                      a.priced ? ExportCell{a.cost.list_cost} : ExportCell{},
                      a.priced ? ExportCell{answer.currency} : ExportCell{},
                      a.priced ? ExportCell{a.cost.billed_node_hours} : ExportCell{},
                      static_cast<long long>(a.select_rank), static_cast<long long>(chosen),
                      static_cast<long long>(a.on_front), static_cast<long long>(a.feasible),
                      a.instance_type.empty() ? ExportCell{} : ExportCell{a.instance_type}});
  }
  return t;
}

ExportTable SparkPlanTable(const SparkPlanAnswer& answer) {
  ExportTable t;
  t.what = "plan";
  t.columns = {"kind",          "application",       "executors",          "whatif_seconds",
               "executor_seconds", "history_seconds", "history_low_seconds",
               "history_high_seconds", "chosen",     "feasible",           "property",
               "value",         "baseline_value",    "direction",          "stage",
               "task_seconds",  "h_index",           "speedup",            "speculation_would_act",
               "aqe_skew_would_act"};
  enum Column { kKind, kApp, kExecutors, kWhatIf, kExecutorSeconds, kHistory, kLow, kHigh,
                kChosen, kFeasible, kProperty, kValue, kBaseline, kDirection, kStage, kTask,
                kH, kSpeedup, kSpeculation, kAqe, kColumns };
  auto row = [&](const char* kind) {
    std::vector<ExportCell> r(kColumns);
    r[kKind] = std::string(kind);
    r[kApp] = answer.latest_app_id;
    return r;
  };
  auto optional = [](const std::optional<double>& v) { return v ? ExportCell{*v} : ExportCell{}; };
  for (std::size_t i = 0; i < answer.options.size(); ++i) {
    const SparkExecutorOption& o = answer.options[i];
    std::vector<ExportCell> r = row("executors");
    r[kExecutors] = static_cast<long long>(o.executors);
    r[kWhatIf] = o.whatif_seconds;
    r[kExecutorSeconds] = o.executor_seconds;
    r[kHistory] = optional(o.history_seconds);
    if (o.history_interval) {
      r[kLow] = o.history_interval->low_seconds;
      r[kHigh] = o.history_interval->high_seconds;
    }
    r[kChosen] = static_cast<long long>(answer.chosen && *answer.chosen == i);
    r[kFeasible] = static_cast<long long>(o.feasible);
    t.rows.push_back(std::move(r));
  }
  if (answer.tuning.recommendation) {
    for (const tuning::RecommendedValue& v : answer.tuning.recommendation->config) {
      std::vector<ExportCell> r = row("parameter");
      r[kProperty] = v.property;
      r[kValue] = v.text;
      r[kBaseline] = v.baseline_text;
      for (const auto& [name, direction] : answer.tuning.top_parameters) {
        if (name == v.property || name == v.parameter) r[kDirection] = direction;
      }
      t.rows.push_back(std::move(r));
    }
  }
  for (const SparkStageStragglers& s : answer.stragglers.slowest) {
    std::vector<ExportCell> r = row("stage");
    r[kStage] = std::to_string(s.stage_id) + "." + std::to_string(s.attempt_id);
    r[kTask] = s.task_seconds;
    r[kH] = optional(s.h_index);
    r[kSpeedup] = optional(s.speedup);
    r[kSpeculation] = static_cast<long long>(s.speculation_would_act);
    r[kAqe] = static_cast<long long>(s.aqe_skew_would_act);
    t.rows.push_back(std::move(r));
  }
  return t;
}

ExportTable CombinedPlanTable(const CombinedPlanAnswer& answer) {
  ExportTable t;
  t.what = "plan";
  t.columns = {"part", "alternative", "combined_chosen", "combined_on_front"};
  struct Part {
    PlanPart part;
    ExportTable table;
  };
  std::vector<Part> parts;
  if (answer.profile) parts.push_back({PlanPart::kProfile, PlanTable(*answer.profile)});
  if (answer.runs) parts.push_back({PlanPart::kRuns, PlanTable(*answer.runs)});
  if (answer.spark) parts.push_back({PlanPart::kSpark, SparkPlanTable(*answer.spark)});
  // The union of the parts' columns, in the order they first appear.
  for (const Part& p : parts) {
    for (const std::string& c : p.table.columns) {
      if (std::find(t.columns.begin(), t.columns.end(), c) == t.columns.end()) {
        t.columns.push_back(c);
      }
    }
  }
  const auto at = [&](const std::string& column) {
    return static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), column) -
                                    t.columns.begin());
  };
  for (const Part& p : parts) {
    std::vector<std::size_t> index;
    for (const std::string& c : p.table.columns) index.push_back(at(c));
    for (std::size_t i = 0; i < p.table.rows.size(); ++i) {
      std::vector<ExportCell> row(t.columns.size());
      row[0] = std::string(ToString(p.part));
      for (std::size_t k = 0; k < index.size(); ++k) row[index[k]] = p.table.rows[i][k];
      if (p.part != PlanPart::kSpark) {  // PlanTable: one row per alternative, in order
        const PartRef ref{p.part, i};
        row[1] = static_cast<long long>(i);
        row[2] = static_cast<long long>(answer.placement && answer.placement->part == p.part &&
                                        answer.placement->alternative == i);
        row[3] = static_cast<long long>(
            std::any_of(answer.front.begin(), answer.front.end(), [&](const PartRef& f) {
              return f.part == ref.part && f.alternative == ref.alternative;
            }));
      } else {
        // The Spark part is attached to the placement: its chosen executor count is the plan's.
        row[2] = row[at("kind")] == ExportCell{std::string("executors")} ? row[at("chosen")]
                                                                         : ExportCell{};
      }
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

ExportTable CapacityTable(const CapacityAnswer& answer) {
  ExportTable t;
  t.what = "capacity";
  t.columns = {
      "nodes", "makespan_seconds", "mean_queue_seconds", "p95_queue_seconds", "utilisation",
      "cost",  "currency",         "within_target",      "clamped_jobs",      "extrapolated_jobs"};
  for (const CapacityRow& r : answer.rows) {
    t.rows.push_back({static_cast<long long>(r.nodes), r.replay.makespan_seconds,
                      r.replay.mean_queue_seconds, r.replay.p95_queue_seconds, r.replay.utilisation,
                      r.priced ? ExportCell{r.cost.cost} : ExportCell{},
                      r.priced ? ExportCell{answer.currency} : ExportCell{},
                      answer.request.within_hours > 0
                          ? ExportCell{static_cast<long long>(r.within_target)}
                          : ExportCell{},
                      static_cast<long long>(r.replay.clamped_jobs),
                      static_cast<long long>(r.extrapolated_jobs)});
  }
  return t;
}

namespace {

constexpr models::EnumName<ExportKind> kExportKinds[] = {
    {ExportKind::kPredictions, "predictions"}, {ExportKind::kSelection, "selection"},
    {ExportKind::kScores, "scores"},           {ExportKind::kSensitivity, "sensitivity"},
    {ExportKind::kStragglers, "stragglers"},   {ExportKind::kWorkload, "workload"},
    {ExportKind::kPlan, "plan"},               {ExportKind::kCapacity, "capacity"},
};

// The table of an answer, or the answer's error.
template <typename Answer>
Result<ExportTable> TableOf(const Result<Answer>& answer, ExportTable (*table)(const Answer&)) {
  if (!answer.ok()) return answer.status();
  return table(answer.value());
}

Result<ExportTable> ExportPredictions(const ExportRequest& r) {
  if (r.dataset_bytes.empty() || r.storage_nodes.empty() || r.compute_nodes.empty() ||
      r.bandwidth_bytes_per_second.empty()) {
    return Status::InvalidArgument(
        "--what predictions needs --dataset-bytes, --storage-nodes, --compute-nodes and "
        "--bandwidth-bytes-per-second (each a comma-separated list)");
  }
  std::vector<PredictAnswer> answers;
  PredictRequest request;
  request.profile_file = r.profile_file;
  request.cluster_file = r.cluster_file;
  request.site = r.site;
  for (double s : r.dataset_bytes) {
    for (double n : r.storage_nodes) {
      for (double c : r.compute_nodes) {
        for (double b : r.bandwidth_bytes_per_second) {
          request.dataset_bytes = s;
          request.storage_nodes = n;
          request.compute_nodes = c;
          request.bandwidth_bytes_per_second = b;
          Result<PredictAnswer> a = AnswerPredict(request);
          if (!a.ok()) return a.status();
          answers.push_back(std::move(a).value());
        }
      }
    }
  }
  return PredictionsTable(answers);
}

}  // namespace

std::string_view ToString(ExportKind kind) { return models::NameOf(kExportKinds, kind); }

bool Parse(std::string_view text, ExportKind* out) {
  return models::ParseName(kExportKinds, text, out);
}

namespace {

// --what plan: the plan of each evidence path given (a profile with --topology and --dataset, a
// runs CSV with its workload, a Spark application APP in --store), or the combined plan of two or
// three of them.
Result<ExportTable> ExportPlan(const ExportRequest& r) {
  PlanRequest request = r.plan;  // prices, objective, budget, runs CSV, workload, node counts
  request.deadline_seconds = r.select.deadline_seconds;
  request.max_nodes = r.select.max_compute_nodes;
  if (!r.profile_file.empty() || !r.topology_file.empty()) {
    request.profile_file = r.profile_file;
    request.topology_file = r.topology_file;
    request.dataset = r.select.dataset;
  }
  if (!r.app_id.empty()) {
    request.store_path = r.store_path;
    request.app = r.app_id;
  }
  if (EvidencePaths(request) >= 2) {
    return TableOf(AnswerCombinedPlan(request), CombinedPlanTable);
  }
  if (request.evidence() == PlanEvidence::kSparkApp) {
    if (Status s = request.Validate(); !s.ok()) return s;
    return TableOf(AnswerSparkPlan(request), SparkPlanTable);
  }
  if (request.evidence() == PlanEvidence::kProfile) {
    if (r.profile_file.empty()) return Status::InvalidArgument("--what plan needs --profile");
    if (r.topology_file.empty() || r.select.dataset.empty()) {
      return Status::InvalidArgument("--what plan needs --topology and --dataset");
    }
  }
  return TableOf(AnswerPlan(request), PlanTable);
}

}  // namespace

Result<ExportTable> AnswerExport(const ExportRequest& r) {
  switch (r.what) {
    case ExportKind::kStragglers: {
      if (r.app_id.empty()) {
        return Status::InvalidArgument("--what stragglers needs an application id (APP)");
      }
      StragglersRequest request = r.stragglers;
      request.store_path = r.store_path;
      request.app_id = r.app_id;
      return TableOf(AnswerStragglers(request), StragglersTable);
    }
    case ExportKind::kScores: {
      return TableOf(AnswerScores(r.store_path, r.app_id), ScoresTable);
    }
    case ExportKind::kSensitivity: {
      if (r.model_file.empty()) {
        return Status::InvalidArgument(
            "--what sensitivity needs --model (a model saved by `perfplan tune train`)");
      }
      TuneModelSource source;
      source.model_file = r.model_file;
      tuning::SensitivityOptions settings;
      if (r.maximize) settings.goal = tuning::Goal::kMaximize;
      return TableOf(AnswerTuneSensitivity(source, {}, settings), SensitivityTable);
    }
    case ExportKind::kWorkload: {
      WorkloadRequest request = r.workload;
      request.store_path = r.store_path;
      return TableOf(AnswerWorkload(request), WorkloadTable);
    }
    case ExportKind::kPredictions:
    case ExportKind::kSelection:
    case ExportKind::kPlan:
    case ExportKind::kCapacity:
      break;
  }
  if (r.what == ExportKind::kPlan) return ExportPlan(r);
  if (r.what == ExportKind::kCapacity) {
    CapacityRequest request = r.capacity;  // its runs CSV and workload, or the profile above
    request.profile_file = r.profile_file;
    if (request.trace_file.empty()) request.store_path = r.store_path;  // the store's jobs
    return TableOf(AnswerCapacity(request), CapacityTable);
  }
  if (r.profile_file.empty()) {
    return Status::InvalidArgument("--what " + std::string(ToString(r.what)) + " needs --profile");
  }
  if (r.what == ExportKind::kPredictions) return ExportPredictions(r);
  if (r.topology_file.empty() || r.select.dataset.empty()) {
    return Status::InvalidArgument("--what selection needs --topology and --dataset");
  }
  SelectRequest request;
  request.profile_file = r.profile_file;
  request.topology_file = r.topology_file;
  request.options = r.select;
  return TableOf(AnswerSelect(request), SelectionTable);
}

}  // namespace perfplan::planner
