#include "planner/export.h"

#include <cstdio>
#include <nlohmann/json.hpp>

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
  return j.dump(2) + "\n";
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
  t.columns = {"application",     "stage_id",   "attempt_id",         "tasks",
               "task_seconds",    "included",   "excluded_reason",    "weight",
               "gini",            "change_point", "change_point_fraction", "area_l",
               "area_lstar",      "h_index",    "efficiency",         "speedup",
               "max_over_median", "above_1_5x_median", "above_5x_median", "h_job"};
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
      row.insert(row.end(), {r.gini, static_cast<long long>(r.change_point),
                             r.change_point_fraction, r.area_l, r.area_lstar, r.h_index,
                             r.efficiency, r.speedup});
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

}  // namespace perfplan::planner
