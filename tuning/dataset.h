// Dataset: a RunTable turned into a numeric design matrix X (runs x parameters) and one target
// metric y, ready for the config-sensitivity models.
//
// Cells are parsed with Spark's units (tuning/spark_units.h): sizes become bytes, durations
// seconds. Text columns are categorical: one-hot encoded ("name=value" features) or rejected,
// per DatasetOptions. Values keep their original units here; standardization happens inside the
// models with training statistics (tuning/model.h). Plain values; thread-safe as any value.
#pragma once

#include <string>
#include <vector>

#include "models/run_table.h"
#include "models/status.h"
#include "tuning/spark_units.h"

namespace perfplan::tuning {

enum class CategoricalPolicy {
  kOneHot,  // each distinct value becomes a 0/1 feature "name=value"
  kReject,  // a text column is an error naming it
};

struct DatasetOptions {
  // Column to predict (a metric such as total time). Required.
  std::string target;
  // Columns that are neither parameters nor the target: other metrics, run ids, scores. Default
  // none. Names that are not columns are an error.
  std::vector<std::string> ignore;
  // What to do with text (categorical) parameter columns. Default one-hot.
  CategoricalPolicy categorical = CategoricalPolicy::kOneHot;
  // Drop parameters that never vary (with a warning) instead of failing. Default false: a
  // constant column usually means the wrong file or a forgotten --ignore.
  bool drop_constant = false;
  // Target values that mark failed runs (BestConf writes -1): such runs are dropped with a
  // warning naming their lines. Default none. A non-positive target that is not listed here is
  // kept, with a warning, because relative errors around it are meaningless.
  std::vector<double> failed_markers;

  // InvalidArgument naming the field when target is empty.
  Status Validate() const;
};

// One column of X.
struct Feature {
  std::string name;       // parameter name; "param=value" for a one-hot feature
  std::string parameter;  // the source column (the Spark property)
  std::string category;   // the one-hot value, or "" for a numeric parameter
  Unit unit = Unit::kNone;
  bool integer = false;  // every training value is a whole number
  double min = 0;        // training range, original units
  double max = 0;
};

struct Dataset {
  std::string source;  // where the runs came from (file path or store)
  std::string target;
  std::vector<Feature> features;
  std::vector<std::vector<double>> x;  // x[run][feature], original units
  std::vector<double> y;               // target per run
  std::vector<int> lines;              // source line of each run
  // Runs dropped because their target is a failure marker (DatasetOptions::failed_markers):
  // their configurations (same features) and lines, for the failure model (tuning/failure.h).
  std::vector<std::vector<double>> failed_x;
  std::vector<int> failed_lines;
  std::vector<std::string> warnings;   // e.g. dropped constant parameters

  std::size_t runs() const { return y.size(); }
};

// Builds the dataset. Fails with InvalidArgument, listing every problem as
// "FILE:LINE: COLUMN: message" (one per line), when: the target is not a column (the message
// lists the columns), a cell is missing, NaN or infinite, a target cell is not numeric, a
// parameter column mixes values with and without units or sizes with durations, a text column
// meets CategoricalPolicy::kReject, a parameter (or the target) is constant and drop_constant is
// false, or no parameter or fewer than two runs remain.
Result<Dataset> BuildDataset(const models::RunTable& table, const DatasetOptions& settings);

}  // namespace perfplan::tuning
