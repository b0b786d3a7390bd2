// libFuzzer target for the profile and topology readers (profiles/runtime/profile_reader.h,
// profiles/runtime/topology.h; YAML or JSON). The first byte picks the reader: 'T' topology, 'P'
// profile; any other byte: odd topology, even profile. A parsed topology also answers
// SiteScaling between its first and last site, as `predict --site` does. Any text must give a
// value or problems with messages — never a crash, an exception escaping, a sanitizer report or a
// hang. Run with scripts/fuzz.sh.
#include <cstdint>
#include <string>

#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/topology.h"

namespace {

void CheckProblems(const std::vector<perfplan::profiles::Problem>& problems) {
  for (const perfplan::profiles::Problem& p : problems) {
    if (p.message.empty()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const bool topology = data[0] == 'T' || (data[0] != 'P' && data[0] % 2 == 1);
  if (topology) {
    auto t = perfplan::profiles::ParseTopology(text, "fuzz.yaml");
    CheckProblems(t.problems);
    if (t.ok() && !t.value.sites.empty()) {
      (void)perfplan::profiles::SiteScaling(t.value, t.value.sites.front().name,
                                            t.value.sites.back().name);
      (void)perfplan::profiles::SiteScaling(t.value, "", t.value.sites.front().name);
    }
  } else {
    auto p = perfplan::profiles::ParseProfile(text, "fuzz.yaml");
    CheckProblems(p.problems);
  }
  return 0;
}
