// Price file (issue 20, docs/plan.md): what a node-hour costs per compute site or instance type,
// in one currency, with optional minimum billing period, billing increment and discount.
//
//   schema_version: 1
//   currency: USD
//   minimum_billing_seconds: 60      # defaults for every entry below (each may override)
//   billing_increment_seconds: 1
//   discount_fraction: 0
//   prices:
//     - {site: anl-cluster, price_per_node_hour: 0.90}
//     - {instance_type: m5.xlarge, price_per_node_hour: 0.192, discount_fraction: 0.3}
//
// Every entry names exactly one of `site` or `instance_type`; names are unique per kind. Problems
// come back as file:line: field: message, all of them at once. Plain data; thread-safe reads.
#pragma once

#include <string>
#include <vector>

#include "models/plan_cost.h"
#include "profiles/problem.h"

namespace perfplan::profiles {

inline constexpr int kPriceFileSchemaVersion = 1;

enum class PricedKind { kSite, kInstanceType };

struct PriceEntry {
  PricedKind kind = PricedKind::kSite;
  std::string name;  // the site or instance-type name
  models::NodePrice price;
  int line = 0;
};

struct PriceFile {
  std::string file;
  std::string currency;  // free text, e.g. "USD", "EUR"
  std::vector<PriceEntry> entries;

  // The entry for that site / instance type, or null.
  const PriceEntry* Find(PricedKind kind, const std::string& name) const;
};

Loaded<PriceFile> ParsePriceFile(const std::string& text, const std::string& file);
Loaded<PriceFile> LoadPriceFile(const std::string& path);

}  // namespace perfplan::profiles
