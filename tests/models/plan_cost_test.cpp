#include "models/plan_cost.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "models/random.h"

namespace perfplan::models {
namespace {

constexpr double kRounding = 1e-12;

TEST_CASE("a job shorter than the minimum billing period is billed the whole minimum") {
  NodePrice price{.price_per_node_hour = 3.60, .minimum_billing_seconds = 60};
  Cost c = CostOf(10, 4, price);
  CHECK(c.billed_seconds_per_node == 60);
  CHECK(c.billed_node_hours == doctest::Approx(4 * 60 / 3600.0).epsilon(kRounding));
  CHECK(c.cost == doctest::Approx(0.24).epsilon(kRounding));  // 4 × 60 s × 0.001/s
}

TEST_CASE("billed time rounds up to whole increments, then the discount applies") {
  NodePrice price{.price_per_node_hour = 3.60,
                  .minimum_billing_seconds = 60,
                  .billing_increment_seconds = 60,
                  .discount_fraction = 0.25};
  Cost c = CostOf(90, 4, price);  // 90 s → two minutes per node
  CHECK(c.billed_seconds_per_node == 120);
  CHECK(c.list_cost == doctest::Approx(0.48).epsilon(kRounding));
  CHECK(c.cost == doctest::Approx(0.36).epsilon(kRounding));
  // Exactly on a boundary (up to summation rounding) does not bill one more increment.
  CHECK(CostOf(120.0000000000001, 1, price).billed_seconds_per_node == 120);
  CHECK(CostOf(120.5, 1, price).billed_seconds_per_node == 180);
}

TEST_CASE("hourly billing: 61 minutes cost two hours") {
  NodePrice price{.price_per_node_hour = 2, .billing_increment_seconds = 3600};
  CHECK(CostOf(61 * 60, 3, price).cost == doctest::Approx(12));
  CHECK(CostOf(0, 3, price).cost == 0);  // no minimum: nothing run, nothing billed
}

TEST_CASE("a price names the broken field") {
  CHECK(NodePrice{.price_per_node_hour = -1}.Validate().message() ==
        "price_per_node_hour: -1 must be a number >= 0");
  CHECK(NodePrice{.discount_fraction = 1}.Validate().message() ==
        "discount_fraction: 1 must be in [0, 1)");
  CHECK(NodePrice{.billing_increment_seconds = -5}.Validate().message() ==
        "billing_increment_seconds: -5 must be a number >= 0");
  CHECK(NodePrice{.price_per_node_hour = 1}.Validate().ok());
}

std::vector<std::size_t> BruteForceFront(const std::vector<TimeCostPoint>& p) {
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool dominated = false;
    for (std::size_t j = 0; j < p.size() && !dominated; ++j) {
      dominated = p[j].runtime_seconds <= p[i].runtime_seconds && p[j].cost <= p[i].cost &&
                  (p[j].runtime_seconds < p[i].runtime_seconds || p[j].cost < p[i].cost);
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

TEST_CASE("the Pareto front equals a brute-force dominance check, ties included") {
  Rng rng(20);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng.Next() % 40;
    std::vector<TimeCostPoint> points;
    // Small integer coordinates make equal times, equal costs and identical points common.
    for (std::size_t i = 0; i < n; ++i) {
      points.push_back(
          {static_cast<double>(rng.Next() % 10), static_cast<double>(rng.Next() % 10)});
    }
    std::vector<std::size_t> fast = ParetoFront(points);
    for (std::size_t k = 1; k < fast.size(); ++k) {
      CHECK(points[fast[k - 1]].runtime_seconds <= points[fast[k]].runtime_seconds);
    }
    std::sort(fast.begin(), fast.end());
    CHECK(fast == BruteForceFront(points));
  }
}

TEST_CASE("the front runs from the fastest to the cheapest point") {
  // (time, cost): 10/9 fastest, 20/5, 30/5 (dominated by 20/5), 40/1 cheapest, 50/2 dominated.
  std::vector<TimeCostPoint> p = {{30, 5}, {10, 9}, {40, 1}, {20, 5}, {50, 2}};
  CHECK(ParetoFront(p) == std::vector<std::size_t>{1, 3, 2});
  CHECK(ParetoFront({}).empty());
}

}  // namespace
}  // namespace perfplan::models
