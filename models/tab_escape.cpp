#include "models/tab_escape.h"

namespace perfplan::models {

std::string UnescapeTabs(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      const char c = s[++i];
      out.push_back(c == 't' ? '\t' : c == 'n' ? '\n' : c);
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace perfplan::models
