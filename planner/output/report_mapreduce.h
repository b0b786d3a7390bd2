// The report's MapReduce section (`perfplan report --store DB`): for each stored job, the
// Lorenz curve of the successful attempt durations of its map phase and of its reduce phase
// (planner/output/hindex_svg.h, the figure the Spark stages get), with H and the change point in
// the caption. A phase the H-index cannot be formed for (fewer than 2ω + 2 attempts, …) is a
// warning, not a figure. report.cpp places the section; this file builds its content.
// Stateless; one call per Store at a time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::planner {

struct ReportFigureContent {
  std::string svg, caption;
};

struct MapReduceReportSection {
  std::string id = "mapreduce-stragglers";
  std::string title = "MapReduce stragglers: Lorenz curves of attempt durations per phase";
  std::string intro;
  std::vector<ReportFigureContent> figures;
  std::vector<std::string> warnings;
  std::size_t jobs = 0;  // jobs charted or warned about
};

// The jobs charted at most; the others are counted in one warning.
inline constexpr std::size_t kMaxReportJobs = 50;

// Every job of the store by submit time (only `job_id` when it is not empty: NotFound as
// profiles::mapreduce::LoadJob when absent). jobs = 0 when the store holds none.
Result<MapReduceReportSection> BuildMapReduceReportSection(profiles::Store& store,
                                                          const std::string& job_id);

}  // namespace perfplan::planner
