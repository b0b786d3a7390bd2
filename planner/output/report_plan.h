// The Spark plan section of the HTML report (issue 20, Deliver 3: the report a planner reads):
// for each Spark application in the store (`perfplan report --store DB`, or only the one --app
// names), the plan `perfplan plan --store DB --app NAME` gives (planner::AnswerSparkPlan): the
// recommended executor count and why, the runtime replayed at each executor count with the
// fitted history and its interval where the history is fitted, the spark-defaults.conf lines
// with the most sensitive parameters and their direction (or how many runs the model has and
// needs), the latest run's score and its worst dimensions, and the straggler H-index with the
// attainable speed-up and whether speculation or AQE's skew rule would act on the slowest stages.
// One decision-table row per application. The Spark path prices nothing (the store records
// neither sites nor instance types), so the cost cell says so.
//
// Kept apart from report.cpp so the sections of the report live in their own files; the report
// adds what this returns (section, decision rows, warnings). Thread-safe; no globals.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "planner/output/report.h"

namespace perfplan::planner {

inline constexpr std::size_t kReportMaxSparkPlans = 8;  // applications planned per report

// A report section built outside report.cpp.
struct ReportPart {
  ReportSection section;  // id, title and its chart count
  std::string html;       // the whole <section>…</section>; "" = no section
  std::vector<std::vector<std::string>> decisions;  // decision-table rows (8 cells each)
  std::vector<std::string> warnings;
};

// The plans of the applications in `store_path` (distinct names, latest first; only the one
// `app_id` names when it is not empty), at most `max_apps` of them (the rest a warning). An
// application whose plan fails is a warning naming it.
ReportPart SparkPlanReport(const std::string& store_path, const std::string& app_id,
                           std::size_t max_apps = kReportMaxSparkPlans);

}  // namespace perfplan::planner
