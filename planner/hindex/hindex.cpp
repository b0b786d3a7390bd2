#include "planner/hindex/hindex.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "planner/output/hindex_svg.h"
#include "profiles/hindex/bucket_times.h"
#include "profiles/mapreduce/mapreduce_history.h"
#include "models/input_file.h"

namespace perfplan::planner {
namespace {

// A Hadoop job history handed to `hindex` gets told where it belongs instead of a parse error
// echoing its first (schema) line.
Status NotMapReduceHistory(const std::string& text, const std::string& shown) {
  const std::string_view first = std::string_view(text).substr(0, text.find('\n'));
  if (!profiles::mapreduce::SniffHistoryLine(first)) return Status::Ok();
  return Status::InvalidArgument(
      shown + ":1: this is a Hadoop MapReduce job history, not bucket or task times; run "
      "`perfplan ingest mapreduce " + shown + " --store S` and then `perfplan stragglers JOB_ID "
      "--store S` (the job id is listed by `perfplan jobs --store S`)");
}

Result<std::string> ReadInput(const HIndexRequest& request, const std::string& shown) {
  if (request.file == "-") {
    if (request.input == nullptr) return Status::InvalidArgument("no input stream for '-'");
    std::ostringstream text;
    text << request.input->rdbuf();
    return text.str();
  }
  return ReadInputFile(request.file, shown);
}

}  // namespace

Result<HIndexAnswer> AnswerHIndex(const HIndexRequest& request) {
  if (Status s = request.options.Validate(); !s.ok()) return s;
  HIndexAnswer answer;
  answer.file = request.file == "-" ? "<stdin>" : request.file;
  Result<std::string> text = ReadInput(request, answer.file);
  if (!text.ok()) return text.status();
  if (Status s = NotMapReduceHistory(text.value(), answer.file); !s.ok()) return s;
  profiles::Loaded<profiles::BucketTimes> loaded =
      profiles::ParseBucketTimes(text.value(), answer.file);
  if (!loaded.ok()) return profiles::ToStatus(loaded.problems);
  const profiles::BucketTimes& input = loaded.value;
  answer.format = input.format == profiles::BucketTimesFormat::kBucketCsv ? "bucket-csv" : "column";

  std::vector<double> pooled;
  pooled.reserve(input.values);
  std::vector<models::TaskHIndex> weights;
  for (const profiles::TaskBuckets& task : input.tasks) {
    pooled.insert(pooled.end(), task.seconds.begin(), task.seconds.end());
    if (input.format != profiles::BucketTimesFormat::kBucketCsv) continue;
    Result<models::HIndexResult> r = models::ComputeHIndex(task.seconds, request.options);
    if (!r.ok()) {
      return Status::InvalidArgument(answer.file + ": task '" + task.task_id + "' (line " +
                                     std::to_string(task.first_line) +
                                     "): " + r.status().message());
    }
    TaskHIndexAnswer t;
    t.task_id = task.task_id;
    t.first_line = task.first_line;
    t.task_seconds = r.value().total;
    t.result = std::move(r).value();
    weights.push_back({t.result.h_index, t.task_seconds});
    answer.tasks.push_back(std::move(t));
  }
  Result<models::HIndexResult> all = models::ComputeHIndex(pooled, request.options);
  if (!all.ok()) {
    const std::string what =
        input.format == profiles::BucketTimesFormat::kBucketCsv ? ": all tasks pooled: " : ": ";
    return Status::InvalidArgument(answer.file + what + all.status().message());
  }
  answer.pooled = std::move(all).value();
  if (!weights.empty()) {
    Result<double> h_job = models::JobHIndex(weights);
    if (!h_job.ok()) return Status::InvalidArgument(answer.file + ": " + h_job.status().message());
    answer.h_job = h_job.value();
    for (TaskHIndexAnswer& t : answer.tasks) t.weight = t.task_seconds / answer.pooled.total;
  }
  if (request.svg) {
    std::sort(pooled.begin(), pooled.end());
    answer.svg = LorenzFigureSvg(pooled, answer.pooled, "Lorenz curve of " + answer.file);
  }
  return answer;
}

Result<SimulateHIndexAnswer> AnswerSimulateHIndex(const SimulateHIndexRequest& request) {
  Result<models::Mixture> mixture = models::ParseMixture(request.mixture);
  if (!mixture.ok()) {
    return Status::InvalidArgument("--mixture: " + mixture.status().message());
  }
  models::Rng rng(request.seed);
  Result<models::HIndexSimulationResult> r =
      models::SimulateHIndex(mixture.value(), request.options, rng);
  if (!r.ok()) return r.status();
  SimulateHIndexAnswer answer;
  answer.mixture = models::ToString(mixture.value());
  answer.seed = request.seed;
  answer.options = request.options;
  answer.result = std::move(r).value();
  return answer;
}

}  // namespace perfplan::planner
