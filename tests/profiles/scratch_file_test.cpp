#include "profiles/scratch_file.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace perfplan::profiles {
namespace {

std::size_t ScratchNamesIn(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    n += entry.path().filename().string().rfind("perfplan-scratch-", 0) == 0;
  }
  return n;
}

TEST_CASE("a scratch file reads back what was appended, at any offset, and leaves no name") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::size_t before = ScratchNamesIn(dir);
  auto file = OpenScratchFile();
  REQUIRE(file.ok());
  CHECK(ScratchNamesIn(dir) == before);  // unlinked at once
  models::ScratchFile& f = *file.value();
  std::vector<char> bytes(100000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  REQUIRE(f.Append(bytes.data(), 60000).ok());
  REQUIRE(f.Append(bytes.data() + 60000, 40000).ok());
  std::vector<char> out(3);
  REQUIRE(f.Read(59999, out.data(), 3).ok());
  CHECK(out == std::vector<char>{bytes[59999], bytes[60000], bytes[60001]});
  CHECK(f.Read(99999, out.data(), 3).message() == "scratch file: read past its end");
}

}  // namespace
}  // namespace perfplan::profiles
