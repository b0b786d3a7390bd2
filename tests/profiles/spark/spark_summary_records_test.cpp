// Fleet mode's records (issue 16, item 6): what `spark map` writes and `spark reduce` loads, read
// as a specification. The store a reduce loads holds exactly the application and stage summaries
// `ingest spark` keeps for the same logs (every table but the tasks), whatever the split of the
// logs over mappers and the order of the records; a second reduce adds nothing; the read paths
// answer from a summary-only application as from the fully ingested one; task answers say
// "summary only".
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "profiles/spark/spark_summary_records.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/spark_store_fixture.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::spark {
namespace {

namespace fs = std::filesystem;
using testing::Count;

// A folder of generated logs: plain, zstd, lz4, a rolling folder of two parts, an incomplete
// copy of the plain one (a stale `.inprogress`, which must not win), and one with properties.
std::string MakeFleetFolder() {
  const std::string dir = testing::MakeTempDir() + "/logs";
  fs::create_directories(dir + "/more/eventlog_v2_app-d");
  testing::WriteFile(dir + "/app-a", testing::OnExecutors(testing::SyntheticEventLog("app-a", 3, 5), 2));
  testing::WriteFile(dir + "/app-a.inprogress", testing::SyntheticEventLog("app-a", 2, 5, false));
  testing::WriteFile(dir + "/app-b.zstd",
                     testing::EncodeZstdFrames(testing::SyntheticEventLog("app-b", 2, 7), 4096));
  testing::WriteFile(dir + "/more/app-c.lz4",
                     testing::EncodeLz4Block(testing::SyntheticEventLogWithProperties(
                         "app-c", 2, 3, {{"spark.executor.memory", "2g"}})));
  const std::string d = testing::SyntheticEventLog("app-d", 4, 4);
  const std::size_t half = d.find('\n', d.size() / 2) + 1;
  testing::WriteFile(dir + "/more/eventlog_v2_app-d/events_1_app-d", d.substr(0, half));
  testing::WriteFile(dir + "/more/eventlog_v2_app-d/events_2_app-d", d.substr(half));
  testing::WriteFile(dir + "/more/eventlog_v2_app-d/appstatus_app-d", "");
  return dir;
}

std::vector<std::string> Map(const std::vector<std::string>& paths, IngestSummary* summary = nullptr) {
  std::vector<std::string> lines;
  auto s = MapEventLogs(paths, testing::MakeTempDir(), {},
                        [&](const std::string& l) { lines.push_back(l); });
  REQUIRE(s.ok());
  if (summary) *summary = s.value();
  return lines;
}

std::vector<std::string> Sources(const std::string& dir) {
  std::vector<SkippedLine> missing;
  std::vector<std::string> out;
  for (const auto& src : FindEventLogs({dir}, &missing)) out.push_back(src.name);
  return out;
}

std::vector<LoadedAttempt> Load(Store& store, const std::vector<std::string>& lines) {
  SummaryRecordReducer reducer;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    REQUIRE(reducer.Add(lines[i], "line " + std::to_string(i + 1)).ok());
  }
  auto loaded = reducer.Load(store);
  REQUIRE(loaded.ok());
  return loaded.value();
}

std::unique_ptr<Store> Ingested(const std::string& dir) {
  auto store = testing::OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*store, {dir}).ok());
  return store;
}

// Every row of every table an application owns except its tasks, each with its application
// instead of its attempt_key, sorted: equal text = the same summaries.
std::string Dump(Store& store) {
  std::string out;
  for (const char* table :
       {"spark_attempts", "spark_properties", "spark_resource_profiles", "spark_executors",
        "spark_jobs", "spark_stages", "spark_sql_executions", "spark_rdds", "spark_misc_processes",
        "spark_stage_summaries", "spark_stage_executor_summaries", "spark_executor_summaries"}) {
    std::string cols;
    auto info = store.Prepare(std::string("SELECT name FROM pragma_table_info('") + table + "')");
    REQUIRE(info.ok());
    while (info.value().Step()) {
      const std::string c = info.value().ColumnText(0);
      if (c != "attempt_key") cols += " || '|' || quote(x.\"" + c + "\")";
    }
    auto q = store.Prepare("SELECT a.app_id || '/' || a.attempt_id" + cols + " FROM " + table +
                           " x JOIN spark_attempts a ON a.attempt_key = x.attempt_key");
    REQUIRE(q.ok());
    std::vector<std::string> rows;
    while (q.value().Step()) rows.push_back(q.value().ColumnText(0));
    REQUIRE(q.value().Error().ok());
    std::sort(rows.begin(), rows.end());
    out += std::string(table) + ": " + std::to_string(rows.size()) + " rows\n";
    for (const auto& r : rows) out += "  " + r + "\n";
  }
  return out;
}

TEST_CASE("Logs mapped apart and reduced in any order load the summaries ingest spark keeps") {
  const std::string dir = MakeFleetFolder();
  auto full = Ingested(dir);
  const std::vector<std::string> sources = Sources(dir);
  REQUIRE(sources.size() == 5);
  // Two "mappers": every other source each; the records shuffled as a shuffle would.
  std::vector<std::string> one, two;
  for (std::size_t i = 0; i < sources.size(); ++i) (i % 2 ? two : one).push_back(sources[i]);
  std::vector<std::string> lines = Map(two);
  for (std::string& l : Map(one)) lines.push_back(std::move(l));
  std::shuffle(lines.begin(), lines.end(), std::mt19937(7));
  auto fleet = testing::OpenSparkStore(":memory:");
  const std::vector<LoadedAttempt> loaded = Load(*fleet, lines);
  REQUIRE(loaded.size() == 4);
  CHECK(loaded[0].app_id == "app-a");
  CHECK(loaded[0].outcome == "loaded");
  CHECK(loaded[0].source == dir + "/app-a");  // the complete copy, as ingest keeps it
  CHECK(loaded[0].note == "copies left out: " + dir + "/app-a.inprogress");
  CHECK(Dump(*fleet) == Dump(*full));
  CHECK(Count(*fleet, "SELECT COUNT(*) FROM spark_tasks") == 0);
  CHECK(Count(*full, "SELECT COUNT(*) FROM spark_tasks") > 0);
  CHECK(Count(*fleet, "SELECT COUNT(*) FROM spark_summary_attempts") == 4);
}

TEST_CASE("The reducer's output reduces to itself, and a second load adds nothing") {
  const std::string dir = MakeFleetFolder();
  std::vector<std::string> lines = Map({dir});
  std::reverse(lines.begin(), lines.end());
  lines.push_back(lines.front());  // a duplicate record (a retried map task)
  SummaryRecordReducer first;
  for (const std::string& l : lines) REQUIRE(first.Add(l, "in").ok());
  std::vector<std::string> merged, again;
  REQUIRE(first.Write([&](const std::string& l) { merged.push_back(l); }).ok());
  SummaryRecordReducer second;
  for (const std::string& l : merged) REQUIRE(second.Add(l, "in").ok());
  REQUIRE(second.Write([&](const std::string& l) { again.push_back(l); }).ok());
  CHECK(again == merged);

  auto store = testing::OpenSparkStore(":memory:");
  Load(*store, merged);
  const std::string before = Dump(*store);
  const std::vector<LoadedAttempt> twice = Load(*store, lines);
  REQUIRE(twice.size() == 4);
  for (const LoadedAttempt& a : twice) CHECK(a.outcome == "unchanged");
  CHECK(Dump(*store) == before);
  CHECK(Count(*store, "SELECT COUNT(*) FROM spark_summary_attempts") == 4);
}

TEST_CASE("Read paths answer from a summary-only application as from the ingested one") {
  const std::string dir = MakeFleetFolder();
  auto full = Ingested(dir);
  auto fleet = testing::OpenSparkStore(":memory:");
  Load(*fleet, Map({dir}));
  for (const char* app : {"app-a", "app-b", "app-c", "app-d"}) {
    CAPTURE(app);
    auto fk = FindAttemptKey(*full, app, "");
    auto sk = FindAttemptKey(*fleet, app, "");
    REQUIRE(fk.ok());
    REQUIRE(sk.ok());
    CHECK(!IsSummaryOnly(*full, fk.value()).value());
    CHECK(IsSummaryOnly(*fleet, sk.value()).value());
    auto fb = ComputeEfficiencyVector(*full, app);
    auto sb = ComputeEfficiencyVector(*fleet, app);
    REQUIRE(fb.ok());
    REQUIRE(sb.ok());
    CHECK(sb.value().task_seconds == fb.value().task_seconds);
    CHECK(sb.value().compute_share == fb.value().compute_share);
    CHECK(sb.value().shuffle_share == fb.value().shuffle_share);
    CHECK(sb.value().gc_share == fb.value().gc_share);
    CHECK(sb.value().total_seconds == fb.value().total_seconds);
    CHECK(sb.value().finished_tasks == fb.value().finished_tasks);
    CHECK(sb.value().tasks_with_cpu_time == fb.value().tasks_with_cpu_time);
    CHECK(sb.value().input_bytes == fb.value().input_bytes);
    CHECK(fb.value().finished_tasks > 0);

    auto fd = TaskDurationsByStage(*full, app);
    auto sd = TaskDurationsByStage(*fleet, app);
    REQUIRE(fd.ok());
    REQUIRE(sd.ok());
    REQUIRE(sd.value().size() == fd.value().size());
    for (std::size_t i = 0; i < fd.value().size(); ++i) {
      CHECK(sd.value()[i].stage_id == fd.value()[i].stage_id);
      CHECK(sd.value()[i].task_duration_seconds == fd.value()[i].task_duration_seconds);
    }
    auto fa = DescribeApplication(*full, app);
    auto sa = DescribeApplication(*fleet, app);
    REQUIRE(fa.ok());
    REQUIRE(sa.ok());
    CHECK(sa.value().first.tasks == fa.value().first.tasks);
    REQUIRE(sa.value().second.size() == fa.value().second.size());
    for (std::size_t i = 0; i < fa.value().second.size(); ++i) {
      CHECK(sa.value().second[i].task_seconds_median == fa.value().second[i].task_seconds_median);
      CHECK(sa.value().second[i].task_seconds_sum == fa.value().second[i].task_seconds_sum);
    }
    auto fs = LoadApplicationShape(*full, app, "");
    auto ss = LoadApplicationShape(*fleet, app, "");
    REQUIRE(fs.ok());
    REQUIRE(ss.ok());
    CHECK(ss.value().driver_seconds == fs.value().driver_seconds);
    CHECK(ss.value().measured_seconds == fs.value().measured_seconds);
    CHECK(ss.value().observed_executors == fs.value().observed_executors);
    CHECK(ss.value().cores_per_executor == fs.value().cores_per_executor);
    REQUIRE(fs.value().replay_seconds);
    CHECK(ss.value().replay_seconds == fs.value().replay_seconds);
    CHECK(ss.value().work_bound_seconds == fs.value().work_bound_seconds);
    auto fp = DeriveRuntimeProfile(*full, app, "", 1e8);
    auto sp = DeriveRuntimeProfile(*fleet, app, "", 1e8);
    REQUIRE(fp.ok());
    REQUIRE(sp.ok());
    CHECK(sp.value().notes == fp.value().notes);
    const models::ProfileRun& f = fp.value().profile.runs.at(0);
    const models::ProfileRun& s = sp.value().profile.runs.at(0);
    CHECK(s.dataset_bytes == f.dataset_bytes);
    CHECK(s.compute_nodes == f.compute_nodes);
    CHECK(s.disk_seconds == f.disk_seconds);
    CHECK(s.compute_seconds == f.compute_seconds);
    CHECK(s.reduction_seconds == f.reduction_seconds);
    CHECK(s.reduction_object_bytes == f.reduction_object_bytes);
    CHECK(s.network_seconds == f.network_seconds);
    CHECK(sp.value().dataset_source == fp.value().dataset_source);
    for (const char* path : {"/stages", "/executors", "/jobs", "/environment", "/stages/0/0?details=false"}) {
      CAPTURE(path);
      auto fj = HistoryApi(*full, std::string("applications/") + app + path);
      auto sj = HistoryApi(*fleet, std::string("applications/") + app + path);
      REQUIRE(fj.ok());
      REQUIRE(sj.ok());
      CHECK(sj.value() == fj.value());
    }
  }
}

TEST_CASE("A summary written before schema version 6 has no replay: the profile says so") {
  const std::string dir = MakeFleetFolder();
  auto fleet = testing::OpenSparkStore(":memory:");
  Load(*fleet, Map({dir + "/app-b.zstd"}));
  REQUIRE(fleet->Exec("UPDATE spark_summary_attempts SET replay_seconds = NULL, "
                      "work_bound_seconds = NULL").ok());
  auto shape = LoadApplicationShape(*fleet, "app-b", "");
  REQUIRE(shape.ok());
  CHECK(!shape.value().replay_seconds);
  auto p = DeriveRuntimeProfile(*fleet, "app-b", "", 1e8);
  REQUIRE(p.ok());
  // 14 tasks of 100..160 ms: 1.82 s of task time on 7 slots (no cores recorded: the 7 tasks of a
  // stage ran at once on executor 1), plus the driver's time.
  CHECK(p.value().notes.at(1) ==
        "no replay of the tasks stored: all task time divided by 7 task slots (1 executors x 7 "
        "cores) is taken as shortened by more compute nodes, idle slots are not modelled");
  const models::ProfileRun& run = p.value().profile.runs.at(0);
  CHECK(run.compute_seconds + run.disk_seconds + run.network_seconds ==
        doctest::Approx(1.82 / 7 + shape.value().driver_seconds).epsilon(1e-12));
}

TEST_CASE("Task-level answers of a summary-only application say summary only") {
  const std::string dir = MakeFleetFolder();
  auto fleet = testing::OpenSparkStore(":memory:");
  Load(*fleet, Map({dir + "/app-b.zstd"}));
  const std::string said =
      "app-b is summary only (loaded by spark reduce): the store has its stage and executor "
      "summaries, not its tasks; ingest its event log with ingest spark for task-level answers";
  for (const char* path : {"applications/app-b/stages/0/0/taskList",
                           "applications/app-b/stages/0/0/taskSummary", "applications/app-b/stages/0",
                           "applications/app-b/stages?details=true"}) {
    CAPTURE(path);
    auto a = HistoryApi(*fleet, path);
    REQUIRE(!a.ok());
    CHECK(a.status().code() == StatusCode::kNotFound);
    CHECK(a.status().message() == said);
  }
  auto w = LoadWhatIfApplication(*fleet, "app-b", "");
  REQUIRE(!w.ok());
  CHECK(w.status().message() == said);
}

TEST_CASE("Ingesting the log in full replaces the summary; a reduce leaves a full one alone") {
  const std::string dir = MakeFleetFolder();
  const std::vector<std::string> lines = Map({dir + "/app-b.zstd"});
  auto store = testing::OpenSparkStore(":memory:");
  Load(*store, lines);
  REQUIRE(IngestEventLogs(*store, {dir + "/app-b.zstd"}).ok());
  CHECK(Count(*store, "SELECT COUNT(*) FROM spark_tasks") == 14);
  CHECK(Count(*store, "SELECT COUNT(*) FROM spark_summary_attempts") == 0);
  CHECK(Count(*store, "SELECT COUNT(*) FROM spark_stage_durations") == 0);
  const std::vector<LoadedAttempt> again = Load(*store, lines);
  REQUIRE(again.size() == 1);
  CHECK(again[0].outcome == "unchanged");
  CHECK(Count(*store, "SELECT COUNT(*) FROM spark_tasks") == 14);

  // A shorter copy in the records does not replace a longer stored attempt.
  auto other = testing::OpenSparkStore(":memory:");
  REQUIRE(IngestEventLogs(*other, {dir + "/app-a"}).ok());
  const std::vector<LoadedAttempt> kept = Load(*other, Map({dir + "/app-a.inprogress"}));
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].outcome == "kept");
  CHECK(kept[0].note == "not replacing the copy stored from " + dir +
                            "/app-a: it is incomplete and the stored copy is complete");
  CHECK(Count(*other, "SELECT COUNT(*) FROM spark_summary_attempts") == 0);
}

TEST_CASE("Lines that are not records are refused with their place and the reason") {
  const std::string dir = MakeFleetFolder();
  const std::vector<std::string> lines = Map({dir + "/app-b.zstd"});
  REQUIRE(lines.size() == 3);  // the application and its two stages
  CHECK(lines[0].rfind("app-b/\t{\"v\":1,\"record\":\"application\"", 0) == 0);
  auto refused = [](const std::string& line) {
    SummaryRecordReducer r;
    Status s = r.Add(line, "stdin:4");
    REQUIRE(!s.ok());
    CHECK(s.code() == StatusCode::kInvalidArgument);
    return s.message();
  };
  CHECK(refused("no tab here") ==
        "stdin:4: expected KEY, a tab and a JSON record (spark map's output)");
  CHECK(refused("k\t{\"v\":") .rfind("stdin:4: invalid JSON: ", 0) == 0);
  CHECK(refused("k\t[1]") == "stdin:4: the record must be a JSON object");
  std::string v2 = lines[1];
  v2.replace(v2.find("\"v\":1"), 5, "\"v\":2");
  CHECK(refused(v2) == "stdin:4: record version 2; this perfplan reads version 1");
  CHECK(refused("other/1" + lines[1].substr(lines[1].find('\t'))) ==
        "stdin:4: key \"other/1\" does not match the record's application \"app-b/\"");
  std::string table = lines[1];
  table.replace(table.find("\"spark_stages\""), 14, "\"spark_secrets\"");
  CHECK(refused(table) == "stdin:4: unknown table \"spark_secrets\" in a stage record");

  SummaryRecordReducer partial;  // a stage record lost on the way
  REQUIRE(partial.Add(lines[0], "stdin:1").ok());
  REQUIRE(partial.Add(lines[1], "stdin:2").ok());
  Status s = partial.Write([](const std::string&) {});
  CHECK(s.message() == "app-b/ from " + dir +
                           "/app-b.zstd: 1 of 2 stage records (the map output is incomplete)");

  SummaryRecordReducer column;
  std::string bad = lines[0];
  bad.replace(bad.find("\"app_name\""), 10, "\"app_nick\"");
  REQUIRE(column.Add(bad, "stdin:1").ok());
  REQUIRE(column.Add(lines[1], "stdin:2").ok());
  REQUIRE(column.Add(lines[2], "stdin:3").ok());
  auto store = testing::OpenSparkStore(":memory:");
  auto loaded = column.Load(*store);
  REQUIRE(!loaded.ok());
  CHECK(loaded.status().message() ==
        "stdin:1: the store's spark_attempts has no column \"app_nick\" (records of a newer "
        "perfplan?)");
  CHECK(Count(*store, "SELECT COUNT(*) FROM spark_attempts") == 0);  // rolled back
}

TEST_CASE("Missing paths and unreadable logs are reported by the map, not fatal") {
  IngestSummary summary;
  const std::vector<std::string> lines = Map({"/nonexistent/fleet-log"}, &summary);
  CHECK(lines.empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason == "no such file or folder");
  CHECK(summary.skipped_total == 1);
}

}  // namespace
}  // namespace perfplan::profiles::spark
