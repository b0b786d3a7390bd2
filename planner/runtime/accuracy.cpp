#include "planner/runtime/accuracy.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace perfplan::planner {
namespace {

std::string Pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * v);
  return buf;
}

double Median(std::vector<double> v) { return models::Summarize(std::move(v)).median_ape; }

std::vector<std::string> Ordered(const std::vector<models::MeasuredRun>& rows, bool workloads,
                                 const std::string& of_workload = "") {
  std::vector<std::string> out;
  for (const models::MeasuredRun& r : rows) {
    if (!of_workload.empty() && r.workload != of_workload) continue;
    const std::string& v = workloads ? r.workload : r.instance_type;
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void CheckIntervals(const models::Evaluation& ev, AccuracyReport* report) {
  for (const models::EvaluatedRow& r : ev.rows) {
    if (!r.interval_low_seconds || !r.predicted_seconds) continue;
    ++report->intervals_checked;
    if (*r.interval_low_seconds > *r.predicted_seconds ||
        *r.interval_high_seconds < *r.predicted_seconds) {
      ++report->intervals_excluding_prediction;
    }
  }
}

std::string FormOf(const models::Evaluation& ev) {
  return ev.choice ? std::string(models::ToString(ev.choice->chosen)) : std::string();
}

}  // namespace

std::vector<bool> SmallestCompletedPerType(const std::vector<models::MeasuredRun>& rows,
                                           const std::string& workload, std::size_t k,
                                           const std::string& only_type) {
  std::map<std::string, std::set<double>> nodes;
  for (const models::MeasuredRun& r : rows) {
    if (r.workload == workload && r.completed) nodes[r.instance_type].insert(r.compute_nodes);
  }
  std::vector<bool> mask(rows.size(), false);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const models::MeasuredRun& r = rows[i];
    if (r.workload != workload) continue;
    if (!only_type.empty() && r.instance_type != only_type) continue;
    const std::set<double>& set = nodes[r.instance_type];
    std::size_t rank = 0;
    for (double n : set) {
      if (n >= r.compute_nodes) break;
      ++rank;
    }
    mask[i] = rank < k;
  }
  return mask;
}

Status AccuracyOptions::Validate() const {
  if (train_runs < 1) return Status::InvalidField("train_runs", "must be >= 1, got 0");
  return evaluate.Validate();
}

Result<AccuracyReport> StudyAccuracy(const std::vector<models::MeasuredRun>& rows,
                                     const AccuracyOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  AccuracyReport report;
  for (const std::string& w : Ordered(rows, true)) {
    // (a)
    Result<models::Evaluation> a = models::EvaluateWorkload(
        rows, SmallestCompletedPerType(rows, w, options.train_runs), w, options.evaluate);
    if (!a.ok()) return a.status();
    CheckIntervals(a.value(), &report);
    report.per_type.push_back({w, a.value().perfplan, a.value().perfplan_on_ernest_rows,
                               a.value().ernest, a.value().amdahl, a.value().interval_coverage,
                               FormOf(a.value())});
    // (b)
    std::vector<double> medians, p90s, ernest_medians, amdahl_medians, coverages;
    for (const std::string& t : Ordered(rows, false, w)) {
      Result<models::Evaluation> b = models::EvaluateWorkload(
          rows, SmallestCompletedPerType(rows, w, options.train_runs, t), w, options.evaluate);
      if (!b.ok()) return b.status();
      CheckIntervals(b.value(), &report);
      report.one_type.push_back({w, t, b.value().perfplan, b.value().ernest, b.value().amdahl,
                                 b.value().interval_coverage, FormOf(b.value())});
      coverages.push_back(b.value().interval_coverage);
      medians.push_back(b.value().perfplan.median_ape);
      p90s.push_back(b.value().perfplan.p90_ape);
      ernest_medians.push_back(b.value().ernest.median_ape);
      amdahl_medians.push_back(b.value().amdahl.median_ape);
    }
    report.one_type_summary.push_back(
        {w, Median(medians), Median(p90s), Median(ernest_medians), Median(amdahl_medians),
         Median(coverages)});

    // Selection with the target-(a) models: every configuration of w.
    const models::SelectionCheck& check = a.value().selection;
    SelectionResult sel;
    sel.workload = w;
    if (check.available) {
      sel.picked_type = rows[check.picked_row].instance_type;
      sel.picked_nodes = rows[check.picked_row].compute_nodes;
      sel.picked_predicted_node_seconds = check.picked_predicted_node_seconds;
      sel.picked_measured_node_seconds = check.picked_measured_node_seconds;
      sel.picked_completed = check.picked_completed;
      sel.best_type = rows[check.best_row].instance_type;
      sel.best_nodes = rows[check.best_row].compute_nodes;
      sel.best_measured_node_seconds = check.best_measured_node_seconds;
      sel.gap = check.gap;
    }
    report.selection.push_back(sel);
  }
  return report;
}

std::string AccuracyReport::Markdown() const {
  std::ostringstream os;
  os << "### Target (a): train on the 3 smallest completed node counts of every instance type\n\n"
     << "| workload | form | rows | perfplan median | perfplan P90 | Ernest rows | perfplan median "
        "on Ernest's rows | Ernest median | Ernest P90 | Amdahl median | Amdahl P90 | interval "
        "coverage |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const PerTypeTrainResult& r : per_type) {
    os << "| " << r.workload << " | " << r.form << " | " << r.perfplan.predicted << " | " << Pct(r.perfplan.median_ape)
       << " | " << Pct(r.perfplan.p90_ape) << " | " << r.ernest.predicted << " | "
       << Pct(r.perfplan_on_ernest_rows.median_ape) << " | " << Pct(r.ernest.median_ape) << " | "
       << Pct(r.ernest.p90_ape) << " | " << Pct(r.amdahl.median_ape) << " | "
       << Pct(r.amdahl.p90_ape) << " | " << Pct(r.interval_coverage) << " |\n";
  }
  os << "\n### Target (b): train on 3 runs of ONE instance type (+ the other workload as "
        "reference), predict every other configuration\n\n"
     << "| workload | base type | form | rows | perfplan median | perfplan P90 | Ernest median "
        "(base type rows only) | Amdahl median | interval coverage |\n"
     << "|---|---|---|---:|---:|---:|---:|---:|---:|\n";
  for (const OneTypeTrainResult& r : one_type) {
    os << "| " << r.workload << " | " << r.base_type << " | " << r.form << " | "
       << r.perfplan.predicted << " | "
       << Pct(r.perfplan.median_ape) << " | " << Pct(r.perfplan.p90_ape) << " | "
       << Pct(r.ernest.median_ape) << " (" << r.ernest.predicted << " rows) | "
       << Pct(r.amdahl.median_ape) << " | " << Pct(r.interval_coverage) << " |\n";
  }
  os << "\n| workload | median over base types of median APE | of P90 APE | Ernest | Amdahl | "
        "median interval coverage |\n"
     << "|---|---:|---:|---:|---:|---:|\n";
  for (const OneTypeSummary& s : one_type_summary) {
    os << "| " << s.workload << " | " << Pct(s.median_of_median_ape) << " | "
       << Pct(s.median_of_p90_ape) << " | " << Pct(s.ernest_median_of_median_ape) << " | "
       << Pct(s.amdahl_median_of_median_ape) << " | " << Pct(s.median_interval_coverage)
       << " |\n";
  }
  os << "\nIntervals checked: " << intervals_checked << "; excluding their own prediction: "
     << intervals_excluding_prediction << "\n";
  os << "\n### Selection: lowest predicted node-seconds (target (a) models) vs best measured\n\n"
     << "| workload | pick | predicted node-s | measured node-s of pick | best measured | best "
        "node-s | gap |\n|---|---|---:|---:|---|---:|---:|\n";
  for (const SelectionResult& s : selection) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "| %s | %g × %s | %.0f | %.0f%s | %g × %s | %.0f | %s |\n",
                  s.workload.c_str(), s.picked_nodes, s.picked_type.c_str(),
                  s.picked_predicted_node_seconds, s.picked_measured_node_seconds,
                  s.picked_completed ? "" : " (censored)", s.best_nodes, s.best_type.c_str(),
                  s.best_measured_node_seconds, Pct(s.gap).c_str());
    os << buf;
  }
  return os.str();
}

}  // namespace perfplan::planner
