// A plain-text table for human output: right-aligned numbers, left-aligned text.
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "models/text.h"

namespace perfplan::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : rows_{std::move(header)} {}
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }

  void Print(std::ostream& out) const {
    std::vector<std::size_t> width;
    for (const auto& row : rows_) {
      width.resize(std::max(width.size(), row.size()));
      for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    }
    for (const auto& row : rows_) {
      std::string line;
      for (std::size_t i = 0; i < row.size(); ++i) {
        const bool numeric =
            !row[i].empty() &&
            (std::isdigit(static_cast<unsigned char>(row[i][0])) || row[i][0] == '-');
        const std::string pad(width[i] - row[i].size(), ' ');
        line += i ? "  " : "";
        line += numeric ? pad + row[i] : row[i] + pad;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << "\n";
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

// Fixed-point number with `digits` decimals, e.g. Fixed(12.345, 1) == "12.3": the tables' short
// name for models::FormatFixed, the one fixed-point text of every writer.
inline std::string Fixed(double v, int digits) { return models::FormatFixed(v, digits); }

// Fixed(v, digits), or "-" where there is no value.
inline std::string FixedOrDash(const std::optional<double>& v, int digits) {
  return v ? Fixed(*v, digits) : "-";
}

// A fraction as a percentage with one decimal ("12.3%"), or "-" where there is no value.
inline std::string PercentOrDash(const std::optional<double>& v) {
  return v ? Fixed(100 * *v, 1) + "%" : "-";
}

// Human-readable bytes (decimal units): "4.00 GB".
inline std::string Bytes(double v) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (v >= 1000 && u < 5) v /= 1000, ++u;
  return Fixed(v, u ? 2 : 0) + " " + units[u];
}

// Human-readable bandwidth in bits per second, as networks are quoted: "10 Mb/s", "1.25 Gb/s".
inline std::string Bandwidth(double bytes_per_second) {
  double bits = bytes_per_second * 8;
  const char* units[] = {"b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s"};
  int u = 0;
  while (bits >= 1000 && u < 4) bits /= 1000, ++u;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s", bits, units[u]);
  return buf;
}

}  // namespace perfplan::cli
