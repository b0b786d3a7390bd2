#include "models/json_text.h"

#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace perfplan {
namespace {

// What JsonText promises to equal, byte for byte.
template <typename Json>
std::string Reference(const Json& doc, int indent) {
  return doc.dump(indent, ' ', false, Json::error_handler_t::replace);
}

std::string RandomString(std::mt19937_64& rng) {
  static const std::string kPieces[] = {"a",    "Z9",  " ",     "\"",   "\\",   "/",   "\n",
                                        "\t",   "\x01", "\x1f", "\x7f", "é",   "€",   "𝄞",
                                        "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "key"};
  std::string s;
  const int n = static_cast<int>(rng() % 6);
  for (int i = 0; i < n; ++i) s += kPieces[rng() % std::size(kPieces)];
  return s;
}

double RandomDouble(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: {  // any bit pattern: subnormals, huge, NaN, infinities
      const std::uint64_t bits = rng();
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return d;
    }
    case 1:
      return static_cast<double>(static_cast<std::int64_t>(rng() % 2000001) - 1000000);
    case 2:
      return std::ldexp(static_cast<double>(rng() % 1000000), static_cast<int>(rng() % 80) - 40);
    case 3:
      return static_cast<double>(rng() % 100000) / 1000.0;
    case 4:
      return -0.0;
    default:
      return 1e15 * static_cast<double>(rng() % 100);
  }
}

template <typename Json>
Json RandomDoc(std::mt19937_64& rng, int depth) {
  const int kind = static_cast<int>(rng() % (depth > 4 ? 6 : 8));
  switch (kind) {
    case 0:
      return nullptr;
    case 1:
      return rng() % 2 == 0;
    case 2:
      return static_cast<std::int64_t>(rng());
    case 3:
      return static_cast<std::uint64_t>(rng());
    case 4:
      return RandomDouble(rng);
    case 5:
      return RandomString(rng);
    case 6: {
      Json a = Json::array();
      const int n = static_cast<int>(rng() % 5);
      for (int i = 0; i < n; ++i) a.push_back(RandomDoc<Json>(rng, depth + 1));
      return a;
    }
    default: {
      Json o = Json::object();
      const int n = static_cast<int>(rng() % 5);
      for (int i = 0; i < n; ++i) o[RandomString(rng)] = RandomDoc<Json>(rng, depth + 1);
      return o;
    }
  }
}

TEST_CASE_TEMPLATE("JsonText writes what dump() with replacement writes, byte for byte", Json,
                   nlohmann::json, nlohmann::ordered_json) {
  std::mt19937_64 rng(20261201);
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    const Json doc = RandomDoc<Json>(rng, 0);
    for (int indent : {-1, 0, 2, 4}) {
      const std::string expected = Reference(doc, indent);
      const std::string got = JsonText(doc, indent);
      if (got != expected) {
        CAPTURE(indent);
        CHECK(got == expected);
        return;
      }
      ++compared;
    }
  }
  CHECK(compared == 80000);
}

TEST_CASE("JsonText replaces invalid UTF-8 and keeps valid text") {
  const nlohmann::json doc = {{"user", "al\xff" "ice"}, {"ok", "é €"}};
  CHECK(JsonText(doc) == "{\"ok\":\"é €\",\"user\":\"al\xEF\xBF\xBDice\"}");
  CHECK(JsonLine(doc, 1) == "{\n \"ok\": \"é €\",\n \"user\": \"al\xEF\xBF\xBDice\"\n}\n");
}

TEST_CASE("numbers are written as nlohmann writes them") {
  const nlohmann::json doc = {8e9, 0.1, 1e300, -0.0, 1.25e-7, 42, -7, 18446744073709551615u,
                              std::numeric_limits<double>::quiet_NaN()};
  CHECK(JsonText(doc) ==
        "[8000000000.0,0.1,1e+300,-0.0,1.25e-07,42,-7,18446744073709551615,null]");
}

}  // namespace
}  // namespace perfplan
