#include "profiles/skip_tally.h"

#include <cctype>

namespace perfplan::profiles {

std::string SkipReasonOf(std::string_view message) {
  const std::size_t colon = message.find(": ");
  if (colon != std::string_view::npos) message = message.substr(0, colon);
  std::string reason;
  reason.reserve(message.size());
  for (std::size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    const bool after_letter = i > 0 && std::isalpha(static_cast<unsigned char>(message[i - 1]));
    if (c < '0' || c > '9' || after_letter) {  // "log4j" is a word, not a number
      reason += c;
      continue;
    }
    reason += 'N';
    while (i + 1 < message.size() && message[i + 1] >= '0' && message[i + 1] <= '9') ++i;
  }
  return reason;
}

}  // namespace perfplan::profiles
