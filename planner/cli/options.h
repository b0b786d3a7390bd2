// What most commands share: the `--json` and `--store` flags (and the runtime questions' `--model`,
// `--profiled-site`, `--deadline-seconds`, fit and evaluate's `--runs`/`--workload`) with one
// wording, opening the store a question is asked of, and the end of a command (report the error,
// or write the answer as JSON or for people). Header-only and cheap: CLI11 comes through command.h.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>

#include "planner/cli/command.h"

namespace perfplan::cli {

// `--json`: "Print one JSON document instead of <instead_of>" (text, a table, tables).
inline CLI::Option* AddJsonFlag(CLI::App& cmd, bool& json, const std::string& instead_of = "text") {
  return cmd.add_flag("--json", json, "Print one JSON document instead of " + instead_of);
}

// `--store FILE`: the profile store the command reads or writes.
inline CLI::Option* AddStoreOption(CLI::App& cmd, std::string& path) {
  return cmd.add_option("--store", path, "Profile store (SQLite file)");
}

// `--runs FILE --workload NAME`, both required, of the commands that fit one workload of a runs
// CSV (fit, evaluate); `verb` says what is done to it ("Workload to fit").
inline void AddRunsOptions(CLI::App& cmd, std::string& runs_file, std::string& workload,
                           const std::string& verb) {
  cmd.add_option("--runs", runs_file, "Runs CSV (DESIGN §3.2 columns)")->required();
  cmd.add_option("--workload", workload, "Workload to " + verb)->required();
}

// `--model VARIANT` of the runtime-model questions (predict, select, plan); models::Parse reads it.
inline CLI::Option* AddModelVariantOption(CLI::App& cmd, std::string& variant) {
  return cmd.add_option("--model", variant, "Model variant: auto, simple or reductions")
      ->check(CLI::IsMember({"auto", "simple", "reductions"}));
}

// `--profiled-site SITE` (select, plan): the site whose hardware the profile measured.
inline CLI::Option* AddProfiledSiteOption(CLI::App& cmd, std::string& site) {
  return cmd.add_option("--profiled-site", site,
                        "Site whose hardware the profile measured (default: the profile's)");
}

// `--deadline-seconds S` (select, plan): alternatives predicted to take longer are dropped.
inline CLI::Option* AddDeadlineOption(CLI::App& cmd, double& seconds) {
  return cmd
      .add_option("--deadline-seconds", seconds,
                  "Drop alternatives predicted to take longer (0 = none)")
      ->check(CLI::Range(0.0, 1e300));
}

// `--jobs N` of `ingest spark` and `ingest hdfs`: parser threads, 1 to 256, by default one per
// core; `what` begins the help ("Parser threads"), which then says the store does not depend on N.
inline CLI::Option* AddIngestJobsOption(CLI::App& cmd, int& jobs, const std::string& what) {
  return cmd
      .add_option("--jobs", jobs, what + " (one writer commits; the store is the same as with 1)")
      ->check(CLI::Range(1, 256))
      ->default_str("the cores");
}

// One progress line of an ingest: "\r[3/10 logs, 52.4 MB, 48.1 MB/s]" (`what` names the inputs;
// `bytes` read so far; the rate is bytes over `elapsed_seconds`, left out before 0.1 s when it
// would mean little). Ends with a newline when done == total. Units are decimal: MB = 10^6 bytes.
inline std::string FormatProgress(std::size_t done, std::size_t total, const std::string& what,
                                  std::int64_t bytes, double elapsed_seconds) {
  char line[160];
  const double mb = static_cast<double>(bytes) / 1e6;
  int n = std::snprintf(line, sizeof line, "\r[%zu/%zu %s, %.1f MB", done, total, what.c_str(), mb);
  if (n > 0 && elapsed_seconds >= 0.1 && static_cast<std::size_t>(n) < sizeof line) {
    n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), ", %.1f MB/s",
                       mb / elapsed_seconds);
  }
  return std::string(line) + "]" + (done == total ? "\n" : "");
}

// An ingest's progress on stderr (FormatProgress, the rate since this call) when stderr is a
// terminal; else empty (no progress line in logs and pipes).
inline std::function<void(std::size_t, std::size_t, std::int64_t)> TerminalProgress(
    CliContext& ctx, const std::string& what) {
  if (isatty(STDERR_FILENO) == 0) return {};
  const auto start = std::chrono::steady_clock::now();
  return [&ctx, what, start](std::size_t done, std::size_t total, std::int64_t bytes) {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    *ctx.err << FormatProgress(done, total, what, bytes, elapsed.count()) << std::flush;
  };
}

// `next(value)`'s Result when `first` holds a value, else first's error.
template <typename T, typename Next>
auto AndThen(const Result<T>& first, Next&& next) -> decltype(next(first.value())) {
  if (!first.ok()) return first.status();
  return next(first.value());
}

// Asks a question of the store `opened` holds (the Result of Store::Open or OpenReadOnly): the
// store's error when it did not open, else `ask(store)`'s Result.
template <typename Opened, typename Ask>
auto AskStore(const Opened& opened, Ask&& ask) -> decltype(ask(*opened.value())) {
  return AndThen(opened, [&](const auto& store) { return ask(*store); });
}

// The end of a command: a failed answer is reported (ReportError, exit code 2 or 1); else the exit
// code is 0 and the answer is written as one JSON document by `to_json` with --json, or for people
// by `print(out, answer)`.
template <typename T, typename Print, typename Json>
void WriteAnswer(CliContext& ctx, const std::string& command, bool json, const Result<T>& answer,
                 Print&& print, Json&& to_json) {
  if (!answer.ok()) return ReportError(ctx, command, answer.status(), json);
  ctx.exit_code = 0;
  if (json) {
    *ctx.out << to_json(answer.value());
  } else {
    print(*ctx.out, answer.value());
  }
}

// The same with the answer's own ToJson (declared beside the answer's type, e.g. planner::ToJson
// of a planner::PredictAnswer).
template <typename T, typename Print>
void WriteAnswer(CliContext& ctx, const std::string& command, bool json, const Result<T>& answer,
                 Print&& print) {
  WriteAnswer(ctx, command, json, answer, std::forward<Print>(print),
              [](const T& value) { return ToJson(value); });
}

// The end of a command whose JSON answer is written as it is computed (the answer's own
// WriteJson, e.g. planner::WriteJson of a planner::StreamedWorkloadAnswer): a failed answer is
// reported as by WriteAnswer; once writing has begun part of the document may be out, so a failure
// then is reported on stderr only (exit code 1) and leaves the document incomplete.
template <typename T>
void WriteStreamedJson(CliContext& ctx, const std::string& command, Result<T>& answer) {
  if (!answer.ok()) return ReportError(ctx, command, answer.status(), true);
  ctx.exit_code = 0;
  if (Status s = WriteJson(answer.value(), *ctx.out); !s.ok()) ReportError(ctx, command, s, false);
}

}  // namespace perfplan::cli
