#include "models/plan_cost.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>

namespace perfplan::models {
namespace {

std::string Describe(const char* field, double value, const char* constraint) {
  std::ostringstream s;
  s << field << ": " << value << " " << constraint;
  return s.str();
}

bool Finite(double v) { return std::isfinite(v); }

}  // namespace

Status NodePrice::Validate() const {
  if (!Finite(price_per_node_hour) || price_per_node_hour < 0) {
    return Status::InvalidArgument(
        Describe("price_per_node_hour", price_per_node_hour, "must be a number >= 0"));
  }
  if (!Finite(minimum_billing_seconds) || minimum_billing_seconds < 0) {
    return Status::InvalidArgument(
        Describe("minimum_billing_seconds", minimum_billing_seconds, "must be a number >= 0"));
  }
  if (!Finite(billing_increment_seconds) || billing_increment_seconds < 0) {
    return Status::InvalidArgument(
        Describe("billing_increment_seconds", billing_increment_seconds, "must be a number >= 0"));
  }
  if (!Finite(discount_fraction) || discount_fraction < 0 || discount_fraction >= 1) {
    return Status::InvalidArgument(
        Describe("discount_fraction", discount_fraction, "must be in [0, 1)"));
  }
  return Status::Ok();
}

Cost CostOf(double runtime_seconds, double nodes, const NodePrice& price) {
  assert(price.Validate().ok());
  assert(runtime_seconds >= 0 && nodes >= 0);
  Cost c;
  double billed = std::max(runtime_seconds, price.minimum_billing_seconds);
  if (price.billing_increment_seconds > 0) {
    // A tiny tolerance keeps 120.00000000001 s (a sum of components) from billing a whole extra
    // increment.
    const double periods = billed / price.billing_increment_seconds;
    billed = std::ceil(periods - 1e-9) * price.billing_increment_seconds;
  }
  c.billed_seconds_per_node = billed;
  c.billed_node_hours = billed * nodes / 3600.0;
  c.list_cost = c.billed_node_hours * price.price_per_node_hour;
  c.cost = c.list_cost * (1 - price.discount_fraction);
  return c;
}

std::vector<std::size_t> ParetoFront(const std::vector<TimeCostPoint>& points) {
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (points[a].runtime_seconds != points[b].runtime_seconds) {
      return points[a].runtime_seconds < points[b].runtime_seconds;
    }
    if (points[a].cost != points[b].cost) return points[a].cost < points[b].cost;
    return a < b;
  });
  std::vector<std::size_t> front;
  double best_cost_faster = std::numeric_limits<double>::infinity();  // over strictly faster points
  for (std::size_t i = 0; i < order.size();) {
    // One group of equal runtimes: its cheapest points are on the front when strictly cheaper
    // than everything faster.
    std::size_t j = i;
    const double t = points[order[i]].runtime_seconds;
    const double group_min = points[order[i]].cost;  // sorted by cost within the group
    while (j < order.size() && points[order[j]].runtime_seconds == t) ++j;
    if (group_min < best_cost_faster) {
      for (std::size_t k = i; k < j && points[order[k]].cost == group_min; ++k) {
        front.push_back(order[k]);
      }
      best_cost_faster = group_min;
    }
    i = j;
  }
  return front;
}

}  // namespace perfplan::models
