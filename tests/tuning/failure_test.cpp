#include "tuning/failure.h"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "models/fnv1a.h"
#include "tests/support/test_support.h"
#include "tests/tuning/tuning_fixtures.h"
#include "tuning/model.h"

namespace perfplan::tuning {
namespace {

// n runs on a deterministic low-discrepancy design: row(u, i) gives run i's cells from its
// coordinates u in [0, 1)^4. The last column is the target "time", -1 for a failed run.
template <typename Row>
Dataset Runs(const std::vector<std::string>& columns, int n, Row row) {
  constexpr double kSteps[] = {0.6180339887, 0.7548776662, 0.5698402910, 0.8191725134};
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < n; ++i) {
    std::array<double, 4> u{};
    for (std::size_t k = 0; k < u.size(); ++k) u[k] = std::fmod(0.5 + i * kSteps[k], 1.0);
    rows.push_back(row(u, i));
  }
  DatasetOptions s;
  s.target = "time";
  s.failed_markers = {-1};
  return BuildDataset(testing::Table(columns, rows), s).value();
}

// Runs fail when the map container is too small for the sort buffer (io.sort.mb > 0.7 x
// map.memory.mb, a real MapReduce failure mode), otherwise time falls with memory.
Dataset WithFailures(int n) {
  return Runs({"mapreduce.map.memory.mb", "mapreduce.task.io.sort.mb", "time"}, n,
              [](const std::array<double, 4>& u, int) -> std::vector<std::string> {
                const int mem = 512 + static_cast<int>(u[0] * 3584);
                const int sort = 64 + static_cast<int>(u[1] * 1984);
                const bool fails = sort > 0.7 * mem;
                const double time = fails ? -1 : 100 + 200000.0 / mem + 0.01 * sort;
                return {std::to_string(mem), std::to_string(sort), std::to_string(time)};
              });
}

TEST_CASE("The data set keeps the failed runs' configurations for the failure model") {
  const Dataset d = WithFailures(80);
  CHECK(d.failed_x.size() + d.x.size() == 80);
  CHECK(d.failed_x.size() == d.failed_lines.size());
  CHECK(d.failed_x.size() > 10);
  for (const auto& x : d.failed_x) CHECK(x[1] > 0.7 * x[0]);
}

TEST_CASE("A logistic model learns the failure region and beats the majority class held out") {
  const Dataset d = WithFailures(120);
  const FailureModel m = FitFailureModel(d).value();
  CHECK(m.failed_runs == d.failed_x.size());
  CHECK(m.succeeded_runs == d.x.size());
  CHECK(m.candidates.size() == 25);  // 3 term sets x 5 lambdas, then 2 union sizes x 5
  CHECK(m.cv_accuracy > 0.9);
  CHECK(m.cv_accuracy > m.majority_accuracy);
  CHECK(m.cv_log_loss > 0);
  CHECK(m.Probability({4000, 100}) < 0.05);  // lots of memory, small buffer: fine
  CHECK(m.Probability({600, 2000}) > 0.95);  // buffer larger than the container: fails
  // Deterministic: the same data give the same model.
  const FailureModel again = FitFailureModel(d).value();
  CHECK(again.Probability({1500, 1000}) == m.Probability({1500, 1000}));
  CHECK(again.cv_accuracy == m.cv_accuracy);
}

// Runs fail when (memory - 300) x fraction / cores, the memory a Spark task gets, is under a
// working set that shrinks with the partitions (80000 / partitions): a product of four
// parameters, linear in their logarithms but not in their values.
Dataset TaskMemoryFailures(int n) {
  return Runs({"spark.executor.memory.mb", "spark.memory.fraction", "spark.executor.cores",
               "spark.sql.shuffle.partitions", "time"},
              n, [](const std::array<double, 4>& u, int i) -> std::vector<std::string> {
                const int mem = 1024 + static_cast<int>(u[0] * 15360);
                const double fraction = 0.3 + 0.6 * u[1];
                const int cores = 1 + static_cast<int>(u[2] * 8);
                const int partitions = 20 + static_cast<int>(u[3] * 780);
                const bool fails = (mem - 300) * fraction / cores < 80000.0 / partitions;
                return {std::to_string(mem), std::to_string(fraction), std::to_string(cores),
                        std::to_string(partitions), fails ? "-1" : std::to_string(100 + i % 7)};
              });
}

TEST_CASE("A rule in a product of parameters is learned on their logarithms") {
  const Dataset d = TaskMemoryFailures(200);
  REQUIRE(d.failed_x.size() > 20);
  FailureOptions values_only;
  values_only.feature_sets = {FailureFeatures::kValues};
  values_only.union_units = {};
  FailureOptions single;
  single.union_units = {};
  const FailureModel linear = FitFailureModel(d, values_only).value();
  const FailureModel chosen = FitFailureModel(d, single).value();
  CHECK(chosen.features != FailureFeatures::kValues);
  CHECK(chosen.units.size() == 1);
  CHECK(chosen.cv_log_loss < linear.cv_log_loss);
  CHECK(chosen.cv_accuracy > linear.cv_accuracy);
}

// Runs fail by either of two rules, as YARN and MapReduce fail them: the map container above the
// scheduler's maximum allocation, or the sort buffer above 56 % of the map container.
Dataset TwoRuleFailures(int n) {
  return Runs({"mapreduce.map.memory.mb", "yarn.scheduler.maximum-allocation-mb",
               "mapreduce.task.io.sort.mb", "time"},
              n, [](const std::array<double, 4>& u, int i) -> std::vector<std::string> {
                const int map_mb = 1024 + static_cast<int>(u[0] * 7168);
                const int alloc_mb = 4096 + static_cast<int>(u[1] * 12288);
                const int sort_mb = 50 + static_cast<int>(u[2] * 1550);
                const bool fails = map_mb > alloc_mb || sort_mb > 0.56 * map_mb;
                return {std::to_string(map_mb), std::to_string(alloc_mb), std::to_string(sort_mb),
                        fails ? "-1" : std::to_string(100 + i % 7)};
              });
}

TEST_CASE("A failed region that is the union of two rules is learned by two units") {
  const Dataset d = TwoRuleFailures(200);
  REQUIRE(d.failed_x.size() > 20);
  FailureOptions single;
  single.union_units = {};
  const FailureModel one = FitFailureModel(d, single).value();
  const FailureModel chosen = FitFailureModel(d).value();
  CHECK(chosen.units.size() >= 2);
  CHECK(chosen.cv_log_loss < one.cv_log_loss);
  CHECK(chosen.cv_accuracy > one.cv_accuracy);
  // Each rule alone fails a configuration; together they leave the corner both allow.
  CHECK(chosen.Probability({6000, 4500, 200}) > 0.8);    // container above the allocation
  CHECK(chosen.Probability({2000, 16000, 1500}) > 0.8);  // sort buffer above the container's 56 %
  CHECK(chosen.Probability({2000, 16000, 300}) < 0.2);   // both hold
}

// The logistic candidates cut to one: the bounds do not depend on them.
FailureOptions OneCandidate() {
  FailureOptions o;
  o.feature_sets = {FailureFeatures::kValues};
  o.union_units = {};
  o.lambdas = {1};
  return o;
}

TEST_CASE("The bounds of the successful runs: a ratio a failed run lies beyond stops at theirs") {
  const Dataset d = WithFailures(80);
  const FailureModel m = FitFailureModel(d, OneCandidate()).value();
  // Runs fail when sort > 0.7 x memory: every failed run's memory / sort is below every
  // successful run's, so the smallest successful memory / sort is a lower bound.
  double smallest = d.x[0][0] / d.x[0][1];
  for (const auto& x : d.x) smallest = std::min(smallest, x[0] / x[1]);
  REQUIRE(m.bounds_known);
  bool found = false;
  for (const FailureBound& b : m.bounds) {
    if (b.a == 0 && b.b == 1 && !b.product && !b.upper) found = b.limit == smallest;
  }
  CHECK(found);
  CHECK(m.BrokenBound({4000, 100}) == nullptr);  // lots of memory, small buffer
  const FailureBound* broken = m.BrokenBound({600, 2000});
  REQUIRE(broken != nullptr);
  CHECK(broken->Value({600, 2000}) == 600.0 / 2000.0);
}

// Each data set's rules are thresholds on ratios of two parameters, so every failed run lies
// beyond a bound and no successful run does (the guarantee in docs/tuning.md).
TEST_CASE("Every run that broke a two-parameter ratio rule is outside the bounds") {
  for (const Dataset& d : {WithFailures(80), TwoRuleFailures(120)}) {
    CAPTURE(d.features.size());
    const FailureModel m = FitFailureModel(d, OneCandidate()).value();
    for (const auto& x : d.failed_x) CHECK(m.BrokenBound(x) != nullptr);
    for (const auto& x : d.x) CHECK(m.BrokenBound(x) == nullptr);
  }
}

TEST_CASE("Parameters that are not positive in every run get no bound") {
  // A 0/1 column (anything with a 0) has no logarithm: no ratio or product with it is bounded.
  const Dataset d = Runs({"mapreduce.map.memory.mb", "mapreduce.task.io.sort.mb",
                          "mapreduce.map.output.compress", "time"},
                         80, [](const std::array<double, 4>& u, int i) -> std::vector<std::string> {
                           const int mem = 512 + static_cast<int>(u[0] * 3584);
                           const int sort = 64 + static_cast<int>(u[1] * 1984);
                           return {std::to_string(mem), std::to_string(sort), std::to_string(i % 2),
                                   sort > 0.7 * mem ? "-1" : "100"};
                         });
  const FailureModel m = FitFailureModel(d, OneCandidate()).value();
  CHECK_FALSE(m.bounds.empty());
  for (const FailureBound& b : m.bounds) CHECK(b.b != 2);
}

TEST_CASE("The fit does not depend on the thread count") {
  const Dataset d = TwoRuleFailures(120);
  FailureOptions one, two;
  one.lambdas = two.lambdas = {10, 1};
  two.threads = 2;
  const FailureModel a = FitFailureModel(d, one).value();
  const FailureModel b = FitFailureModel(d, two).value();
  CHECK(a.cv_accuracy == b.cv_accuracy);
  CHECK(a.cv_log_loss == b.cv_log_loss);
  CHECK(a.units.size() == b.units.size());
  for (const auto& x : d.failed_x) CHECK(a.Probability(x) == b.Probability(x));
  CHECK(a.bounds.size() == b.bounds.size());
}

TEST_CASE("Any of K units: P(fail) = 1 - prod(1 - sigma_k); a log term is floored") {
  FailureModel m;
  m.terms = {{0, false, 0}, {1, true, 2.0}};
  m.mean = {1, 0};
  m.scale = {2, 1};
  m.units = {{{1.0, 0.0}, -1.0}, {{0.0, 2.0}, 0.5}};
  const auto sigma = [](double z) { return 1 / (1 + std::exp(-z)); };
  // x = (3, 4): unit 1 sees (3 - 1) / 2 = 1, eta 0; unit 2 sees log 4, eta 0.5 + 2 log 4.
  const double expected = 1 - (1 - sigma(0.0)) * (1 - sigma(0.5 + 2 * std::log(4.0)));
  CHECK(m.Probability({3, 4}) == doctest::Approx(expected).epsilon(1e-15));
  // Below the floor (and at 0) the log term reads log 2.
  CHECK(m.Probability({3, 0}) == m.Probability({3, 2}));
  CHECK(m.Probability({3, 1}) == m.Probability({3, 2}));
}

TEST_CASE("A saved model keeps its failure model, bit-identically") {
  const Dataset d = WithFailures(120);
  Model m = Model::Fit(d, ModelKind::kRidge, {}).value();
  CHECK(m.failure() == nullptr);
  m.set_failure(FitFailureModel(d).value());
  const std::string dir = perfplan::testing::MakeTempDir();
  REQUIRE(m.Save(dir + "/m.json").ok());
  const Model back = Model::Load(dir + "/m.json").value();
  REQUIRE(back.failure() != nullptr);
  CHECK(back.failure()->failed_runs == m.failure()->failed_runs);
  CHECK(back.failure()->cv_accuracy == m.failure()->cv_accuracy);
  CHECK(back.failure()->cv_log_loss == m.failure()->cv_log_loss);
  CHECK(back.failure()->features == m.failure()->features);
  CHECK(back.failure()->units.size() == m.failure()->units.size());
  CHECK(back.failure()->terms.size() == m.failure()->terms.size());
  for (const auto& x : {std::vector<double>{4000, 100}, std::vector<double>{600, 2000},
                        std::vector<double>{1500, 1000}}) {
    CHECK(back.failure()->Probability(x) == m.failure()->Probability(x));
    CHECK((back.failure()->BrokenBound(x) == nullptr) == (m.failure()->BrokenBound(x) == nullptr));
  }
  REQUIRE(back.failure()->bounds_known);
  REQUIRE(back.failure()->bounds.size() == m.failure()->bounds.size());
  for (std::size_t i = 0; i < m.failure()->bounds.size(); ++i) {
    CHECK(back.failure()->bounds[i].limit == m.failure()->bounds[i].limit);
  }
  // Without one, the file has none and the loaded model neither.
  REQUIRE(Model::Fit(d, ModelKind::kRidge, {}).value().Save(dir + "/plain.json").ok());
  CHECK(perfplan::testing::ReadFile(dir + "/plain.json").find("\"failure\"") == std::string::npos);
  CHECK(Model::Load(dir + "/plain.json").value().failure() == nullptr);
}

// FNV-1a 64 of `text` from offset basis `offset`, as the model file writes it:
// "fnv1a64:<16 hex digits>".
std::string Fnv1a64(const std::string& text, std::uint64_t offset) {
  return "fnv1a64:" + models::Fnv1a64Hex(text, offset);
}

constexpr std::uint64_t kFnvOffset = models::kFnv1a64Offset;  // FNV-1a 64's offset basis
// One digit short of it: model files written before session 9.
constexpr std::uint64_t kLegacyFnvOffset = models::kFnv1a64ShortOffset;

TEST_CASE("A model file's checksum is FNV-1a 64; files summed from the short basis still load") {
  // The published test vectors of FNV-1a 64.
  CHECK(Fnv1a64("", kFnvOffset) == "fnv1a64:cbf29ce484222325");
  CHECK(Fnv1a64("a", kFnvOffset) == "fnv1a64:af63dc4c8601ec8c");
  const Dataset d = WithFailures(40);
  const Model m = Model::Fit(d, ModelKind::kRidge, {}).value();
  const std::string dir = perfplan::testing::MakeTempDir();
  REQUIRE(m.Save(dir + "/m.json").ok());
  nlohmann::json doc = nlohmann::json::parse(perfplan::testing::ReadFile(dir + "/m.json"));
  CHECK(doc["checksum"] == Fnv1a64(doc["model"].dump(), kFnvOffset));
  // A file written before session 9 carries the short basis's sum: it loads, predicting the same.
  doc["checksum"] = Fnv1a64(doc["model"].dump(), kLegacyFnvOffset);
  perfplan::testing::WriteFile(dir + "/old.json", doc.dump(1));
  const Result<Model> old = Model::Load(dir + "/old.json");
  REQUIRE_MESSAGE(old.ok(), old.status().message());
  CHECK(old.value().Predict(d.x[3]) == m.Predict(d.x[3]));
  // Any other sum is an edited file.
  doc["checksum"] = Fnv1a64(doc["model"].dump(), kFnvOffset + 1);
  perfplan::testing::WriteFile(dir + "/edited.json", doc.dump(1));
  CHECK(Model::Load(dir + "/edited.json").status().message() ==
        dir +
            "/edited.json: not a valid perfplan tuning model (checksum mismatch: edited or "
            "damaged); train it again with 'perfplan tune train'");
}

TEST_CASE("A model file from before session 8 (one weights/bias on the values) still loads") {
  const Dataset d = WithFailures(120);
  Model m = Model::Fit(d, ModelKind::kRidge, {}).value();
  FailureOptions values_only;
  values_only.feature_sets = {FailureFeatures::kValues};
  values_only.union_units = {};
  values_only.lambdas = {1};
  m.set_failure(FitFailureModel(d, values_only).value());
  const std::string dir = perfplan::testing::MakeTempDir();
  REQUIRE(m.Save(dir + "/new.json").ok());
  // Rewrite the failure object as session 7 wrote it.
  nlohmann::json doc = nlohmann::json::parse(perfplan::testing::ReadFile(dir + "/new.json"));
  nlohmann::json& f = doc["model"]["failure"];
  f["weights"] = f["units"][0]["weights"];
  f["bias"] = f["units"][0]["bias"];
  for (const char* key : {"units", "terms", "features", "cv_log_loss", "bounds"}) f.erase(key);
  doc["checksum"] = Fnv1a64(doc["model"].dump(), kLegacyFnvOffset);
  perfplan::testing::WriteFile(dir + "/old.json", doc.dump(1));
  const Result<Model> back = Model::Load(dir + "/old.json");
  REQUIRE_MESSAGE(back.ok(), back.status().message());
  const FailureModel* old = back.value().failure();
  REQUIRE(old != nullptr);
  CHECK(old->features == FailureFeatures::kValues);
  CHECK(old->units.size() == 1);
  CHECK(old->terms.size() == 2);
  CHECK_FALSE(old->bounds_known);  // written before session 9: no bounds of the successful runs
  CHECK(old->bounds.empty());
  for (const auto& x : {std::vector<double>{4000, 100}, std::vector<double>{600, 2000}}) {
    CHECK(old->Probability(x) == m.failure()->Probability(x));
  }
}

TEST_CASE("Without failed runs there is nothing to learn") {
  const Dataset d = testing::SyntheticDataset(20);
  CHECK(FitFailureModel(d).status().message() ==
        "synthetic.csv: no failed runs; a failure model needs runs marked as failed");
}

TEST_CASE("Failure options out of range are refused, naming the option") {
  const Dataset d = WithFailures(40);
  auto refusal = [&](const FailureOptions& o) { return FitFailureModel(d, o).status().message(); };
  // Each changes one option of the defaults.
  FailureOptions lambdas, units, folds, feature_sets, threads;
  lambdas.lambdas = {1, 0};
  units.union_units = {1};
  folds.folds = 1;
  feature_sets.feature_sets = {};
  threads.threads = 0;
  CHECK(refusal(lambdas) == "failure_lambdas: must be > 0 (got 0)");
  CHECK(refusal(units) == "failure_union_units: must be >= 2 (got 1)");
  CHECK(refusal(folds) == "failure_folds: must be >= 2 (got 1)");
  CHECK(refusal(feature_sets) == "failure_feature_sets: is empty");
  CHECK(refusal(threads) == "failure_threads: must be 1 to 1024 (got 0)");
}

}  // namespace
}  // namespace perfplan::tuning
