#include "profiles/runtime/price_file.h"

#include <set>
#include <utility>

#include "profiles/detail/yaml_fields.h"

namespace perfplan::profiles {
namespace {

using detail::FieldReader;
using detail::Range;

const std::vector<std::string_view> kTopKeys = {"schema_version",
                                                "description",
                                                "currency",
                                                "minimum_billing_seconds",
                                                "billing_increment_seconds",
                                                "discount_fraction",
                                                "prices"};
const std::vector<std::string_view> kEntryKeys = {"site",
                                                  "instance_type",
                                                  "price_per_node_hour",
                                                  "minimum_billing_seconds",
                                                  "billing_increment_seconds",
                                                  "discount_fraction"};

int LineOf(const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

// Reads the billing terms of `map` over `price` (defaults already in it).
void ReadTerms(FieldReader& r, const YAML::Node& map, const std::string& path,
               models::NodePrice* price) {
  if (auto v = r.Number(map, path, "minimum_billing_seconds", Range::kNonNegative, false)) {
    price->minimum_billing_seconds = *v;
  }
  if (auto v = r.Number(map, path, "billing_increment_seconds", Range::kNonNegative, false)) {
    price->billing_increment_seconds = *v;
  }
  if (auto v = r.Number(map, path, "discount_fraction", Range::kNonNegative, false)) {
    if (*v >= 1) {
      r.Report(
          map["discount_fraction"], FieldReader::Join(path, "discount_fraction"),
          "must be below 1 (0.3 = 30 % off), got " + map["discount_fraction"].as<std::string>());
    } else {
      price->discount_fraction = *v;
    }
  }
}

void ReadPriceFile(FieldReader& r, const YAML::Node& root, Loaded<PriceFile>& out) {
  if (!r.ExpectMap(root, "", kTopKeys)) return;
  r.SchemaVersion(root, kPriceFileSchemaVersion);
  if (auto v = r.String(root, "", "currency", true)) out.value.currency = *v;
  models::NodePrice defaults;
  ReadTerms(r, root, "", &defaults);
  std::optional<YAML::Node> prices = r.Sequence(root, "", "prices", true);
  if (!prices) return;
  if (prices->size() == 0) r.Report(*prices, "prices", "needs at least one entry");
  std::set<std::pair<PricedKind, std::string>> seen;
  for (std::size_t i = 0; i < prices->size(); ++i) {
    const YAML::Node node = (*prices)[i];
    const std::string path = FieldReader::Index("prices", i);
    if (!r.ExpectMap(node, path, kEntryKeys)) continue;
    PriceEntry e;
    e.line = LineOf(node);
    e.price = defaults;
    const bool has_site = static_cast<bool>(node["site"]);
    const bool has_type = static_cast<bool>(node["instance_type"]);
    if (has_site == has_type) {
      r.Report(node, path, "needs exactly one of site or instance_type");
    } else {
      e.kind = has_site ? PricedKind::kSite : PricedKind::kInstanceType;
      const char* key = has_site ? "site" : "instance_type";
      if (auto v = r.String(node, path, key, true)) {
        e.name = *v;
        if (!seen.insert({e.kind, e.name}).second) {
          r.Report(node[key], FieldReader::Join(path, key),
                   std::string("duplicate price for ") + key + " \"" + e.name + "\"");
        }
      }
    }
    if (auto v = r.Number(node, path, "price_per_node_hour", Range::kNonNegative, true)) {
      e.price.price_per_node_hour = *v;
    }
    ReadTerms(r, node, path, &e.price);
    out.value.entries.push_back(std::move(e));
  }
}

}  // namespace

const PriceEntry* PriceFile::Find(PricedKind kind, const std::string& name) const {
  for (const PriceEntry& e : entries) {
    if (e.kind == kind && e.name == name) return &e;
  }
  return nullptr;
}

Loaded<PriceFile> ParsePriceFile(const std::string& text, const std::string& file) {
  return detail::ReadDocument<PriceFile>(text, file, ReadPriceFile);
}

Loaded<PriceFile> LoadPriceFile(const std::string& path) {
  return detail::LoadFile(path, ParsePriceFile);
}

}  // namespace perfplan::profiles
