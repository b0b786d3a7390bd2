// What a test compares of a reader's problems: each as FormatProblem writes it ("file:line: field:
// message"), one a string (ProblemLines) or one a line of one text (ProblemText, so a failed
// comparison prints both texts whole). Header only.
#pragma once

#include <string>
#include <vector>

#include "profiles/problem.h"

namespace perfplan::testing {

template <typename T>
std::vector<std::string> ProblemLines(const profiles::Loaded<T>& loaded) {
  std::vector<std::string> out;
  for (const profiles::Problem& p : loaded.problems) out.push_back(profiles::FormatProblem(p));
  return out;
}

template <typename T>
std::string ProblemText(const profiles::Loaded<T>& loaded) {
  std::string out;
  for (const std::string& line : ProblemLines(loaded)) out += line + "\n";
  return out;
}

}  // namespace perfplan::testing
