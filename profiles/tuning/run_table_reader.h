// Readers for config -> performance run tables: CSV (RFC 4180 with a header row) and ARFF (Weka's
// attribute-relation format, as used by published tuning data sets such as BestConf).
//
// Both produce a models::RunTable of untouched cell text plus line numbers; turning text into
// numbers (units such as "4g", categorical columns) is tuning/'s job. Problems carry file, line
// and field (the column name) so a user can find and fix them. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <string>

#include "models/run_table.h"
#include "profiles/problem.h"

namespace perfplan::profiles {

// Parses CSV text. The first record is the header: names are trimmed of surrounding blanks and a
// leading '#' on the first name is dropped (Ernest's "#Cores,..."). Fields may be quoted with '"'
// (doubled quotes inside; commas and line breaks allowed); CRLF or LF line ends; blank lines are
// skipped. On success value holds every row; on failure problems lists each bad record
// (unterminated quote, text after a closing quote, wrong field count, empty or duplicate header).
Loaded<models::RunTable> ParseCsvRuns(const std::string& text, const std::string& file);

// Parses ARFF text: '%' comments, @relation, @attribute NAME numeric|real|integer|string|{v,...},
// @data, comma-separated dense rows ('?' = missing, values may be quoted with ' or "). Keywords
// are case-insensitive. Sparse rows ("{0 1, 3 2}") and date attributes are reported as
// unsupported problems.
Loaded<models::RunTable> ParseArffRuns(const std::string& text, const std::string& file);

// Parses libsvm/svmlight text: "LABEL INDEX:VALUE ..." per line, indices >= 1 and increasing,
// '#' starts a comment. Columns are "label" then "f1" .. "fN" (N = largest index seen); absent
// features are "0" (the format is sparse). The table is dense, so an index above
// kMaxLibsvmFeatures, or more than kMaxLibsvmCells cells in all (rows x (N + 1)), is a problem
// rather than gigabytes of "0" cells.
inline constexpr int kMaxLibsvmFeatures = 100000;
inline constexpr std::size_t kMaxLibsvmCells = 1000000;
Loaded<models::RunTable> ParseLibsvmRuns(const std::string& text, const std::string& file);

// Reads `path` and dispatches on its extension (case-insensitive): .csv, .arff, or libsvm format
// for .libsvm, .svm, .txt and names without an extension. An unreadable file or another extension
// is a problem naming the path and the accepted extensions.
Loaded<models::RunTable> ReadRunTable(const std::string& path);

}  // namespace perfplan::profiles
