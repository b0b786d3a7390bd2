// The one SVG chart writer of perfplan (the HTML report, `perfplan hindex --svg`): line charts,
// scatter plots (optionally with the y = x line) and stacked bar charts, each a self-contained
// <svg> element with a <title>, a visible title, both axis labels (callers put the unit in the
// label, e.g. "runtime (s)") and tick labels. All text is XML-escaped. Pure functions; thread-safe.
// Input values in any unit; non-finite values are skipped.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace perfplan::planner {

// Escapes &, <, >, " and ' for XML text and attribute values.
std::string XmlEscape(const std::string& text);

struct ChartSeries {
  std::string name;                               // legend text
  std::vector<std::pair<double, double>> points;  // (x, y), in the axes' units
  std::string color = "#2471a3";
  bool dashed = false;
  bool dots = false;  // LineChartSvg: a dot at each point instead of a line (measured runs)
};

struct XYChart {
  std::string title;
  std::string x_label, y_label;  // with units
  std::vector<ChartSeries> series;
  bool identity_line = false;  // draw y = x over the common range (scatter: predicted vs measured)
  std::string identity_label = "y = x";  // its legend text
  bool start_at_zero = true;   // axes include 0
  std::vector<std::pair<double, std::string>> x_markers;  // vertical dashed lines with a label
};

// Polylines through each series' points (in the order given).
std::string LineChartSvg(const XYChart& chart);
// Dots at each series' points.
std::string ScatterChartSvg(const XYChart& chart);

struct BarChart {
  std::string title;
  std::string x_label, y_label;            // y_label with units
  std::vector<std::string> categories;     // one bar (stack) per category
  std::vector<std::string> segment_names;  // one per stacked segment; legend
  // values[c][s]: segment s of category c (>= 0). Size categories × segment_names.
  std::vector<std::vector<double>> values;
  // Segments side by side instead of stacked.
  bool grouped = false;
};

std::string BarChartSvg(const BarChart& chart);

// A palette of distinguishable colors, cycled by index.
std::string ChartColor(std::size_t index);

}  // namespace perfplan::planner
