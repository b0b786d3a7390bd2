// The HTML report (`perfplan report`, issue 8 item 4): one self-contained HTML file (inline CSS,
// inline SVG charts from planner/output/svg_chart.h and planner/output/hindex_svg.h, no scripts, no network)
// with a section for each kind of evidence given:
//   --store:     Lorenz curve with L*, y = x and the change point for each stage of the Spark
//                applications in the store (--app: one application), and per-DataNode read/write
//                bytes from the HDFS records in the store;
//   --runs:      predicted against measured runtimes of `evaluate` (perfplan, Ernest, Amdahl);
//   --profiles:  each profile run predicted from the profile's other runs, against its measured
//                t_d + t_n + t_c (leave one out; all runs when the profile has one);
//   --profiles + --topology: the best alternatives of `select` for each dataset of the topology
//                (--dataset: one of them) as stacked bars of their predicted time breakdown;
//   --tune-model: sensitivity bars (|η_i| × range per parameter) of a saved tuning model;
//   --prices:    with --topology or --runs, a cost column in the decision table and, after it,
//                cost against predicted time of every priced alternative with the Pareto front.
// No globals; thread-safe (each call opens its own store connection). Times in seconds.
#pragma once

#include <string>
#include <vector>

#include "models/status.h"

namespace perfplan::planner {

struct ReportRequest {
  std::string out_file;  // required for AnswerReport
  std::string store_path;
  std::vector<std::string> profile_files;
  std::string topology_file;
  std::string dataset;  // with topology_file: only this dataset ("" = every dataset)
  std::string runs_file, workload, train_expression;  // all three or none
  std::string app_id;                                 // only this Spark application
  std::string tune_model_file;          // saved `perfplan tune train` model: sensitivity bars
  // Price file (YAML): with --topology or --runs, the cost of each decision and a chart of cost
  // against predicted time with the Pareto front (perfplan plan's).
  std::string price_file;
  std::size_t max_stages_per_app = 24;  // Lorenz figures per application
  std::string generated_at;  // the header's generation time; "" = now, UTC (ISO 8601)
};

struct ReportSection {
  std::string id;  // HTML id: "decision", "pareto", "stragglers", "datanodes", "evaluate",
                   // "runtime-nodes", "profiles", "selection", "sensitivity"
  std::string title;
  std::size_t charts = 0;
};

struct ReportAnswer {
  std::string out_file;
  std::string html;
  std::vector<ReportSection> sections;
  std::vector<std::string> warnings;  // evidence that could not be charted, and why
  std::size_t charts = 0;
};

// Builds the report. InvalidArgument when no evidence is given ("nothing to report: give
// --store, --profiles, --runs or --tune-model"), when only some of --runs/--workload/--train are
// given, for --topology without --profiles, --dataset without --topology or a --dataset not in
// the topology; NotFound when the store does not exist; the Status of the first input that
// cannot be read otherwise. Stages and profiles that cannot be charted become warnings.
Result<ReportAnswer> BuildReport(const ReportRequest& request);

// BuildReport, then writes the HTML to request.out_file atomically (a temporary file in the same
// folder, renamed over the target). Failed "cannot write FILE: reason" when writing fails.
Result<ReportAnswer> AnswerReport(const ReportRequest& request);

// Writes `text` to `path` through PATH.tmp.PID + rename, so a reader never sees a half-written
// file (also used by `perfplan export --out`); Failed naming the file otherwise.
Status WriteFileAtomically(const std::string& path, const std::string& text);

// The answer as JSON: {out, sections: [{id, title, charts}], charts, warnings}.
std::string ToJson(const ReportAnswer& answer);

}  // namespace perfplan::planner
