#include "planner/output/report_plan.h"

#include <algorithm>
#include <cstdio>

#include "models/text.h"
#include "planner/output/svg_chart.h"
#include "planner/plan/plan.h"
#include "planner/plan/spark_plan.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"

namespace perfplan::planner {
namespace {

std::string Row(const std::vector<std::string>& cells, const char* tag = "td") {
  std::string html = "<tr>";
  for (const std::string& c : cells) {
    html += std::string("<") + tag + ">" + XmlEscape(c) + "</" + tag + ">";
  }
  return html + "</tr>\n";
}

std::string Interval(const models::ConformalInterval& i) {
  return models::FormatFixed(i.low_seconds, 1) + " to " + models::FormatFixed(i.high_seconds, 1);
}

// Runtime against executor count: the replay, the fitted history and its interval (dashed).
std::string ExecutorChart(const SparkPlanAnswer& a) {
  XYChart chart;
  chart.title = "Runtime against executor count, " + a.app_name;
  chart.x_label = "executors";
  chart.y_label = "runtime (s)";
  // Short legend names: the legend is one row (the caption and the table say the rest).
  ChartSeries whatif{"replay", {}, ChartColor(0)}, history{"history", {}, ChartColor(1)},
      low{"interval low", {}, "#7f8c8d", true}, high{"interval high", {}, "#7f8c8d", true},
      measured{"measured", {}, "#c0392b"};
  measured.dots = true;
  for (const SparkExecutorOption& o : a.options) {
    whatif.points.emplace_back(o.executors, o.whatif_seconds);
    if (o.history_seconds) history.points.emplace_back(o.executors, *o.history_seconds);
    if (o.history_interval) {
      low.points.emplace_back(o.executors, o.history_interval->low_seconds);
      high.points.emplace_back(o.executors, o.history_interval->high_seconds);
    }
  }
  for (const SparkHistoryRun& r : a.history.runs) {
    if (r.completed && r.executors > 0) measured.points.emplace_back(r.executors, r.seconds);
  }
  chart.series.push_back(whatif);
  if (!history.points.empty()) chart.series.push_back(history);
  if (!low.points.empty()) chart.series.push_back(low), chart.series.push_back(high);
  if (!measured.points.empty()) chart.series.push_back(measured);
  if (a.chosen) chart.x_markers.emplace_back(a.options[*a.chosen].executors, "chosen");
  return LineChartSvg(chart);
}

std::string OptionsTable(const SparkPlanAnswer& a) {
  std::string html =
      "<table class=\"decision\">\n" +
      Row({"executors", "replayed runtime (s)", "executor-seconds", "fitted history (s)",
           models::FormatFixed(100 * a.history.interval_level, 0) + "% interval (s)", "mark"},
          "th");
  for (std::size_t i = 0; i < a.options.size(); ++i) {
    const SparkExecutorOption& o = a.options[i];
    std::string mark = a.chosen && *a.chosen == i ? "chosen" : "";
    if (!o.feasible) mark += mark.empty() ? "over the deadline" : ", over the deadline";
    html += Row({std::to_string(o.executors), models::FormatFixed(o.whatif_seconds, 1),
                 models::FormatFixed(o.executor_seconds, 0),
                 o.history_seconds ? models::FormatFixed(*o.history_seconds, 1) : "n/a",
                 o.history_interval ? Interval(*o.history_interval) : "n/a", mark});
  }
  return html + "</table>\n";
}

// One line per part of the plan: where it comes from and what it says.
std::string EvidenceList(const SparkPlanAnswer& a) {
  std::vector<std::string> items;
  std::string history = "history: ";
  if (a.history.fitted) {
    history += a.history.form + " fitted to " + std::to_string(a.history.completed_runs) +
               " run(s) at " + std::to_string(a.history.distinct_counts) + " executor counts, " +
               a.history.scheme + " mean |log error| " + models::FormatFixed(a.history.cv_error, 3);
  } else {
    history += a.history.note;
  }
  items.push_back(history);
  std::string parameters = "parameters (perfplan tune recommend): ";
  if (a.tuning.recommendation) {
    const tuning::Recommendation& r = *a.tuning.recommendation;
    parameters += std::string(tuning::ToString(r.kind)) + " on " + std::to_string(a.tuning.runs) +
                  " run(s), CV error " + models::FormatFixed(100 * r.cv_mre, 1) + "%, predicted " +
                  models::FormatFixed(r.predicted, 1) + " s against " +
                  models::FormatFixed(r.baseline_predicted, 1) +
                  " s at the first run's configuration";
    if (!a.tuning.top_parameters.empty()) {
      parameters += "; most sensitive:";
      for (const auto& [name, direction] : a.tuning.top_parameters) {
        parameters += " " + name + " (" + direction + ")";
      }
    }
  } else {
    parameters += a.tuning.note;
  }
  items.push_back(parameters);
  std::string score = "score (perfplan score " + a.latest_app_id + "): ";
  if (a.score.scored) {
    score += models::FormatFixed(a.score.score, 1) + " of " +
             models::FormatFixed(a.score.max_score, 0) + " against " +
             std::to_string(a.score.comparable_runs) + " comparable run(s)" +
             (a.score.provisional ? ", provisional" : "");
    if (!a.score.worst.empty()) {
      score += "; worst:";
      for (const auto& [name, value] : a.score.worst)
        score += " " + name + " " + models::FormatFixed(value, 1);
    }
  } else {
    score += a.score.note;
  }
  items.push_back(score);
  std::string stragglers = "stragglers (perfplan stragglers " + a.latest_app_id + "): ";
  if (a.stragglers.h_job) {
    stragglers += "H_job " + models::FormatFixed(*a.stragglers.h_job, 3) + " over " +
                  std::to_string(a.stragglers.stages_used) + " stage(s)";
    if (a.stragglers.speedup) {
      stragglers +=
          ", attainable speed-up 1/(1 - H) = " + models::FormatFixed(*a.stragglers.speedup, 2) +
          "x";
    }
  } else {
    stragglers += a.stragglers.note;
  }
  items.push_back(stragglers);
  std::string html = "<ul>\n";
  for (const std::string& item : items) html += "<li>" + XmlEscape(item) + "</li>\n";
  return html + "</ul>\n";
}

std::string StagesTable(const SparkPlanAnswer& a) {
  if (a.stragglers.slowest.empty()) return "";
  std::string html =
      "<table class=\"decision\">\n" +
      Row({"slowest stage", "task time (s)", "H", "1/(1 - H)", "max / median task",
           "speculation (1.5 x median)", "shuffle read max / median (bytes)",
           "AQE skew (5 x median, 256 MB)"},
          "th");
  for (const SparkStageStragglers& s : a.stragglers.slowest) {
    html +=
        Row({std::to_string(s.stage_id) + "." + std::to_string(s.attempt_id),
             models::FormatFixed(s.task_seconds, 1),
             s.h_index ? models::FormatFixed(*s.h_index, 3) : "n/a (" + s.note + ")",
             s.speedup ? models::FormatFixed(*s.speedup, 2) : "n/a",
             s.max_over_median ? models::FormatFixed(*s.max_over_median, 2) : "n/a",
             s.speculation_would_act ? "would act" : "no",
             s.max_shuffle_read_bytes ? models::FormatFixed(*s.max_shuffle_read_bytes, 0) + " / " +
                                            models::FormatFixed(*s.median_shuffle_read_bytes, 0)
                                      : "n/a",
             s.aqe_skew_would_act ? "would act" : "no"});
  }
  return html + "</table>\n";
}

}  // namespace

ReportPart SparkPlanReport(const std::string& store_path, const std::string& app_id,
                           std::size_t max_apps) {
  ReportPart part;
  part.section = {"spark-plan", "Spark plan", 0};
  std::vector<std::string> names;  // the plan's `app`: a name, or the id --app gives
  if (!app_id.empty()) {
    names.push_back(app_id);
  } else {
    auto store = profiles::Store::OpenReadOnly(store_path, {profiles::spark::StoreMigrations()});
    if (!store.ok()) {
      part.warnings.push_back(store_path + ": Spark plan: " + store.status().message());
      return part;
    }
    auto apps = profiles::spark::ListApplications(*store.value());
    if (!apps.ok()) {
      part.warnings.push_back(store_path + ": Spark plan: " + apps.status().message());
      return part;
    }
    for (const profiles::spark::ApplicationSummary& app : apps.value()) {
      const std::string& name = app.name.empty() ? app.app_id : app.name;
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  if (names.size() > max_apps) {
    part.warnings.push_back(store_path + ": Spark plan: only the latest " +
                            std::to_string(max_apps) + " of " + std::to_string(names.size()) +
                            " applications are planned; give --app for another");
    names.resize(max_apps);
  }
  std::string body;
  for (const std::string& name : names) {
    PlanRequest request;
    request.store_path = store_path;
    request.app = name;
    Result<SparkPlanAnswer> plan = AnswerSparkPlan(request);
    if (!plan.ok()) {
      part.warnings.push_back(name + ": Spark plan: " + plan.status().message());
      continue;
    }
    const SparkPlanAnswer& a = plan.value();
    for (const std::string& w : a.warnings) part.warnings.push_back(a.app_name + ": " + w);
    body += "<h3>" + XmlEscape(a.app_name) + "</h3>\n<p>" +
            XmlEscape(std::to_string(a.history.runs.size()) + " run(s) in the store, latest " +
                      a.latest_app_id + " (perfplan plan --store " + store_path + " --app " +
                      a.app_name +
                      "). Replay of the latest run (perfplan whatif executors): "
                      "measured " +
                      models::FormatFixed(a.whatif.measured_seconds, 1) + " s on " +
                      std::to_string(a.whatif.observed_executors) + " executor(s) x " +
                      std::to_string(a.whatif.cores_per_executor) + " core(s), replayed there " +
                      models::FormatFixed(a.whatif.predicted_at_observed_seconds, 1) + " s (" +
                      models::FormatFixed(100 * a.whatif.relative_error_at_observed, 1) +
                      "%), critical path " +
                      models::FormatFixed(a.whatif.critical_path_seconds, 1) + " s.") +
            "</p>\n";
    if (a.chosen) {
      const SparkExecutorOption& c = a.options[*a.chosen];
      body += "<p><b>" +
              XmlEscape("Run on " + std::to_string(c.executors) + " executor(s): replayed " +
                        models::FormatFixed(c.whatif_seconds, 1) + " s" +
                        (c.history_interval
                             ? ", fitted history " + models::FormatFixed(*c.history_seconds, 1) +
                                   " s (" + Interval(*c.history_interval) + " s)"
                             : "") +
                        ".") +
              "</b> " + XmlEscape("Because: " + a.chosen_because) + "</p>\n";
    }
    if (a.tuning.recommendation) {
      body += "<p>spark-defaults.conf:</p>\n<pre>";
      for (const std::string& line : a.tuning.recommendation->spark_defaults) {
        body += XmlEscape(line) + "\n";
      }
      body += "</pre>\n";
    }
    body += OptionsTable(a) + EvidenceList(a) + StagesTable(a);
    body += "<figure>\n" + ExecutorChart(a) + "<figcaption>" +
            XmlEscape(a.app_name + ": " + std::to_string(a.options.size()) +
                      " executor counts replayed (perfplan whatif executors)" +
                      (a.history.fitted ? ", the fitted history and its interval" : "") +
                      ", " + std::to_string(a.history.completed_runs) + " measured run(s)") +
            "</figcaption>\n</figure>\n";
    ++part.section.charts;

    std::string interval = "none";
    if (a.chosen && a.options[*a.chosen].history_interval) {
      interval = Interval(*a.options[*a.chosen].history_interval);
    }
    part.decisions.push_back(
        {a.app_name, "Spark application, " + std::to_string(a.history.runs.size()) + " run(s)",
         a.chosen ? "executors x " + std::to_string(a.whatif.cores_per_executor) + " core(s)"
                  : "no executor count meets the deadline",
         a.chosen ? std::to_string(a.options[*a.chosen].executors) : "n/a",
         a.chosen ? models::FormatFixed(a.options[*a.chosen].whatif_seconds, 1) : "n/a", interval,
         "n/a (the store records no prices)",
         (a.tuning.recommendation ? std::to_string(a.tuning.recommendation->spark_defaults.size()) +
                                        " spark-defaults.conf line(s)"
                                  : "no parameters: " + a.tuning.note) +
             " (perfplan plan --store --app)"});
  }
  if (body.empty()) return part;
  part.html = "<section id=\"spark-plan\">\n<h2>Spark plan</h2>\n<p>" +
              XmlEscape("For each Spark application in the store, the plan of perfplan plan "
                        "--store --app: the executor count replayed from the latest run's tasks "
                        "(and the runtime form fitted to the application's history, with its "
                        "CV+ interval, when the history has enough runs), the Spark parameters "
                        "of its config-sensitivity model, the latest run's score and its "
                        "stragglers. The store records neither sites nor instance types, so "
                        "nothing here is priced.") +
              "</p>\n" + body + "</section>\n";
  return part;
}

}  // namespace perfplan::planner
