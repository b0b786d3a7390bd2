// libFuzzer target for the run tables: the runs CSV of `fit`/`evaluate` (profiles/runtime/runs_csv.h) and
// the tuning tables of `tune` (profiles/tuning/run_table_reader.h: CSV, ARFF, libsvm) turned into a
// dataset (tuning/dataset.h), as the CLI does. The first byte picks the reader:
//   'R' runs CSV, 'C' tuning CSV, 'A' ARFF, 'L' libsvm; any other byte: by its value modulo 4.
// Any text must give a value or problems with messages — never a crash, an exception escaping, a
// sanitizer report or a hang. Run with scripts/fuzz.sh.
#include <cstdint>
#include <string>

#include "models/run_table.h"
#include "profiles/tuning/run_table_reader.h"
#include "profiles/runtime/runs_csv.h"
#include "tuning/dataset.h"

namespace {

void CheckProblems(const std::vector<perfplan::profiles::Problem>& problems) {
  for (const perfplan::profiles::Problem& p : problems) {
    if (p.message.empty()) __builtin_trap();
  }
}

// The dataset `tune` would build with the last column as the target (and the first ignored,
// when there are at least three), one-hot and reject policies both.
void Build(const perfplan::models::RunTable& table) {
  if (table.columns.empty()) return;
  for (auto policy : {perfplan::tuning::CategoricalPolicy::kOneHot,
                      perfplan::tuning::CategoricalPolicy::kReject}) {
    perfplan::tuning::DatasetOptions settings;
    settings.target = table.columns.back().name;
    if (table.columns.size() >= 3) settings.ignore.push_back(table.columns.front().name);
    settings.categorical = policy;
    settings.drop_constant = policy == perfplan::tuning::CategoricalPolicy::kOneHot;
    settings.failed_markers = {-1};
    perfplan::Result<perfplan::tuning::Dataset> ds =
        perfplan::tuning::BuildDataset(table, settings);
    if (!ds.ok() && ds.status().message().empty()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  char kind = static_cast<char>(data[0]);
  if (kind != 'R' && kind != 'C' && kind != 'A' && kind != 'L') kind = "RCAL"[data[0] % 4];
  if (kind == 'R') {
    auto runs = perfplan::profiles::ParseRunsCsv(text, "fuzz.csv");
    CheckProblems(runs.problems);
    if (runs.ok()) (void)perfplan::profiles::WriteRunsCsv(runs.value.runs);
    return 0;
  }
  perfplan::profiles::Loaded<perfplan::models::RunTable> table =
      kind == 'C'   ? perfplan::profiles::ParseCsvRuns(text, "fuzz.csv")
      : kind == 'A' ? perfplan::profiles::ParseArffRuns(text, "fuzz.arff")
                    : perfplan::profiles::ParseLibsvmRuns(text, "fuzz.libsvm");
  CheckProblems(table.problems);
  if (table.ok()) Build(table.value);
  return 0;
}
