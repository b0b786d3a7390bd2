#include "tuning/classification.h"

#include <doctest/doctest.h>

namespace perfplan::tuning {
namespace {

TEST_CASE("Scores at or above 60 are class 0; precision, recall and F1 per class") {
  // measured classes: 0 0 0 1 1 ; predicted: 0 0 1 1 0
  const auto r = ClassifyScores({60, 80, 70, 10, 59}, {65, 61, 50, 20, 75}).value();
  CHECK(r.runs == 5);
  CHECK(r.classes[0].support == 3);
  CHECK(r.classes[0].precision == doctest::Approx(2.0 / 3));
  CHECK(r.classes[0].recall == doctest::Approx(2.0 / 3));
  CHECK(r.classes[0].f1 == doctest::Approx(2.0 / 3));
  CHECK(r.classes[1].support == 2);
  CHECK(r.classes[1].precision == doctest::Approx(0.5));
  CHECK(r.classes[1].recall == doctest::Approx(0.5));
  CHECK(r.accuracy == doctest::Approx(0.6));
}

TEST_CASE("An empty class has zero precision, recall and F1, not NaN") {
  const auto r = ClassifyScores({80, 90}, {70, 95}).value();
  CHECK(r.classes[1].precision == 0);
  CHECK(r.classes[1].recall == 0);
  CHECK(r.classes[1].f1 == 0);
  CHECK(ClassifyScores({}, {}).status().message() ==
        "classification needs equally many measured and predicted scores (> 0)");
}

}  // namespace
}  // namespace perfplan::tuning
