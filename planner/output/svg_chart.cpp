#include "planner/output/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace perfplan::planner {
namespace {

constexpr double kWidth = 720, kHeight = 440;
constexpr double kLeft = 84, kRight = 24, kTop = 64, kBottom = 84;
constexpr double kPlotWidth = kWidth - kLeft - kRight;
constexpr double kPlotHeight = kHeight - kTop - kBottom;
constexpr std::size_t kMaxDrawnPoints = 2000;

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string Tick(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void Add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  void Finish(bool zero) {
    if (!std::isfinite(lo)) lo = 0, hi = 1;
    if (zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
    if (hi - lo <= 0) hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1);
  }
};

// About five round ticks covering [lo, hi].
std::vector<double> Ticks(double lo, double hi) {
  const double raw = (hi - lo) / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push_back(t);
  return ticks;
}

// Width of `text` at `font_size` in sans-serif, from above: 0.62 em per character (UTF-8
// continuation bytes not counted), wider than the average glyph of DejaVu Sans / Liberation Sans.
double TextWidth(const std::string& text, double font_size) {
  std::size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80 ? 1 : 0;
  return 0.62 * font_size * static_cast<double>(chars);
}

// `text` cut to at most `width` at `font_size`, with "…" when cut (whole UTF-8 characters).
std::string Fit(const std::string& text, double width, double font_size) {
  if (TextWidth(text, font_size) <= width) return text;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = 1;
    while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
    if (TextWidth(out + text.substr(i, n) + "…", font_size) > width) break;
    out += text.substr(i, n);
    i += n;
  }
  return out + "…";
}

std::string Header(const std::string& title, const std::string& x_label,
                   const std::string& y_label, double height = kHeight) {
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" +
                  Num(kWidth) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(kWidth) +
                  " " + Num(height) +
                  "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n";
  s += "<title>" + XmlEscape(title) + "</title>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text class=\"chart-title\" x=\"" + Num(kLeft) + "\" y=\"22\" font-size=\"15\">" +
       XmlEscape(Fit(title, kWidth - kLeft - 4, 15)) + "</text>\n";
  s += "<text class=\"x-label\" x=\"" + Num(kLeft + kPlotWidth / 2) + "\" y=\"" +
       Num(kHeight - 12) + "\" text-anchor=\"middle\">" +
       XmlEscape(Fit(x_label, kPlotWidth, 12)) + "</text>\n";
  s += "<text class=\"y-label\" transform=\"translate(18," + Num(kTop + kPlotHeight / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + XmlEscape(Fit(y_label, kPlotHeight, 12)) +
       "</text>\n";
  s += "<rect x=\"" + Num(kLeft) + "\" y=\"" + Num(kTop) + "\" width=\"" + Num(kPlotWidth) +
       "\" height=\"" + Num(kPlotHeight) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  return s;
}

std::string Legend(const std::vector<std::pair<std::string, std::string>>& items) {
  // Items in one row under the title: (name, color); what does not fit in the row is cut with
  // "…" (the series' full names are in the figure's caption and the report's tables).
  std::string s;
  double x = kLeft;
  for (const auto& [name, color] : items) {
    const double room = kWidth - 4 - (x + 18);
    if (room < 40) break;
    const std::string shown = Fit(name, room, 12);
    s += "<rect x=\"" + Num(x) + "\" y=\"36\" width=\"14\" height=\"10\" fill=\"" + color +
         "\"/>\n<text x=\"" + Num(x + 18) + "\" y=\"45\">" + XmlEscape(shown) + "</text>\n";
    x += 30 + TextWidth(shown, 12);
  }
  return s;
}

class Axes {
 public:
  Axes(Range x, Range y) : x_(x), y_(y) {}
  double X(double v) const { return kLeft + (v - x_.lo) / (x_.hi - x_.lo) * kPlotWidth; }
  double Y(double v) const { return kTop + (1 - (v - y_.lo) / (y_.hi - y_.lo)) * kPlotHeight; }
  std::string TickLabels() const {
    std::string s;
    for (double t : Ticks(x_.lo, x_.hi)) {
      s += "<line x1=\"" + Num(X(t)) + "\" y1=\"" + Num(kTop + kPlotHeight) + "\" x2=\"" +
           Num(X(t)) + "\" y2=\"" + Num(kTop + kPlotHeight + 5) + "\" stroke=\"#444\"/>\n";
      s += "<text x=\"" + Num(X(t)) + "\" y=\"" + Num(kTop + kPlotHeight + 18) +
           "\" text-anchor=\"middle\">" + Tick(t) + "</text>\n";
    }
    for (double t : Ticks(y_.lo, y_.hi)) {
      s += "<line x1=\"" + Num(kLeft - 5) + "\" y1=\"" + Num(Y(t)) + "\" x2=\"" +
           Num(kLeft + kPlotWidth) + "\" y2=\"" + Num(Y(t)) + "\" stroke=\"#e5e5e5\"/>\n";
      s += "<text x=\"" + Num(kLeft - 8) + "\" y=\"" + Num(Y(t) + 4) + "\" text-anchor=\"end\">" +
           Tick(t) + "</text>\n";
    }
    return s;
  }
  const Range& x() const { return x_; }
  const Range& y() const { return y_; }

 private:
  Range x_, y_;
};

Axes XYAxes(const XYChart& chart) {
  Range x, y;
  for (const ChartSeries& s : chart.series)
    for (const auto& [px, py] : s.points) x.Add(px), y.Add(py);
  if (chart.identity_line) {  // same range on both axes so y = x is the diagonal
    x.Add(y.lo), x.Add(y.hi), y.Add(x.lo), y.Add(x.hi);
  }
  x.Finish(chart.start_at_zero);
  y.Finish(chart.start_at_zero);
  return Axes(x, y);
}

std::string XYCommon(const XYChart& chart, const Axes& axes) {
  std::string s = Header(chart.title, chart.x_label, chart.y_label) + axes.TickLabels();
  std::vector<std::pair<std::string, std::string>> legend;
  for (const ChartSeries& series : chart.series) legend.emplace_back(series.name, series.color);
  if (chart.identity_line) {
    const double lo = std::max(axes.x().lo, axes.y().lo), hi = std::min(axes.x().hi, axes.y().hi);
    s += "<path class=\"identity\" d=\"M" + Num(axes.X(lo)) + "," + Num(axes.Y(lo)) + " L" +
         Num(axes.X(hi)) + "," + Num(axes.Y(hi)) +
         "\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"8 4\"/>\n";
    legend.emplace_back(chart.identity_label, "#888");
  }
  for (const auto& [x, label] : chart.x_markers) {
    if (!std::isfinite(x)) continue;
    s += "<path class=\"marker\" d=\"M" + Num(axes.X(x)) + "," + Num(kTop) + " L" + Num(axes.X(x)) +
         "," + Num(kTop + kPlotHeight) + "\" stroke=\"#555\" stroke-dasharray=\"2 3\"/>\n";
    // Right of the line, or left of it where the label would leave the chart.
    const double width = TextWidth(label, 12);
    const double at = axes.X(x) + 4 + width <= kWidth - 4 ? axes.X(x) + 4 : axes.X(x) - 4 - width;
    s += "<text x=\"" + Num(at) + "\" y=\"" + Num(kTop + 14) + "\">" + XmlEscape(label) +
         "</text>\n";
  }
  return s + Legend(legend);
}

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string ChartColor(std::size_t index) {
  static const char* kColors[] = {"#2471a3", "#c0392b", "#27ae60", "#8e44ad",
                                  "#d68910", "#17a589", "#7f8c8d", "#a93226"};
  return kColors[index % (sizeof kColors / sizeof kColors[0])];
}

std::string LineChartSvg(const XYChart& chart) {
  const Axes axes = XYAxes(chart);
  std::string s = XYCommon(chart, axes);
  for (const ChartSeries& series : chart.series) {
    if (series.dots) {
      for (const auto& [x, y] : series.points) {
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        s += "<circle class=\"point\" cx=\"" + Num(axes.X(x)) + "\" cy=\"" + Num(axes.Y(y)) +
             "\" r=\"4\" fill=\"none\" stroke=\"" + series.color + "\" stroke-width=\"1.5\"/>\n";
      }
      continue;
    }
    std::string d;
    const std::size_t n = series.points.size();
    const std::size_t step = std::max<std::size_t>(1, n / kMaxDrawnPoints);
    for (std::size_t i = 0; i < n; i = (i + 1 < n && i + step >= n) ? n - 1 : i + step) {
      const auto& [x, y] = series.points[i];
      if (std::isfinite(x) && std::isfinite(y))
        d += (d.empty() ? "M" : " L") + Num(axes.X(x)) + "," + Num(axes.Y(y));
      if (i + 1 == n) break;
    }
    if (d.empty()) continue;
    s += "<path class=\"series\" d=\"" + d + "\" fill=\"none\" stroke=\"" + series.color +
         "\" stroke-width=\"2\"" + (series.dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>\n";
  }
  return s + "</svg>\n";
}

std::string ScatterChartSvg(const XYChart& chart) {
  const Axes axes = XYAxes(chart);
  std::string s = XYCommon(chart, axes);
  // The first series as filled dots, every later one as rings two pixels wider than the one
  // before, so a point of one series never hides another's at the same place.
  for (std::size_t k = 0; k < chart.series.size(); ++k) {
    const ChartSeries& series = chart.series[k];
    const std::string style =
        k == 0 ? "r=\"4\" fill=\"" + series.color + "\" fill-opacity=\"0.8\""
               : "r=\"" + Num(4 + 2.5 * static_cast<double>(k)) + "\" fill=\"none\" stroke=\"" +
                     series.color + "\" stroke-width=\"1.5\"";
    for (const auto& [x, y] : series.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      s += "<circle class=\"point\" cx=\"" + Num(axes.X(x)) + "\" cy=\"" + Num(axes.Y(y)) +
           "\" " + style + "/>\n";
    }
  }
  return s + "</svg>\n";
}

std::string BarChartSvg(const BarChart& chart) {
  Range x, y;
  x.lo = 0, x.hi = 1;
  for (const auto& row : chart.values) {
    double total = 0;
    for (double v : row) {
      if (!std::isfinite(v) || v < 0) continue;
      total += v;
      y.Add(v);
    }
    if (!chart.grouped) y.Add(total);
  }
  y.Finish(true);
  const Axes axes(x, y);
  const std::size_t count = chart.categories.size();
  const double slot = count ? kPlotWidth / static_cast<double>(count) : kPlotWidth;
  // Category names under their bars when every one fits its slot; otherwise the bars are
  // numbered and a key below the axis title names them, in columns (never rotated: rotated names
  // ran into the axis title and out of the frame).
  bool numbered = false;
  for (const std::string& c : chart.categories) numbered |= TextWidth(c, 11) > slot - 4;
  constexpr double kKeyColumns = 2, kKeyRow = 15;
  const double key_rows =
      numbered ? std::ceil(static_cast<double>(count) / kKeyColumns) : 0;
  const double height = kHeight + (numbered ? 8 + key_rows * kKeyRow : 0);
  std::string s = Header(chart.title, chart.x_label, chart.y_label, height);
  for (double t : Ticks(y.lo, y.hi)) {
    s += "<line x1=\"" + Num(kLeft - 5) + "\" y1=\"" + Num(axes.Y(t)) + "\" x2=\"" +
         Num(kLeft + kPlotWidth) + "\" y2=\"" + Num(axes.Y(t)) + "\" stroke=\"#e5e5e5\"/>\n";
    s += "<text x=\"" + Num(kLeft - 8) + "\" y=\"" + Num(axes.Y(t) + 4) +
         "\" text-anchor=\"end\">" + Tick(t) + "</text>\n";
  }
  std::vector<std::pair<std::string, std::string>> legend;
  for (std::size_t k = 0; k < chart.segment_names.size(); ++k)
    legend.emplace_back(chart.segment_names[k], ChartColor(k));
  s += Legend(legend);
  const double bar_width = slot * 0.7;
  for (std::size_t c = 0; c < count && c < chart.values.size(); ++c) {
    const double left = kLeft + slot * static_cast<double>(c) + (slot - bar_width) / 2;
    const auto& row = chart.values[c];
    double base = 0;
    for (std::size_t k = 0; k < row.size(); ++k) {
      const double v = row[k];
      if (!std::isfinite(v) || v <= 0) continue;
      double bx = left, bw = bar_width, y0 = base, y1 = base + v;
      if (chart.grouped) {
        bw = bar_width / static_cast<double>(row.size());
        bx = left + bw * static_cast<double>(k);
        y0 = 0, y1 = v;
      } else {
        base += v;
      }
      const std::string name =
          k < chart.segment_names.size() ? chart.segment_names[k] : std::to_string(k);
      // A closed path (not <rect>) so every mark is a non-empty path like the other charts.
      s += "<path class=\"bar\" d=\"M" + Num(bx) + "," + Num(axes.Y(y0)) + " L" + Num(bx + bw) +
           "," + Num(axes.Y(y0)) + " L" + Num(bx + bw) + "," + Num(axes.Y(y1)) + " L" + Num(bx) +
           "," + Num(axes.Y(y1)) + " Z\" fill=\"" + ChartColor(k) + "\"><title>" +
           XmlEscape(chart.categories[c] + " — " + name + ": " + Tick(v)) + "</title></path>\n";
    }
    const double cx = left + bar_width / 2, cy = kTop + kPlotHeight + 16;
    const std::string label = numbered ? std::to_string(c + 1) : chart.categories[c];
    s += "<text class=\"category\" x=\"" + Num(cx) + "\" y=\"" + Num(cy) +
         "\" text-anchor=\"middle\" font-size=\"11\">" + XmlEscape(label) + "</text>\n";
  }
  if (numbered) {
    const double column = (kWidth - 2 * 12) / kKeyColumns;
    for (std::size_t c = 0; c < count; ++c) {
      const double col = static_cast<double>(c % 2), row = static_cast<double>(c / 2);
      const std::string entry = std::to_string(c + 1) + "  " + chart.categories[c];
      s += "<text class=\"category-key\" x=\"" + Num(12 + col * column) + "\" y=\"" +
           Num(kHeight + 8 + row * kKeyRow + 11) + "\" font-size=\"11\">" +
           XmlEscape(Fit(entry, column - 10, 11)) + "</text>\n";
    }
  }
  return s + "</svg>\n";
}

}  // namespace perfplan::planner
