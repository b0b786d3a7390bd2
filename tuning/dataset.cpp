#include "tuning/dataset.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace perfplan::tuning {
namespace {

std::string Where(const std::string& file, int line, const std::string& column) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  return out + ": " + column + ": ";
}

bool IsMissing(const std::string& cell) { return cell.empty() || cell == "?"; }

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string Lines(const std::vector<int>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < 10; ++i) {
    out += (i ? ", " : "") + std::to_string(lines[i]);
  }
  if (lines.size() > 10) out += ", ...";
  return out;
}

// Removes runs whose target is a failure marker; warns about other non-positive targets.
// Feature ranges stay those of all parsed runs except the dropped ones.
Result<Dataset> DropFailedRuns(Dataset ds, const DatasetOptions& settings) {
  std::vector<int> dropped, nonpositive;
  Dataset out = ds;
  out.x.clear();
  out.y.clear();
  out.lines.clear();
  for (std::size_t r = 0; r < ds.runs(); ++r) {
    const bool failed = std::find(settings.failed_markers.begin(), settings.failed_markers.end(),
                                  ds.y[r]) != settings.failed_markers.end();
    if (failed) {
      dropped.push_back(ds.lines[r]);
      out.failed_x.push_back(ds.x[r]);
      out.failed_lines.push_back(ds.lines[r]);
      continue;
    }
    if (ds.y[r] <= 0) nonpositive.push_back(ds.lines[r]);
    out.x.push_back(ds.x[r]);
    out.y.push_back(ds.y[r]);
    out.lines.push_back(ds.lines[r]);
  }
  if (!dropped.empty()) {
    out.warnings.push_back("dropped " + std::to_string(dropped.size()) +
                           " failed run(s) (target is a failure marker) at line(s) " +
                           Lines(dropped));
    for (std::size_t j = 0; j < out.features.size(); ++j) {
      Feature& f = out.features[j];
      f.min = f.max = out.x.empty() ? 0.0 : out.x[0][j];
      for (const auto& row : out.x) {
        f.min = std::min(f.min, row[j]);
        f.max = std::max(f.max, row[j]);
      }
      if (f.min == f.max) {
        return Status::InvalidArgument(ds.source + ": " + f.name +
                                       ": constant once failed runs are dropped");
      }
    }
  }
  if (!nonpositive.empty()) {
    out.warnings.push_back(settings.target + " is zero or negative at line(s) " +
                           Lines(nonpositive) +
                           "; if these mark failed runs, declare the marker (failed_marker, "
                           "e.g. -1)");
  }
  if (out.runs() < 2) {
    return Status::InvalidArgument(ds.source + ": " + std::to_string(out.runs()) +
                                   " run(s) left after dropping failed runs; a model needs at "
                                   "least 2");
  }
  return out;
}

}  // namespace

Status DatasetOptions::Validate() const {
  if (target.empty()) {
    return Status::InvalidField("target", "empty; name the metric column to predict");
  }
  return Status::Ok();
}

Result<Dataset> BuildDataset(const models::RunTable& table, const DatasetOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  const std::string& file = table.source;
  std::vector<std::string> problems;
  std::vector<std::string> names;
  for (const auto& c : table.columns) names.push_back(c.name);

  int target_col = -1;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns[c].name == settings.target) target_col = static_cast<int>(c);
  }
  if (target_col < 0) {
    return Status::InvalidArgument(file + ": target column \"" + settings.target +
                                   "\" not found; columns are: " + JoinNames(names));
  }
  std::set<std::string> ignored;
  for (const auto& name : settings.ignore) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return Status::InvalidArgument(file + ": ignored column \"" + name +
                                     "\" not found; columns are: " + JoinNames(names));
    }
    ignored.insert(name);
  }
  if (table.rows.size() < 2) {
    return Status::InvalidArgument(file + ": " + std::to_string(table.rows.size()) +
                                   " run(s); a model needs at least 2");
  }

  Dataset ds;
  ds.source = file;
  ds.target = settings.target;
  const std::size_t n = table.rows.size();
  std::vector<std::vector<double>> columns;  // feature-major while building

  // Target.
  for (const auto& row : table.rows) {
    const std::string& cell = row.cells[target_col];
    ds.lines.push_back(row.line);
    if (IsMissing(cell)) {
      problems.push_back(Where(file, row.line, settings.target) + "missing target value");
      ds.y.push_back(0);
      continue;
    }
    Result<Quantity> q = ParseSparkQuantity(cell, UnitHint::kAuto);
    if (!q.ok()) {
      problems.push_back(Where(file, row.line, settings.target) + q.status().message());
      ds.y.push_back(0);
    } else {
      ds.y.push_back(q.value().value);
    }
  }

  std::vector<std::string> categorical_rejected;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const models::RunColumn& col = table.columns[c];
    if (static_cast<int>(c) == target_col || ignored.count(col.name)) continue;
    bool categorical = col.declared == models::DeclaredType::kNominal ||
                       col.declared == models::DeclaredType::kString;
    std::vector<std::string> cell_problems;
    std::vector<double> values(n, 0.0);
    Unit unit = Unit::kNone;
    if (!categorical) {
      // Decide the unit kind: the property name first, then unambiguous suffixes in the cells.
      UnitHint hint = UnitHintFor(col.name);
      bool saw_bytes = false, saw_seconds = false;
      for (const auto& row : table.rows) {
        UnitHint k = SuffixKind(row.cells[c]);
        saw_bytes |= k == UnitHint::kBytes;
        saw_seconds |= k == UnitHint::kSeconds;
      }
      if (hint == UnitHint::kAuto && saw_bytes && !saw_seconds) hint = UnitHint::kBytes;
      if (hint == UnitHint::kAuto && saw_seconds && !saw_bytes) hint = UnitHint::kSeconds;
      bool saw_plain = false, saw_unit = false;
      int first_plain_line = 0;
      bool all_text = true;
      for (std::size_t r = 0; r < n; ++r) {
        const auto& row = table.rows[r];
        const std::string& cell = row.cells[c];
        if (IsMissing(cell)) {
          cell_problems.push_back(Where(file, row.line, col.name) + "missing value");
          continue;
        }
        Result<Quantity> q = ParseSparkQuantity(cell, hint);
        if (!q.ok()) {
          cell_problems.push_back(Where(file, row.line, col.name) + q.status().message());
          continue;
        }
        all_text = false;
        values[r] = q.value().value;
        if (q.value().unit == Unit::kNone) {
          if (!saw_plain) first_plain_line = row.line;
          saw_plain = true;
        } else {
          saw_unit = true;
          if (unit != Unit::kNone && unit != q.value().unit) {
            cell_problems.push_back(Where(file, row.line, col.name) +
                                    "mixes sizes and durations in one column");
          }
          unit = q.value().unit;
        }
      }
      // A column whose every cell is text is categorical (unless the source declared it
      // numeric); a column with some numbers and some text is an error per bad cell.
      if (all_text && col.declared == models::DeclaredType::kUnknown) {
        bool any_nan = false;
        for (const auto& row : table.rows) {
          const std::string lower = row.cells[c];
          any_nan |= lower == "NaN" || lower == "nan" || lower == "inf" || lower == "-inf";
        }
        if (!any_nan) {
          categorical = true;
          cell_problems.clear();
        }
      }
      if (!categorical && saw_plain && saw_unit) {
        cell_problems.push_back(Where(file, first_plain_line, col.name) +
                                "mixes values with and without units; write the unit on every "
                                "value (e.g. 512m)");
      }
    }
    if (categorical) {
      if (settings.categorical == CategoricalPolicy::kReject) {
        categorical_rejected.push_back(col.name);
        continue;
      }
      std::vector<std::string> levels = col.nominal_values;
      for (const auto& row : table.rows) {
        const std::string& cell = row.cells[c];
        if (IsMissing(cell)) {
          problems.push_back(Where(file, row.line, col.name) + "missing value");
        } else if (std::find(levels.begin(), levels.end(), cell) == levels.end()) {
          if (col.declared == models::DeclaredType::kNominal) {
            problems.push_back(Where(file, row.line, col.name) + "value \"" + cell +
                               "\" is not one of the declared values {" +
                               JoinNames(col.nominal_values) + "}");
          } else {
            levels.push_back(cell);
          }
        }
      }
      for (const auto& level : levels) {
        Feature f;
        f.name = col.name + "=" + level;
        f.parameter = col.name;
        f.category = level;
        f.integer = true;
        std::vector<double> v(n);
        for (std::size_t r = 0; r < n; ++r) v[r] = table.rows[r].cells[c] == level ? 1.0 : 0.0;
        ds.features.push_back(f);
        columns.push_back(std::move(v));
      }
      continue;
    }
    problems.insert(problems.end(), cell_problems.begin(), cell_problems.end());
    Feature f;
    f.name = col.name;
    f.parameter = col.name;
    f.unit = unit;
    ds.features.push_back(f);
    columns.push_back(std::move(values));
  }
  if (!categorical_rejected.empty()) {
    problems.push_back(file + ": categorical parameter column(s) " +
                       JoinNames(categorical_rejected) +
                       " hold text; encode them as numbers, ignore them, or allow one-hot "
                       "encoding");
  }

  // Ranges, integrality, constant columns.
  std::vector<std::string> constant;
  std::vector<Feature> kept_features;
  std::vector<std::vector<double>> kept_columns;
  for (std::size_t j = 0; j < ds.features.size(); ++j) {
    Feature& f = ds.features[j];
    const auto& v = columns[j];
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    f.min = *lo;
    f.max = *hi;
    f.integer = std::all_of(v.begin(), v.end(), [](double x) { return x == std::round(x); });
    if (f.min == f.max) {
      constant.push_back(f.name);
      continue;
    }
    kept_features.push_back(f);
    kept_columns.push_back(v);
  }
  if (!constant.empty()) {
    if (settings.drop_constant) {
      ds.warnings.push_back("dropped constant parameter(s): " + JoinNames(constant));
    } else {
      problems.push_back(file + ": constant parameter column(s) " + JoinNames(constant) +
                         ": a parameter that never varies carries no information; ignore it or "
                         "drop constant columns");
    }
  }
  if (problems.empty()) {
    auto [lo, hi] = std::minmax_element(ds.y.begin(), ds.y.end());
    if (*lo == *hi) {
      problems.push_back(file + ": " + settings.target +
                         ": the target is constant; there is nothing to model");
    }
  }
  if (problems.empty() && kept_features.empty()) {
    // Say which columns were dropped and why, and what would help.
    std::string why = file + ": no parameter columns left to model " + settings.target;
    if (!constant.empty()) {
      why += ": dropped as constant over the " + std::to_string(n) +
             " run(s): " + JoinNames(constant);
    }
    if (!settings.ignore.empty()) {
      why += (constant.empty() ? ": " : "; ") + std::to_string(settings.ignore.size()) +
             " column(s) ignored as metrics or by request";
    }
    why += "; a model needs runs that differ in at least one parameter (and, for "
           "cross-validation, at least as many runs as folds: 5 by default)";
    problems.push_back(why);
  }
  if (!problems.empty()) {
    std::string message;
    constexpr std::size_t kMaxListed = 20;
    for (std::size_t i = 0; i < problems.size() && i < kMaxListed; ++i) {
      message += (i ? "\n" : "") + problems[i];
    }
    if (problems.size() > kMaxListed) {
      message += "\n... and " + std::to_string(problems.size() - kMaxListed) + " more problems";
    }
    return Status::InvalidArgument(message);
  }
  ds.features = std::move(kept_features);
  ds.x.assign(n, std::vector<double>(ds.features.size()));
  for (std::size_t j = 0; j < ds.features.size(); ++j) {
    for (std::size_t r = 0; r < n; ++r) ds.x[r][j] = kept_columns[j][r];
  }
  return DropFailedRuns(std::move(ds), settings);
}

}  // namespace perfplan::tuning
