// Specification of planner/plan/capacity.h's runtime model from the fitted history: with a runs
// CSV and a workload, each job's runtime is the prediction of the model `perfplan fit` fits to
// that workload's runs (models::PredictFitted, as `perfplan plan --runs` predicts), at the job's
// map input bytes and width, and the FIFO replay is the one a hand computation gives.
#include "planner/plan/capacity.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "models/runtime_fit.h"
#include "planner/runtime/fit_eval.h"
#include "tests/support/plan_inputs.h"
#include "tests/support/result_checks.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

// Workload w on t1: 50 s serial + 2000 s of parallel work at 1e10 bytes, on 4 … 64 nodes; at
// half the input (5e9 bytes) on 8 nodes. The fit reproduces these exactly.
std::string RunsCsv() {
  return testing::LinearRunsCsv("w", {{"t1", 50, 2000}}, {4, 8, 16, 32, 64}) +
         "w,t1,5e9,8,8,1e8," + std::to_string(50 + 1000.0 / 8) + ",true\n";
}

TEST_CASE("capacity from the fitted history: runtimes scale with each job's input and width") {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/runs.csv", RunsCsv());
  // Three jobs far apart (no queueing), then two submitted together on a 16-node cluster.
  // Map input 1e10 bytes = 75 splits of 128 MiB: wider than the cluster, so 16 nodes wide.
  testing::WriteFile(dir + "/t.tsv",
                     "j1\t0\t0\t1e10\t0\t0\n"
                     "j2\t100000\t100000\t5e9\t0\t0\n"
                     "j3\t200000\t100000\t5e8\t0\t0\n"
                     "j4\t300000\t100000\t1e10\t0\t0\n"
                     "j5\t300000\t0\t1e10\t0\t0\n");
  CapacityRequest request;
  request.trace_file = dir + "/t.tsv";
  request.runs_file = dir + "/runs.csv";
  request.workload = "w";
  request.cluster_nodes = {16};
  const CapacityAnswer a = testing::ValueOf(AnswerCapacity(request));
  CHECK(a.runtime_model.rfind("fitted runtime model (perfplan fit) of workload w on t1 from " +
                                  dir + "/runs.csv, 6 measured run(s), ",
                              0) == 0);

  FitRequest f;
  f.runs_file = request.runs_file;
  f.workload = "w";
  Result<FitAnswer> fit = AnswerFit(f);
  REQUIRE(fit.ok());
  auto runtime = [&](double bytes, double width) {
    models::RunConfig c = fit.value().fit.reference;
    c.dataset_bytes = bytes;
    c.compute_nodes = c.storage_nodes = width;
    return models::PredictFitted(fit.value().fit, c).TotalSeconds();
  };
  // The fit reproduces the measured runs: 1e10 bytes on 16 nodes take 50 + 125 s.
  CHECK(runtime(1e10, 16) == doctest::Approx(175).epsilon(1e-6));
  const double split = 128.0 * 1024 * 1024;
  const double w3 = std::ceil(5e8 / split);  // 4 splits: 4 nodes wide
  CHECK(w3 == 4);
  // By hand: j4 and j5 arrive together, each 16 nodes wide: j5 waits for j4.
  const double j4 = runtime(1e10, 16);
  const double makespan = 300000 + 2 * j4;
  REQUIRE(a.rows.size() == 1);
  CHECK(a.rows[0].replay.makespan_seconds == doctest::Approx(makespan).epsilon(1e-12));
  CHECK(a.rows[0].replay.mean_queue_seconds == doctest::Approx(j4 / 5).epsilon(1e-12));
  const double busy = 16 * runtime(1e10, 16) + 16 * runtime(5e9, 16) + 4 * runtime(5e8, 4) +
                      2 * 16 * j4;
  CHECK(a.rows[0].replay.utilisation == doctest::Approx(busy / (16 * makespan)).epsilon(1e-9));
  // Half the input is faster than the whole, and the smallest job (5e8 bytes, 10x less than
  // every measured run) is extrapolated.
  CHECK(runtime(5e9, 16) < runtime(1e10, 16));
  CHECK(a.rows[0].extrapolated_jobs == 1);
  REQUIRE(a.warnings.size() == 1);
  CHECK(a.warnings[0] ==
        "1 of 5 jobs read more than 8x more or less map input than every measured run: their "
        "runtimes are extrapolated");
}

TEST_CASE("capacity needs one runtime model: a profile or a runs CSV with its workload") {
  CapacityRequest request;
  request.trace_file = "t.tsv";
  request.cluster_nodes = {4};
  CHECK(request.Validate().message() ==
        "profile: give one runtime model: a profile (--profile) or a runs CSV with its workload "
        "(--runs, --workload)");
  request.profile_file = "p.yaml";
  request.runs_file = "runs.csv";
  CHECK(request.Validate().message() ==
        "profile: give one runtime model: a profile (--profile) or a runs CSV with its workload "
        "(--runs, --workload)");
  request.profile_file.clear();
  CHECK(request.Validate().message() == "workload: --runs needs the workload to fit");
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/runs.csv", RunsCsv());
  testing::WriteFile(dir + "/t.tsv", "j1\t0\t0\t1e10\t0\t0\n");
  request.trace_file = dir + "/t.tsv";
  request.runs_file = dir + "/runs.csv";
  request.workload = "nope";
  const Status a = testing::ErrorOf(AnswerCapacity(request));
  CHECK(a.code() == StatusCode::kInvalidArgument);
  CHECK(a.message().find("no run of workload 'nope'") != std::string::npos);
}

}  // namespace
}  // namespace perfplan::planner
