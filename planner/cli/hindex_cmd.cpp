#include <fstream>
#include <iostream>
#include <ostream>

#include "models/input_file.h"
#include "planner/cli/command.h"
#include "planner/cli/hindex_flags.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/hindex/hindex.h"

namespace perfplan::cli {
namespace {

struct HIndexFlags {
  std::string file;
  ChangePointFlags change_point;
  std::string hill_rule = "after-change-point";
  std::string svg_file;
  bool json = false;
};

std::string Percent(double v) { return Fixed(100 * v, 2) + "%"; }

void PrintResult(std::ostream& out, const models::HIndexResult& r) {
  out << "values            " << r.n << " (total " << Fixed(r.total, 3) << ")\n";
  out << "Gini              " << Fixed(r.gini, 4) << " (trapezoid " << Fixed(r.gini_trapezoid, 4)
      << ")\n";
  if (r.has_change_point) {
    out << "change point m̂    " << r.change_point << " of " << r.n << " ("
        << Fixed(r.change_point_fraction, 3) << "), degree " << r.degree
        << ", ω = " << r.min_segment << "\n";
  } else {
    out << "change point m̂    none (degree " << r.degree << ", ω = " << r.min_segment << ")\n";
  }
  out << "A(L), A(L*)       " << Fixed(r.area_l, 4) << ", " << Fixed(r.area_lstar, 4) << "\n";
  out << "H-index           " << Fixed(r.h_index, 4) << ": efficiency " << Percent(r.efficiency)
      << ", attainable speed-up " << Fixed(r.speedup, 3) << "x\n";
  if (r.max_over_median) {
    out << "max/median        " << Fixed(*r.max_over_median, 2) << "; "
        << r.above_speculation_threshold << " above 1.5x the median (Spark speculation), "
        << r.above_skew_threshold << " above 5x (adaptive skew)\n";
  }
  if (r.hill.available) {
    out << "Hill tail index   " << Fixed(r.hill.alpha, 3) << " (k = " << r.hill.k << ", "
        << models::ToString(r.hill.rule) << ")\n";
  } else {
    out << "Hill tail index   not available: " << r.hill.note << "\n";
  }
  for (const std::string& w : r.warnings) out << "warning: " << w << "\n";
}

void PrintAnswer(std::ostream& out, const planner::HIndexAnswer& a) {
  if (a.tasks.empty()) {
    out << a.file << ": one column of values\n\n";
    PrintResult(out, a.pooled);
    return;
  }
  out << a.file << ": " << a.tasks.size() << " tasks, " << a.pooled.n << " buckets\n\n";
  Table table(
      {"task", "buckets", "seconds", "weight", "gini", "m_hat", "m_hat/n", "H", "speed-up"});
  for (const planner::TaskHIndexAnswer& t : a.tasks) {
    const models::HIndexResult& r = t.result;
    table.AddRow({t.task_id, std::to_string(r.n), Fixed(t.task_seconds, 3), Fixed(t.weight, 4),
                  Fixed(r.gini, 4), r.has_change_point ? std::to_string(r.change_point) : "none",
                  Fixed(r.change_point_fraction, 3), Fixed(r.h_index, 4), Fixed(r.speedup, 3)});
  }
  table.Print(out);
  out << "\nH_job (weighted by task time) = " << Fixed(*a.h_job, 4) << "\n";
  out << "\nall buckets pooled:\n";
  PrintResult(out, a.pooled);
  for (const planner::TaskHIndexAnswer& t : a.tasks) {
    for (const std::string& w : t.result.warnings) {
      out << "warning: task " << t.task_id << ": " << w << "\n";
    }
  }
}

}  // namespace

void AddHIndexCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<HIndexFlags>();
  cmd.footer(
      "Input: a CSV with the columns task_id,bucket,seconds (one H per task plus H_job weighted "
      "by task time), or one number per line. '-' reads stdin.\n"
      "Examples:\n  perfplan hindex examples/hindex/buckets.csv --json\n"
      "  perfplan hindex examples/hindex/stage_tasks.txt --degree auto --svg lorenz.svg\n"
      "  cut -d, -f3 buckets.csv | perfplan hindex -");
  cmd.add_option("file", flags->file, "Bucket-time CSV or a column of numbers; '-' for stdin")
      ->required();
  AddChangePointFlags(cmd, flags->change_point);
  cmd.add_option("--hill-rule", flags->hill_rule,
                 "How Hill's estimator picks k: after-change-point (k = n − m̂ − 1) or sqrt-n")
      ->check(CLI::IsMember({"after-change-point", "sqrt-n"}));
  cmd.add_option(
      "--svg", flags->svg_file,
      "Also draw L, L*, y = x and the change point to FILE (- = stdout, instead of the answer)");
  AddJsonFlag(cmd, flags->json);
  cmd.callback([flags, &ctx] {
    if (flags->file == "-") {
      if (Status s = CheckInputDescriptor(0); !s.ok())
        return ReportError(ctx, "hindex", s, flags->json);
    }
    planner::HIndexRequest request;
    request.file = flags->file;
    request.input = &std::cin;
    request.svg = !flags->svg_file.empty();
    models::HIndexOptions& o = request.options;
    ApplyChangePointFlags(flags->change_point, &o);
    models::Parse(flags->hill_rule, &o.hill_rule);
    Result<planner::HIndexAnswer> answer = planner::AnswerHIndex(request);
    if (!answer.ok()) return ReportError(ctx, "hindex", answer.status(), flags->json);
    if (request.svg) {
      if (Status s = WriteOutput(ctx, flags->svg_file, answer.value().svg); !s.ok()) {
        return ReportError(ctx, "hindex", s, flags->json);
      }
      if (flags->svg_file == "-") return;  // the figure is the answer on standard output
    }
    WriteAnswer(ctx, "hindex", flags->json, answer, PrintAnswer);
  });
}

}  // namespace perfplan::cli
