// Issue 15, item 5, on the real logs: the profile derived from every completed application with
// two or more executors in ../shared/data that ran tasks predicts that application's own
// measured runtime at its observed configuration within 10%. docs/accuracy.md lists each one.
#include <doctest/doctest.h>

#include <cmath>

#include "models/runtime_model.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/result_checks.h"
#include "tests/support/store_dump.h"
#include "tests/support/spark_store_fixture.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles::spark {
namespace {

TEST_CASE("Every multi-executor application's profile predicts its own runtime within 10%") {
  const auto store = testing::SharedSparkStore();
  const auto apps = testing::ValueOf(ListApplications(*store));
  int checked = 0, on_input = 0, on_shuffle = 0, on_results = 0;
  for (const ApplicationSummary& a : apps) {
    if (a.executors < 2 || !a.completed || !a.end_time_ms) continue;
    CAPTURE(a.app_id);
    if (a.tasks == 0) {  // PythonPi whose executors came up but which ran no job
      CHECK(a.app_id == "application_1656321732247_0006");
      CHECK(
          testing::ErrorOf(DeriveRuntimeProfile(*store, a.app_id, a.attempt_id, 125e6)).message() ==
          "application_1656321732247_0006 ran no tasks: there is nothing to "
          "profile");
      continue;
    }
    ++checked;
    const DerivedProfile d =
        testing::ValueOf(DeriveRuntimeProfile(*store, a.app_id, a.attempt_id, 125e6));
    on_input += d.dataset_source == DatasetSource::kInputBytes;
    on_shuffle += d.dataset_source == DatasetSource::kShuffleBytesRead;
    on_results += d.dataset_source == DatasetSource::kResultBytes;
    const models::ProfileRun& run = d.profile.runs.at(0);
    models::Target own;
    own.dataset_bytes = run.dataset_bytes;
    own.storage_nodes = run.storage_nodes;
    own.compute_nodes = run.compute_nodes;
    own.bandwidth_bytes_per_second = run.bandwidth_bytes_per_second;
    const double predicted =
        models::Predict(testing::ValueOf(models::ResolveModel(d.profile)), own).runtime_seconds;
    const double measured = static_cast<double>(*a.end_time_ms - a.start_time_ms) / 1000.0;
    CAPTURE(measured);
    CAPTURE(predicted);
    CHECK(std::abs(predicted - measured) <= 0.10 * measured);
  }
  CHECK(checked == 9);
  // Input: LargeBlocks, application_1506645932520_24630151 and the two local 355.6 s shells;
  // shuffle: application_1707709865217_0493, app-20180109111548-0000; task results: the two Pi
  // applications and app-20161116163331-0000.
  CHECK(on_input == 4);
  CHECK(on_shuffle == 2);
  CHECK(on_results == 3);
}

// Schema version 7 on the real logs: a version 6 store of every shared application migrates to
// packed metrics with every table's content and every answer unchanged.
TEST_CASE("The shared logs' store at version 6 migrates with every answer unchanged") {
  const std::string dir = testing::MakeTempDir();
  const std::string current_path = dir + "/current.db", old_path = dir + "/v6.db";
  std::string tables, answers;
  {
    auto current = testing::OpenSparkStore(current_path);
    REQUIRE(IngestEventLogs(*current, {testing::SharedDataDir() + "/01-spark-eventlogs"}).ok());
    tables = testing::DumpTables(*current, "spark_");
    answers = testing::EverySparkAnswer(*current);
  }
  testing::WriteVersion6Copy(current_path, old_path);
  auto migrated = testing::OpenSparkStore(old_path);
  CHECK(migrated->SchemaVersion("spark") == 7);
  CHECK(testing::Count(*migrated, "SELECT count(*) FROM spark_tasks") == 3748);
  CHECK(testing::DumpTables(*migrated, "spark_") == tables);
  CHECK(testing::EverySparkAnswer(*migrated) == answers);
}

}  // namespace
}  // namespace perfplan::profiles::spark
