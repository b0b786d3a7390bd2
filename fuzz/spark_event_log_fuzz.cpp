// libFuzzer target for Spark event-log lines through the event decoder and replay of
// `ingest spark` (profiles/spark/spark_ingest.h): the input is the content of one plain event log (JSON
// lines); it is written to a temp file and ingested into an in-memory store, exactly the path the
// CLI takes. Bad events, truncated lines and logs without an application must land in the
// summary's skipped list — never a crash, an exception escaping, a sanitizer report or a hang.
// Run with scripts/fuzz.sh.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz/fuzz_temp_file.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"

namespace {

// A fresh in-memory store every kInputsPerStore inputs keeps memory bounded.
constexpr int kInputsPerStore = 256;

perfplan::profiles::Store& FuzzStore() {
  static std::unique_ptr<perfplan::profiles::Store> store;
  static int uses = 0;
  if (store == nullptr || ++uses >= kInputsPerStore) {
    store.reset();
    uses = 0;
    auto opened =
        perfplan::profiles::Store::Open(":memory:", {perfplan::profiles::spark::StoreMigrations()});
    if (!opened.ok()) __builtin_trap();
    store = std::move(opened).value();
  }
  return *store;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = perfplan::fuzz::WriteTempFile(
      "app-fuzz", std::string_view(reinterpret_cast<const char*>(data), size));
  perfplan::Result<perfplan::profiles::spark::IngestSummary> summary =
      perfplan::profiles::spark::IngestEventLogs(FuzzStore(), {path});
  if (!summary.ok() && summary.status().message().empty()) __builtin_trap();
  if (summary.ok()) {
    for (const auto& s : summary.value().skipped) {
      if (s.reason.empty()) __builtin_trap();
    }
  }
  return 0;
}
