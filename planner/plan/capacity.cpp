#include "planner/plan/capacity.h"

#include <algorithm>
#include <cmath>

#include "models/runtime_model.h"
#include "planner/plan/capacity_store.h"
#include "planner/plan/plan_inputs.h"
#include "profiles/runtime/price_file.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/swim_trace.h"

namespace perfplan::planner {

Status CapacityRequest::Validate() const {
  if (trace_file.empty() == store_path.empty()) {
    return Status::InvalidArgument(
        "trace: give one source of jobs: a SWIM .tsv file or a store of ingested jobs");
  }
  if (profile_file.empty()) return Status::InvalidArgument("profile: required");
  if (cluster_nodes.empty()) {
    return Status::InvalidArgument("nodes: at least one cluster size is required");
  }
  for (int n : cluster_nodes) {
    if (n < 1) return Status::InvalidArgument("nodes: must be >= 1, got " + std::to_string(n));
  }
  if (!(split_bytes > 0) || !std::isfinite(split_bytes)) {
    return Status::InvalidArgument("split_bytes: must be > 0");
  }
  if (!(bandwidth_bytes_per_second >= 0) || !std::isfinite(bandwidth_bytes_per_second)) {
    return Status::InvalidArgument("bandwidth_bytes_per_second: must be >= 0 (0 = the profile's)");
  }
  if (price_file.empty() != price_site.empty()) {
    return Status::InvalidArgument("price_site: --prices and --price-site go together");
  }
  if (!(within_hours >= 0)) return Status::InvalidArgument("within_hours: must be >= 0");
  return Status::Ok();
}

Result<CapacityAnswer> AnswerCapacity(const CapacityRequest& request) {
  if (Status s = request.Validate(); !s.ok()) return s;
  profiles::Loaded<profiles::SwimTrace> trace;
  std::vector<std::string> store_warnings;
  if (!request.store_path.empty()) {
    Result<profiles::SwimTrace> jobs = StoreJobs(request.store_path, &store_warnings);
    if (!jobs.ok()) return jobs.status();
    trace.value = std::move(jobs).value();
  } else {
    trace = profiles::LoadSwimTrace(request.trace_file);
  }
  profiles::Loaded<profiles::ProfileDocument> doc = profiles::LoadProfile(request.profile_file);
  profiles::Loaded<profiles::PriceFile> prices =
      plan_detail::LoadOptionalPrices(request.price_file);
  plan_detail::InputProblems problems;
  problems.Add(trace);
  problems.Add(doc);
  problems.Add(prices);
  if (!problems.ok()) return problems.ToStatus();

  const profiles::PriceEntry* price = nullptr;
  if (!request.price_file.empty()) {
    price = prices.value.Find(profiles::PricedKind::kSite, request.price_site);
    if (!price) price = prices.value.Find(profiles::PricedKind::kInstanceType, request.price_site);
    if (!price) {
      return Status::NotFound("price_site: no price for \"" + request.price_site + "\" in " +
                              request.price_file);
    }
  }
  Result<models::ResolvedModel> model = models::ResolveModel(doc.value.profile);
  if (!model.ok())
    return Status::InvalidArgument(request.profile_file + ": " + model.status().message());
  const models::ResolvedModel& m = model.value();

  CapacityAnswer answer;
  answer.request = request;
  answer.warnings = std::move(store_warnings);
  answer.jobs = trace.value.jobs.size();
  answer.trace_span_seconds =
      trace.value.jobs.back().submit_seconds - trace.value.jobs.front().submit_seconds;
  for (const profiles::SwimJob& j : trace.value.jobs) answer.map_input_bytes += j.map_input_bytes;
  answer.runtime_model = "FREERIDE-G runtime model (" + std::string(models::ToString(m.variant)) +
                         " variant) from " + request.profile_file + ", " +
                         std::to_string(m.runs.size()) + " profile run(s)";
  if (price) answer.currency = prices.value.currency;
  const double bandwidth = request.bandwidth_bytes_per_second > 0
                               ? request.bandwidth_bytes_per_second
                               : m.runs.front().bandwidth_bytes_per_second;

  std::vector<models::ReplayJob> jobs(trace.value.jobs.size());
  for (int nodes : request.cluster_nodes) {
    CapacityRow row;
    row.nodes = nodes;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const profiles::SwimJob& j = trace.value.jobs[i];
      const double splits = std::ceil(j.map_input_bytes / request.split_bytes);
      const double width = std::clamp(splits, 1.0, static_cast<double>(nodes));
      models::Target target;
      target.dataset_bytes = std::max(j.map_input_bytes, 1.0);
      target.storage_nodes = width;
      target.compute_nodes = width;
      target.bandwidth_bytes_per_second = bandwidth;
      jobs[i].submit_seconds = j.submit_seconds;
      jobs[i].runtime_seconds = models::PredictRuntimeSeconds(m, target);
      // The replay clamps (and counts) jobs wider than the cluster; the prediction above already
      // ran them on the whole cluster.
      jobs[i].slots = static_cast<long long>(std::max(splits, 1.0));
      bool near_a_run = false;
      for (const models::ProfileRun& run : m.runs) {
        const double ratio = target.dataset_bytes / run.dataset_bytes;
        near_a_run |=
            ratio <= m.extrapolation_warning_ratio && ratio >= 1 / m.extrapolation_warning_ratio;
      }
      if (!near_a_run) ++row.extrapolated_jobs;
    }
    Result<models::ReplaySummary> replay = models::ReplayFifo(jobs, nodes);
    if (!replay.ok()) return replay.status();
    row.replay = std::move(replay).value();
    row.replay.jobs.clear();
    row.replay.jobs.shrink_to_fit();
    if (price) {
      row.priced = true;
      row.cost = models::CostOf(row.replay.makespan_seconds, nodes, price->price);
    }
    row.within_target =
        request.within_hours > 0 && row.replay.makespan_seconds <= request.within_hours * 3600;
    if (row.within_target && (!answer.smallest_within || nodes < *answer.smallest_within)) {
      answer.smallest_within = nodes;
    }
    answer.rows.push_back(std::move(row));
  }
  if (!answer.rows.empty() && answer.rows.front().extrapolated_jobs > 0) {
    answer.warnings.push_back(
        std::to_string(answer.rows.front().extrapolated_jobs) + " of " +
        std::to_string(answer.jobs) + " jobs read more than " +
        std::to_string(static_cast<int>(m.extrapolation_warning_ratio)) +
        "x more or less map input than every profile run: their runtimes are extrapolated");
  }
  return answer;
}

}  // namespace perfplan::planner
