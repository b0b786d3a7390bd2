// The money side of a plan (issue 20): what an alternative costs under a price per node-hour with
// a minimum billing period, a billing increment and a discount, and the Pareto front of predicted
// time against cost.
//
// Billing: every node is billed for max(runtime, minimum_billing_seconds), rounded up to a whole
// number of billing_increment_seconds (0 = billed to the second), at price_per_node_hour, less
// discount_fraction. So a 90 s job on 4 nodes at 3.60/node-hour with a 60 s minimum and a 60 s
// increment bills 4 nodes × 120 s = 480 node-seconds = 0.1333 node-hours, 0.48 before the
// discount.
//
// Pure functions over plain data; no I/O, no globals; safe from any thread. Units in names.
#pragma once

#include <cstddef>
#include <vector>

#include "models/status.h"

namespace perfplan::models {

// How one kind of node (an instance type, a site) is priced.
struct NodePrice {
  double price_per_node_hour = 0;        // >= 0, in the price file's currency
  double minimum_billing_seconds = 0;    // each node is billed at least this long; >= 0
  double billing_increment_seconds = 0;  // billed time rounds up to a multiple; 0 = per second
  double discount_fraction = 0;          // [0, 1): 0.3 = 30 % off the list price

  // InvalidArgument naming the field, the value and the constraint.
  Status Validate() const;
};

struct Cost {
  double billed_seconds_per_node = 0;  // after the minimum and the rounding
  double billed_node_hours = 0;        // billed_seconds_per_node × nodes / 3600
  double list_cost = 0;                // billed_node_hours × price_per_node_hour
  double cost = 0;                     // list_cost × (1 − discount_fraction)
};

// The cost of running `nodes` nodes for `runtime_seconds` (both >= 0; a prediction, not a bound).
// The price must be valid (see NodePrice::Validate); asserted.
Cost CostOf(double runtime_seconds, double nodes, const NodePrice& price);

// A point of the time/cost plane; both are minimised.
struct TimeCostPoint {
  double runtime_seconds = 0;
  double cost = 0;
};

// Indices of the points no other point dominates (q dominates p when q is no slower and no
// dearer, and strictly better in one of the two), ordered by runtime ascending (then cost, then
// index). Identical points are all on the front. O(n log n).
std::vector<std::size_t> ParetoFront(const std::vector<TimeCostPoint>& points);

}  // namespace perfplan::models
