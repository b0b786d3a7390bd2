#include "planner/output/report.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "models/hdfs_workload.h"
#include "models/hindex.h"
#include "models/json_fields.h"
#include "models/json_text.h"
#include "models/text.h"
#include "planner/hdfs/hdfs_stored_workload.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "planner/output/hindex_svg.h"
#include "planner/output/report_backtest.h"
#include "planner/output/report_mapreduce.h"
#include "planner/output/report_plan.h"
#include "planner/output/svg_chart.h"
#include "planner/plan/plan.h"
#include "planner/runtime/fit_eval.h"
#include "planner/runtime/runtime.h"
#include "planner/tuning/tune.h"
#include "profiles/hdfs/hdfs_store.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "profiles/runtime/price_file.h"
#include "profiles/runtime/runs_csv.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"

namespace perfplan::planner {
namespace {

constexpr double kMebibyte = 1024.0 * 1024.0;
constexpr std::size_t kMaxParetoDots = 1000;  // off-front points drawn per cost/time chart

class Builder {
 public:
  explicit Builder(ReportAnswer* answer) : answer_(answer) {}

  void BeginSection(const std::string& id, const std::string& title, const std::string& intro) {
    answer_->sections.push_back({id, title, 0});
    body_ += "<section id=\"" + XmlEscape(id) + "\">\n<h2>" + XmlEscape(title) + "</h2>\n<p>" +
             XmlEscape(intro) + "</p>\n";
  }
  void AddFigure(const std::string& svg, const std::string& caption) {
    body_ +=
        "<figure>\n" + svg + "<figcaption>" + XmlEscape(caption) + "</figcaption>\n</figure>\n";
    ++answer_->sections.back().charts;
    ++answer_->charts;
  }
  void EndSection() { body_ += "</section>\n"; }
  // A section built in its own file (planner/output/report_plan.h).
  void AddPart(ReportPart part) {
    for (std::vector<std::string>& row : part.decisions) AddDecision(std::move(row));
    for (std::string& w : part.warnings) Warn(std::move(w));
    if (part.html.empty()) return;
    answer_->sections.push_back(part.section);
    answer_->charts += part.section.charts;
    body_ += part.html;
  }
  // A row of the decision table, the first section of the report: what to run where.
  void AddDecision(std::vector<std::string> cells) { decisions_.push_back(std::move(cells)); }
  // A figure of the time/cost section, which follows the decision table.
  void AddParetoFigure(const std::string& svg, const std::string& caption) {
    pareto_ +=
        "<figure>\n" + svg + "<figcaption>" + XmlEscape(caption) + "</figcaption>\n</figure>\n";
    ++pareto_charts_;
    ++answer_->charts;
  }
  // Called once, after every section: the decision table goes first, then the time/cost front.
  void FinishDecisions() {
    if (pareto_charts_ > 0) {
      answer_->sections.insert(answer_->sections.begin(),
                               {"pareto", "Cost against time", pareto_charts_});
    }
    if (decisions_.empty()) return;
    answer_->sections.insert(answer_->sections.begin(), {"decision", "Decision", 0});
  }
  void Warn(std::string text) { answer_->warnings.push_back(std::move(text)); }

  // Warnings grouped by kind (the text after the last ": ", numbers in it replaced by N, so
  // "stage 3: has 2 tasks" and "stage 7: has 1 tasks" are one kind), most frequent first, each
  // with its count and its first instances; the rest counted, never dropped silently.
  std::string WarningSummary() const {
    constexpr std::size_t kListed = 3;
    std::vector<std::pair<std::string, std::vector<const std::string*>>> kinds;
    std::map<std::string, std::size_t> index;
    for (const std::string& w : answer_->warnings) {
      const std::size_t colon = w.rfind(": ");
      std::string kind;
      for (char c : colon == std::string::npos ? w : w.substr(colon + 2)) {
        const bool digit = c >= '0' && c <= '9';
        if (digit && !kind.empty() && kind.back() == 'N') continue;
        kind += digit ? 'N' : c;
      }
      auto [it, added] = index.try_emplace(kind, kinds.size());
      if (added) kinds.push_back({kind, {}});
      kinds[it->second].second.push_back(&w);
    }
    std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) {
      return a.second.size() > b.second.size();
    });
    std::string html = "<section id=\"warnings\">\n<h2>Not charted (" +
                       std::to_string(answer_->warnings.size()) + " warnings, " +
                       std::to_string(kinds.size()) + " kinds)</h2>\n<ul class=\"warnings\">\n";
    for (const auto& [kind, items] : kinds) {
      html += "<li>" + std::to_string(items.size()) + " × " + XmlEscape(kind) + "<ul>";
      for (std::size_t i = 0; i < items.size() && i < kListed; ++i) {
        html += "<li>" + XmlEscape(*items[i]) + "</li>";
      }
      if (items.size() > kListed) {
        html += "<li>… and " + std::to_string(items.size() - kListed) + " more</li>";
      }
      html += "</ul></li>\n";
    }
    return html + "</ul>\n</section>\n";
  }

  std::string Html(const std::vector<std::string>& inputs, const std::string& generated_at) const {
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>perfplan report</title>\n<style>\n"
        "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}\n"
        "h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:4px}\n"
        "figure{display:inline-block;margin:8px;vertical-align:top}\n"
        "figcaption{font-size:12px;color:#555;max-width:720px}\n"
        "nav a{margin-right:12px}ul.warnings{color:#8a4b00}\n"
        "table.decision{border-collapse:collapse;font-size:13px}\n"
        "table.decision td,table.decision th{border:1px solid #ccc;padding:3px 8px;"
        "text-align:left;overflow-wrap:anywhere}\n"
        "</style>\n</head>\n<body>\n<h1>perfplan report</h1>\n<p class=\"generated\">Generated " +
        XmlEscape(generated_at) + " by perfplan " + PERFPLAN_VERSION + "</p>\n<p>Inputs:</p>\n<ul>\n";
    for (const std::string& input : inputs) html += "<li>" + XmlEscape(input) + "</li>\n";
    html += "</ul>\n<nav>";
    for (const ReportSection& s : answer_->sections)
      html += "<a href=\"#" + XmlEscape(s.id) + "\">" + XmlEscape(s.title) + "</a>";
    html += "</nav>\n";
    if (!decisions_.empty()) {
      html +=
          "<section id=\"decision\">\n<h2>Decision</h2>\n<p>For each application and dataset "
          "(profiles: perfplan select, FREERIDE-G model) or workload (runs CSV: perfplan plan, "
          "one fit per instance type) or Spark application (store: perfplan plan --store --app), "
          "the fastest predicted choice, its prediction interval "
          "where the evidence has held-out errors, its billed cost from the price file "
          "(--prices), and a note; the charts below show the alternatives.</p>\n"
          "<table class=\"decision\">\n<tr>"
          "<th>application</th><th>dataset or workload</th><th>run where</th>"
          "<th>nodes</th><th>predicted runtime (s)</th><th>interval (s)</th>"
          "<th>cost</th><th>note</th></tr>\n";
      for (const std::vector<std::string>& row : decisions_) {
        html += "<tr>";
        for (const std::string& c : row) html += "<td>" + XmlEscape(c) + "</td>";
        html += "</tr>\n";
      }
      html += "</table>\n</section>\n";
    }
    if (pareto_charts_ > 0) {
      html +=
          "<section id=\"pareto\">\n<h2>Cost against time</h2>\n<p>Every priced alternative "
          "of perfplan plan (predicted runtime against billed cost from the price file), the "
          "Pareto front of the alternatives no other is both faster and cheaper than, and the "
          "fastest choice of the decision table.</p>\n" +
          pareto_ + "</section>\n";
    }
    html += body_;
    if (!answer_->warnings.empty()) html += WarningSummary();
    return html + "</body>\n</html>\n";
  }

 private:
  ReportAnswer* answer_;
  std::string body_;
  std::vector<std::vector<std::string>> decisions_;
  std::string pareto_;
  std::size_t pareto_charts_ = 0;
};

// The decision table's cost cell of one alternative of a plan.
std::string CostCell(const PlanAnswer& plan, const PlanAlternative& alt) {
  if (plan.price_source.empty()) return "n/a (no --prices)";
  if (!alt.priced) return "no price for " + (alt.instance_type.empty() ? alt.select.compute_site
                                                                       : alt.instance_type);
  return models::FormatFixed(alt.cost.cost, 4) + " " + plan.currency;
}

// Adds the time/cost chart of a priced plan: every priced alternative, the Pareto front as a
// line through its points (fastest first) and `marked` (the decision table's choice) as a ring.
void AddParetoChart(const PlanAnswer& plan, const PlanAlternative* marked,
                    const std::string& subject, Builder& b) {
  if (plan.price_source.empty()) return;
  XYChart chart;
  chart.title = "Cost against predicted time, " + subject;
  chart.x_label = "predicted runtime (s)";
  chart.y_label = "cost (" + plan.currency + ")";
  ChartSeries all{"alternatives", {}, "#95a5a6"}, front{"Pareto front", {}, "#2471a3"},
      chosen{"fastest (decision)", {}, "#c0392b"};
  all.dots = true;
  chosen.dots = true;
  // Every priced alternative off the front, thinned evenly (in the plan's order) beyond
  // kMaxParetoDots so that a 10,000-node topology (50,000 alternatives) stays a readable, small
  // SVG; the front is always drawn whole, and the caption says how many were drawn.
  std::size_t priced = 0, off_front = 0;
  for (const PlanAlternative& alt : plan.alternatives) {
    priced += alt.priced ? 1 : 0;
    off_front += alt.priced && !alt.on_front ? 1 : 0;
  }
  const std::size_t stride =
      off_front > kMaxParetoDots ? (off_front + kMaxParetoDots - 1) / kMaxParetoDots : 1;
  std::size_t seen = 0;
  for (const PlanAlternative& alt : plan.alternatives) {
    if (!alt.priced) continue;
    if (!alt.on_front && seen++ % stride != 0) continue;
    all.points.emplace_back(alt.select.runtime_seconds, alt.cost.cost);
  }
  for (std::size_t i : plan.front) {
    const PlanAlternative& alt = plan.alternatives[i];
    front.points.emplace_back(alt.select.runtime_seconds, alt.cost.cost);
  }
  if (marked && marked->priced) {
    chosen.points.emplace_back(marked->select.runtime_seconds, marked->cost.cost);
  }
  if (all.points.empty()) {
    b.Warn(subject + ": cost against time: no alternative has a price in " + plan.price_source);
    return;
  }
  chart.series = {all, front};
  if (!chosen.points.empty()) chart.series.push_back(chosen);
  std::string caption = subject + ": " + std::to_string(priced) + " priced alternatives, " +
                        std::to_string(front.points.size()) + " on the front";
  if (stride > 1) {
    caption += "; 1 in " + std::to_string(stride) + " of the " + std::to_string(off_front) +
               " off the front drawn";
  }
  b.AddParetoFigure(LineChartSvg(chart), caption + " (" + plan.price_source + ")");
}

Status AddSparkSection(profiles::Store& store, const ReportRequest& request, Builder& b) {
  auto apps = profiles::spark::ListApplications(store);
  if (!apps.ok()) return apps.status();
  std::vector<profiles::spark::ApplicationSummary> chosen;
  for (const auto& app : apps.value()) {
    if (!request.app_id.empty() && app.app_id != request.app_id) continue;
    // ListApplications lists every attempt; chart the latest one of each application.
    if (std::any_of(chosen.begin(), chosen.end(),
                    [&](const auto& c) { return c.app_id == app.app_id; }))
      continue;
    chosen.push_back(app);
  }
  if (!request.app_id.empty() && chosen.empty())
    return Status::NotFound("no Spark application " + request.app_id + " in the store");
  if (chosen.empty()) return Status::Ok();
  b.BeginSection("stragglers", "Stragglers: Lorenz curves of task durations per stage",
                 "For each stage, the Lorenz curve L of its successful task durations (ascending), "
                 "the ideal curve L* of the tasks before the change point, the oracle y = x and "
                 "the change point; H = 1 - A(L)/A(L*) is the share of the stage's time lost to "
                 "stragglers.");
  for (const auto& app : chosen) {
    auto stages = profiles::spark::TaskDurationsByStage(store, app.app_id, app.attempt_id);
    if (!stages.ok()) {
      b.Warn(app.app_id + ": " + stages.status().message());
      continue;
    }
    std::size_t drawn = 0;
    for (const auto& stage : stages.value()) {
      const std::string name = app.app_id + " stage " + std::to_string(stage.stage_id) + "." +
                               std::to_string(stage.stage_attempt_id);
      if (drawn == request.max_stages_per_app) {
        b.Warn(app.app_id + ": only the first " + std::to_string(drawn) + " stages are charted");
        break;
      }
      auto result = models::ComputeHIndex(stage.task_duration_seconds, models::HIndexOptions{});
      if (!result.ok()) {
        b.Warn(name + ": " + result.status().message());
        continue;
      }
      std::vector<double> sorted = stage.task_duration_seconds;
      std::sort(sorted.begin(), sorted.end());
      const auto& r = result.value();
      b.AddFigure(
          LorenzFigureSvg(sorted, r, "Lorenz curve, " + name),
          name + ": " + std::to_string(r.n) + " tasks, " + models::FormatFixed(r.total, 3) +
              " s of task time, H = " + models::FormatFixed(r.h_index, 3) +
              (r.has_change_point ? ", change point at " +
                                        models::FormatFixed(100 * r.change_point_fraction, 1) + "%"
                                  : ", no change point"));
      ++drawn;
    }
  }
  b.EndSection();
  return Status::Ok();
}

Status AddHdfsSection(profiles::Store& store, Builder& b) {
  auto analyzed = AnalyzeStoredHdfs(store, models::HdfsWorkloadOptions{});  // streamed
  if (!analyzed.ok()) return analyzed.status();
  const models::HdfsWorkload& workload = analyzed.value();
  if (workload.cluster.audit_records == 0 && workload.cluster.transfer_records == 0) {
    return Status::Ok();
  }
  if (workload.datanodes.empty()) {
    b.Warn("HDFS: the store holds no DataNode transfers");
    return Status::Ok();
  }
  BarChart chart;
  chart.title = "Per-DataNode load";
  chart.x_label = "DataNode";
  chart.y_label = "bytes moved (MiB)";
  chart.segment_names = {"read", "write"};
  chart.grouped = true;
  for (const auto& d : workload.datanodes) {
    chart.categories.push_back(d.datanode);
    chart.values.push_back({d.read_bytes / kMebibyte, d.write_bytes / kMebibyte});
  }
  b.BeginSection("datanodes", "HDFS: per-DataNode load",
                 "Bytes each DataNode served to readers and received from writers (including "
                 "replication pipelines), from the HDFS records in the store.");
  b.AddFigure(BarChartSvg(chart),
              std::to_string(workload.datanodes.size()) + " DataNodes; Gini of read+write bytes " +
                  models::FormatFixed(workload.cluster.datanode_load_gini, 3) +
                  ", busiest over mean " +
                  models::FormatFixed(workload.cluster.datanode_max_over_mean, 2));
  b.EndSection();
  return Status::Ok();
}

Status AddEvaluateSection(const ReportRequest& request, Builder& b) {
  EvaluateRequest ev;
  ev.runs_file = request.runs_file;
  ev.workload = request.workload;
  ev.train_expression = request.train_expression;
  ev.options.intervals = false;  // intervals are not charted
  auto answer = AnswerEvaluate(ev);
  if (!answer.ok()) return answer.status();
  XYChart chart;
  chart.title = "Predicted against measured runtime, " + request.workload;
  chart.x_label = "measured runtime (s)";
  chart.y_label = "predicted runtime (s)";
  chart.identity_line = true;
  ChartSeries perfplan{"perfplan", {}, ChartColor(0)}, ernest{"Ernest", {}, ChartColor(1)},
      amdahl{"Amdahl", {}, ChartColor(2)};
  for (const auto& row : answer.value().evaluation.rows) {
    if (!row.run.completed) continue;
    const double measured = row.run.runtime_seconds;
    if (row.predicted_seconds) perfplan.points.emplace_back(measured, *row.predicted_seconds);
    if (row.ernest_seconds) ernest.points.emplace_back(measured, *row.ernest_seconds);
    if (row.amdahl_seconds) amdahl.points.emplace_back(measured, *row.amdahl_seconds);
  }
  for (ChartSeries* s : {&perfplan, &ernest, &amdahl})
    if (!s->points.empty()) chart.series.push_back(std::move(*s));
  if (chart.series.empty()) {
    b.Warn(request.runs_file + ": no completed held-out run of " + request.workload +
           " was predicted");
    return Status::Ok();
  }
  const auto& e = answer.value().evaluation;
  b.BeginSection("evaluate", "Predicted against measured runtimes (held-out runs)",
                 "Runs of " + request.workload + " in " + request.runs_file +
                     " not selected by --train '" + request.train_expression +
                     "', predicted by perfplan and the Ernest and Amdahl baselines; points on "
                     "y = x are exact.");
  b.AddFigure(ScatterChartSvg(chart),
              std::to_string(e.perfplan.predicted) + " runs predicted; perfplan median APE " +
                  models::FormatFixed(100 * e.perfplan.median_ape, 1) + "%, Ernest " +
                  models::FormatFixed(100 * e.ernest.median_ape, 1) + "%, Amdahl " +
                  models::FormatFixed(100 * e.amdahl.median_ape, 1) + "%");
  b.EndSection();
  return Status::Ok();
}

// Runtime against node count per instance type of the workload, as `perfplan plan --runs`
// predicts it: the fitted runtime, its calibrated interval (dashed) and the measured runs (rings).
Status AddRuntimeNodesSection(const ReportRequest& request, Builder& b) {
  PlanRequest plan_request;
  plan_request.runs_file = request.runs_file;
  plan_request.workload = request.workload;
  plan_request.price_file = request.price_file;
  auto plan = AnswerPlan(plan_request);
  if (!plan.ok()) {
    b.Warn(request.runs_file + ": runtime against node count: " + plan.status().message());
    return Status::Ok();
  }
  const PlanAnswer& a = plan.value();
  for (const std::string& w : a.warnings) b.Warn(request.runs_file + ": " + w);
  auto runs = profiles::LoadRunsCsv(request.runs_file);
  std::vector<std::string> types;
  for (const PlanAlternative& alt : a.alternatives) {
    if (std::find(types.begin(), types.end(), alt.instance_type) == types.end()) {
      types.push_back(alt.instance_type);
    }
  }
  bool begun = false;
  for (std::size_t k = 0; k < types.size(); ++k) {
    const std::string& type = types[k];
    XYChart chart;
    chart.title = "Runtime against node count, " + request.workload + " on " + type;
    chart.x_label = "compute nodes";
    chart.y_label = "runtime (s)";
    const std::string color = ChartColor(k);
    ChartSeries predicted{"predicted", {}, color}, low{"interval low", {}, "#7f8c8d", true},
        high{"interval high", {}, "#7f8c8d", true}, measured{"measured", {}, "#c0392b"};
    measured.dots = true;
    std::vector<std::pair<double, const PlanAlternative*>> points;
    for (const PlanAlternative& alt : a.alternatives) {
      if (alt.instance_type == type) points.emplace_back(alt.select.compute_nodes, &alt);
    }
    std::sort(points.begin(), points.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [n, alt] : points) {
      predicted.points.emplace_back(n, alt->select.runtime_seconds);
      if (alt->interval) {
        low.points.emplace_back(n, alt->interval->low_seconds);
        high.points.emplace_back(n, alt->interval->high_seconds);
      }
    }
    for (const models::MeasuredRun& r : runs.value.runs) {
      if (r.workload == request.workload && r.instance_type == type && r.completed &&
          r.dataset_bytes == a.dataset_bytes) {
        measured.points.emplace_back(r.compute_nodes, r.runtime_seconds);
      }
    }
    chart.series.push_back(predicted);
    if (!low.points.empty()) chart.series.push_back(low), chart.series.push_back(high);
    if (!measured.points.empty()) chart.series.push_back(measured);
    if (!begun) {
      b.BeginSection("runtime-nodes", "Runtime against node count",
                     "Per instance type of workload " + request.workload +
                         ": the runtime perfplan plan predicts (the fitted model of perfplan "
                         "fit) at each node count, its " +
                         models::FormatFixed(100 * a.interval_level, 0) +
                         "% calibrated interval (CV+ on the fit's held-out errors) and the "
                         "measured runs of the planned input size.");
      begun = true;
    }
    const PlanAlternative* best = nullptr;
    for (const auto& [n, alt] : points) {
      if (!best || alt->select.runtime_seconds < best->select.runtime_seconds) best = alt;
    }
    b.AddFigure(LineChartSvg(chart), type + ": " + std::to_string(points.size()) +
                                         " node counts, " + std::to_string(measured.points.size()) +
                                         " measured runs");
    if (best) {
      b.AddDecision(
          {request.workload,
           request.workload + " (" + models::FormatFixed(a.dataset_bytes / 1e9, 2) + " GB)",
           "instance type " + type, std::to_string(best->select.compute_nodes),
           models::FormatFixed(best->select.runtime_seconds, 1),
           best->interval ? models::FormatFixed(best->interval->low_seconds, 1) + " to " +
                                models::FormatFixed(best->interval->high_seconds, 1)
                          : "none",
           CostCell(a, *best),
           "fastest of " + std::to_string(points.size()) +
               " node counts of this type (perfplan plan --runs)"});
    }
  }
  if (begun) b.EndSection();
  const PlanAlternative* fastest = nullptr;
  for (const PlanAlternative& alt : a.alternatives) {
    if (!fastest || alt.select.runtime_seconds < fastest->select.runtime_seconds) fastest = &alt;
  }
  AddParetoChart(a, fastest, "workload " + request.workload, b);
  return Status::Ok();
}

Result<std::vector<profiles::ProfileDocument>> LoadProfiles(const ReportRequest& request) {
  std::vector<profiles::ProfileDocument> docs;
  for (const std::string& file : request.profile_files) {
    auto loaded = profiles::LoadProfile(file);
    if (!loaded.ok()) return profiles::ToStatus(loaded.problems);
    docs.push_back(std::move(loaded.value));
  }
  return docs;
}

// Each run predicted from the profile's other runs only: out-of-sample points, never a run
// predicted from itself (a one-run profile, or a run the others cannot predict, is a warning).
void AddProfileRunsSection(const std::vector<profiles::ProfileDocument>& docs, Builder& b) {
  XYChart chart;
  chart.title = "Profile runs: predicted against measured runtime";
  chart.x_label = "measured runtime t_d + t_n + t_c (s)";
  chart.y_label = "predicted runtime (s)";
  chart.identity_line = true;
  std::size_t points = 0;
  for (std::size_t p = 0; p < docs.size(); ++p) {
    const profiles::ProfileDocument& doc = docs[p];
    ChartSeries series{
        doc.profile.application.empty() ? doc.file : doc.profile.application, {}, ChartColor(p)};
    const auto& runs = doc.profile.runs;
    if (runs.size() < 2) {
      b.Warn(doc.file + ": not on the predicted-against-measured chart: a profile with one run "
                        "can only predict it from itself");
      continue;
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
      profiles::ProfileDocument others = doc;
      others.profile.runs.erase(others.profile.runs.begin() + i);
      PredictRequest target;
      target.dataset_bytes = runs[i].dataset_bytes;
      target.storage_nodes = runs[i].storage_nodes;
      target.compute_nodes = runs[i].compute_nodes;
      target.bandwidth_bytes_per_second = runs[i].bandwidth_bytes_per_second;
      auto predicted = AnswerPredict(others, nullptr, target);
      if (!predicted.ok()) {
        b.Warn(doc.file + ": run " + std::to_string(i + 1) + ": " + predicted.status().message());
        continue;
      }
      const double measured =
          runs[i].disk_seconds + runs[i].network_seconds + runs[i].compute_seconds;
      series.points.emplace_back(measured, predicted.value().prediction.runtime_seconds);
    }
    points += series.points.size();
    if (!series.points.empty()) chart.series.push_back(std::move(series));
  }
  if (chart.series.empty()) return;
  b.BeginSection("profiles", "Profile runs: predicted against measured",
                 "Each profiled run predicted by the model fitted on the profile's other runs "
                 "(leave one out), against its measured t_d + t_n + t_c.");
  b.AddFigure(ScatterChartSvg(chart),
              std::to_string(points) + " runs from " + std::to_string(docs.size()) + " profiles");
  b.EndSection();
}

Status AddSelectionSection(const std::vector<profiles::ProfileDocument>& docs,
                           const ReportRequest& request, const profiles::PriceFile* prices,
                           Builder& b) {
  const std::string& topology_file = request.topology_file;
  auto topology = profiles::LoadTopology(topology_file);
  if (!topology.ok()) return profiles::ToStatus(topology.problems);
  std::vector<std::string> datasets;
  for (const auto& d : topology.value.datasets) {
    if (request.dataset.empty() || d.name == request.dataset) datasets.push_back(d.name);
  }
  if (!request.dataset.empty() && datasets.empty()) {
    std::vector<std::string_view> names;
    for (const auto& d : topology.value.datasets) names.push_back(d.name);
    std::string message = "--dataset: no dataset \"" + request.dataset + "\" in " + topology_file;
    const std::string suggestion = profiles::SuggestClosest(request.dataset, names);
    if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
    return Status::InvalidArgument(message);
  }
  if (datasets.empty()) {
    b.Warn(topology_file + ": no datasets to select for");
    return Status::Ok();
  }
  bool begun = false;
  for (const std::string& dataset : datasets) {
    for (const profiles::ProfileDocument& doc : docs) {
      SelectRequest select;
      select.options.dataset = dataset;
      select.options.top = 8;
      auto answer = AnswerSelect(doc, topology.value, select);
      if (!answer.ok()) {
        b.Warn(doc.file + ": select for " + dataset + ": " + answer.status().message());
        continue;
      }
      BarChart chart;
      const std::string app = doc.profile.application.empty() ? doc.file : doc.profile.application;
      chart.title = "Best alternatives for " + app + " on " + dataset;
      chart.x_label = "replica site → compute site × compute nodes (best first)";
      chart.y_label = "predicted runtime (s)";
      chart.segment_names = {"disk", "network", "compute", "reduction", "global reduction"};
      for (const Alternative& a : answer.value().selection.alternatives) {
        chart.categories.push_back(a.replica_site + "→" + a.compute_site + " ×" +
                                   std::to_string(a.compute_nodes));
        chart.values.push_back({a.breakdown.disk_seconds, a.breakdown.network_seconds,
                                a.breakdown.compute_seconds, a.breakdown.reduction_seconds,
                                a.breakdown.global_reduction_seconds});
      }
      if (chart.categories.empty()) {
        b.Warn(doc.file + ": select found no alternative for " + dataset);
        continue;
      }
      {
        const auto& alts = answer.value().selection.alternatives;
        const Alternative& best = alts.front();
        const std::pair<const char*, double> parts[] = {
            {"disk", best.breakdown.disk_seconds},
            {"network", best.breakdown.network_seconds},
            {"compute", best.breakdown.compute_seconds},
            {"reduction", best.breakdown.reduction_seconds},
            {"global reduction", best.breakdown.global_reduction_seconds}};
        const auto* top = std::max_element(std::begin(parts), std::end(parts),
                                           [](const auto& a, const auto& c) {
                                             return a.second < c.second;
                                           });
        const double total = best.runtime_seconds > 0 ? best.runtime_seconds : 1;
        // The cost and the time/cost front come from perfplan plan over the same documents,
        // whose alternatives are select's (the first in time order is select's best).
        std::string cost = "n/a (no --prices)";
        if (prices) {
          PlanRequest plan_request;
          plan_request.dataset = dataset;
          plan_request.price_file = request.price_file;
          auto plan = AnswerPlan(doc, topology.value, prices, plan_request);
          if (!plan.ok()) {
            cost = "n/a";
            b.Warn(doc.file + ": plan for " + dataset + ": " + plan.status().message());
          } else {
            const PlanAlternative* same = nullptr;
            for (const PlanAlternative& alt : plan.value().alternatives) {
              if (alt.select.replica_site == best.replica_site &&
                  alt.select.compute_site == best.compute_site &&
                  alt.select.compute_nodes == best.compute_nodes && !same) {
                same = &alt;
              }
            }
            if (same) cost = CostCell(plan.value(), *same);
            AddParetoChart(plan.value(), same, app + " on " + dataset, b);
          }
        }
        b.AddDecision(
            {app, dataset,
             "read the replica at " + best.replica_site + ", compute on " + best.compute_site,
             std::to_string(best.compute_nodes), models::FormatFixed(best.runtime_seconds, 1),
             "none (a profile has no held-out errors)", cost,
             "largest component " + std::string(top->first) + " (" +
                 models::FormatFixed(100 * top->second / total, 0) + "%); next best " +
                 (alts.size() > 1 ? models::FormatFixed(alts[1].runtime_seconds, 1) + " s"
                                  : "none")});
      }
      if (!begun) {
        b.BeginSection("selection", "Selection breakdown",
                       "The best replica and compute choices for " +
                           (datasets.size() == 1 ? "dataset " + datasets.front() : "each dataset") +
                           " of " + topology_file + ", as stacked bars of their predicted time.");
        begun = true;
      }
      b.AddFigure(BarChartSvg(chart),
                  app + " on " + dataset + ": " +
                      std::to_string(answer.value().selection.evaluated) +
                      " alternatives evaluated, best " +
                      models::FormatFixed(
                          answer.value().selection.alternatives.front().runtime_seconds, 1) +
                      " s");
    }
  }
  if (begun) b.EndSection();
  return Status::Ok();
}

// Bars of |η_i| × range per parameter of a saved tuning model, most influential first.
Status AddSensitivitySection(const std::string& model_file, Builder& b) {
  TuneModelSource source;
  source.model_file = model_file;
  auto sensitivity = AnswerTuneSensitivity(source, {}, tuning::SensitivityOptions{});
  if (!sensitivity.ok()) return sensitivity.status();
  const tuning::Sensitivity& s = sensitivity.value();
  BarChart chart;
  chart.title = "Sensitivity of " + s.target + " to each parameter";
  chart.x_label = "parameter (rank order)";
  chart.y_label = "|η| × parameter range (" + s.target + " units)";
  chart.segment_names = {"change across the range"};
  constexpr std::size_t kMaxBars = 12;
  for (const tuning::ParameterSensitivity& p : s.parameters) {
    if (chart.categories.size() == kMaxBars) break;
    chart.categories.push_back(p.name + " (" + p.direction + ")");
    chart.values.push_back({p.scaled});
  }
  for (const std::string& w : s.warnings) b.Warn(model_file + ": " + w);
  if (chart.categories.empty()) {
    b.Warn(model_file + ": the model has no parameters");
    return Status::Ok();
  }
  b.BeginSection(
      "sensitivity", "Configuration sensitivity",
      "How much " + s.target +
          " changes across each parameter's training range at the "
          "model's baseline configuration (perfplan tune sensitivity), with the direction "
          "that improves it.");
  b.AddFigure(BarChartSvg(chart), std::to_string(s.parameters.size()) + " parameters; predicted " +
                                      s.target + " at the baseline " +
                                      models::FormatFixed(s.predicted, 3));
  b.EndSection();
  return Status::Ok();
}

}  // namespace

Result<ReportAnswer> BuildReport(const ReportRequest& request) {
  const bool any_runs =
      !request.runs_file.empty() || !request.workload.empty() || !request.train_expression.empty();
  if (request.store_path.empty() && request.profile_files.empty() && !any_runs &&
      request.tune_model_file.empty())
    return Status::InvalidArgument(
        "nothing to report: give --store, --profiles, --runs or --tune-model");
  if (any_runs &&
      (request.runs_file.empty() || request.workload.empty() || request.train_expression.empty()))
    return Status::InvalidArgument("--runs, --workload and --train go together");
  if (!request.topology_file.empty() && request.profile_files.empty())
    return Status::InvalidArgument("--topology needs --profiles");
  if (!request.dataset.empty() && request.topology_file.empty())
    return Status::InvalidArgument("--dataset needs --topology");
  if (!request.app_id.empty() && request.store_path.empty())
    return Status::InvalidArgument("--app needs --store");

  if (!request.price_file.empty() && request.runs_file.empty() && request.topology_file.empty())
    return Status::InvalidArgument("--prices needs --runs or --topology (the plans it prices)");
  profiles::Loaded<profiles::PriceFile> prices;
  if (!request.price_file.empty()) {
    prices = profiles::LoadPriceFile(request.price_file);
    if (!prices.ok()) return profiles::ToStatus(prices.problems);
  }

  ReportAnswer answer;
  answer.out_file = request.out_file;
  Builder b(&answer);
  std::vector<std::string> inputs;
  if (!request.price_file.empty()) inputs.push_back("prices " + request.price_file);
  if (!request.store_path.empty()) {
    std::error_code ec;
    if (!std::filesystem::exists(request.store_path, ec))
      return Status::NotFound(request.store_path + ": no such store");
    inputs.push_back("store " + request.store_path);
    auto store = profiles::Store::OpenReadOnly(
        request.store_path, {profiles::spark::StoreMigrations(), profiles::HdfsMigrations(),
                             profiles::mapreduce::StoreMigrations()});
    if (!store.ok()) return store.status();
    const bool job = IsMapReduceJobId(request.app_id);  // --app may name a MapReduce job
    if (!job) {
      b.AddPart(SparkPlanReport(request.store_path, request.app_id));
      if (Status s = AddSparkSection(*store.value(), request, b); !s.ok()) return s;
    }
    if (request.app_id.empty() || job) {  // planner/output/report_mapreduce.h
      auto mr = BuildMapReduceReportSection(*store.value(), request.app_id);
      if (!mr.ok()) return mr.status();
      if (mr.value().jobs > 0) {
        b.BeginSection(mr.value().id, mr.value().title, mr.value().intro);
        for (const auto& f : mr.value().figures) b.AddFigure(f.svg, f.caption);
        b.EndSection();
      }
      for (const std::string& w : mr.value().warnings) b.Warn(w);
    }
    if (Status s = AddHdfsSection(*store.value(), b); !s.ok()) return s;
  }
  if (any_runs) {
    inputs.push_back("runs " + request.runs_file + " (workload " + request.workload + ", train " +
                     request.train_expression + ")");
    if (Status s = AddEvaluateSection(request, b); !s.ok()) return s;
    if (Status s = AddRuntimeNodesSection(request, b); !s.ok()) return s;
    auto backtest = BacktestReportSection(request.runs_file, request.workload);
    if (!backtest.ok()) return backtest.status();
    for (const std::string& w : backtest.value().warnings) b.Warn(w);
    if (backtest.value().available) {
      b.BeginSection(backtest.value().id, backtest.value().title, backtest.value().intro);
      for (const ReportFigure& f : backtest.value().figures) b.AddFigure(f.svg, f.caption);
      b.EndSection();
    }
  }
  if (!request.profile_files.empty()) {
    auto docs = LoadProfiles(request);
    if (!docs.ok()) return docs.status();
    for (const std::string& f : request.profile_files) inputs.push_back("profile " + f);
    AddProfileRunsSection(docs.value(), b);
    if (!request.topology_file.empty()) {
      inputs.push_back("topology " + request.topology_file);
      if (Status s = AddSelectionSection(docs.value(), request,
                                         request.price_file.empty() ? nullptr : &prices.value,
                                         b);
          !s.ok())
        return s;
    }
  }
  if (!request.tune_model_file.empty()) {
    inputs.push_back("tuning model " + request.tune_model_file);
    if (Status s = AddSensitivitySection(request.tune_model_file, b); !s.ok()) return s;
  }
  if (answer.charts == 0) b.Warn("the evidence given holds nothing to chart");
  b.FinishDecisions();
  std::string generated_at = request.generated_at;
  if (generated_at.empty()) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    generated_at = buf;
  }
  answer.html = b.Html(inputs, generated_at);
  return answer;
}

Status WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Failed("cannot write " + path + ": " + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return Status::Failed("cannot write " + path + ": write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    return Status::Failed("cannot write " + path + ": " + reason);
  }
  return Status::Ok();
}

Result<ReportAnswer> AnswerReport(const ReportRequest& request) {
  if (request.out_file.empty()) return Status::InvalidArgument("--out is required");
  auto answer = BuildReport(request);
  if (!answer.ok()) return answer;
  if (Status s = WriteFileAtomically(request.out_file, answer.value().html); !s.ok()) return s;
  return answer;
}

std::string ToJson(const ReportAnswer& answer) {
  nlohmann::json j = PERFPLAN_JSON_FIELDS(answer, charts, warnings);
  j["out"] = answer.out_file;
  j["sections"] = nlohmann::json::array();
  for (const ReportSection& s : answer.sections) {
    j["sections"].push_back(PERFPLAN_JSON_FIELDS(s, id, title, charts));
  }
  return JsonLine(j);
}

}  // namespace perfplan::planner
