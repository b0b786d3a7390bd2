// libFuzzer target for the Ganglia readers: XML by default, Ambari text after a leading 'A',
// ganglia-web JSON after a leading 'J'. Any input must give a value or an error, never a crash,
// a sanitizer report or unbounded memory. Build with clang:
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DPERFPLAN_BUILD_FUZZ=ON
//   ninja -C build-fuzz ganglia_fuzz
//   build-fuzz/tests/profiles/ganglia_fuzz -max_total_time=120 -max_len=20000 CORPUS_DIR
// (seed CORPUS_DIR with the files of ../shared/data/03-ganglia, prefixed as above).
#include <cstdint>
#include <string_view>

#include "profiles/ganglia.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (size > 0 && data[0] == 'A') {
    (void)perfplan::profiles::ParseAmbariRrdText(text.substr(1), "fuzz");
  } else if (size > 0 && data[0] == 'J') {
    (void)perfplan::profiles::ParseGangliaWebJson(text.substr(1), "fuzz");
  } else {
    (void)perfplan::profiles::ParseGangliaXml(text, "fuzz");
  }
  return 0;
}
