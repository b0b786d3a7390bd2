// libFuzzer target for the Ganglia readers: XML by default, Ambari text after a leading 'A',
// ganglia-web JSON after a leading 'J'. Any input must give a value or an error, never a crash,
// a sanitizer report or unbounded memory. Build and run: scripts/fuzz.sh (see fuzz/CMakeLists.txt).
#include <cstdint>
#include <string_view>

#include "profiles/ganglia/ganglia.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (size > 0 && data[0] == 'A') {
    // A smaller points bound than kMaxAmbariPoints: "[~r]N" lines reaching the real bound are
    // correct and take ~1.5 s under this build's instrumentation, past the 1 s timeout, so the
    // fuzzer would spend its time on them; the bound's checks are the same code at any value.
    (void)perfplan::profiles::ParseAmbariRrdText(text.substr(1), "fuzz", 100'000);
  } else if (size > 0 && data[0] == 'J') {
    (void)perfplan::profiles::ParseGangliaWebJson(text.substr(1), "fuzz");
  } else {
    (void)perfplan::profiles::ParseGangliaXml(text, "fuzz");
  }
  return 0;
}
