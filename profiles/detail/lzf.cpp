#include "profiles/detail/lzf.h"

namespace perfplan::profiles::detail {

// Each control byte c starts either a literal run (c < 32: c + 1 bytes follow) or a back
// reference (length c >> 5, 7 meaning "add the next byte"; offset from the low 5 bits and the
// next byte; copy length + 2 bytes from offset + 1 bytes back, possibly overlapping).
bool LzfDecompress(std::string_view in, char* out, std::size_t raw_bytes) {
  const auto* ip = reinterpret_cast<const unsigned char*>(in.data());
  const unsigned char* in_end = ip + in.size();
  std::size_t op = 0;
  while (ip < in_end) {
    unsigned ctrl = *ip++;
    if (ctrl < 32) {
      std::size_t n = ctrl + 1;
      if (static_cast<std::size_t>(in_end - ip) < n || raw_bytes - op < n) return false;
      for (std::size_t i = 0; i < n; ++i) out[op++] = static_cast<char>(*ip++);
      continue;
    }
    std::size_t len = ctrl >> 5;
    if (ip >= in_end) return false;
    if (len == 7) {
      len += *ip++;
      if (ip >= in_end) return false;
    }
    std::size_t back = ((ctrl & 0x1fu) << 8) + *ip++ + 1;
    len += 2;
    if (back > op || raw_bytes - op < len) return false;
    std::size_t from = op - back;
    for (std::size_t i = 0; i < len; ++i) out[op++] = out[from + i];
  }
  return op == raw_bytes;
}

}  // namespace perfplan::profiles::detail
