// Every statement the Spark read paths prepare is checked with EXPLAIN QUERY PLAN: none may scan
// spark_tasks whole, nor read an application's tasks in a correlated sub-query (once per
// executor, per job, …; one stage's tasks per outer row is allowed). The
// answers come from the summaries kept at ingest or from one stage attempt's tasks
// (profiles/spark/spark_store.h, WriteSummaries).
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_executor_timeline.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_run_table.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/result_checks.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

// The names a statement gives spark_tasks: the table itself and every alias after it.
std::set<std::string> TaskTableNames(const std::string& sql) {
  std::set<std::string> names = {"spark_tasks"};
  static const std::set<std::string> kKeywords = {"WHERE", "JOIN", "LEFT", "ON",    "GROUP",
                                                  "ORDER", "LIMIT", "INNER", "CROSS", "AS"};
  static const std::regex kAlias(R"(spark_tasks\s+(?:AS\s+)?([A-Za-z_][A-Za-z_0-9]*))");
  for (auto it = std::sregex_iterator(sql.begin(), sql.end(), kAlias);
       it != std::sregex_iterator(); ++it) {
    std::string alias = (*it)[1];
    std::string upper = alias;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (!kKeywords.count(upper)) names.insert(alias);
  }
  return names;
}

// The plan steps of `sql` that read spark_tasks badly, as "why: detail" lines (empty when fine).
// `one_stage`: the statement serves an answer about one stage or about summaries, so it may read
// one stage attempt's tasks at most, never all of an application's.
std::vector<std::string> BadTaskReads(Store& store, const std::string& sql,
                                      bool one_stage = false) {
  const auto plan = testing::ValueOf(store.ExplainQueryPlan(sql));
  const std::set<std::string> names = TaskTableNames(sql);
  auto reads_tasks = [&](const std::string& detail) {
    static const std::regex kStep(R"(^(?:SCAN|SEARCH) ([A-Za-z_0-9]+))");
    std::smatch m;
    return std::regex_search(detail, m, kStep) && names.count(m[1]);
  };
  std::map<int, const Store::PlanStep*> by_id;
  for (const auto& step : plan) by_id[step.id] = &step;
  std::vector<std::string> bad;
  for (const auto& step : plan) {
    if (!reads_tasks(step.detail)) continue;
    if (step.detail.rfind("SCAN ", 0) == 0) bad.push_back("full scan: " + step.detail);
    if (one_stage && step.detail.find("stage_id=?") == std::string::npos) {
      bad.push_back("more than one stage's tasks: " + step.detail);
    }
    // A correlated sub-query may read one stage's tasks per outer row, never the application's.
    if (step.detail.find("stage_id=?") != std::string::npos) continue;
    for (int p = step.parent; p != 0 && by_id.count(p); p = by_id[p]->parent) {
      if (by_id[p]->detail.find("CORRELATED") != std::string::npos) {
        bad.push_back("once per outer row (" + by_id[p]->detail + "): " + step.detail);
        break;
      }
    }
  }
  return bad;
}

TEST_CASE("TaskTableNames finds spark_tasks and its aliases, not the keywords after it") {
  CHECK(TaskTableNames("SELECT 1 FROM spark_tasks WHERE x") == std::set<std::string>{"spark_tasks"});
  CHECK(TaskTableNames("SELECT 1 FROM spark_tasks t JOIN spark_tasks AS h ON 1") ==
        std::set<std::string>{"spark_tasks", "t", "h"});
}

TEST_CASE("The check itself fails on a whole-table scan and on a per-executor sub-query") {
  const auto store = testing::ValueOf(Store::Open(":memory:", {StoreMigrations()}));
  Store& s = *store;
  const auto scan = BadTaskReads(s, "SELECT SUM(duration_ms) FROM spark_tasks WHERE status = 'FAILED'");
  REQUIRE(scan.size() == 1);
  CHECK(scan[0].rfind("full scan: SCAN spark_tasks", 0) == 0);
  const auto per_executor = BadTaskReads(
      s,
      "SELECT (SELECT COUNT(*) FROM spark_tasks t WHERE t.attempt_key = e.attempt_key AND "
      "t.executor_id = e.executor_id) FROM spark_executors e WHERE e.attempt_key = ?1");
  REQUIRE(per_executor.size() == 1);
  CHECK(per_executor[0].rfind("once per outer row (CORRELATED SCALAR SUBQUERY", 0) == 0);
  // One stage attempt's tasks in id order: a range of the primary key (schema version 7), in
  // key order, without a sort.
  const std::string one_stage =
      "SELECT * FROM spark_tasks WHERE attempt_key = ?1 AND stage_id = ?2 AND "
      "stage_attempt_id = ?3 ORDER BY task_id";
  CHECK(BadTaskReads(s, one_stage, true).empty());
  const auto plan = testing::ValueOf(s.ExplainQueryPlan(one_stage));
  REQUIRE(plan.size() == 1);
  CHECK(plan[0].detail ==
        "SEARCH spark_tasks USING PRIMARY KEY (attempt_key=? AND stage_id=? AND "
        "stage_attempt_id=?)");
  // A task looked up by its id alone reads the application's tasks: no read path may do that.
  const auto by_id = BadTaskReads(
      s, "SELECT * FROM spark_tasks WHERE attempt_key = ?1 AND task_id = ?2", true);
  REQUIRE(by_id.size() == 1);
  CHECK(by_id[0] == "more than one stage's tasks: SEARCH spark_tasks USING PRIMARY KEY (attempt_key=?)");
}

TEST_CASE("spark_tasks is one B-tree: no index beside its key (schema version 7)") {
  const auto store = testing::ValueOf(Store::Open(":memory:", {StoreMigrations()}));
  auto q = testing::ValueOf(
      store->Prepare("SELECT type, name FROM sqlite_master WHERE tbl_name = 'spark_tasks'"));
  std::vector<std::string> objects;
  while (q.Step()) objects.push_back(q.ColumnText(0) + " " + q.ColumnText(1));
  CHECK(objects == std::vector<std::string>{"table spark_tasks"});
}

TEST_CASE("No read statement of the Spark answers scans the application's tasks") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-q", testing::SyntheticEventLogWithProperties(
                                         "app-q", 3, 4, {{"spark.executor.cores", "2"}}));
  const auto opened = testing::ValueOf(Store::Open(":memory:", {StoreMigrations()}));
  Store& store = *opened;
  REQUIRE(IngestEventLogs(store, {dir + "/app-q"}).ok());

  // The History-Server answers and the listings: summaries, or one stage attempt's tasks.
  std::vector<std::string> statements;
  store.ObservePrepares([&](const std::string& sql) { statements.push_back(sql); });
  for (const char* path :
       {"applications", "applications/app-q", "applications/app-q/jobs",
        "applications/app-q/jobs/0", "applications/app-q/stages",
        "applications/app-q/stages?details=true&withSummaries=true", "applications/app-q/stages/1",
        "applications/app-q/stages/1/0", "applications/app-q/stages/1/0?withSummaries=true",
        "applications/app-q/stages/1/0/taskList?sortBy=-runtime",
        "applications/app-q/stages/1/0/taskSummary", "applications/app-q/executors",
        "applications/app-q/allexecutors", "applications/app-q/environment"}) {
    auto answer = HistoryApi(store, path);
    CHECK_MESSAGE(answer.ok(), path, ": ", answer.status().message());
  }
  CHECK(ListApplications(store).ok());
  const std::set<std::string> answers(statements.begin(), statements.end());
  // The loaders that need every task of an application (durations for stragglers, the what-if
  // replay, β, aggregates): one pass each, never a scan per executor or job.
  CHECK(DescribeApplication(store, "app-q").ok());
  CHECK(TaskDurationsByStage(store, "app-q").ok());
  CHECK(LoadWhatIfApplication(store, "app-q").ok());
  CHECK(LoadExecutorTimeline(store, "app-q").ok());
  CHECK(ComputeEfficiencyVector(store, "app-q").ok());
  CHECK(StageAggregates(store, "app-q").ok());
  CHECK(JobAggregates(store, "app-q").ok());
  DeriveRuntimeProfile(store, "app-q", "", 1e8);  // its statements count, whatever it answers
  CHECK(ReadStoreRunTable(store, RunTableSelection{}).ok());
  store.ObservePrepares(nullptr);

  std::set<std::string> distinct(statements.begin(), statements.end());
  CHECK(answers.size() >= 12);
  CHECK(distinct.size() >= 20);
  static const std::regex kById(R"(\btask_id\s*(=|IN\b))", std::regex::icase);
  for (const std::string& sql : distinct) {
    for (const std::string& bad : BadTaskReads(store, sql, answers.count(sql) > 0)) {
      FAIL_CHECK(bad << "\n  in: " << sql);
    }
    // Since schema version 7 a task id is found within its stage attempt only.
    if (sql.find("spark_tasks") != std::string::npos) {
      CHECK_MESSAGE(!std::regex_search(sql, kById), "a task looked up by its id alone: ", sql);
    }
  }
}

}  // namespace
}  // namespace perfplan::profiles::spark
