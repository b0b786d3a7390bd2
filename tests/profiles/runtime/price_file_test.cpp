// Specification of profiles/runtime/price_file.h: prices per site or instance type with file-level
// billing defaults each entry may override, every problem reported at once as file:line: field.
#include "profiles/runtime/price_file.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/problem_lines.h"

namespace perfplan::profiles {
namespace {

using testing::ProblemText;

std::string Lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

TEST_CASE("entries inherit the file's billing terms and may override them") {
  const char* text = R"(schema_version: 1
currency: EUR
minimum_billing_seconds: 60
billing_increment_seconds: 1
prices:
  - {site: anl-cluster, price_per_node_hour: 0.9}
  - {instance_type: m5.xlarge, price_per_node_hour: 0.192, discount_fraction: 0.3,
     billing_increment_seconds: 3600}
)";
  Loaded<PriceFile> p = ParsePriceFile(text, "p.yaml");
  INFO(ProblemText(p));
  REQUIRE(p.ok());
  CHECK(p.value.currency == "EUR");
  REQUIRE(p.value.entries.size() == 2);
  const PriceEntry* site = p.value.Find(PricedKind::kSite, "anl-cluster");
  REQUIRE(site != nullptr);
  CHECK(site->line == 6);
  CHECK(site->price.price_per_node_hour == 0.9);
  CHECK(site->price.minimum_billing_seconds == 60);
  CHECK(site->price.billing_increment_seconds == 1);
  CHECK(site->price.discount_fraction == 0);
  const PriceEntry* type = p.value.Find(PricedKind::kInstanceType, "m5.xlarge");
  REQUIRE(type != nullptr);
  CHECK(type->price.minimum_billing_seconds == 60);
  CHECK(type->price.billing_increment_seconds == 3600);
  CHECK(type->price.discount_fraction == 0.3);
  // A site and an instance type are different namespaces.
  CHECK(p.value.Find(PricedKind::kInstanceType, "anl-cluster") == nullptr);
}

TEST_CASE("every problem of a price file is reported with its line and field") {
  const char* text = R"(schema_version: 1
discount_fraction: 1.5
prices:
  - {site: a, price_per_node_hour: -1}
  - {site: a, price_per_node_hour: 1}
  - {site: b, instance_type: c, price_per_node_hour: 1}
  - {instance_type: c, price_per_nodehour: 1}
)";
  CHECK(ProblemText(ParsePriceFile(text, "p.yaml")) ==
        Lines({
            "p.yaml:1: currency: missing",
            "p.yaml:2: discount_fraction: must be below 1 (0.3 = 30 % off), got 1.5",
            "p.yaml:4: prices[0].price_per_node_hour: must be >= 0, got -1",
            "p.yaml:5: prices[1].site: duplicate price for site \"a\"",
            "p.yaml:6: prices[2]: needs exactly one of site or instance_type",
            "p.yaml:7: prices[3].price_per_nodehour: unknown key; did you mean "
            "\"price_per_node_hour\"?",
            "p.yaml:7: prices[3].price_per_node_hour: missing",
        }));
}

TEST_CASE("a price file that is not a mapping, or has no prices, says so") {
  CHECK(ProblemText(ParsePriceFile("schema_version: 2\ncurrency: USD\nprices: []\n", "p.yaml")) ==
        Lines({
            "p.yaml:1: schema_version: this perfplan reads version 1, got 2",
            "p.yaml:3: prices: needs at least one entry",
        }));
  CHECK(LoadPriceFile("/nonexistent/p.yaml").problems.size() == 1);
}

}  // namespace
}  // namespace perfplan::profiles
