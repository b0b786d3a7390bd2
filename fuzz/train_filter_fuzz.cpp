// libFuzzer target for the `--train EXPR` row filter of `fit`/`evaluate` (profiles/runtime/run_filter.h):
// any expression must parse against the runs-CSV header or give an InvalidArgument with a
// message, and a parsed filter must evaluate on a row — never a crash, a sanitizer report or a
// hang. Run with scripts/fuzz.sh.
#include <cstdint>
#include <string>
#include <vector>

#include "profiles/runtime/run_filter.h"
#include "profiles/runtime/runs_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c = perfplan::profiles::RunsCsvColumns();
    c.push_back("vcpus");
    c.push_back("note");
    return c;
  }();
  static const std::vector<std::vector<std::string>> rows = {
      {"em", "c4.large", "1e9", "2", "8", "125000000", "412.5", "true", "2", "first run"},
      {"kmeans", "m5.xlarge", "5e10", "4", "16", "1.25e9", "nan", "false", "4", ""},
      {"", "", "", "", "", "", "", "", "", ""},
  };
  const std::string expression(reinterpret_cast<const char*>(data), size);
  perfplan::Result<perfplan::profiles::RowFilter> filter =
      perfplan::profiles::ParseRowFilter(expression, columns, "--train");
  if (!filter.ok()) {
    if (filter.status().message().empty()) __builtin_trap();
    return 0;
  }
  for (const std::vector<std::string>& row : rows) {
    (void)perfplan::profiles::MatchesRow(filter.value(), row);
  }
  return 0;
}
