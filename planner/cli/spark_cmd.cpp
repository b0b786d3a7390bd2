#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <ostream>
#include <vector>

#include "models/input_file.h"
#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/spark/spark_api.h"
#include "planner/spark/spark_streaming.h"
#include "profiles/spark/history_api.h"
#include "profiles/runtime/profile_writer.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::cli {
namespace {
struct SparkProfileFlags {
  std::string app_id, attempt_id, out, store = "perfplan.db";
  double fallback_bandwidth_bytes_per_second = 125e6;
};

// The derived profile as a FREERIDE-G profile file, through the one profile writer (round-trip
// exact numbers; the same schema `perfplan fit` writes).
std::string ProfileYaml(const profiles::spark::DerivedProfile& d, const std::string& source) {
  std::vector<std::string> comments = {
      "Derived by `perfplan spark profile` from Spark application " + d.profile.application,
      "(" + source + ")."};
  comments.insert(comments.end(), d.notes.begin(), d.notes.end());
  return profiles::WriteProfileYaml(d.profile, "", "derived from a Spark event log", comments);
}

struct SparkReduceFlags {
  std::string store;
  bool json = false;
};

struct SparkApiFlags {
  std::string path;
  std::string store = "perfplan.db";
  bool json_ignored = false;
};
}  // namespace

void AddSparkCommand(CLI::App& command, CliContext& ctx) {
  CLI::App* spark = &command;
  auto flags = std::make_shared<SparkApiFlags>();
  CLI::App* api = AddVerb(
      *spark, "api", "Print what Spark's History Server returns at /api/v1/PATH (always JSON)");
  api->footer(
      "Example:\n  perfplan spark api 'applications/local-1422981780767/stages/1?details=true' "
      "--store spark.db");
  api->add_option("path", flags->path, "REST path under /api/v1/, with an optional ?query")
      ->required();
  AddStoreOption(*api, flags->store);
  // The answer is JSON either way; --json is accepted for uniformity with other commands.
  api->add_flag("--json", flags->json_ignored,
                "Accepted for uniformity; the answer is always JSON");
  auto pflags = std::make_shared<SparkProfileFlags>();
  CLI::App* profile = AddVerb(
      *spark, "profile", "Derive a FREERIDE-G profile (for perfplan predict) from an application");
  profile->footer(
      "Example:\n  perfplan spark profile local-1430917381534 --store spark.db --out app.yaml\n"
      "  perfplan predict --profile app.yaml --dataset-bytes 1e9 --storage-nodes 4 "
      "--compute-nodes 4 --bandwidth-bytes-per-second 125e6");
  profile->add_option("app", pflags->app_id, "Application id")->required();
  profile->add_option("--attempt", pflags->attempt_id, "Attempt id (default: the latest)");
  profile->add_option("--out", pflags->out,
                      "Write the profile here instead of stdout (- = stdout)");
  profile
      ->add_option("--fallback-bandwidth-bytes-per-second",
                   pflags->fallback_bandwidth_bytes_per_second,
                   "Bandwidth to record when the log measured no remote shuffle fetch")
      ->check(CLI::Range(1.0, 1e15));
  AddStoreOption(*profile, pflags->store);
  profile->callback([pflags, &ctx] {
    auto store = profiles::Store::OpenReadOnly(pflags->store, {profiles::spark::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "spark profile", store.status(), false);
    auto derived =
        profiles::spark::DeriveRuntimeProfile(*store.value(), pflags->app_id, pflags->attempt_id,
                                              pflags->fallback_bandwidth_bytes_per_second);
    if (!derived.ok()) return ReportError(ctx, "spark profile", derived.status(), false);
    const std::string yaml = ProfileYaml(derived.value(), pflags->store);
    if (Status s = WriteOutput(ctx, pflags->out.empty() ? "-" : pflags->out, yaml); !s.ok()) {
      return ReportError(ctx, "spark profile", s, false);
    }
    ctx.exit_code = 0;
  });

  // Fleet mode (docs/fleet.md): the same binary as a Streaming / RDD.pipe mapper and reducer.
  auto mflags = std::make_shared<planner::SparkMapRequest>();
  CLI::App* map = AddVerb(*spark, "map",
                          "Turn event logs into mergeable summary records (one line each) on stdout");
  map->footer(
      "Example:\n  perfplan spark map ../shared/data/01-spark-eventlogs/apache-spark/spark-events "
      "| sort | perfplan spark reduce --store fleet.db\nA Hadoop Streaming job or RDD.pipe maps "
      "a list of logs: see docs/fleet.md.");
  map->add_option("paths", mflags->paths,
                  "Event log files or folders; - reads the paths on stdin, one a line")
      ->required();
  map->add_option("--scratch", mflags->scratch_dir,
                  "Folder for each log's scratch store (default: $TMPDIR or /tmp)");
  map->add_flag("--list", mflags->list, "Print the event logs the paths hold, one a line");
  map->callback([mflags, &ctx] {
    planner::SparkMapRequest request = *mflags;
    if (request.scratch_dir.empty()) {
      std::error_code ec;
      request.scratch_dir = std::filesystem::temp_directory_path(ec).string();
      if (ec) request.scratch_dir = "/tmp";
    }
    if (std::find(request.paths.begin(), request.paths.end(), "-") != request.paths.end()) {
      if (Status s = CheckInputDescriptor(0); !s.ok()) return ReportError(ctx, "spark map", s, false);
    }
    std::ios::sync_with_stdio(false);
    Status s = planner::SparkMap(request, std::cin, *ctx.out, *ctx.err);
    if (!s.ok()) return ReportError(ctx, "spark map", s, false);
    ctx.exit_code = 0;
  });
  auto rflags = std::make_shared<SparkReduceFlags>();
  CLI::App* reduce = AddVerb(
      *spark, "reduce",
      "Merge summary records from stdin; print them, or load them into a store (--store)");
  reduce->footer(
      "Example:\n  perfplan spark map ../shared/data/01-spark-eventlogs/apache-spark/spark-events "
      "| sort | perfplan spark reduce --store fleet.db");
  reduce->add_option("--store", rflags->store,
                     "Load the merged records into this profile store (SQLite file)");
  reduce->add_flag("--json", rflags->json, "With --store: print one JSON document");
  reduce->callback([rflags, &ctx] {
    if (Status s = CheckInputDescriptor(0); !s.ok()) {
      return ReportError(ctx, "spark reduce", s, rflags->json);
    }
    std::ios::sync_with_stdio(false);
    auto answer = planner::SparkReduce(std::cin, rflags->store, *ctx.out);
    if (!answer.ok()) return ReportError(ctx, "spark reduce", answer.status(), rflags->json);
    ctx.exit_code = 0;
    if (!rflags->store.empty()) {
      *ctx.out << (rflags->json ? planner::ToJson(answer.value())
                                : planner::ToText(answer.value()));
    }
  });

  api->callback([flags, &ctx] {
    auto store = profiles::Store::OpenReadOnly(flags->store, {profiles::spark::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "spark api", store.status(), true);
    auto answer = profiles::spark::HistoryApi(*store.value(), flags->path);
    if (!answer.ok()) return ReportError(ctx, "spark api", answer.status(), true);
    ctx.exit_code = 0;
    *ctx.out << answer.value();
  });
}

}  // namespace perfplan::cli
