// RunTable: measured runs as read from a file or the profile store, before any interpretation.
//
// One row per run, one cell per column, every cell kept as the text that was read ("4g", "0.6",
// "true"), with the line it came from, so later stages (tuning/dataset.h) can report errors as
// file:line:field. Readers in profiles/ (CSV, ARFF) and, later, the Spark store fill this struct;
// tuning/ turns it into numbers. Plain value type: copy freely; thread-safe as any value.
#pragma once

#include <string>
#include <vector>

namespace perfplan::models {

// What a source declared about a column. CSV declares nothing; ARFF declares types.
enum class DeclaredType {
  kUnknown,  // no declaration (CSV): infer from the cells
  kNumeric,  // ARFF numeric/real/integer
  kNominal,  // ARFF {a,b,c}: categorical with the listed values
  kString,   // ARFF string
};

struct RunColumn {
  std::string name;
  DeclaredType declared = DeclaredType::kUnknown;
  std::vector<std::string> nominal_values;  // kNominal only, in declaration order
};

struct RunRow {
  int line = 0;                    // 1-based line of the row in `RunTable::source`; 0 if none
  std::vector<std::string> cells;  // one per column; "" or "?" = missing
};

struct RunTable {
  std::string source;  // file path as given, or e.g. "store:perfplan.db"
  std::vector<RunColumn> columns;
  std::vector<RunRow> rows;
};

}  // namespace perfplan::models
