#include "planner/output/report_mapreduce.h"

#include <algorithm>
#include <cstdio>

#include "models/hindex.h"
#include "models/text.h"
#include "planner/mapreduce/mapreduce_phases.h"
#include "planner/output/hindex_svg.h"
#include "profiles/mapreduce/mapreduce_store.h"

namespace perfplan::planner {
Result<MapReduceReportSection> BuildMapReduceReportSection(profiles::Store& store,
                                                          const std::string& job_id) {
  MapReduceReportSection out;
  out.intro =
      "For each MapReduce job, the Lorenz curve L of the successful attempt durations of its map "
      "phase and of its reduce phase (ascending), the ideal curve L* of the attempts before the "
      "change point, the oracle y = x and the change point; H = 1 - A(L)/A(L*) is the share of "
      "the phase's time lost to stragglers.";
  std::vector<std::string> ids;
  if (!job_id.empty()) {
    ids.push_back(job_id);
  } else {
    auto jobs = profiles::mapreduce::ListJobs(store);
    if (!jobs.ok()) return jobs.status();
    for (const auto& j : jobs.value()) ids.push_back(j.job_id);
  }
  if (ids.size() > kMaxReportJobs) {
    out.warnings.push_back("MapReduce: only the first " + std::to_string(kMaxReportJobs) +
                           " of " + std::to_string(ids.size()) + " jobs are charted");
    ids.resize(kMaxReportJobs);
  }
  for (const std::string& id : ids) {
    auto job = profiles::mapreduce::LoadJob(store, id);
    if (!job.ok()) return job.status();
    ++out.jobs;
    for (PhaseDurations& p : JobPhaseDurations(job.value())) {
      if (p.phase != "map" && p.phase != "reduce") continue;
      const std::string name = id + " " + p.phase + " phase";
      if (p.seconds.empty()) {
        if (p.phase == "map" || !job.value().total_reduces || *job.value().total_reduces > 0) {
          out.warnings.push_back(name + ": no successful attempt with a start and finish time");
        }
        continue;
      }
      auto result = models::ComputeHIndex(p.seconds, models::HIndexOptions{});
      if (!result.ok()) {
        out.warnings.push_back(name + ": " + result.status().message());
        continue;
      }
      std::sort(p.seconds.begin(), p.seconds.end());
      const models::HIndexResult& r = result.value();
      out.figures.push_back(
          {LorenzFigureSvg(p.seconds, r, "Lorenz curve, " + name),
           name + ": " + std::to_string(r.n) + " attempts, " + models::FormatFixed(r.total, 3) +
               " s of attempt time, H = " + models::FormatFixed(r.h_index, 3) +
               (r.has_change_point ? ", change point at " +
                                         models::FormatFixed(100 * r.change_point_fraction, 1) + "%"
                                   : ", no change point")});
    }
  }
  return out;
}

}  // namespace perfplan::planner
