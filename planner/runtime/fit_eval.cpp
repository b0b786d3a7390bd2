#include "planner/runtime/fit_eval.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>

#include "planner/runtime/fit_table.h"
#include "profiles/runtime/run_filter.h"
#include "profiles/runtime/runs_csv.h"
#include "profiles/runtime/scout_import.h"

namespace perfplan::planner {
namespace {

Result<profiles::RunsTable> LoadTable(const std::string& file) {
  profiles::Loaded<profiles::RunsTable> table = profiles::LoadRunsCsv(file);
  if (!table.ok()) return profiles::ToStatus(table.problems);
  return table.value;
}

Status UnknownWorkload(const profiles::RunsTable& table, const std::string& workload) {
  std::vector<std::string> names;
  for (const models::MeasuredRun& r : table.runs) {
    if (std::find(names.begin(), names.end(), r.workload) == names.end()) {
      names.push_back(r.workload);
    }
  }
  std::vector<std::string_view> views(names.begin(), names.end());
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  const std::string suggestion = profiles::SuggestClosest(workload, views);
  return Status::InvalidArgument(
      table.file + ": no run of workload '" + workload + "'" +
      (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?") +
      " (workloads in the file: " + known + ")");
}

// The answer over every row of `table` that evaluate and backtest share: the model's result in
// `member` (its error prefixed with the file), the rows and their CSV lines.
template <typename Answer, typename Value>
Result<Answer> OverTable(const std::string& runs_file, const profiles::RunsTable& table,
                         Result<Value> result, Value Answer::*member) {
  if (!result.ok()) return Status::InvalidArgument(runs_file + ": " + result.status().message());
  Answer answer;
  answer.runs_file = runs_file;
  answer.*member = std::move(result).value();
  answer.row_lines = table.lines;
  answer.rows = table.runs;
  return answer;
}

}  // namespace

Result<FitAnswer> AnswerFit(const FitRequest& request) {
  Result<profiles::RunsTable> loaded = LoadTable(request.runs_file);
  if (!loaded.ok()) return loaded.status();
  return AnswerFit(request, loaded.value());
}

Result<FitAnswer> AnswerFit(const FitRequest& request, const profiles::RunsTable& table) {
  std::optional<profiles::RowFilter> filter;
  if (!request.train_expression.empty()) {
    Result<profiles::RowFilter> f =
        profiles::ParseRowFilter(request.train_expression, table.columns);
    if (!f.ok()) return f.status();
    filter = f.value();
  }
  FitAnswer answer;
  answer.runs_file = request.runs_file;
  std::map<std::string, std::size_t> completed_by_type;
  std::vector<std::string> type_order;
  bool any = false;
  for (std::size_t i = 0; i < table.runs.size(); ++i) {
    const models::MeasuredRun& r = table.runs[i];
    if (r.workload != request.workload) continue;
    any = true;
    if (filter && !profiles::MatchesRow(*filter, table.cells[i])) continue;
    if (!completed_by_type.count(r.instance_type)) type_order.push_back(r.instance_type);
    completed_by_type[r.instance_type] += r.completed ? 1 : 0;
  }
  if (!any) return UnknownWorkload(table, request.workload);
  std::string type = request.instance_type;
  if (type.empty()) {
    for (const std::string& t : type_order) {
      if (type.empty() || completed_by_type[t] > completed_by_type[type]) type = t;
    }
    if (type_order.size() > 1) {
      answer.warnings.push_back(
          "workload " + request.workload + " ran on " + std::to_string(type_order.size()) +
          " instance types; fitted on " + type +
          " (most completed runs); choose another with "
          "--instance-type, and reach the others with heterogeneity factors (perfplan evaluate)");
    }
  } else if (!completed_by_type.count(type)) {
    std::vector<std::string_view> views(type_order.begin(), type_order.end());
    const std::string suggestion = profiles::SuggestClosest(type, views);
    return Status::InvalidArgument(
        "--instance-type: no selected run of " + request.workload + " on '" + type + "'" +
        (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
  }
  if (type.empty()) {
    return Status::InvalidArgument("--train selects no run of workload " + request.workload);
  }
  for (std::size_t i = 0; i < table.runs.size(); ++i) {
    const models::MeasuredRun& r = table.runs[i];
    if (r.workload != request.workload || r.instance_type != type) continue;
    if (filter && !profiles::MatchesRow(*filter, table.cells[i])) continue;
    answer.runs.push_back(r);
    answer.run_lines.push_back(table.lines[i]);
  }
  Result<models::RuntimeFit> fit = models::FitRuntime(answer.runs, request.options);
  if (!fit.ok()) {
    return Status::InvalidArgument(request.runs_file + ": " + fit.status().message());
  }
  answer.fit = fit.value();
  Result<models::RuntimeProfile> profile = models::ToProfile(answer.fit);
  if (!profile.ok()) return profile.status();
  answer.profile = profile.value();
  models::ChoiceOptions choice_options;
  choice_options.fit = request.options;
  Result<models::ModelChoice> choice =
      models::ChooseRuntimeForm(answer.runs, {type}, choice_options);
  if (choice.ok()) {
    answer.choice = choice.value();
  } else {
    answer.warnings.push_back("no model choice: " + choice.status().message());
  }
  return answer;
}

Result<EvaluateAnswer> AnswerEvaluate(const EvaluateRequest& request) {
  Result<profiles::RunsTable> loaded = LoadTable(request.runs_file);
  if (!loaded.ok()) return loaded.status();
  const profiles::RunsTable& table = loaded.value();
  Result<profiles::RowFilter> filter =
      profiles::ParseRowFilter(request.train_expression, table.columns);
  if (!filter.ok()) return filter.status();
  bool any = false;
  std::vector<bool> train(table.runs.size(), false);
  for (std::size_t i = 0; i < table.runs.size(); ++i) {
    any |= table.runs[i].workload == request.workload;
    train[i] = profiles::MatchesRow(filter.value(), table.cells[i]);
  }
  if (!any) return UnknownWorkload(table, request.workload);
  Result<EvaluateAnswer> answer =
      OverTable(request.runs_file, table,
                models::EvaluateWorkload(table.runs, train, request.workload, request.options),
                &EvaluateAnswer::evaluation);
  if (answer.ok()) {
    answer.value().train_expression = request.train_expression;
    answer.value().intervals = request.options.intervals;
    answer.value().interval_level = request.options.interval_level;
  }
  return answer;
}

Result<BacktestAnswer> AnswerBacktest(const BacktestRequest& request) {
  Result<profiles::RunsTable> loaded = LoadTable(request.runs_file);
  if (!loaded.ok()) return loaded.status();
  const profiles::RunsTable& table = loaded.value();
  const auto column = std::find(table.columns.begin(), table.columns.end(), request.time_column);
  if (column == table.columns.end()) {
    std::string known;
    for (const std::string& c : table.columns) known += (known.empty() ? "" : ", ") + c;
    return Status::InvalidArgument(request.runs_file + ":1: " + request.time_column +
                                   ": no such column (columns: " + known + ")");
  }
  const auto index = static_cast<std::size_t>(column - table.columns.begin());
  std::vector<double> times;
  bool any = false;
  for (std::size_t i = 0; i < table.runs.size(); ++i) {
    any |= table.runs[i].workload == request.workload;
    const std::string& cell = index < table.cells[i].size() ? table.cells[i][index] : "";
    char* end = nullptr;
    const double t = std::strtod(cell.c_str(), &end);
    if (cell.empty() || end != cell.c_str() + cell.size() || !std::isfinite(t)) {
      return Status::InvalidArgument(request.runs_file + ":" + std::to_string(table.lines[i]) +
                                     ": " + request.time_column + ": must be a number, got '" +
                                     cell + "'");
    }
    times.push_back(t);
  }
  if (!any) return UnknownWorkload(table, request.workload);
  Result<BacktestAnswer> answer =
      OverTable(request.runs_file, table,
                models::BacktestWorkload(table.runs, times, request.workload, request.options),
                &BacktestAnswer::backtest);
  if (answer.ok()) answer.value().time_column = request.time_column;
  return answer;
}

Result<ImportScoutAnswer> AnswerImportScout(const std::string& dir,
                                            const std::vector<std::string>& dataset_bytes) {
  std::map<std::string, double> given;
  for (const std::string& pair : dataset_bytes) {
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument("--dataset-bytes: \"" + pair +
                                     "\": expected WORKLOAD=BYTES, e.g. "
                                     "kmeans_spark1.5=20000000000");
    }
    const std::string value = pair.substr(eq + 1);
    char* end = nullptr;
    const double bytes = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(bytes) || bytes <= 0) {
      return Status::InvalidArgument("--dataset-bytes: \"" + pair +
                                     "\": BYTES must be a number > 0, got \"" + value + "\"");
    }
    given[pair.substr(0, eq)] = bytes;
  }
  profiles::Loaded<std::vector<models::MeasuredRun>> runs = profiles::ImportScout(dir, given);
  for (profiles::Problem& p : runs.problems) {
    const std::string lead = "workload ";
    if (p.field != "input_size" || p.line != 0 || p.message.rfind(lead, 0) != 0) continue;
    const std::string workload =
        p.message.substr(lead.size(), p.message.find(' ', lead.size()) - lead.size());
    p.message += "; give it with --dataset-bytes " + workload + "=BYTES";
  }
  if (!runs.ok()) return profiles::ToStatus(runs.problems);
  for (const auto& [workload, bytes] : given) {
    if (std::none_of(runs.value.begin(), runs.value.end(),
                     [&](const models::MeasuredRun& r) { return r.workload == workload; })) {
      return Status::InvalidArgument("--dataset-bytes: no workload " + workload + " in " + dir);
    }
  }
  ImportScoutAnswer answer;
  answer.runs = runs.value;
  answer.csv = profiles::WriteRunsCsv(answer.runs);
  return answer;
}

}  // namespace perfplan::planner
