// Spark ingestion benchmark (not a test): generates large realistic event logs and measures
// `perfplan ingest spark` throughput and peak memory. See docs/performance.md, "Spark ingestion".
//
//   spark_ingest_bench generate OUT TASKS [STAGES]   write a Spark 3 event log with TASKS tasks
//   spark_ingest_bench generate-sql OUT TASKS [STAGES]   the same, each job a SQL execution whose
//                                                    tasks carry SQL metric updates (the SQL
//                                                    accumulator pass's input)
//   spark_ingest_bench ingest [--jobs N] STORE PATH...   ingest (N parser threads, default 1),
//                                                    print MB/s, events/s, CPU s, peak RSS
//   spark_ingest_bench answers STORE APP             time the read paths of the answers
//   spark_ingest_bench floor STORE TASKS             the store alone: TASKS generated task rows
//                                                    inserted through the ingest's own insert
//                                                    and summaries, one transaction, no parsing
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>

#include "profiles/spark/history_api.h"
#include "profiles/spark/spark_executor_timeline.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_ingest_floor.h"
#include "profiles/spark/spark_ingest_parallel.h"
#include "profiles/spark/spark_store.h"

namespace {

// One task start + end pair shaped like Spark 3.x writes them (full Task Metrics, no
// accumulables), about 1.2 KB.
void WriteTask(std::string* out, long task, int stage, int index, long launch, long run_ms,
               std::mt19937_64& rng, const std::string& accumulables = "[]") {
  const std::string host = "node" + std::to_string(task % 50) + ".cluster.example.com";
  const std::string exec = std::to_string(1 + task % 200);
  std::string info = "{\"Task ID\":" + std::to_string(task) +
                     ",\"Index\":" + std::to_string(index) +
                     ",\"Attempt\":0,\"Partition ID\":" + std::to_string(index) +
                     ",\"Launch Time\":" + std::to_string(launch) + ",\"Executor ID\":\"" + exec +
                     "\",\"Host\":\"" + host +
                     "\",\"Locality\":\"NODE_LOCAL\",\"Speculative\":false,"
                     "\"Getting Result Time\":0,\"Finish Time\":";
  *out += "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":" + std::to_string(stage) +
          ",\"Stage Attempt ID\":0,\"Task Info\":" + info +
          "0,\"Failed\":false,\"Killed\":false,\"Accumulables\":[]}}\n";
  std::uniform_int_distribution<long> bytes(1 << 20, 128 << 20);
  long read = bytes(rng), written = bytes(rng) / 4;
  *out += "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + std::to_string(stage) +
          ",\"Stage Attempt ID\":0,\"Task Type\":\"ShuffleMapTask\",\"Task End Reason\":"
          "{\"Reason\":\"Success\"},\"Task Info\":" +
          info + std::to_string(launch + run_ms + 15) +
          ",\"Failed\":false,\"Killed\":false,\"Accumulables\":" + accumulables +
          "},\"Task Metrics\":{"
          "\"Executor Deserialize Time\":7,\"Executor Deserialize CPU Time\":6123456,"
          "\"Executor Run Time\":" +
          std::to_string(run_ms) + ",\"Executor CPU Time\":" + std::to_string(run_ms * 900000) +
          ",\"Peak Execution Memory\":16777216,\"Result Size\":2456,\"JVM GC Time\":" +
          std::to_string(run_ms / 40) +
          ",\"Result Serialization Time\":1,\"Memory Bytes Spilled\":0,\"Disk Bytes Spilled\":0,"
          "\"Shuffle Read Metrics\":{\"Remote Blocks Fetched\":180,\"Local Blocks Fetched\":20,"
          "\"Fetch Wait Time\":12,\"Remote Bytes Read\":" +
          std::to_string(read) +
          ",\"Remote Bytes Read To Disk\":0,\"Local Bytes Read\":" + std::to_string(read / 9) +
          ",\"Total Records Read\":" + std::to_string(read / 100) +
          ",\"Remote Requests Duration\":40},\"Shuffle Write Metrics\":{\"Shuffle Bytes "
          "Written\":" +
          std::to_string(written) + ",\"Shuffle Write Time\":" + std::to_string(written * 3) +
          ",\"Shuffle Records Written\":" + std::to_string(written / 100) +
          "},\"Input Metrics\":{\"Bytes Read\":0,\"Records Read\":0},\"Output Metrics\":{"
          "\"Bytes Written\":0,\"Records Written\":0},\"Updated Blocks\":[]}}\n";
}

// SQL metric accumulator ids of the execution of stage `s` (one execution per job).
long SqlMetricId(int s, int k) { return 100000 + 4L * s + k; }

// A SQL execution's start: WholeStageCodegen > Project > Scan parquet, four SQL metrics, as
// Spark 3.4's SQLExecutionStart writes them.
std::string SqlExecutionStart(int s, long time) {
  auto metric = [&](const char* name, int k, const char* type) {
    return std::string("{\"name\":\"") + name + "\",\"accumulatorId\":" +
           std::to_string(SqlMetricId(s, k)) + ",\"metricType\":\"" + type + "\"}";
  };
  const std::string scan =
      "{\"nodeName\":\"Scan parquet \",\"simpleString\":\"FileScan parquet [a#0L]\","
      "\"children\":[],\"metadata\":{},\"metrics\":[" +
      metric("number of output rows", 1, "sum") + "," + metric("scan time", 2, "timing") + "," +
      metric("size of files read", 3, "size") + "]}";
  const std::string project =
      "{\"nodeName\":\"Project\",\"simpleString\":\"Project [a#0L]\",\"children\":[" + scan +
      "],\"metadata\":{},\"metrics\":[]}";
  return "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\","
         "\"executionId\":" +
         std::to_string(s) + ",\"rootExecutionId\":" + std::to_string(s) +
         ",\"description\":\"count at Bench.scala:" + std::to_string(s) +
         "\",\"details\":\"\",\"physicalPlanDescription\":\"== Physical Plan ==\",\"sparkPlanInfo\":"
         "{\"nodeName\":\"WholeStageCodegen (1)\",\"simpleString\":\"WholeStageCodegen (1)\","
         "\"children\":[" +
         project + "],\"metadata\":{},\"metrics\":[" + metric("duration", 0, "timing") +
         "]},\"time\":" + std::to_string(time) + ",\"modifiedConfigs\":{}}\n";
}

// A task's Task Info accumulables: its four SQL metric updates (external accumulators: string
// values, JsonProtocol.accumValueToJson) and the internal run time.
std::string SqlAccumulables(int s, long run_ms, long read) {
  std::string out = "[";
  const long values[] = {run_ms, read / 100, run_ms / 2, read};
  for (int k = 0; k < 4; ++k) {
    const std::string v = "\"" + std::to_string(values[k]) + "\"";
    out += "{\"ID\":" + std::to_string(SqlMetricId(s, k)) + ",\"Name\":\"m\",\"Update\":" + v +
           ",\"Value\":" + v + ",\"Internal\":true,\"Count Failed Values\":true,"
           "\"Metadata\":\"sql\"},";
  }
  out += "{\"ID\":2,\"Name\":\"internal.metrics.executorRunTime\",\"Update\":" +
         std::to_string(run_ms) + ",\"Value\":" + std::to_string(run_ms) +
         ",\"Internal\":true,\"Count Failed Values\":true}]";
  return out;
}

int Generate(const std::string& path, long tasks, int stages, bool sql) {
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    std::cerr << "cannot write " << path << "\n";
    return 1;
  }
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> run(std::log(2000.0), 0.6);
  const long t0 = 1700000000000;
  std::string buf;
  buf += "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.4.1\"}\n";
  buf +=
      "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"bench\",\"App ID\":"
      "\"application_1700000000000_0001\",\"Timestamp\":" +
      std::to_string(t0) + ",\"User\":\"bench\",\"App Attempt ID\":\"1\"}\n";
  // 200 executors of 4 cores on 50 hosts, as WriteTask assigns them (executor 1 + task % 200 on
  // node task % 50).
  for (int e = 1; e <= 200; ++e) {
    const std::string host = "node" + std::to_string((e - 1) % 50) + ".cluster.example.com";
    buf += "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":" + std::to_string(t0 + 500) +
           ",\"Executor ID\":\"" + std::to_string(e) + "\",\"Executor Info\":{\"Host\":\"" + host +
           "\",\"Total Cores\":4,\"Log Urls\":{\"stdout\":\"http://" + host +
           ":8042/stdout\"},\"Attributes\":{},\"Resources\":{},\"Resource Profile Id\":0}}\n";
  }
  const long per_stage = tasks / stages;
  long task = 0, now = t0 + 1000;
  for (int s = 0; s < stages; ++s) {
    std::string info =
        "{\"Stage ID\":" + std::to_string(s) +
        ",\"Stage Attempt ID\":0,\"Stage Name\":\"map at Bench.scala:" + std::to_string(s) +
        "\",\"Number of Tasks\":" + std::to_string(per_stage) +
        ",\"RDD Info\":[],\"Parent IDs\":[" + (s ? std::to_string(s - 1) : "") +
        "],\"Details\":\"\",\"Resource Profile Id\":0";
    if (sql) buf += SqlExecutionStart(s, now);
    buf += "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":" + std::to_string(s) +
           ",\"Submission Time\":" + std::to_string(now) + ",\"Stage Infos\":[" + info +
           ",\"Accumulables\":[]}],\"Stage IDs\":[" + std::to_string(s) + "],\"Properties\":{" +
           (sql ? "\"spark.sql.execution.id\":\"" + std::to_string(s) + "\"" : std::string()) +
           "}}\n";
    buf += "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + info +
           ",\"Submission Time\":" + std::to_string(now) +
           ",\"Accumulables\":[]},\"Properties\":{}}\n";
    long end = now;
    for (long k = 0; k < per_stage; ++k, ++task) {
      long launch = now + (k / 800) * 2500;  // 800 slots
      long run_ms = static_cast<long>(run(rng));
      end = std::max(end, launch + run_ms + 15);
      WriteTask(&buf, task, s, static_cast<int>(k), launch, run_ms, rng,
                sql ? SqlAccumulables(s, run_ms, 1000 * run_ms) : "[]");
      if (buf.size() > (8 << 20)) {
        out << buf;
        buf.clear();
      }
    }
    buf += "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" + info +
           ",\"Submission Time\":" + std::to_string(now) +
           ",\"Completion Time\":" + std::to_string(end) + ",\"Accumulables\":[]}}\n";
    buf += "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":" + std::to_string(s) +
           ",\"Completion Time\":" + std::to_string(end) +
           ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n";
    if (sql) {
      buf += "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\","
             "\"executionId\":" +
             std::to_string(s) + ",\"time\":" + std::to_string(end + 5) + "}\n";
    }
    now = end + 100;
  }
  buf += "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + std::to_string(now) + "}\n";
  out << buf;
  return out ? 0 : 1;
}

double CpuSeconds(int who = RUSAGE_SELF);

// A fresh store at `store_path` (whatever was there is removed), or null after printing why.
std::unique_ptr<perfplan::profiles::Store> FreshStore(const std::string& store_path) {
  std::filesystem::remove(store_path);
  auto store =
      perfplan::profiles::Store::Open(store_path, {perfplan::profiles::spark::StoreMigrations()});
  if (!store.ok()) {
    std::cerr << store.status().message() << "\n";
    return nullptr;
  }
  return std::move(store).value();
}

int Ingest(const std::string& store_path, const std::vector<std::string>& paths, int jobs) {
  auto store = FreshStore(store_path);
  if (!store) return 1;
  auto start = std::chrono::steady_clock::now();
  const double cpu0 = CpuSeconds(), writer0 = CpuSeconds(RUSAGE_THREAD);
  auto summary = perfplan::profiles::spark::IngestEventLogsParallel(*store, paths, jobs);
  const double cpu = CpuSeconds() - cpu0, writer = CpuSeconds(RUSAGE_THREAD) - writer0;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!summary.ok()) {
    std::cerr << summary.status().message() << "\n";
    return 1;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto& s = summary.value();
  const double mb = static_cast<double>(s.bytes_read) / 1e6;
  std::printf(
      "file_bytes=%lld lines=%lld events=%lld applications=%zu skipped=%zu seconds=%.3f "
      "MB_per_s=%.1f events_per_s=%.0f jobs=%d cpu_s=%.3f writer_cpu_s=%.3f peak_rss_MiB=%.1f\n",
      static_cast<long long>(s.bytes_read), static_cast<long long>(s.lines),
      static_cast<long long>(s.events), s.applications.size(), s.skipped.size(), seconds,
      mb / seconds, static_cast<double>(s.events) / seconds, jobs, cpu, writer,
      static_cast<double>(usage.ru_maxrss) / 1024.0);
  return 0;
}

// CPU seconds (user + sys) of this process (RUSAGE_SELF, all threads) or of the calling thread
// (RUSAGE_THREAD: with --jobs N > 1, the writer) so far.
double CpuSeconds(int who) {
  rusage usage{};
  getrusage(who, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Times the read paths behind the answers on an ingested store: the History-Server answers and
// the loads of `app`, `stragglers` and `whatif` (the models on top are not timed here).
int Answers(const std::string& store_path, const std::string& app) {
  auto store = perfplan::profiles::Store::OpenReadOnly(
      store_path, {perfplan::profiles::spark::StoreMigrations()});
  if (!store.ok()) {
    std::cerr << store.status().message() << "\n";
    return 1;
  }
  perfplan::profiles::Store& s = *store.value();
  // Times `call` (a Result) and prints `count` of its value, 0 and the error when it failed.
  auto time = [](const std::string& label, const auto& call, const auto& count) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu0 = CpuSeconds();
    const auto answer = call();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!answer.ok()) std::cerr << label << ": " << answer.status().message() << "\n";
    const std::size_t size = answer.ok() ? count(answer.value()) : 0;
    std::printf("%-58s wall %8.1f ms  cpu %8.1f ms  (%zu)\n", label.c_str(), wall * 1e3,
                (CpuSeconds() - cpu0) * 1e3, size);
  };
  const auto size = [](const auto& v) { return v.size(); };
  auto stages = perfplan::profiles::spark::DescribeApplication(s, app);
  if (!stages.ok()) {
    std::cerr << stages.status().message() << "\n";
    return 1;
  }
  const std::string middle = std::to_string(stages.value().second.size() / 2);
  const std::string base = "applications/" + app;
  for (const std::string& path :
       {base + "/stages/" + middle + "/0", base + "/stages/" + middle,
        base + "/stages/" + middle + "/0?withSummaries=true",
        base + "/stages/" + middle + "/0/taskSummary", base + "/stages/" + middle + "/0/taskList",
        base + "/stages", base + "/executors", base + "/jobs", std::string("applications")}) {
    time("spark api " + path, [&] { return perfplan::profiles::spark::HistoryApi(s, path); },
         size);
  }
  namespace spark = perfplan::profiles::spark;
  time("ListApplications (apps)", [&] { return spark::ListApplications(s); }, size);
  time("DescribeApplication (app ID)", [&] { return spark::DescribeApplication(s, app); },
       [](const auto& v) { return v.second.size(); });
  time("TaskDurationsByStage (stragglers' input)",
       [&] { return spark::TaskDurationsByStage(s, app); }, size);
  time("LoadWhatIfApplication (whatif's input)",
       [&] { return spark::LoadWhatIfApplication(s, app); },
       [](const auto& v) { return v.jobs.size(); });
  time("LoadExecutorTimeline (whatif's timeline)",
       [&] { return spark::LoadExecutorTimeline(s, app); },
       [](const auto& v) { return v.executors.size(); });
  time("ComputeEfficiencyVector (scores' input)",
       [&] { return spark::ComputeEfficiencyVector(s, app); },
       [](const auto&) { return std::size_t{1}; });
  return 0;
}

// What the task rows alone cost the store (profiles/spark/spark_ingest_floor.h): the floor under
// `ingest` however fast the parsing gets (docs/performance.md, "session 12").
int Floor(const std::string& store_path, long tasks) {
  auto store = FreshStore(store_path);
  if (!store) return 1;
  const double cpu0 = CpuSeconds();
  if (auto st = perfplan::profiles::spark::InsertGeneratedTaskRows(*store, tasks);
      !st.ok()) {
    std::cerr << st.message() << "\n";
    return 1;
  }
  std::printf("tasks=%ld cpu_s=%.3f\n", tasks, CpuSeconds() - cpu0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage =
      "usage: spark_ingest_bench generate|generate-sql OUT TASKS [STAGES] | ingest [--jobs N] STORE "
      "PATH... "
      "| answers STORE APP | floor STORE TASKS\n";
  if (argc >= 4 && (std::string(argv[1]) == "generate" || std::string(argv[1]) == "generate-sql")) {
    return Generate(argv[2], std::atol(argv[3]), argc > 4 ? std::atoi(argv[4]) : 10,
                    std::string(argv[1]) == "generate-sql");
  }
  if (argc == 4 && std::string(argv[1]) == "answers") return Answers(argv[2], argv[3]);
  if (argc == 4 && std::string(argv[1]) == "floor") return Floor(argv[2], std::atol(argv[3]));
  if (argc >= 4 && std::string(argv[1]) == "ingest") {
    int jobs = 1, at = 2;
    if (std::string(argv[2]) == "--jobs" && argc >= 6) {
      jobs = std::atoi(argv[3]);
      at = 4;
    }
    return Ingest(argv[at], std::vector<std::string>(argv + at + 1, argv + argc), jobs);
  }
  std::cerr << usage;
  return 2;
}
