#include "planner/output/hindex_svg.h"

#include <cstdio>
#include <vector>

#include "planner/output/svg_chart.h"

namespace perfplan::planner {
namespace {

std::string Fixed(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

std::string LorenzFigureSvg(std::span<const double> sorted, const models::HIndexResult& result,
                            const std::string& title) {
  const std::vector<double> lorenz = models::LorenzPoints(sorted);
  const std::size_t n = lorenz.size();
  const std::size_t m = result.change_point;
  const double l_m = lorenz[m - 1];

  XYChart chart;
  chart.title = title + ": H = 1 − A(L)/A(L*) = 1 − " + Fixed("%.4f", result.area_l) + "/" +
                Fixed("%.4f", result.area_lstar) + " = " + Fixed("%.3f", result.h_index) +
                ", m̂ = " + std::to_string(m) + " of " + std::to_string(n);
  chart.x_label = "fraction of values, m/n (ascending)";
  chart.y_label = "share of the total time, S_m/S_n";
  chart.identity_line = true;
  chart.identity_label = "y = x: oracle";
  ChartSeries measured{"L: measured (overhead)", {{0, 0}}, "#c0392b", false};
  for (std::size_t i = 0; i < n; ++i) measured.points.emplace_back(double(i + 1) / n, lorenz[i]);
  chart.series.push_back(std::move(measured));
  if (result.has_change_point && l_m > 0) {
    // L* on its own 0..1 axis: the values before the change point, as if they were all.
    ChartSeries ideal{"L*: ideal (no overhead)", {{0, 0}}, "#2471a3", true};
    for (std::size_t i = 0; i < m; ++i)
      ideal.points.emplace_back(double(i + 1) / m, lorenz[i] / l_m);
    chart.series.push_back(std::move(ideal));
    chart.x_markers.emplace_back(result.change_point_fraction,
                                 "change point " + Fixed("%.3f", result.change_point_fraction));
  }
  return LineChartSvg(chart);
}

}  // namespace perfplan::planner
