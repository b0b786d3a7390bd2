#include "tuning/model_selection.h"

#include <doctest/doctest.h>

#include "tests/tuning/tuning_fixtures.h"

namespace perfplan::tuning {
namespace {

TEST_CASE("Cross-validation is repeatable for a seed and differs across seeds") {
  const Dataset d = testing::SyntheticDataset(40);
  CvOptions cv;
  cv.seed = 7;
  const CvResult a = CrossValidate(d, ModelKind::kRidge, {}, cv).value();
  const CvResult b = CrossValidate(d, ModelKind::kRidge, {}, cv).value();
  CHECK(a.predictions == b.predictions);
  cv.seed = 8;
  const CvResult c = CrossValidate(d, ModelKind::kRidge, {}, cv).value();
  CHECK(c.predictions != a.predictions);
}

TEST_CASE("Fewer runs than folds is an error") {
  const Dataset d = testing::SyntheticDataset(4);
  CvOptions cv;
  cv.folds = 5;
  CHECK(CrossValidate(d, ModelKind::kRidge, {}, cv).status().message() ==
        "synthetic.csv: 4 runs, fewer than the 5 cross-validation folds; use fewer folds or more "
        "runs");
  cv.folds = 1;
  CHECK(CrossValidate(d, ModelKind::kRidge, {}, cv).status().message() ==
        "folds: 1; expected at least 2");
}

TEST_CASE("The search picks a kind that beats the mean and is repeatable") {
  const Dataset d = testing::SyntheticDataset(50);
  SearchOptions s;
  s.budget_seconds = 600;
  const Selection a = SelectModel(d, s).value();
  const Selection b = SelectModel(d, s).value();
  CHECK_FALSE(a.budget_exhausted);
  CHECK(a.chosen != ModelKind::kMean);
  CHECK(a.chosen_mre < a.mean_mre);
  REQUIRE(a.kinds.size() == AllModelKinds().size());
  for (std::size_t i = 0; i < a.kinds.size(); ++i) {
    CHECK(a.kinds[i].mre == b.kinds[i].mre);
    CHECK(a.kinds[i].evaluated == a.kinds[i].candidates);
  }
  const Model m = TrainSelected(d, a).value();
  CHECK(m.kind() == a.chosen);
  CHECK(m.cv_mre() == a.chosen_mre);
  CHECK(m.baseline() == d.x[0]);
}

TEST_CASE("An exhausted budget still evaluates every kind's default and says so") {
  const Dataset d = testing::SyntheticDataset(30);
  SearchOptions s;
  double now = 0;
  s.clock = [&now] { return now += 10.0; };  // every reading 10 s later
  s.budget_seconds = 1;
  const Selection sel = SelectModel(d, s).value();
  CHECK(sel.budget_exhausted);
  for (const KindResult& k : sel.kinds) CHECK(k.evaluated == 1);
  REQUIRE(sel.warnings.size() == 1);
  CHECK(sel.warnings[0].find("time budget") != std::string::npos);
}

TEST_CASE("Every kind has at least its default candidate, default first") {
  for (ModelKind k : AllModelKinds()) {
    CAPTURE(ToString(k));
    const auto c = SearchCandidates(k, 4);
    REQUIRE_FALSE(c.empty());
    CHECK(c[0].c == 1.0);
    CHECK(c[0].gamma == 0.25);
  }
}

}  // namespace
}  // namespace perfplan::tuning

namespace perfplan::tuning {
namespace {

TEST_CASE("poly-ridge is skipped, with a warning, when its expansion is too large") {
  Dataset d;
  d.source = "wide.csv";
  d.target = "t";
  constexpr int kParams = 200;  // 200 + 200·201/2 = 20,300 terms
  for (int j = 0; j < kParams; ++j) d.features.push_back({"p" + std::to_string(j)});
  for (int i = 0; i < 10; ++i) {
    std::vector<double> x(kParams);
    for (int j = 0; j < kParams; ++j) x[j] = (i * 7 + j) % 11;
    d.x.push_back(x);
    d.y.push_back(10 + i);
    d.lines.push_back(i + 2);
  }
  SearchOptions s;
  s.kinds = {ModelKind::kPolyRidge, ModelKind::kMean};
  const Selection sel = SelectModel(d, s).value();
  CHECK(sel.kinds[0].evaluated == 0);
  CHECK(sel.warnings[0] == "poly-ridge skipped: 200 parameters expand into 20300 terms");
  s.kinds = {ModelKind::kPolyRidge};
  CHECK(SelectModel(d, s).status().message() ==
        "no model kind could be evaluated: poly-ridge skipped: 200 parameters expand into 20300 "
        "terms");
}

}  // namespace
}  // namespace perfplan::tuning
