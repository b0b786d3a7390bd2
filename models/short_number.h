// Six significant digits, as printf's "%g" (and a default-formatted stream) prints them: "0.001",
// "1e+10", "884.2". For messages and notes a person reads (the runtime fit, evaluate and
// selection notes), not for numbers read back: writers use FormatNumber (models/text.h).
#pragma once

#include <string>

namespace perfplan::models {

std::string FormatShort(double v);

}  // namespace perfplan::models
