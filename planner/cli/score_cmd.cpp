// `perfplan score APP` (one application's 0–100 heuristic score, explained worst dimension first)
// and `perfplan scores` (every application in the store, sortable).
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/cli/table.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "planner/mapreduce/mapreduce_runs.h"
#include "planner/scoring/spark_scoring.h"

namespace perfplan::cli {
namespace {

struct ScoreFlags : StoreFlags {
  std::string app_id;
  std::string sort = "score";
};

std::string Number(std::optional<double> v, const char* format = "%.4g") {
  if (!v) return "-";
  char buf[48];
  std::snprintf(buf, sizeof(buf), format, *v);
  return buf;
}

void PrintAnswer(std::ostream& out, const planner::ScoreAnswer& a) {
  const models::ScoreResult& r = a.result;
  out << a.app_id << ": score " << Number(r.score, "%.1f") << " of " << models::kMaxScore
      << " (task type " << models::ToString(r.type) << (r.provisional ? ", provisional" : "")
      << ")\n";
  out << "  compared with " << r.comparable_runs << " run(s): " << a.comparison << "\n";
  for (const std::string& reason : r.provisional_reasons)
    out << "  provisional: " << reason << "\n";
  for (const std::string& w : a.warnings) out << "  note: " << w << "\n";
  out << "\nexplanation, worst dimension first:\n";
  Table table({"dimension", "value", "baseline", "worst", "best", "score", "weight", "note"});
  for (std::size_t j : r.worst_first) {
    const models::DimensionScore& d = r.dimensions[j];
    table.AddRow({d.name, Number(d.value), Number(d.baseline), Number(d.worst),
                  Number(d.best), Number(d.score, "%.1f"), Number(d.weight, "%.3f"), d.note});
  }
  table.Print(out);
}

}  // namespace

void AddScoreCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<ScoreFlags>();
  cmd.footer(
      "Examples:\n  perfplan score local-1430917381534 --store spark.db\n"
      "  perfplan score job_1329348432655_0001 --store mr.db");
  cmd.add_option("app", flags->app_id,
                 "Application id (as `perfplan apps` lists it), or MapReduce job id (job_…)")
      ->required();
  AddStoreFlags(cmd, *flags);
  cmd.callback([flags, &ctx] {
    auto answers = planner::IsMapReduceJobId(flags->app_id)
                       ? planner::AnswerJobScores(flags->store, flags->app_id)
                       : planner::AnswerScores(flags->store, flags->app_id);
    WriteAnswer(
        ctx, "score", flags->json, answers,
        [](std::ostream& out, const auto& list) { PrintAnswer(out, list.front()); },
        [](const auto& list) { return planner::ToJson(list.front()); });
  });
}

void AddScoresCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<ScoreFlags>();
  cmd.footer(
      "Examples:\n  perfplan scores --store spark.db --sort score\n"
      "  perfplan scores --store mr.db");
  AddStoreOption(cmd, flags->store);
  cmd.add_option("--sort", flags->sort, "score (highest first), app or type")
      ->check(CLI::IsMember({"score", "app", "type"}));
  AddJsonFlag(cmd, flags->json);
  cmd.callback([flags, &ctx] {
    auto answers = planner::AnswerStoreScores(flags->store);
    if (!answers.ok()) return ReportError(ctx, "scores", answers.status(), flags->json);
    auto list = std::move(answers).value();
    const std::string sort = flags->sort;
    std::stable_sort(list.begin(), list.end(),
                     [&sort](const planner::ScoreAnswer& x, const planner::ScoreAnswer& y) {
                       if (sort == "app") return x.app_id < y.app_id;
                       if (sort == "type" && x.result.type != y.result.type) {
                         return models::ToString(x.result.type) < models::ToString(y.result.type);
                       }
                       return x.result.score > y.result.score;
                     });
    ctx.exit_code = 0;
    if (flags->json) {
      *ctx.out << planner::ToJson(list);
      return;
    }
    Table table({"application", "kind", "score", "type", "provisional", "runs compared",
                 "worst dimension"});
    for (const planner::ScoreAnswer& a : list) {
      const auto& r = a.result;
      table.AddRow({a.app_id, planner::IsMapReduceJobId(a.app_id) ? "mapreduce" : "spark",
                    Number(r.score, "%.1f"), std::string(models::ToString(r.type)),
                    r.provisional ? "yes" : "no",
                    std::to_string(r.comparable_runs),
                    r.worst_first.empty() ? "-" : r.dimensions[r.worst_first.front()].name});
    }
    table.Print(*ctx.out);
  });
}

}  // namespace perfplan::cli
