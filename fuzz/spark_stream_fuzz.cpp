// libFuzzer target for the Spark event-log stream reader (profiles/spark/spark_log_reader.h) with every
// compression framing. The first byte picks the file name's codec extension (value modulo 6:
// plain, .zstd, .lz4 (lz4-java block framing), .snappy (snappy-java), .lzf, .gz); the rest is the
// file's content, read line by line through EventLineReader as `ingest spark` reads it, so the
// fuzzer reaches each framing's header, block and checksum parsing. Corrupt streams must end in
// skipped() with a reason — never a crash, a sanitizer report, unbounded memory or a hang.
// Run with scripts/fuzz.sh.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_temp_file.h"
#include "profiles/spark/spark_log_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"app-fuzz",        "app-fuzz.zstd", "app-fuzz.lz4",
                                       "app-fuzz.snappy", "app-fuzz.lzf",  "app-fuzz.gz"};
  const std::string path = perfplan::fuzz::WriteTempFile(
      kNames[data[0] % 6], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  perfplan::profiles::spark::EventLogSource source;
  source.name = path;
  source.parts = {path};
  {
    perfplan::profiles::spark::EventLineReader reader(source);
    std::string_view line;
    std::size_t bytes = 0;
    while (reader.Next(&line)) bytes += line.size();
    for (const auto& s : reader.skipped()) {
      if (s.reason.empty()) __builtin_trap();
    }
    (void)bytes;
  }
  std::remove(path.c_str());
  return 0;
}
