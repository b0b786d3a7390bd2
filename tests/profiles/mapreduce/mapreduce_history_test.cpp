// The MapReduce readers on small files written here from the formats (Events.avpr, the 1.x
// JobHistory line format, Rumen LoggedJob, SLS, Configuration XML): a failed Hadoop 3 job with
// failed and killed attempts, escaped 1.x records over two lines, a Rumen array, gzip, and bad
// lines reported with file:line.
#include <doctest/doctest.h>
#include <zlib.h>

#include "profiles/mapreduce/mapreduce_history.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles::mapreduce {
namespace {

std::string Event(const std::string& type, const std::string& cls, const std::string& body) {
  return "{\"type\":\"" + type + "\",\"event\":{\"org.apache.hadoop.mapreduce.jobhistory." + cls +
         "\":{" + body + "}}}\n";
}

// A Hadoop 3.x history of a job that failed: attempt m0_0 fails and m0_1 succeeds, m1_0 is
// killed and its task fails, the reduce attempt is killed.
std::string FailedJobJhist() {
  const std::string c =
      R"("counters":{"name":"COUNTERS","groups":[{"name":"org.apache.hadoop.mapreduce.TaskCounter","displayName":"Map-Reduce Framework","counts":[{"name":"CPU_MILLISECONDS","displayName":"CPU","value":420}]}]})";
  return "Avro-Json\n"
         R"({"type":"record","name":"Event","namespace":"org.apache.hadoop.mapreduce.jobhistory","fields":[]})"
         "\n" +
         Event("JOB_SUBMITTED", "JobSubmitted",
               R"("jobid":"job_1700000000000_0007","jobName":"word count","userName":"ana","submitTime":1700000001000,"jobConfPath":"hdfs://x/job.xml","acls":{},"jobQueueName":"root.etl","workflowId":{"string":""})") +
         Event("JOB_INITED", "JobInited",
               R"("jobid":"job_1700000000000_0007","launchTime":1700000002000,"totalMaps":2,"totalReduces":1,"jobStatus":"INITED","uberized":false)") +
         Event("NORMALIZED_RESOURCE", "NormalizedResourceEvent", R"("memory":1024,"taskType":"MAP")") +
         Event("TASK_STARTED", "TaskStarted",
               R"("taskid":"task_1700000000000_0007_m_000000","taskType":"MAP","startTime":1700000003000,"splitLocations":"h1,h2")") +
         Event("TASK_STARTED", "TaskStarted",
               R"("taskid":"task_1700000000000_0007_m_000001","taskType":"MAP","startTime":1700000003001,"splitLocations":"")") +
         Event("TASK_STARTED", "TaskStarted",
               R"("taskid":"task_1700000000000_0007_r_000000","taskType":"REDUCE","startTime":1700000003002,"splitLocations":"")") +
         Event("MAP_ATTEMPT_STARTED", "TaskAttemptStarted",
               R"("taskid":"task_1700000000000_0007_m_000000","taskType":"MAP","attemptId":"attempt_1700000000000_0007_m_000000_0","startTime":1700000004000,"trackerName":"h1","httpPort":8042,"shufflePort":13562,"containerId":"c1","locality":{"string":"NODE_LOCAL"},"avataar":{"string":"VIRGIN"})") +
         Event("MAP_ATTEMPT_FAILED", "TaskAttemptUnsuccessfulCompletion",
               R"("taskid":"task_1700000000000_0007_m_000000","taskType":"MAP","attemptId":"attempt_1700000000000_0007_m_000000_0","finishTime":1700000005000,"hostname":"h1","port":8041,"rackname":{"string":"/r1"},"status":"FAILED","error":"java.io.IOException: disk full",)" +
             c + R"(,"clockSplits":[],"cpuUsages":[],"vMemKbytes":[],"physMemKbytes":[])") +
         Event("MAP_ATTEMPT_STARTED", "TaskAttemptStarted",
               R"("taskid":"task_1700000000000_0007_m_000000","taskType":"MAP","attemptId":"attempt_1700000000000_0007_m_000000_1","startTime":1700000006000,"trackerName":"h2","httpPort":8042,"shufflePort":13562,"containerId":"c2")") +
         Event("MAP_ATTEMPT_FINISHED", "MapAttemptFinished",
               R"("taskid":"task_1700000000000_0007_m_000000","attemptId":"attempt_1700000000000_0007_m_000000_1","taskType":"MAP","taskStatus":"SUCCEEDED","mapFinishTime":1700000008500,"finishTime":1700000009000,"hostname":"h2","port":8041,"rackname":"/r2","state":"map",)" +
             c) +
         "{not json\n" +
         Event("TASK_FINISHED", "TaskFinished",
               R"("taskid":"task_1700000000000_0007_m_000000","taskType":"MAP","finishTime":1700000009000,"status":"SUCCEEDED","successfulAttemptId":{"string":"attempt_1700000000000_0007_m_000000_1"},)" +
             c) +
         Event("MAP_ATTEMPT_STARTED", "TaskAttemptStarted",
               R"("taskid":"task_1700000000000_0007_m_000001","taskType":"MAP","attemptId":"attempt_1700000000000_0007_m_000001_0","startTime":1700000004100,"trackerName":"h3")") +
         Event("MAP_ATTEMPT_KILLED", "TaskAttemptUnsuccessfulCompletion",
               R"("taskid":"task_1700000000000_0007_m_000001","taskType":"MAP","attemptId":"attempt_1700000000000_0007_m_000001_0","finishTime":1700000007000,"hostname":"h3","port":-1,"rackname":"/r1","status":"KILLED","error":"Container killed by the ApplicationMaster.")") +
         Event("TASK_FAILED", "TaskFailed",
               R"("taskid":"task_1700000000000_0007_m_000001","taskType":"MAP","finishTime":1700000007001,"error":"task failed","failedDueToAttempt":null,"status":"FAILED")") +
         Event("REDUCE_ATTEMPT_STARTED", "TaskAttemptStarted",
               R"("taskid":"task_1700000000000_0007_r_000000","taskType":"REDUCE","attemptId":"attempt_1700000000000_0007_r_000000_0","startTime":1700000004200,"trackerName":"h4")") +
         Event("REDUCE_ATTEMPT_KILLED", "TaskAttemptUnsuccessfulCompletion",
               R"("taskid":"task_1700000000000_0007_r_000000","taskType":"REDUCE","attemptId":"attempt_1700000000000_0007_r_000000_0","finishTime":1700000007100,"hostname":"h4","status":"KILLED","error":"")") +
         Event("TASK_STARTED", "TaskStarted", R"("taskType":"MAP","startTime":1)") +
         Event("JOB_FAILED", "JobUnsuccessfulCompletion",
               R"("jobid":"job_1700000000000_0007","finishTime":1700000010000,"finishedMaps":1,"finishedReduces":0,"failedMaps":1,"failedReduces":0,"killedMaps":1,"killedReduces":1,"jobStatus":"FAILED","diagnostics":"Task failed task_1700000000000_0007_m_000001")");
}

HistoryFile Read(const std::string& path) {
  auto r = ReadHistoryFile(path);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  return r.value();
}

const Attempt* FindAttempt(const Job& job, const std::string& id) {
  for (const auto& a : job.attempts) {
    if (a.attempt_id == id) return &a;
  }
  return nullptr;
}

TEST_CASE("A failed Hadoop 3 job: every event counted, failed and killed attempts, bad lines") {
  const std::string dir = testing::MakeTempDir();
  const std::string path = dir + "/job_1700000000000_0007-FAILED.jhist";
  testing::WriteFile(path, FailedJobJhist());
  const HistoryFile f = Read(path);
  CHECK(f.format == Format::kJhist);
  REQUIRE(f.jobs.size() == 1);
  const Job& job = f.jobs[0];
  CHECK(job.job_id == "job_1700000000000_0007");
  CHECK(job.name == "word count");
  CHECK(job.queue == "root.etl");
  CHECK(job.status == "FAILED");
  CHECK(job.submit_ms == 1700000001000);
  CHECK(job.launch_ms == 1700000002000);
  CHECK(job.finish_ms == 1700000010000);
  CHECK(job.killed_maps == 1);
  CHECK(job.killed_reduces == 1);
  CHECK(job.diagnostics == "Task failed task_1700000000000_0007_m_000001");
  CHECK(job.event_counts.at("MAP_ATTEMPT_STARTED") == 3);
  CHECK(job.event_counts.at("MAP_ATTEMPT_FAILED") == 1);
  CHECK(job.event_counts.at("MAP_ATTEMPT_KILLED") == 1);
  CHECK(job.event_counts.at("REDUCE_ATTEMPT_KILLED") == 1);
  CHECK(job.event_counts.at("NORMALIZED_RESOURCE") == 1);
  CHECK(job.event_counts.at("TASK_STARTED") == 4);  // the one without taskid is counted too
  CHECK(f.events == 18);
  CHECK(job.tasks.size() == 3);
  CHECK(job.attempts.size() == 4);
  const Attempt* failed = FindAttempt(job, "attempt_1700000000000_0007_m_000000_0");
  REQUIRE(failed != nullptr);
  CHECK(failed->status == "FAILED");
  CHECK(failed->rack == "/r1");  // the Avro union {"string": …} unwrapped
  CHECK(failed->error == "java.io.IOException: disk full");
  REQUIRE(failed->counters.size() == 1);
  CHECK(failed->counters[0].value == 420);
  const Attempt* ok = FindAttempt(job, "attempt_1700000000000_0007_m_000000_1");
  REQUIRE(ok != nullptr);
  CHECK(ok->status == "SUCCEEDED");
  CHECK(ok->start_ms == 1700000006000);
  CHECK(ok->map_finish_ms == 1700000008500);
  CHECK(ok->finish_ms == 1700000009000);
  CHECK(ok->host == "h2");
  CHECK(job.tasks[0].successful_attempt == "attempt_1700000000000_0007_m_000000_1");
  CHECK(job.tasks[1].status == "FAILED");
  CHECK(FindAttempt(job, "attempt_1700000000000_0007_r_000000_0")->status == "KILLED");
  REQUIRE(f.problems.size() == 2);
  CHECK(FormatProblem(f.problems[0]).rfind(path + ":13: invalid JSON: ", 0) == 0);
  CHECK(FormatProblem(f.problems[1]) == path + ":20: taskid: missing in TASK_STARTED");
}

TEST_CASE("Hadoop 0.20/1.x JobHistory: escaped dots, a record over two lines, counters") {
  const std::string dir = testing::MakeTempDir();
  const std::string path = dir + "/JobHistory-1.x.log";
  testing::WriteFile(
      path,
      "Meta VERSION=\"1\" .\n"
      "Job JOBID=\"job_201301010000_0001\" JOBNAME=\"sort v1\\.2\" USER=\"bo\" "
      "SUBMIT_TIME=\"1357000000000\" JOBCONF=\"hdfs://nn/job\\.xml\" JOB_QUEUE=\"default\" .\n"
      "Job JOBID=\"job_201301010000_0001\" LAUNCH_TIME=\"1357000001000\" TOTAL_MAPS=\"1\" "
      "TOTAL_REDUCES=\"1\" JOB_STATUS=\"PREP\" .\n"
      "Task TASKID=\"task_201301010000_0001_m_000000\" TASK_TYPE=\"MAP\" "
      "START_TIME=\"1357000002000\" SPLITS=\"/r/h1\" .\n"
      "MapAttempt TASK_TYPE=\"MAP\" TASKID=\"task_201301010000_0001_m_000000\" "
      "TASK_ATTEMPT_ID=\"attempt_201301010000_0001_m_000000_0\" START_TIME=\"1357000002100\" "
      "TRACKER_NAME=\"tracker_h1:localhost/127\\.0\\.0\\.1:1\" HTTP_PORT=\"50060\" .\n"
      "MapAttempt TASK_TYPE=\"MAP\" TASKID=\"task_201301010000_0001_m_000000\" "
      "TASK_ATTEMPT_ID=\"attempt_201301010000_0001_m_000000_0\" TASK_STATUS=\"FAILED\" "
      "FINISH_TIME=\"1357000003000\" HOSTNAME=\"/r/h1\" ERROR=\"java\\.lang\\.OutOfMemoryError\n"
      "\tat Foo\\.bar\" .\n"
      "MapAttempt TASK_TYPE=\"MAP\" TASKID=\"task_201301010000_0001_m_000000\" "
      "TASK_ATTEMPT_ID=\"attempt_201301010000_0001_m_000000_1\" START_TIME=\"1357000003100\" "
      "TRACKER_NAME=\"tracker_h2\" HTTP_PORT=\"50060\" .\n"
      "MapAttempt TASK_TYPE=\"MAP\" TASKID=\"task_201301010000_0001_m_000000\" "
      "TASK_ATTEMPT_ID=\"attempt_201301010000_0001_m_000000_1\" TASK_STATUS=\"SUCCESS\" "
      "FINISH_TIME=\"1357000005000\" HOSTNAME=\"/r/h2\" COUNTERS=\"{(FileSystemCounters)"
      "(FileSystemCounters)[(HDFS_BYTES_READ)(HDFS_BYTES_READ)(1024)]}{(org\\.apache\\.hadoop\\."
      "mapred\\.Task$Counter)(Map-Reduce Framework)[(SPILLED_RECORDS)(Spilled Records)(7)]}\" .\n"
      "Task TASKID=\"task_201301010000_0001_m_000000\" TASK_TYPE=\"MAP\" TASK_STATUS=\"SUCCESS\" "
      "FINISH_TIME=\"1357000005100\" .\n"
      "ReduceAttempt TASK_TYPE=\"REDUCE\" TASKID=\"task_201301010000_0001_r_000000\" "
      "TASK_ATTEMPT_ID=\"attempt_201301010000_0001_r_000000_0\" START_TIME=\"1357000004000\" "
      "TRACKER_NAME=\"tracker_h2\" HTTP_PORT=\"50060\" .\n"
      "ReduceAttempt TASK_TYPE=\"REDUCE\" TASKID=\"task_201301010000_0001_r_000000\" "
      "TASK_ATTEMPT_ID=\"attempt_201301010000_0001_r_000000_0\" TASK_STATUS=\"SUCCESS\" "
      "SHUFFLE_FINISHED=\"1357000006000\" SORT_FINISHED=\"1357000006500\" "
      "FINISH_TIME=\"1357000008000\" HOSTNAME=\"/r/h2\" .\n"
      "Task TASKID=\"task_201301010000_0001_r_000000\" TASK_TYPE=\"REDUCE\" START_TIME=\"x1\" .\n"
      "Job JOBID=\"job_201301010000_0001\" FINISH_TIME=\"1357000009000\" JOB_STATUS=\"FAILED\" "
      "FINISHED_MAPS=\"1\" FINISHED_REDUCES=\"1\" FAILED_MAPS=\"1\" FAILED_REDUCES=\"0\" .\n");
  const HistoryFile f = Read(path);
  CHECK(f.format == Format::kHistory1);
  CHECK(f.events == 13);
  REQUIRE(f.jobs.size() == 1);
  const Job& job = f.jobs[0];
  CHECK(job.name == "sort v1.2");
  CHECK(job.status == "FAILED");
  CHECK(job.finish_ms == 1357000009000);
  CHECK(job.failed_maps == 1);
  CHECK(job.event_counts.at("MapAttempt") == 4);
  CHECK(job.event_counts.at("ReduceAttempt") == 2);
  REQUIRE(job.attempts.size() == 3);
  CHECK(job.attempts[0].status == "FAILED");
  CHECK(job.attempts[0].error == "java.lang.OutOfMemoryError\n\tat Foo.bar");
  CHECK(job.attempts[0].host == "h1");
  CHECK(job.attempts[0].rack == "/r");
  REQUIRE(job.attempts[1].counters.size() == 2);
  CHECK(job.attempts[1].counters[1].group == "org.apache.hadoop.mapred.Task$Counter");
  CHECK(job.attempts[1].counters[1].name == "SPILLED_RECORDS");
  CHECK(job.attempts[1].counters[1].value == 7);
  CHECK(job.attempts[2].shuffle_finish_ms == 1357000006000);
  CHECK(job.attempts[2].sort_finish_ms == 1357000006500);
  REQUIRE(f.problems.size() == 1);
  CHECK(FormatProblem(f.problems[0]) == path + ":13: START_TIME: not an integer: \"x1\"");
}

TEST_CASE("A Rumen trace as a JSON array, gzip'd; attempt times, hosts and counters") {
  const std::string dir = testing::MakeTempDir();
  const std::string path = dir + "/trace.json.gz";
  const std::string text = R"([ {
  "jobID" : "job_1_0001", "user" : "u", "jobName" : "terasort", "outcome" : "FAILED",
  "submitTime" : 1000, "launchTime" : 1500, "finishTime" : 9000, "queue" : "q",
  "totalMaps" : 1, "totalReduces" : 1, "jobProperties" : { "mapreduce.job.reduces" : "1" },
  "mapTasks" : [ { "taskID" : "task_1_0001_m_000000", "taskType" : "MAP", "taskStatus" : "SUCCESS",
    "startTime" : 2000, "finishTime" : 4000, "attempts" : [
      { "attemptID" : "attempt_1_0001_m_000000_0", "result" : "KILLED", "startTime" : 2000,
        "finishTime" : 2500, "hostName" : "/rack1/n1", "hdfsBytesRead" : -1 },
      { "attemptID" : "attempt_1_0001_m_000000_1", "result" : "SUCCESS", "startTime" : 2600,
        "finishTime" : 4000, "hostName" : "/rack1/n2", "hdfsBytesRead" : 64,
        "spilledRecords" : 3, "resourceUsageMetrics" : { "cumulativeCpuUsage" : 900 } } ] } ],
  "reduceTasks" : [ { "taskID" : "task_1_0001_r_000000", "taskType" : "REDUCE",
    "taskStatus" : "FAILED", "startTime" : 4100, "finishTime" : 8000, "attempts" : [
      { "attemptID" : "attempt_1_0001_r_000000_0", "result" : "FAILED", "startTime" : 4100,
        "finishTime" : 8000, "shuffleFinished" : 6000, "sortFinished" : 6500,
        "hostName" : "/rack1/n2" } ] } ],
  "otherTasks" : [ ] } ]
)";
  gzFile gz = gzopen(path.c_str(), "wb");
  REQUIRE(gz != nullptr);
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
  const HistoryFile f = Read(path);
  CHECK(f.format == Format::kRumen);
  CHECK(f.problems.empty());
  REQUIRE(f.jobs.size() == 1);
  const Job& job = f.jobs[0];
  CHECK(job.status == "FAILED");
  CHECK(job.conf.size() == 1);
  REQUIRE(job.attempts.size() == 3);
  CHECK(job.attempts[0].status == "KILLED");
  CHECK(job.attempts[0].counters.empty());  // -1 = not recorded
  CHECK(job.attempts[1].host == "n2");
  CHECK(job.attempts[1].rack == "/rack1");
  CHECK(job.attempts[1].counters.size() == 3);
  CHECK(job.attempts[2].shuffle_finish_ms == 6000);
  CHECK(job.tasks[0].successful_attempt == "attempt_1_0001_m_000000_1");
}

TEST_CASE("A configuration XML names its job; a truncated Rumen object is reported") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/job_1_0002_conf.xml",
                     "<?xml version=\"1.0\"?><configuration>\n"
                     "<property><name>mapreduce.map.memory.mb</name><value>2048</value></property>\n"
                     "<property><name></name><value>x</value></property>\n"
                     "</configuration>\n");
  const HistoryFile c = Read(dir + "/job_1_0002_conf.xml");
  CHECK(c.format == Format::kConfXml);
  CHECK(c.conf_job_id == "job_1_0002");
  REQUIRE(c.conf.size() == 1);
  CHECK(c.conf[0].second == "2048");
  REQUIRE(c.problems.size() == 1);
  CHECK(FormatProblem(c.problems[0]) == dir + "/job_1_0002_conf.xml:3: property.name: missing");

  testing::WriteFile(dir + "/cut.json", "{ \"jobID\" : \"job_1_0003\",\n  \"mapTasks\" : [\n");
  const HistoryFile r = Read(dir + "/cut.json");
  REQUIRE(r.problems.size() == 1);
  CHECK(FormatProblem(r.problems[0]) ==
        dir + "/cut.json:1: truncated JSON value (the file ends inside it)");
}

TEST_CASE("A file of no MapReduce format is refused naming its first line") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/x.txt", "hello world\n");
  auto r = ReadHistoryFile(dir + "/x.txt");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() == dir +
                                    "/x.txt: not a MapReduce job history, Rumen trace, SLS trace "
                                    "or job configuration (first line: \"hello world\")");
  CHECK(SniffHistoryLine("Avro-Json") == Format::kJhist);
  CHECK(SniffHistoryLine("Meta VERSION=\"1\" .") == Format::kHistory1);
  CHECK_FALSE(SniffHistoryLine("{\"a\":1}").has_value());
}

}  // namespace
}  // namespace perfplan::profiles::mapreduce
