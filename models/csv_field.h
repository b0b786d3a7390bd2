// Writing one field of a CSV file the way RFC 4180 reads it back, for every CSV perfplan writes
// (runs CSV, `export --format csv`). Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace perfplan::models {

// `text` as it is when it holds no comma, double quote, CR or LF; else in double quotes with each
// double quote doubled.
std::string QuoteCsvField(std::string_view text);

}  // namespace perfplan::models
