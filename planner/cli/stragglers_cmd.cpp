// `perfplan stragglers APP`: H-index of each stage attempt's task durations and H_job.
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/hindex_flags.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/hindex/stragglers.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "profiles/mapreduce/mapreduce_store.h"

namespace perfplan::cli {
namespace {

struct StragglersFlags {
  planner::StragglersRequest request;
  ChangePointFlags change_point;
  bool json = false;
};

// A stage's (or phase's) cells from "tasks" to "max/median"; "-" where it was left out.
std::vector<std::string> MeasureCells(const planner::StageStragglers& s, bool weighted) {
  const std::string ratio = s.max_over_median ? Fixed(*s.max_over_median, 2) : "-";
  if (!s.included) {
    return {std::to_string(s.tasks), Fixed(s.task_seconds, 3), "-", "-", "-", "-", "-", ratio};
  }
  const models::HIndexResult& r = *s.result;
  return {std::to_string(s.tasks),
          Fixed(s.task_seconds, 3),
          weighted ? Fixed(s.weight, 4) : "-",
          Fixed(r.gini, 4),
          r.has_change_point ? std::to_string(r.change_point) : "none",
          Fixed(r.h_index, 4),
          Fixed(r.speedup, 3),
          ratio};
}

void PrintHJob(std::ostream& out, const char* weighted_by, const std::optional<double>& h_job,
               const std::string& note) {
  if (h_job) {
    out << "H_job (weighted by " << weighted_by << ") = " << Fixed(*h_job, 4) << "\n";
  } else {
    out << "H_job: not available: " << note << "\n";
  }
}

void PrintAnswer(std::ostream& out, const planner::StragglersAnswer& a) {
  out << a.app_id << (a.attempt_id.empty() ? "" : " attempt " + a.attempt_id) << ": "
      << a.stages.size() << " stage attempts, " << a.stages_used << " used for H_job\n\n";
  Table table({"stage", "attempt", "tasks", "task s", "weight", "gini", "m_hat", "H", "speed-up",
               "max/median", ">1.5x med", ">5x med"});
  for (const planner::StageStragglers& s : a.stages) {
    std::vector<std::string> row = {std::to_string(s.stage_id), std::to_string(s.attempt_id)};
    for (std::string& cell : MeasureCells(s, true)) row.push_back(std::move(cell));
    row.push_back(s.included ? std::to_string(s.result->above_speculation_threshold) : "-");
    row.push_back(s.included ? std::to_string(s.result->above_skew_threshold) : "-");
    table.AddRow(std::move(row));
  }
  table.Print(out);
  out << "\n";
  PrintHJob(out, "stage task time", a.h_job, a.h_job_note);
  for (const planner::StageStragglers& s : a.stages) {
    if (!s.included) {
      out << "stage " << s.stage_id << "." << s.attempt_id << " left out: " << s.excluded_reason
          << "\n";
    }
  }
  out << "(>1.5x med: tasks Spark speculation would flag; >5x med: adaptive skew handling)\n";
}

void PrintPhases(Table& table, const std::string& prefix,
                 const std::vector<std::pair<std::string, planner::StageStragglers>>& phases,
                 bool weighted) {
  for (const auto& [name, s] : phases) {
    std::vector<std::string> row = {prefix + name};
    for (std::string& cell : MeasureCells(s, weighted)) row.push_back(std::move(cell));
    table.AddRow(std::move(row));
  }
}

// The MapReduce branch: map and reduce phases, the reduce's sub-phases, H_job over the phases.
void PrintMapReduce(std::ostream& out, const planner::MapReduceStragglersAnswer& a) {
  out << a.job_id << ": MapReduce job, " << a.phases_used << " of 2 phases used for H_job\n\n";
  Table table({"phase", "attempts", "attempt s", "weight", "gini", "m_hat", "H", "speed-up",
               "max/median"});
  PrintPhases(table, "", a.phases, true);
  PrintPhases(table, "reduce.", a.reduce_sub_phases, false);
  table.Print(out);
  out << "\n";
  PrintHJob(out, "phase attempt time", a.h_job, a.h_job_note);
  for (const auto& [name, s] : a.phases) {
    if (!s.included) out << name << " phase left out: " << s.excluded_reason << "\n";
  }
  for (const auto& [name, s] : a.reduce_sub_phases) {
    if (!s.included) out << "reduce." << name << " not measured: " << s.excluded_reason << "\n";
  }
}

}  // namespace

void AddStragglersCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<StragglersFlags>();
  cmd.footer(
      "Stages with fewer than 2ω + 2 successful tasks are listed with the reason and left out of "
      "H_job.\nExample:\n  perfplan ingest spark LOG --store spark.db\n"
      "  perfplan stragglers local-1430917381534 --store spark.db --json\n"
      "  perfplan ingest mapreduce HISTORY_FOLDER --store mr.db\n"
      "  perfplan stragglers job_1329348432655_0001 --store mr.db");
  cmd.add_option("app", flags->request.app_id,
                 "Spark application id, or MapReduce job id (job_…, after ingest mapreduce)")
      ->required();
  cmd.add_option("--attempt", flags->request.attempt_id,
                 "Application attempt id (default: the latest)");
  AddStoreOption(cmd, flags->request.store_path);
  AddChangePointFlags(cmd, flags->change_point);
  AddJsonFlag(cmd, flags->json);
  cmd.callback([flags, &ctx] {
    models::HIndexOptions& o = flags->request.options;
    ApplyChangePointFlags(flags->change_point, &o);
    if (planner::IsMapReduceJobId(flags->request.app_id)) {
      return WriteAnswer(
          ctx, "stragglers", flags->json,
          AskStore(profiles::Store::Open(flags->request.store_path,
                                         {profiles::mapreduce::StoreMigrations()}),
                   [&](profiles::Store& store) {
                     return planner::AnswerMapReduceStragglers(store, flags->request.app_id, o);
                   }),
          PrintMapReduce);
    }
    WriteAnswer(ctx, "stragglers", flags->json, planner::AnswerStragglers(flags->request),
                PrintAnswer);
  });
}

}  // namespace perfplan::cli
