// libFuzzer target for the mixture expression of `simulate hindex --mixture` (models/mixture.h):
// any text must parse or give an InvalidArgument with a message; a parsed mixture must print in a
// canonical form that parses again, give a true H-index or a Status, and draw finite-or-normal
// samples — never a crash, a sanitizer report or a hang. Run with scripts/fuzz.sh.
#include <cstdint>
#include <string>
#include <string_view>

#include "models/mixture.h"
#include "models/random.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  perfplan::Result<perfplan::models::Mixture> mixture = perfplan::models::ParseMixture(text);
  if (!mixture.ok()) {
    if (mixture.status().message().empty()) __builtin_trap();
    return 0;
  }
  const std::string canonical = perfplan::models::ToString(mixture.value());
  if (!perfplan::models::ParseMixture(canonical).ok()) __builtin_trap();
  (void)perfplan::models::ComputeTrueHIndex(mixture.value());
  perfplan::models::Rng rng(1);
  (void)perfplan::models::Sample(mixture.value(), 16, rng);
  return 0;
}
