// Validation of any input file perfplan reads, for `perfplan validate`: detects what kind of
// document a file is and reports every problem in it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profiles/problem.h"

namespace perfplan::profiles {

enum class DocumentKind { kProfile, kTopology, kUnknown };
std::string_view ToString(DocumentKind kind);  // "profile" | "topology" | "unknown"

struct FileValidation {
  std::string file;
  DocumentKind kind = DocumentKind::kUnknown;
  std::vector<Problem> problems;  // empty when the file is valid
};

// A mapping with a "sites" key is a topology; one with "runs" (or "application") is a profile.
FileValidation ValidateFile(const std::string& path);

}  // namespace perfplan::profiles
