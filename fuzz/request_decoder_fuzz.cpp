// libFuzzer target for the HTTP request decoder: any body must decode or give an ApiError that
// names what was wrong — never a crash, an exception escaping, a sanitizer report or a hang. The
// first byte picks the endpoint (even: /v1/predict, odd: /v1/select). Run with scripts/fuzz.sh.
#include <cstdint>
#include <string_view>

#include "planner/service/request_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    perfplan::planner::PredictCall call;
    if (auto e = perfplan::planner::DecodePredictCall(body, &call)) {
      if (e->message.empty() || e->http_status < 400) __builtin_trap();
    }
  } else {
    perfplan::planner::SelectCall call;
    if (auto e = perfplan::planner::DecodeSelectCall(body, &call)) {
      if (e->message.empty() || e->http_status < 400) __builtin_trap();
    }
  }
  return 0;
}
