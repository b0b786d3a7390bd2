#include "planner/output/hindex_svg.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace perfplan::planner {
namespace {

constexpr double kSize = 480;   // plot area, pixels
constexpr double kMargin = 64;  // room for labels
constexpr std::size_t kMaxDrawnPoints = 2000;

std::string Fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

class Plot {
 public:
  explicit Plot(double y_min) : y_min_(y_min) {}
  double X(double x) const { return kMargin + x * kSize; }
  double Y(double y) const { return kMargin + (1 - (y - y_min_) / (1 - y_min_)) * kSize; }

  // Polyline through (x_i, y_i), i = 0..count-1, thinned to at most kMaxDrawnPoints.
  template <typename XY>
  std::string Polyline(std::size_t count, const XY& xy, const std::string& style) const {
    std::string points = Fmt("%.2f", X(0)) + "," + Fmt("%.2f", Y(0));
    const std::size_t step = std::max<std::size_t>(1, count / kMaxDrawnPoints);
    for (std::size_t i = 0; i < count; i += step) {
      const auto [x, y] = xy(i);
      points += " " + Fmt("%.2f", X(x)) + "," + Fmt("%.2f", Y(y));
    }
    const auto [x, y] = xy(count - 1);
    points += " " + Fmt("%.2f", X(x)) + "," + Fmt("%.2f", Y(y));
    return "<polyline fill=\"none\" " + style + " points=\"" + points + "\"/>\n";
  }

 private:
  double y_min_;
};

}  // namespace

std::string LorenzFigureSvg(std::span<const double> sorted, const models::HIndexResult& result,
                            const std::string& title) {
  const std::vector<double> lorenz = models::LorenzPoints(sorted);
  const std::size_t n = lorenz.size();
  const std::size_t m = result.change_point;
  const double l_m = lorenz[m - 1];
  double y_min = 0;
  for (double v : lorenz) y_min = std::min(y_min, v);
  if (l_m > 0) y_min = std::min(y_min, lorenz.front() / l_m);
  const Plot plot(y_min);
  const double width = kSize + 2 * kMargin;

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Fmt("%.0f", width) +
                    "\" height=\"" + Fmt("%.0f", width) + "\" viewBox=\"0 0 " + Fmt("%.0f", width) +
                    " " + Fmt("%.0f", width) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<title>" + Escape(title) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  // Frame and ticks.
  svg += "<rect x=\"" + Fmt("%.0f", kMargin) + "\" y=\"" + Fmt("%.0f", kMargin) + "\" width=\"" +
         Fmt("%.0f", kSize) + "\" height=\"" + Fmt("%.0f", kSize) +
         "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (int k = 0; k <= 10; k += 2) {
    const double t = k / 10.0;
    svg += "<text x=\"" + Fmt("%.1f", plot.X(t)) + "\" y=\"" + Fmt("%.1f", kMargin + kSize + 16) +
           "\" text-anchor=\"middle\">" + Fmt("%.1f", t) + "</text>\n";
    const double y = y_min + t * (1 - y_min);
    svg += "<text x=\"" + Fmt("%.1f", kMargin - 6) + "\" y=\"" + Fmt("%.1f", plot.Y(y) + 4) +
           "\" text-anchor=\"end\">" + Fmt("%.2g", y) + "</text>\n";
  }
  svg += "<text class=\"x-label\" x=\"" + Fmt("%.1f", kMargin + kSize / 2) + "\" y=\"" +
         Fmt("%.1f", kMargin + kSize + 40) +
         "\" text-anchor=\"middle\">fraction of values, m/n (ascending)</text>\n";
  svg += "<text class=\"y-label\" transform=\"translate(16," + Fmt("%.1f", kMargin + kSize / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">share of the total time, S_m/S_n</text>\n";
  svg += "<text x=\"" + Fmt("%.1f", kMargin) + "\" y=\"24\" font-size=\"14\">" + Escape(title) +
         "</text>\n";
  svg += "<text x=\"" + Fmt("%.1f", kMargin) + "\" y=\"44\">H = 1 − A(L)/A(L*) = 1 − " +
         Fmt("%.4f", result.area_l) + "/" + Fmt("%.4f", result.area_lstar) + " = " +
         Fmt("%.3f", result.h_index) + "   m̂ = " + std::to_string(m) + " of " + std::to_string(n) +
         "</text>\n";

  // y = x (oracle), L (measured), L* (ideal, no overhead), change point.
  svg += "<line x1=\"" + Fmt("%.2f", plot.X(0)) + "\" y1=\"" + Fmt("%.2f", plot.Y(0)) + "\" x2=\"" +
         Fmt("%.2f", plot.X(1)) + "\" y2=\"" + Fmt("%.2f", plot.Y(1)) +
         "\" stroke=\"#888\" stroke-dasharray=\"8 4\"/>\n";
  svg += plot.Polyline(
      n,
      [&](std::size_t i) {
        return std::pair{double(i + 1) / n, lorenz[i]};
      },
      "stroke=\"#c0392b\" stroke-width=\"2\"");
  if (result.has_change_point && l_m > 0) {
    svg += plot.Polyline(
        m,
        [&](std::size_t i) {
          return std::pair{double(i + 1) / m, lorenz[i] / l_m};
        },
        "stroke=\"#2471a3\" stroke-width=\"2\" stroke-dasharray=\"2 3\"");
    const double x = result.change_point_fraction;
    svg += "<line x1=\"" + Fmt("%.2f", plot.X(x)) + "\" y1=\"" + Fmt("%.2f", plot.Y(y_min)) +
           "\" x2=\"" + Fmt("%.2f", plot.X(x)) + "\" y2=\"" + Fmt("%.2f", plot.Y(1)) +
           "\" stroke=\"#555\" stroke-dasharray=\"1 3\"/>\n";
    svg += "<text x=\"" + Fmt("%.2f", plot.X(x) - 4) + "\" y=\"" + Fmt("%.2f", plot.Y(1) + 14) +
           "\" text-anchor=\"end\">change point " + Fmt("%.3f", x) + "</text>\n";
  }
  // Legend.
  const double lx = kMargin + 12, ly = kMargin + 20;
  const char* labels[] = {"L: measured (overhead)", "L*: ideal (no overhead)", "y = x: oracle"};
  const char* styles[] = {"stroke=\"#c0392b\" stroke-width=\"2\"",
                          "stroke=\"#2471a3\" stroke-width=\"2\" stroke-dasharray=\"2 3\"",
                          "stroke=\"#888\" stroke-dasharray=\"8 4\""};
  for (int k = 0; k < 3; ++k) {
    const double y = ly + 18 * k;
    svg += "<line x1=\"" + Fmt("%.1f", lx) + "\" y1=\"" + Fmt("%.1f", y) + "\" x2=\"" +
           Fmt("%.1f", lx + 28) + "\" y2=\"" + Fmt("%.1f", y) + "\" " + styles[k] + "/>\n";
    svg += "<text x=\"" + Fmt("%.1f", lx + 34) + "\" y=\"" + Fmt("%.1f", y + 4) + "\">" +
           labels[k] + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace perfplan::planner
