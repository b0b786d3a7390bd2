// Compares `perfplan spark api` with the Spark History Server's own expectation files in
// ../shared/data, the way Spark's HistoryServerSuite does: JSON trees (not text), with every
// "lastUpdated" set to "" and "lastUpdatedEpoch" to 0 on both sides. Every case is answered; the
// fields of the 2019 snapshot's older schema are listed below by name with the reason; nothing else
// is dropped.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles::spark {
namespace {

using nlohmann::json;

struct Case {
  const char* snapshot;  // "apache-spark" or "apache-spark-2019-snapshot"
  const char* path;      // under /api/v1/
  const char* expectation;
};

// Every History Server expectation in ../shared/data (data README §1.2).
const Case kCases[] = {
    {"apache-spark", "applications/local-1422981780767", "one_app_json"},
    {"apache-spark", "applications/local-1422981780767/jobs", "job_list_json"},
    {"apache-spark", "applications/local-1422981780767/jobs/0", "one_job_json"},
    {"apache-spark", "applications/local-1422981780767/jobs?status=succeeded",
     "succeeded_job_list_json"},
    {"apache-spark", "applications/local-1422981780767/jobs?status=succeeded&status=failed",
     "succeeded_failed_job_list_json"},
    {"apache-spark", "applications/local-1422981780767/executors", "executor_list_json"},
    {"apache-spark", "applications/local-1422981780767/stages", "stage_list_json"},
    {"apache-spark", "applications/local-1422981780767/stages?status=complete",
     "complete_stage_list_json"},
    {"apache-spark", "applications/local-1422981780767/stages?status=failed",
     "failed_stage_list_json"},
    {"apache-spark", "applications/local-1422981780767/stages/1", "one_stage_json"},
    {"apache-spark", "applications/local-1422981780767/stages/1?details=true&taskStatus=success",
     "one_stage_json_with_details"},
    {"apache-spark", "applications/local-1422981780767/stages/1/0", "one_stage_attempt_json"},
    {"apache-spark", "applications/local-1422981780767/stages/1/0?details=true&taskStatus=failed",
     "one_stage_attempt_json_details_with_failed_task"},
    {"apache-spark", "applications/local-1422981780767/storage/rdd", "rdd_list_storage_json"},
    {"apache-spark", "applications/local-1422981780767/storage/rdd/0", "one_rdd_storage_json"},
    {"apache-spark", "applications/local-1426533911241", "one_app_multi_attempt_json"},
    {"apache-spark", "applications/local-1426533911241/1/jobs",
     "job_list_from_multi_attempt_app_json_1_"},
    {"apache-spark", "applications/local-1426533911241/2/jobs",
     "job_list_from_multi_attempt_app_json_2_"},
    {"apache-spark", "applications/local-1426533911241/1/stages",
     "stage_list_with_accumulable_json"},
    {"apache-spark", "applications/local-1426533911241/1/stages/0/0",
     "stage_with_accumulable_json"},
    {"apache-spark", "applications/local-1426533911241/1/stages/0/0/taskList",
     "stage_task_list_from_multi_attempt_app_json_1_"},
    {"apache-spark", "applications/local-1426533911241/2/stages/0/0/taskList",
     "stage_task_list_from_multi_attempt_app_json_2_"},
    {"apache-spark", "applications/local-1430917381534/stages/0/0/taskSummary",
     "stage_task_summary_w_shuffle_write"},
    {"apache-spark", "applications/local-1430917381534/stages/1/0/taskSummary",
     "stage_task_summary_w_shuffle_read"},
    {"apache-spark",
     "applications/local-1430917381534/stages/0/0/taskSummary?quantiles=0.01,0.5,0.99",
     "stage_task_summary_w__custom_quantiles"},
    {"apache-spark", "applications/local-1430917381534/stages/0/0/taskList", "stage_task_list"},
    {"apache-spark", "applications/local-1430917381534/stages/0/0/taskList?offset=10&length=50",
     "stage_task_list_w__offset___length"},
    {"apache-spark",
     "applications/local-1430917381534/stages/0/0/taskList?sortBy=DECREASING_RUNTIME",
     "stage_task_list_w__sortBy"},
    {"apache-spark", "applications/local-1430917381534/stages/0/0/taskList?sortBy=-runtime",
     "stage_task_list_w__sortBy_short_names___runtime"},
    {"apache-spark", "applications/local-1430917381534/stages/0/0/taskList?sortBy=runtime",
     "stage_task_list_w__sortBy_short_names__runtime"},
    {"apache-spark",
     "applications/local-1430917381534/stages/0/0/taskList?status=success&offset=1&length=2",
     "stage_task_list_w__status___offset___length"},
    {"apache-spark",
     "applications/local-1430917381534/stages/0/0/taskList?status=success&sortBy=runtime",
     "stage_task_list_w__status___sortBy_short_names__runtime"},
    {"apache-spark", "applications/app-20161116163331-0000/executors",
     "executor_node_excludeOnFailure"},
    {"apache-spark", "applications/app-20161116163331-0000/executors", "executor_memory_usage"},
    {"apache-spark", "applications/app-20161116163331-0000/environment", "app_environment"},
    {"apache-spark", "applications/app-20180109111548-0000/stages/0/0",
     "excludeOnFailure_for_stage"},
    {"apache-spark", "applications/application_1553914137147_0018/executors",
     "executor_list_with_executor_metrics_json"},
    {"apache-spark", "applications/application_1578436911597_0052/environment",
     "multiple_resource_profiles"},
    {"apache-spark-2019-snapshot", "applications/application_1506645932520_24630151/executors",
     "executor_list_with_executor_metrics_json"},
    {"apache-spark-2019-snapshot", "applications/application_1536831636016_59384/1/executors",
     "executor_list_with_executor_garbage_collection_metrics_json"},
};

// Named exceptions: single fields (JSON pointers) perfplan cannot produce from the event log.
struct FieldException {
  const char* expectation;
  const char* pointer;
  const char* reason;
};
// The 2019 expectations were written by a History Server of that time; perfplan answers with
// today's ExecutorSummary. These are the schema and rule changes since, nothing else.
constexpr const char* kNewerThan2019 = "ExecutorSummary field added after the 2019 snapshot";
constexpr const char* kDriverUptime =
    "the driver's totalDuration is its uptime in current Spark, 0 in the 2019 History Server";
constexpr const char* kPeaksWithoutMetrics =
    "current Spark shows all-zero peakMemoryMetrics once an executor finished a task; the 2019 "
    "History Server only for executors that reported metrics";
const FieldException kFieldExceptions[] = {
    {"executor_list_with_executor_metrics_json@2019", "/*/isExcluded", kNewerThan2019},
    {"executor_list_with_executor_metrics_json@2019", "/*/excludedInStages", kNewerThan2019},
    {"executor_list_with_executor_metrics_json@2019", "/*/resources", kNewerThan2019},
    {"executor_list_with_executor_metrics_json@2019", "/*/resourceProfileId", kNewerThan2019},
    {"executor_list_with_executor_metrics_json@2019", "/*/peakMemoryMetrics/TotalGCTime",
     kNewerThan2019},
    {"executor_list_with_executor_metrics_json@2019", "/0/totalDuration", kDriverUptime},
    {"executor_list_with_executor_metrics_json@2019", "/3/peakMemoryMetrics", kPeaksWithoutMetrics},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019", "/*/isExcluded",
     kNewerThan2019},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019", "/*/excludedInStages",
     kNewerThan2019},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019", "/*/resources",
     kNewerThan2019},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019", "/*/resourceProfileId",
     kNewerThan2019},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019",
     "/*/peakMemoryMetrics/TotalGCTime", kNewerThan2019},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019", "/0/totalDuration",
     kDriverUptime},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019", "/1/peakMemoryMetrics",
     kPeaksWithoutMetrics},
    {"executor_list_with_executor_garbage_collection_metrics_json@2019", "/2/peakMemoryMetrics",
     kPeaksWithoutMetrics},
};

void ClearLastUpdated(json& j) {
  if (j.is_object()) {
    for (auto& [key, value] : j.items()) {
      if (key == "lastUpdated") {
        value = "";
      } else if (key == "lastUpdatedEpoch") {
        value = 0;
      } else {
        ClearLastUpdated(value);
      }
    }
  } else if (j.is_array()) {
    for (json& v : j) ClearLastUpdated(v);
  }
}

// Removes the field at `pointer`, where a "*" segment stands for every key or index.
void Erase(json& j, const std::string& pointer) {
  std::size_t slash = pointer.find('/', 1);
  std::string head = pointer.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
  std::string rest = slash == std::string::npos ? "" : pointer.substr(slash);
  auto visit = [&](json& child) {
    if (!rest.empty()) Erase(child, rest);
  };
  if (head == "*") {
    if (j.is_object() || j.is_array()) {
      for (auto& child : j) visit(child);
    }
    return;
  }
  if (j.is_array()) {
    const std::size_t i = std::stoul(head);
    if (i >= j.size()) return;
    if (rest.empty()) {
      j.erase(i);
    } else {
      visit(j[i]);
    }
    return;
  }
  if (rest.empty()) {
    if (j.is_object()) j.erase(head);
    return;
  }
  if (j.is_object() && j.contains(head)) visit(j[head]);
}

void Diff(const json& got, const json& want, const std::string& at, std::vector<std::string>* out) {
  if (out->size() >= 10) return;
  if (got.type() != want.type()) {
    out->push_back(at + ": got " + got.dump().substr(0, 80) + ", want " +
                   want.dump().substr(0, 80));
    return;
  }
  if (got.is_object()) {
    for (auto& [k, v] : want.items()) {
      if (!got.contains(k)) {
        out->push_back(at + "/" + k + ": missing");
      } else {
        Diff(got[k], v, at + "/" + k, out);
      }
    }
    for (auto& [k, v] : got.items()) {
      if (!want.contains(k)) out->push_back(at + "/" + k + ": not expected");
    }
  } else if (got.is_array()) {
    if (got.size() != want.size()) {
      out->push_back(at + ": " + std::to_string(got.size()) + " elements, want " +
                     std::to_string(want.size()));
    }
    for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
      Diff(got[i], want[i], at + "/" + std::to_string(i), out);
    }
  } else if (got != want) {
    out->push_back(at + ": got " + got.dump().substr(0, 80) + ", want " +
                   want.dump().substr(0, 80));
  }
}

std::unique_ptr<profiles::Store> IngestSnapshot(const std::string& snapshot) {
  const std::string events =
      testing::SharedDataDir() + "/01-spark-eventlogs/" + snapshot + "/spark-events";
  auto store = profiles::Store::Open(":memory:", {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  auto summary = profiles::spark::IngestEventLogs(*store.value(), {events});
  REQUIRE(summary.ok());
  CHECK(summary.value().skipped.empty());
  return std::move(store.value());
}

TEST_CASE("Every History Server expectation matches, named exceptions aside") {
  std::map<std::string, std::unique_ptr<profiles::Store>> stores;
  int matched = 0;
  for (const Case& c : kCases) {
    const std::string expectation = c.expectation, path = c.path;
    CAPTURE(expectation);
    CAPTURE(path);
    auto& store = stores[c.snapshot];
    if (!store) store = IngestSnapshot(c.snapshot);
    const std::string file = testing::SharedDataDir() + "/01-spark-eventlogs/" + c.snapshot +
                             "/HistoryServerExpectations/" + c.expectation + "_expectation.json";
    json want = json::parse(testing::ReadFile(file));
    auto answer = HistoryApi(*store, c.path);
    REQUIRE_MESSAGE(answer.ok(), answer.status().message());
    json got = json::parse(answer.value());
    ClearLastUpdated(want);
    ClearLastUpdated(got);
    // Field exceptions name the case as EXPECTATION, or EXPECTATION@2019 for the 2019 snapshot.
    const std::string case_name =
        expectation + (std::string(c.snapshot) == "apache-spark" ? "" : "@2019");
    for (const FieldException& f : kFieldExceptions) {
      if (case_name == f.expectation) {
        Erase(want, f.pointer);
        Erase(got, f.pointer);
      }
    }
    std::vector<std::string> diffs;
    Diff(got, want, "", &diffs);
    std::string report;
    for (const std::string& d : diffs) report += "\n  " + d;
    CHECK_MESSAGE(diffs.empty(), (expectation + report));
    matched += diffs.empty();
  }
  MESSAGE(matched << " of " << std::size(kCases) << " expectations match");
  CHECK(matched == static_cast<int>(std::size(kCases)));
}

TEST_CASE("Each expectation file in the data folder is covered by a case") {
  for (const char* snapshot : {"apache-spark", "apache-spark-2019-snapshot"}) {
    const std::string dir =
        testing::SharedDataDir() + "/01-spark-eventlogs/" + snapshot + "/HistoryServerExpectations";
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      std::string name = entry.path().filename().string();
      name.resize(name.size() - std::string("_expectation.json").size());
      bool covered = false;
      for (const Case& c : kCases)
        covered |= c.snapshot == std::string(snapshot) && c.expectation == name;
      CHECK_MESSAGE(covered, (std::string(snapshot) + "/" + name));
    }
  }
}

TEST_CASE("An unknown application answers NotFound as the History Server's 404 does") {
  auto store = profiles::Store::Open(":memory:", {profiles::spark::StoreMigrations()});
  REQUIRE(store.ok());
  auto answer = HistoryApi(*store.value(), "applications/nope/jobs");
  REQUIRE_FALSE(answer.ok());
  CHECK(answer.status().code() == StatusCode::kNotFound);
  CHECK(answer.status().message() == "unknown app: nope");
}

TEST_CASE("withSummaries adds the taskSummary distribution and per-executor distributions") {
  auto store = IngestSnapshot("apache-spark");
  auto stage = HistoryApi(*store,
                          "applications/local-1430917381534/stages/0/0?withSummaries=true"
                          "&quantiles=0.01,0.5,0.99");
  REQUIRE(stage.ok());
  auto summary = HistoryApi(*store,
                            "applications/local-1430917381534/stages/0/0/taskSummary"
                            "?quantiles=0.01,0.5,0.99");
  REQUIRE(summary.ok());
  json s = json::parse(stage.value());
  CHECK(s["taskMetricsDistributions"] == json::parse(summary.value()));
  // One executor ("driver") ran all 100 tasks: every quantile is its value.
  CHECK(s["executorMetricsDistributions"]["succeededTasks"] == json::array({100.0, 100.0, 100.0}));
  auto plain = HistoryApi(*store, "applications/local-1430917381534/stages/0/0");
  REQUIRE(plain.ok());
  CHECK_FALSE(json::parse(plain.value()).contains("taskMetricsDistributions"));
}

}  // namespace
}  // namespace perfplan::profiles::spark
