#include "planner/hdfs/hdfs.h"
#include "planner/hdfs/hdfs_ingest_jobs.h"
#include "planner/hdfs/hdfs_stored_workload.h"

#include <charconv>
#include <filesystem>

#include "models/hdfs_record_streams.h"
#include "profiles/hdfs/hdfs_ingest_parallel.h"
#include "profiles/hdfs/hdfs_log.h"
#include "profiles/hdfs/hdfs_store_streams.h"

namespace perfplan::planner {

Result<profiles::HdfsIngestReport> AnswerIngestHdfs(const IngestHdfsRequest& request) {
  return AnswerIngestHdfs(request, 1);
}

Result<profiles::HdfsIngestReport> AnswerIngestHdfs(const IngestHdfsRequest& request, int jobs,
                                                    const profiles::HdfsIngestProgress& progress) {
  if (request.nodes.empty()) {
    return Status::InvalidArgument("--node: give at least one NAME=PATH");
  }
  std::vector<profiles::HdfsSource> sources;
  for (const std::string& text : request.nodes) {
    auto source = profiles::ParseHdfsSource(text);
    if (!source.ok()) return source.status();
    sources.push_back(source.value());
  }
  if (Status s = request.options.Validate(); !s.ok()) return s;
  auto store = profiles::Store::Open(request.store_path, {profiles::HdfsMigrations()});
  if (!store.ok()) return store.status();
  return profiles::IngestHdfsParallel(*store.value(), sources, request.options, jobs, progress);
}

Result<std::int64_t> ParseTimeArgument(const std::string& flag, const std::string& text) {
  std::int64_t ms = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (ec == std::errc() && p == text.data() + text.size() && ms >= 0) return ms;
  std::string t = text;
  if (t.size() == 10) t += " 00:00:00";
  std::size_t consumed = 0;
  const std::int64_t parsed = profiles::ParseLog4jTime(t, &consumed);
  if (parsed >= 0 && consumed == t.size()) return parsed;
  return Status::InvalidArgument(flag + " \"" + text +
                                 "\": expected a time like 2024-01-01, 2024-01-01 10:00:00 or "
                                 "milliseconds since the epoch");
}

namespace {

// The store's records in the options' window.
std::unique_ptr<models::HdfsRecordStreams> StoredRecords(
    profiles::Store& store, const models::HdfsWorkloadOptions& options) {
  return profiles::HdfsStoreStreams(store, options.from_ms >= 0 ? options.from_ms : INT64_MIN,
                                    options.to_ms >= 0 ? options.to_ms : INT64_MAX);
}

}  // namespace

Result<WorkloadAnswer> AnswerWorkload(const WorkloadRequest& request) {
  return HoldStreams(AnswerWorkloadStreamed(request));
}

Result<WorkloadAnswer> HoldStreams(Result<StreamedWorkloadAnswer> streamed) {
  if (!streamed.ok()) return streamed.status();
  StreamedWorkloadAnswer& s = streamed.value();
  if (Status read = models::CollectReadStreams(*s.streams, &s.answer.workload.streams);
      !read.ok()) {
    return read;
  }
  return std::move(s.answer);
}

Result<StreamedWorkloadAnswer> AnswerWorkloadStreamed(const WorkloadRequest& request) {
  models::HdfsWorkloadOptions options = request.options;
  if (!request.from.empty()) {
    auto t = ParseTimeArgument("--from", request.from);
    if (!t.ok()) return t.status();
    options.from_ms = t.value();
  }
  if (!request.to.empty()) {
    auto t = ParseTimeArgument("--to", request.to);
    if (!t.ok()) return t.status();
    options.to_ms = t.value();
  }
  if (Status s = options.Validate(); !s.ok()) return s;
  std::error_code ec;
  if (request.store_path != ":memory:" && !std::filesystem::exists(request.store_path, ec)) {
    return Status::NotFound(request.store_path +
                            ": no such store; run `perfplan ingest hdfs --node NAME=PATH` first");
  }
  auto store = profiles::Store::OpenReadOnly(request.store_path, {profiles::HdfsMigrations()});
  if (!store.ok()) return store.status();
  auto records = StoredRecords(*store.value(), options);
  StreamedWorkloadAnswer out;
  auto workload = models::AnalyzeHdfsWorkload(*records, options, &out.streams);
  if (!workload.ok()) return workload.status();
  out.answer.store_path = request.store_path;
  out.answer.workload = std::move(workload).value();
  return out;
}

Result<models::HdfsWorkload> AnalyzeStoredHdfs(profiles::Store& store,
                                               const models::HdfsWorkloadOptions& options) {
  return models::AnalyzeHdfsWorkload(*StoredRecords(store, options), options);
}

Result<profiles::HdfsSimulation> AnswerSimulateHdfs(const profiles::HdfsSimulationOptions& s,
                                                    const std::string& out_dir) {
  return profiles::SimulateHdfs(s, out_dir);
}

}  // namespace perfplan::planner
