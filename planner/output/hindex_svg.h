// The figure of seed 000 (Fig. 4.3) as a self-contained SVG, drawn by the one chart writer
// (planner/output/svg_chart.h) as a line chart: the Lorenz curve L of the values, the ideal curve
// L* of the values before the change point, the oracle line y = x, the change point as a marker,
// axis labels and the H value in the title. Curves with more than 2000 points are thinned for
// drawing (L is monotone, so every drawn point lies on the curve). Pure; thread-safe.
#pragma once

#include <span>
#include <string>

#include "models/hindex.h"

namespace perfplan::planner {

// `sorted` are the values ComputeHIndex saw, ascending; `result` is its answer for them.
std::string LorenzFigureSvg(std::span<const double> sorted, const models::HIndexResult& result,
                            const std::string& title);

}  // namespace perfplan::planner
