#include "planner/plan/capacity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <tuple>

#include "models/runtime_model.h"
#include "planner/hdfs/hdfs.h"
#include "planner/plan/capacity_store.h"
#include "planner/plan/plan_inputs.h"
#include "planner/runtime/fit_eval.h"
#include "models/runtime_fit.h"
#include "profiles/runtime/price_file.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/swim_trace.h"

namespace perfplan::planner {

Status CapacityRequest::Validate() const {
  if (trace_file.empty() == store_path.empty()) {
    return Status::InvalidArgument(
        "trace: give one source of jobs: a SWIM .tsv file or a store of ingested jobs");
  }
  if (profile_file.empty() == runs_file.empty()) {
    return Status::InvalidArgument(
        "profile: give one runtime model: a profile (--profile) or a runs CSV with its workload "
        "(--runs, --workload)");
  }
  if (!runs_file.empty() && workload.empty()) {
    return Status::InvalidArgument("workload: --runs needs the workload to fit");
  }
  if (!(window.hours >= 0) || !std::isfinite(window.hours)) {
    return Status::InvalidArgument("window_hours: must be >= 0 (0 = no window)");
  }
  if (window.from_ms && window.to_ms && *window.to_ms <= *window.from_ms) {
    return Status::InvalidArgument("to_ms: must be after from_ms");
  }
  if ((window.from_ms || window.to_ms) && store_path.empty()) {
    return Status::InvalidArgument("from_ms: a window applies to the jobs of a store (--store)");
  }
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

namespace {

// The ratio past which `perfplan predict` warns of extrapolation (DESIGN §3.1).
double ExtrapolationRatio() { return models::ResolveOptions{}.extrapolation_warning_ratio; }

// A job's runtime at a width, and whether its input is near one the model was built from.
struct JobModel {
  std::string description;
  std::vector<double> reference_bytes;  // the input sizes the model rests on
  std::string reference_runs;            // what they are: "profile run", "measured run"
  std::function<double(double bytes, double width)> runtime;
  bool Near(double bytes) const {
    for (double r : reference_bytes) {
      const double ratio = bytes / r;
      if (ratio <= ExtrapolationRatio() && ratio >= 1 / ExtrapolationRatio()) return true;
    }
    return false;
  }
};

Result<JobModel> ProfileModel(const CapacityRequest& request,
                              const profiles::ProfileDocument& doc) {
  Result<models::ResolvedModel> model = models::ResolveModel(doc.profile);
  if (!model.ok())
    return Status::InvalidArgument(request.profile_file + ": " + model.status().message());
  auto m = std::make_shared<models::ResolvedModel>(std::move(model).value());
  JobModel out;
  out.description = "FREERIDE-G runtime model (" + std::string(models::ToString(m->variant)) +
                    " variant) from " + request.profile_file + ", " +
                    std::to_string(m->runs.size()) + " profile run(s)";
  for (const models::ProfileRun& run : m->runs) out.reference_bytes.push_back(run.dataset_bytes);
  out.reference_runs = "profile run";
  const double bandwidth = request.bandwidth_bytes_per_second > 0
                               ? request.bandwidth_bytes_per_second
                               : m->runs.front().bandwidth_bytes_per_second;
  out.runtime = [m, bandwidth](double bytes, double width) {
    models::Target target;
    target.dataset_bytes = bytes;
    target.storage_nodes = width;
    target.compute_nodes = width;
    target.bandwidth_bytes_per_second = bandwidth;
    return models::PredictRuntimeSeconds(*m, target);
  };
  return out;
}

// The fitted history of the workload: `perfplan fit` on the runs CSV, predicted as
// `perfplan plan --runs` predicts (reference run's configuration, the job's bytes and width).
Result<JobModel> FittedModel(const CapacityRequest& request) {
  FitRequest fit_request;
  fit_request.runs_file = request.runs_file;
  fit_request.workload = request.workload;
  fit_request.instance_type = request.instance_type;
  Result<FitAnswer> fit = AnswerFit(fit_request);
  if (!fit.ok()) return fit.status();
  auto f = std::make_shared<models::RuntimeFit>(fit.value().fit);
  JobModel out;
  char error[32];
  std::snprintf(error, sizeof error, "%.3g", f->selection_score);
  out.description = "fitted runtime model (perfplan fit) of workload " + request.workload +
                    " on " + f->instance_type + " from " + request.runs_file + ", " +
                    std::to_string(f->runs_used.size()) + " measured run(s), " +
                    (f->classes_chosen_by_fit ? "leave-one-out" : "in-sample") +
                    " relative squared error " + error;
  for (std::size_t k : f->runs_used) {
    out.reference_bytes.push_back(fit.value().runs[k].dataset_bytes);
  }
  out.reference_runs = "measured run";
  const double bandwidth = request.bandwidth_bytes_per_second > 0
                               ? request.bandwidth_bytes_per_second
                               : f->reference.bandwidth_bytes_per_second;
  out.runtime = [f, bandwidth](double bytes, double width) {
    models::RunConfig config = f->reference;
    config.dataset_bytes = bytes;
    config.compute_nodes = width;
    config.storage_nodes = width;
    config.bandwidth_bytes_per_second = bandwidth;
    return models::PredictFitted(*f, config).TotalSeconds();
  };
  return out;
}

}  // namespace

Status ParseCapacityWindow(const std::string& from, const std::string& to,
                           CapacityWindow* window) {
  for (auto [text, slot, flag] : {std::tuple{&from, &window->from_ms, "--from"},
                                  std::tuple{&to, &window->to_ms, "--to"}}) {
    if (text->empty()) continue;
    Result<std::int64_t> t = ParseTimeArgument(flag, *text);
    if (!t.ok()) return t.status();
    *slot = t.value();
  }
  return Status::Ok();
}

Result<CapacityAnswer> AnswerCapacity(const CapacityRequest& request) {
  if (Status s = request.Validate(); !s.ok()) return s;
  profiles::Loaded<profiles::SwimTrace> trace;
  std::vector<std::string> store_warnings;
  std::optional<WindowedJobs> windowed;
  if (!request.store_path.empty()) {
    Result<WindowedJobs> jobs = StoreJobs(request.store_path, request.window, &store_warnings);
    if (!jobs.ok()) return jobs.status();
    windowed = std::move(jobs).value();
    trace.value = std::move(windowed->trace);
  } else {
    trace = profiles::LoadSwimTrace(request.trace_file);
  }
  profiles::Loaded<profiles::ProfileDocument> doc;
  if (!request.profile_file.empty()) doc = profiles::LoadProfile(request.profile_file);
  profiles::Loaded<profiles::PriceFile> prices =
      plan_detail::LoadOptionalPrices(request.price_file);
  if (Status s = plan_detail::InputProblems(trace, doc, prices); !s.ok()) return s;

  const profiles::PriceEntry* price = nullptr;
  if (!request.price_file.empty()) {
    price = prices.value.Find(profiles::PricedKind::kSite, request.price_site);
    if (!price) price = prices.value.Find(profiles::PricedKind::kInstanceType, request.price_site);
    if (!price) {
      return Status::NotFound("price_site: no price for \"" + request.price_site + "\" in " +
                              request.price_file);
    }
  }
  Result<JobModel> model =
      request.profile_file.empty() ? FittedModel(request) : ProfileModel(request, doc.value);
  if (!model.ok()) return model.status();
  const JobModel& m = model.value();

  CapacityAnswer answer;
  answer.request = request;
  answer.warnings = std::move(store_warnings);
  if (windowed) {
    answer.stored_jobs = windowed->stored_jobs;
    if (windowed->bounded) {
      answer.window_from_ms = windowed->from_ms;
      answer.window_to_ms = windowed->to_ms;
    }
    answer.window_chosen_by = windowed->chosen_by;
  }
  answer.jobs = trace.value.jobs.size();
  answer.trace_span_seconds =
      trace.value.jobs.back().submit_seconds - trace.value.jobs.front().submit_seconds;
  for (const profiles::SwimJob& j : trace.value.jobs) answer.map_input_bytes += j.map_input_bytes;
  answer.runtime_model = m.description;
  if (price) answer.currency = prices.value.currency;

  std::vector<models::ReplayJob> jobs(trace.value.jobs.size());
  for (int nodes : request.cluster_nodes) {
    CapacityRow row;
    row.nodes = nodes;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const profiles::SwimJob& j = trace.value.jobs[i];
      const double splits = std::ceil(j.map_input_bytes / request.split_bytes);
      const double width = std::clamp(splits, 1.0, static_cast<double>(nodes));
      const double bytes = std::max(j.map_input_bytes, 1.0);
      jobs[i].submit_seconds = j.submit_seconds;
      jobs[i].runtime_seconds = m.runtime(bytes, width);
      // The replay clamps (and counts) jobs wider than the cluster; the prediction above already
      // ran them on the whole cluster.
      jobs[i].slots = static_cast<long long>(std::max(splits, 1.0));
      if (!m.Near(bytes)) ++row.extrapolated_jobs;
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
        std::to_string(static_cast<int>(ExtrapolationRatio())) +
        "x more or less map input than every " + m.reference_runs +
        ": their runtimes are extrapolated");
  }
  return answer;
}

}  // namespace perfplan::planner
