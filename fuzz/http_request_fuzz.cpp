// libFuzzer target for the HTTP/1.1 request framing of `perfplan serve`
// (planner/service/http_parser.h): any byte stream, delivered in any fragmentation, must give
// requests or one framing error with a status and a message — never a crash, an exception
// escaping, a sanitizer report, a hang, a body over the limit or a position past the input.
// The first byte sets the fragment size (1..256 bytes); the rest is the stream, which may hold
// several pipelined requests. Run with scripts/fuzz.sh.
#include <cstdint>
#include <string>

#include "planner/service/http_parser.h"

namespace {

using perfplan::planner::HttpRequestParser;
constexpr std::size_t kMaxHead = 1024;
constexpr std::size_t kMaxBody = 4096;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t fragment = static_cast<std::size_t>(data[0]) + 1;
  const std::string stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  HttpRequestParser parser(kMaxHead, kMaxBody);
  std::string in;
  std::size_t pos = 0;
  for (std::size_t fed = 0; fed < stream.size();) {
    const std::size_t n = std::min(fragment, stream.size() - fed);
    in.append(stream, fed, n);
    fed += n;
    for (;;) {
      const HttpRequestParser::Step step = parser.Next(in, &pos);
      if (pos > in.size()) __builtin_trap();
      if (step == HttpRequestParser::Step::kNeedMore) break;
      if (step == HttpRequestParser::Step::kError) {
        const int status = parser.error().status;
        if (parser.error().message.empty() || status < 400 || status > 505) __builtin_trap();
        return 0;
      }
      if (step == HttpRequestParser::Step::kHead) {
        if (parser.request().target.empty() || parser.request().target[0] != '/') {
          __builtin_trap();
        }
        parser.AcceptBody();
        continue;
      }
      // kRequest
      if (parser.request().body.size() > kMaxBody) __builtin_trap();
      parser.Reset();
    }
    if (in.size() - pos > kMaxHead + kMaxBody + 2048) __builtin_trap();  // nothing hoarded
  }
  return 0;
}
