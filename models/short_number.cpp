#include "models/short_number.h"

#include <cstdio>

namespace perfplan::models {

std::string FormatShort(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace perfplan::models
