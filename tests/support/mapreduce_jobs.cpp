#include "tests/support/mapreduce_jobs.h"

#include <cstdio>

namespace perfplan::testing {
namespace {

std::string Event(const std::string& type, const std::string& cls, const std::string& body) {
  return "{\"type\":\"" + type + "\",\"event\":{\"org.apache.hadoop.mapreduce.jobhistory." + cls +
         "\":{" + body + "}}}\n";
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

// JhCounters: {"name":N,"groups":[{"name":G,"displayName":G,"counts":[{"name","displayName",
// "value"}]}]}, one group object per run of equal group names.
std::string Counters(
    const std::vector<std::pair<std::string, std::pair<std::string, std::int64_t>>>& counters) {
  std::string groups;
  std::string open;  // the group being written
  for (const auto& [group, counter] : counters) {
    if (group != open) {
      if (!open.empty()) groups += "]},";
      groups += "{\"name\":" + Quote(group) + ",\"displayName\":" + Quote(group) + ",\"counts\":[";
      open = group;
    } else {
      groups += ",";
    }
    groups += "{\"name\":" + Quote(counter.first) + ",\"displayName\":" + Quote(counter.first) +
              ",\"value\":" + std::to_string(counter.second) + "}";
  }
  if (!open.empty()) groups += "]}";
  return "{\"name\":\"COUNTERS\",\"groups\":[" + groups + "]}";
}

}  // namespace

std::string SyntheticJhistText(const SyntheticJob& job) {
  const std::string num = job.job_id.substr(4);
  std::string s = "Avro-Json\n{\"type\":\"record\",\"name\":\"Event\",\"namespace\":"
                  "\"org.apache.hadoop.mapreduce.jobhistory\",\"fields\":[]}\n";
  s += Event("JOB_SUBMITTED", "JobSubmitted",
             "\"jobid\":" + Quote(job.job_id) + ",\"jobName\":" + Quote(job.name) +
                 ",\"userName\":\"u\",\"submitTime\":" + std::to_string(job.submit_ms) +
                 ",\"jobConfPath\":\"\",\"acls\":{},\"jobQueueName\":\"default\"");
  const std::int64_t launch = job.submit_ms + 1000;
  s += Event("JOB_INITED", "JobInited",
             "\"jobid\":" + Quote(job.job_id) + ",\"launchTime\":" + std::to_string(launch) +
                 ",\"totalMaps\":" + std::to_string(job.maps) + ",\"totalReduces\":" +
                 std::to_string(job.reduces) + ",\"jobStatus\":\"INITED\",\"uberized\":false");
  const int tasks = job.maps + job.reduces;
  for (int i = 0; i < tasks; ++i) {
    const bool reduce = i >= job.maps;
    const int index = reduce ? i - job.maps : i;
    char t[96];
    std::snprintf(t, sizeof t, "%s_%s_%06d", num.c_str(), reduce ? "r" : "m", index);
    const std::string task = std::string("task_") + t, attempt = std::string("attempt_") + t + "_0";
    const std::string type = reduce ? "REDUCE" : "MAP";
    const std::string host = job.hosts[static_cast<std::size_t>(i) % job.hosts.size()];
    const std::int64_t start = launch + 1000 + (reduce ? job.map_ms + 500 : 0) + 10 * index;
    const std::int64_t map_ms = job.map_durations_ms.empty()
                                    ? job.map_ms
                                    : job.map_durations_ms[static_cast<std::size_t>(index)];
    const std::int64_t finish = start + (reduce ? job.reduce_ms : map_ms);
    s += Event("TASK_STARTED", "TaskStarted",
               "\"taskid\":" + Quote(task) + ",\"taskType\":" + Quote(type) + ",\"startTime\":" +
                   std::to_string(start) + ",\"splitLocations\":\"\"");
    s += Event(type + "_ATTEMPT_STARTED", "TaskAttemptStarted",
               "\"taskid\":" + Quote(task) + ",\"taskType\":" + Quote(type) + ",\"attemptId\":" +
                   Quote(attempt) + ",\"startTime\":" + std::to_string(start) +
                   ",\"trackerName\":" + Quote(host) + ",\"httpPort\":8042");
    const std::string counters =
        job.totals.empty()
            ? Counters({{"org.apache.hadoop.mapreduce.TaskCounter",
                         {"CPU_MILLISECONDS", 100 * static_cast<std::int64_t>(i) + 100}}})
            : Counters({});
    s += Event(type + "_ATTEMPT_FINISHED", reduce ? "ReduceAttemptFinished" : "MapAttemptFinished",
               "\"taskid\":" + Quote(task) + ",\"attemptId\":" + Quote(attempt) +
                   ",\"taskType\":" + Quote(type) + ",\"taskStatus\":\"SUCCEEDED\"," +
                   (reduce ? "\"shuffleFinishTime\":" + std::to_string(start + job.shuffle_ms) +
                                 ",\"sortFinishTime\":" + std::to_string(start + job.shuffle_ms + 100) +
                                 ","
                           : "\"mapFinishTime\":" + std::to_string(finish - 10) + ",") +
                   "\"finishTime\":" + std::to_string(finish) + ",\"hostname\":" + Quote(host) +
                   ",\"port\":8041,\"rackname\":\"/default-rack\",\"state\":\"\",\"counters\":" +
                   counters);
    s += Event("TASK_FINISHED", "TaskFinished",
               "\"taskid\":" + Quote(task) + ",\"taskType\":" + Quote(type) + ",\"finishTime\":" +
                   std::to_string(finish) + ",\"status\":\"SUCCEEDED\",\"counters\":" + counters);
  }
  const std::string end = std::to_string(job.submit_ms + job.runtime_ms);
  if (job.failed) {
    s += Event("JOB_FAILED", "JobUnsuccessfulCompletion",
               "\"jobid\":" + Quote(job.job_id) + ",\"finishTime\":" + end +
                   ",\"finishedMaps\":" + std::to_string(job.maps) +
                   ",\"finishedReduces\":0,\"jobStatus\":\"FAILED\",\"diagnostics\":\"boom\"");
  } else {
    s += Event("JOB_FINISHED", "JobFinished",
               "\"jobid\":" + Quote(job.job_id) + ",\"finishTime\":" + end +
                   ",\"finishedMaps\":" + std::to_string(job.maps) + ",\"finishedReduces\":" +
                   std::to_string(job.reduces) +
                   ",\"failedMaps\":0,\"failedReduces\":0,\"totalCounters\":" +
                   Counters(job.totals) + ",\"mapCounters\":" + Counters({}) +
                   ",\"reduceCounters\":" + Counters({}));
  }
  return s;
}

std::string SyntheticConfXml(const std::vector<std::pair<std::string, std::string>>& properties) {
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<configuration>\n";
  for (const auto& [name, value] : properties) {
    s += "<property><name>" + name + "</name><value>" + value +
         "</value><source>job.xml</source></property>\n";
  }
  return s + "</configuration>\n";
}

}  // namespace perfplan::testing
