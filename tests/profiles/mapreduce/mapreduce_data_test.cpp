// Every MapReduce file of ../shared/data/04-workload-runtime-traces ingests with no problem, and
// what the store holds equals what a small reader written here (regular expressions over the raw
// text, not the ingester's parsers) counts in each file: events by type, jobs, tasks, attempts,
// attempt start/finish times, configuration properties.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "profiles/mapreduce/mapreduce_ingest.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "tests/support/test_support.h"

PERFPLAN_REQUIRE_SHARED_DATA();

namespace perfplan::profiles::mapreduce {
namespace {

std::string Traces() { return testing::SharedDataDir() + "/04-workload-runtime-traces"; }

std::unique_ptr<Store> IngestAll(IngestSummary* summary) {
  auto store = Store::Open(":memory:", {StoreMigrations()});
  REQUIRE(store.ok());
  auto s = IngestMapReduce(*store.value(),
                           {Traces() + "/hadoop-jobhistory", Traces() + "/rumen-sls"});
  REQUIRE(s.ok());
  *summary = s.value();
  return std::move(store.value());
}

std::set<std::string> Distinct(const std::string& text, const std::string& pattern) {
  std::set<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

std::size_t Occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

// The job's total of counter `name` (any group), or -1 when the job has none.
std::int64_t TotalCounter(const Job& job, const std::string& name) {
  std::int64_t value = -1;
  for (const auto& c : job.counters.at("total")) {
    if (c.name == name) value = c.value;
  }
  return value;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The independent reading of a .jhist: event types from each line's `{"type":"…"` prefix.
struct JhistCount {
  std::map<std::string, std::int64_t> types;
  std::set<std::string> tasks, attempts;
  std::string job_id;
};
JhistCount CountJhist(const std::string& path) {
  JhistCount c;
  const std::string text = testing::ReadFile(path);
  const std::vector<std::string> lines = Lines(text);
  const std::regex type_re(R"re(^\s*\{"type":"([A-Z_]+)","event")re");
  for (std::size_t i = 2; i < lines.size(); ++i) {
    std::smatch m;
    if (std::regex_search(lines[i], m, type_re)) ++c.types[m[1].str()];
  }
  c.tasks = Distinct(text, R"re("taskid":"(task_[^"]+)")re");
  c.attempts = Distinct(text, R"re("attemptId":"(attempt_[^"]+)")re");
  c.job_id = *Distinct(text, R"re("jobid":"(job_[^"]+)")re").begin();
  return c;
}

TEST_CASE("Every MapReduce file in ../shared/data ingests without a problem") {
  IngestSummary s;
  auto store = IngestAll(&s);
  for (const auto& p : s.skipped) MESSAGE(FormatProblem(p));
  CHECK(s.skipped.empty());
  // 3 .jhist + 2 conf.xml + 1 JobHistory 0.20 + 1 Rumen + 1 SLS; nodes.json is a topology.
  CHECK(s.files.size() == 8);
  REQUIRE(s.ignored.size() == 1);
  CHECK(s.ignored[0] == Traces() + "/rumen-sls/nodes.json: an SLS node topology (racks and "
                                   "nodes), no job");
  auto jobs = ListJobs(*store);
  REQUIRE(jobs.ok());
  CHECK(jobs.value().size() == 3 + 1 + 2 + 2);
}

TEST_CASE("Each .jhist: event counts, tasks and attempts equal an independent count") {
  IngestSummary s;
  auto store = IngestAll(&s);
  int seen = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(Traces() + "/hadoop-jobhistory")) {
    if (e.path().extension() != ".jhist") continue;
    ++seen;
    const JhistCount c = CountJhist(e.path().string());
    CAPTURE(e.path().string());
    auto job = LoadJob(*store, c.job_id);
    REQUIRE(job.ok());
    CHECK(job.value().event_counts == c.types);
    CHECK(job.value().tasks.size() == c.tasks.size());
    CHECK(job.value().attempts.size() == c.attempts.size());
    CHECK(job.value().status == "SUCCEEDED");
  }
  CHECK(seen == 3);
  // Values asserted by hand from the files.
  auto sleep = LoadJob(*store, "job_1329348432655_0001");
  REQUIRE(sleep.ok());
  CHECK(sleep.value().submit_ms == 1329348443227);
  CHECK(sleep.value().launch_ms == 1329348448308);
  CHECK(sleep.value().finish_ms == 1329348468601);
  CHECK(sleep.value().total_maps == 10);
  CHECK(sleep.value().finished_maps == 10);
  CHECK(sleep.value().conf.size() ==
        Occurrences(testing::ReadFile(Traces() +
                                      "/hadoop-jobhistory/job_1329348432655_0001_conf.xml"),
                    "<property>"));
  const Attempt* r0 = nullptr;
  for (const auto& a : sleep.value().attempts) {
    if (a.attempt_id == "attempt_1329348432655_0001_r_000000_0") r0 = &a;
  }
  REQUIRE(r0 != nullptr);
  CHECK(r0->shuffle_finish_ms == 1329348468462);
  CHECK(r0->sort_finish_ms == 1329348468517);
  CHECK(r0->finish_ms == 1329348468600);
  auto teragen = LoadJob(*store, "job_1416424547277_0002");
  REQUIRE(teragen.ok());
  CHECK(TotalCounter(teragen.value(), "HDFS_BYTES_WRITTEN") == 10000);
}

TEST_CASE("The Hadoop 0.20 JobHistory: records, tasks, attempts and the job's end") {
  IngestSummary s;
  auto store = IngestAll(&s);
  const std::string text =
      testing::ReadFile(Traces() + "/hadoop-jobhistory/chukwa/JobHistory-hadoop-0.20.log");
  std::map<std::string, std::int64_t> types;
  for (const std::string& l : Lines(text)) types[l.substr(0, l.find(' '))]++;
  auto job = LoadJob(*store, "job_200909120624_0005");
  REQUIRE(job.ok());
  CHECK(job.value().event_counts == types);
  CHECK(job.value().tasks.size() == Distinct(text, R"re(TASKID="(task_[^"]+)")re").size());
  CHECK(job.value().attempts.size() ==
        Distinct(text, R"re(TASK_ATTEMPT_ID="(attempt_[^"]+)")re").size());
  CHECK(job.value().status == "SUCCESS");
  CHECK(job.value().submit_ms == 1252764871815);
  CHECK(job.value().finish_ms == 1252765099898);
  CHECK(job.value().finished_reduces == 8);
  CHECK(TotalCounter(job.value(), "TOTAL_LAUNCHED_MAPS") == 10);
}

TEST_CASE("The Rumen trace: jobs, tasks, and every attempt's times as in the .json") {
  IngestSummary s;
  auto store = IngestAll(&s);
  const std::string text = testing::ReadFile(Traces() + "/rumen-sls/2jobs2min-rumen-jh.json");
  const std::regex attempt_re(
      R"re("startTime" : (\d+),\s*"result" : "(\w+)",\s*"finishTime" : (\d+),\s*"attemptID" : "([^"]+)")re");
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> expected;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), attempt_re);
       it != std::sregex_iterator(); ++it) {
    expected[(*it)[4].str()] = {std::stoll((*it)[1].str()), std::stoll((*it)[3].str())};
  }
  REQUIRE(expected.size() == Distinct(text, R"re("attemptID" : "([^"]+)")re").size());
  std::size_t checked = 0;
  for (const std::string& id : Distinct(text, R"re("jobID" : "([^"]+)")re")) {
    auto job = LoadJob(*store, id);
    REQUIRE(job.ok());
    for (const auto& a : job.value().attempts) {
      REQUIRE(expected.count(a.attempt_id) == 1);
      CHECK(a.start_ms == expected[a.attempt_id].first);
      CHECK(a.finish_ms == expected[a.attempt_id].second);
      ++checked;
    }
  }
  CHECK(checked == expected.size());
}

TEST_CASE("The SLS trace: each container is a task") {
  IngestSummary s;
  auto store = IngestAll(&s);
  const std::string text = testing::ReadFile(Traces() + "/rumen-sls/inputsls.json");
  const std::size_t containers = Occurrences(text, "\"container.host\"");
  std::size_t tasks = 0;
  for (const std::string& id : Distinct(text, R"re("job.id": "([^"]+)")re")) {
    auto job = LoadJob(*store, id);
    REQUIRE(job.ok());
    tasks += job.value().tasks.size();
  }
  CHECK(tasks == containers);
}

}  // namespace
}  // namespace perfplan::profiles::mapreduce
