#include "models/fnv1a.h"

#include <doctest/doctest.h>

#include <string_view>

namespace perfplan::models {
namespace {

TEST_CASE("Fnv1a64 gives the published FNV-1a 64 test vectors from the published basis") {
  static_assert(Fnv1a64("") == kFnv1a64Offset);
  CHECK(Fnv1a64Hex("") == "cbf29ce484222325");
  CHECK(Fnv1a64Hex("a") == "af63dc4c8601ec8c");
  CHECK(Fnv1a64Hex("foobar") == "85944171f73967e8");
  CHECK(Fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
}

TEST_CASE("From the short basis the sums are the ones the HDFS store has stored") {
  CHECK(Fnv1a64Hex("", kFnv1a64ShortOffset) == "14650fb0739d0383");
  CHECK(Fnv1a64Hex("a", kFnv1a64ShortOffset) == "44bd8ad473cd9906");
}

TEST_CASE("Fnv1a64Hex keeps leading zeros and reads every byte, NUL and high bytes alike") {
  CHECK(Fnv1a64Hex("", 0x1) == "0000000000000001");
  CHECK(Fnv1a64Hex(std::string_view("a\0b", 3)) != Fnv1a64Hex("ab"));
  CHECK(Fnv1a64Hex("\xff") == "af64724c8602eb6e");
}

}  // namespace
}  // namespace perfplan::models
