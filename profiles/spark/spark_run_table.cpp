#include "profiles/spark/spark_run_table.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "models/text.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::profiles::spark {
namespace {

// Properties that name or locate one run rather than configure it.
bool IsIdentityProperty(const std::string& name) {
  static const std::set<std::string> kNames = {"spark.app.id",
                                               "spark.app.name",
                                               "spark.app.startTime",
                                               "spark.app.submitTime",
                                               "spark.app.attempt.id",
                                               "spark.driver.host",
                                               "spark.driver.port",
                                               "spark.driver.appUIAddress",
                                               "spark.executor.id",
                                               "spark.ui.proxyBase",
                                               "spark.eventLog.dir",
                                               "spark.yarn.app.id",
                                               "spark.yarn.app.container.log.dir",
                                               "spark.blockManager.port",
                                               "spark.repl.class.uri",
                                               "spark.repl.class.outputDir"};
  if (kNames.count(name)) return true;
  return name.rfind("spark.org.apache.hadoop.yarn.", 0) == 0 ||
         name.rfind("spark.yarn.tags", 0) == 0;
}

using models::FormatNumber;

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

struct AppRow {
  std::string app_id;
  std::map<std::string, std::string> properties;
  std::vector<double> metrics;
};

}  // namespace

Result<StoreRunTable> ReadStoreRunTable(Store& store, const RunTableSelection& selection) {
  Result<std::vector<ApplicationSummary>> listed = ListApplications(store);
  if (!listed.ok()) return listed.status();
  if (listed.value().empty()) {
    return Status::InvalidArgument("no applications in the store " + store.path() +
                                   "; ingest event logs into it first (perfplan ingest spark)");
  }
  // Latest attempt per application (the listing is latest start first), oldest application first.
  std::vector<ApplicationSummary> apps;
  std::set<std::string> seen;
  for (const auto& a : listed.value()) {
    if (seen.insert(a.app_id).second) apps.push_back(a);
  }
  std::reverse(apps.begin(), apps.end());
  for (const auto& id : selection.app_ids) {
    if (!seen.count(id)) {
      return Status::InvalidField("app_ids",
                                  "application " + id + " not in the store " + store.path());
    }
  }
  std::vector<ApplicationSummary> chosen;
  for (const auto& a : apps) {
    const bool id_ok = selection.app_ids.empty() ||
                       std::find(selection.app_ids.begin(), selection.app_ids.end(), a.app_id) !=
                           selection.app_ids.end();
    const bool name_ok = selection.name_contains.empty() ||
                         a.name.find(selection.name_contains) != std::string::npos;
    if (id_ok && name_ok) chosen.push_back(a);
  }
  if (chosen.empty()) {
    return Status::InvalidField("name_contains", "no application in the store " + store.path() +
                                                     " matches \"" + selection.name_contains +
                                                     "\"");
  }

  auto sums = store.Prepare(
      "SELECT total(executor_run_time_ms), total(shuffle_remote_bytes_read) + "
      "total(shuffle_local_bytes_read), total(shuffle_bytes_written), total(jvm_gc_time_ms) "
      "FROM spark_stage_summaries WHERE attempt_key = ?1");  // running tasks have no metrics
  if (!sums.ok()) return sums.status();

  std::vector<AppRow> rows;
  std::vector<std::string> property_order;  // first appearance
  for (const auto& a : chosen) {
    Result<std::int64_t> key = FindAttemptKey(store, a.app_id, a.attempt_id);
    if (!key.ok()) return key.status();
    AppRow row;
    row.app_id = a.app_id;
    auto props = LoadSparkProperties(store, key.value());
    if (!props.ok()) return props.status();
    for (auto& [name, value] : props.value()) {
      if (name.rfind("spark.", 0) != 0) continue;
      if (!row.properties.count(name) &&
          std::find(property_order.begin(), property_order.end(), name) == property_order.end()) {
        property_order.push_back(name);
      }
      row.properties[name] = std::move(value);
    }
    Result<EfficiencyVector> beta = ComputeEfficiencyVector(store, a.app_id, a.attempt_id);
    if (!beta.ok()) return beta.status();
    Statement& s = sums.value();
    s.Reset();
    s.Bind(1, key.value());
    if (!s.Step()) return s.Error().ok() ? Status::Failed("task sums returned no row") : s.Error();
    const EfficiencyVector& b = beta.value();
    row.metrics = {b.total_seconds,
                   s.ColumnDouble(0) / 1000.0,
                   s.ColumnDouble(1),
                   s.ColumnDouble(2),
                   s.ColumnDouble(3) / 1000.0,
                   b.compute_share,
                   b.shuffle_share,
                   b.shuffle_bytes,
                   b.gc_share,
                   b.result_serialization_share};
    rows.push_back(std::move(row));
  }

  StoreRunTable out;
  out.table.source = "store:" + store.path();
  std::vector<std::string> parameters, identity, constant, partial;
  for (const auto& name : property_order) {
    if (IsIdentityProperty(name)) {
      identity.push_back(name);
      continue;
    }
    bool everywhere = true, varies = false;
    const std::string* first = nullptr;
    for (const auto& r : rows) {
      auto it = r.properties.find(name);
      if (it == r.properties.end()) {
        everywhere = false;
        break;
      }
      if (!first)
        first = &it->second;
      else if (*first != it->second)
        varies = true;
    }
    if (!everywhere)
      partial.push_back(name);
    else if (!varies)
      constant.push_back(name);
    else
      parameters.push_back(name);
  }
  for (const auto& name : parameters) out.table.columns.emplace_back().name = name;
  for (const auto& name : MetricColumns()) out.table.columns.emplace_back().name = name;
  for (const auto& r : rows) {
    models::RunRow row;
    for (const auto& name : parameters) row.cells.push_back(r.properties.at(name));
    for (double m : r.metrics) row.cells.push_back(FormatNumber(m));
    row.line = static_cast<int>(out.table.rows.size()) + 1;
    out.table.rows.push_back(std::move(row));
  }
  std::string apps_text;
  for (const auto& r : rows) apps_text += (apps_text.empty() ? "" : ", ") + r.app_id;
  out.notes.push_back("store: " + std::to_string(rows.size()) + " application(s): " + apps_text);
  if (!constant.empty()) {
    out.notes.push_back(
        "store: properties with the same value in every application are not "
        "parameters: " +
        JoinNames(constant));
  }
  if (!partial.empty()) {
    out.notes.push_back(
        "store: properties missing in some applications are not parameters "
        "(Spark's default is not logged): " +
        JoinNames(partial));
  }
  if (!identity.empty()) {
    out.notes.push_back("store: identity properties are not parameters: " + JoinNames(identity));
  }
  return out;
}

}  // namespace perfplan::profiles::spark
