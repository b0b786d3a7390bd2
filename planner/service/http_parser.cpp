#include "planner/service/http_parser.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

namespace perfplan::planner {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  std::size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

bool IsToken(const std::string& s) {
  if (s.empty()) return false;
  for (unsigned char c : s) {
    if (c <= 32 || c >= 127 || std::strchr("()<>@,;:\\\"/[]?={}", c)) return false;
  }
  return true;
}

bool AllOf(const std::string& s, const char* allowed) {
  return s.find_first_not_of(allowed) == std::string::npos;
}

}  // namespace

std::string HttpRequest::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return "";
}

bool HasHeaderToken(const std::string& value, const std::string& word) {
  std::size_t start = 0;
  const std::string v = Lower(value);
  while (start <= v.size()) {
    std::size_t comma = v.find(',', start);
    if (Trim(v.substr(start, comma - start)) == word) return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

HttpRequestParser::HttpRequestParser(std::size_t max_header_bytes, std::size_t max_body_bytes)
    : max_header_bytes_(max_header_bytes), max_body_bytes_(max_body_bytes) {}

void HttpRequestParser::Reset() {
  request_ = HttpRequest{};
  phase_ = Phase::kHead;
  keep_alive_ = true;
  chunked_ = false;
  content_length_ = 0;
  chunk_ = Chunk::kSize;
  chunk_left_ = 0;
}

void HttpRequestParser::SkipEmptyLines(const std::string& in, std::size_t* pos) {
  while (in.size() - *pos >= 2 && in.compare(*pos, 2, "\r\n") == 0) *pos += 2;
}

HttpRequestParser::Step HttpRequestParser::Fail(int status, std::string code,
                                                std::string message) {
  phase_ = Phase::kFailed;
  error_ = {status, std::move(code), std::move(message)};
  return Step::kError;
}

HttpRequestParser::Step HttpRequestParser::Next(const std::string& in, std::size_t* pos) {
  switch (phase_) {
    case Phase::kHead: return ReadHead(in, pos);
    case Phase::kBody: return ReadBody(in, pos);
    case Phase::kHeadRead: return Step::kHead;  // the caller has not accepted the body yet
    case Phase::kDone: return Step::kRequest;
    case Phase::kFailed: return Step::kError;
  }
  return Step::kError;
}

HttpRequestParser::Step HttpRequestParser::ReadHead(const std::string& in, std::size_t* pos) {
  SkipEmptyLines(in, pos);
  const std::string too_large =
      "the request line and headers are larger than " + std::to_string(max_header_bytes_) +
      " bytes";
  const std::size_t end = in.find("\r\n\r\n", *pos);
  if (end == std::string::npos) {
    if (in.size() - *pos > max_header_bytes_) return Fail(431, "header_too_large", too_large);
    return Step::kNeedMore;
  }
  if (end - *pos > max_header_bytes_) return Fail(431, "header_too_large", too_large);
  const std::string head = in.substr(*pos, end - *pos);
  *pos = end + 4;
  std::size_t line_end = head.find("\r\n");
  const std::string line = head.substr(0, line_end);
  const std::size_t sp1 = line.find(' ');
  const std::size_t sp2 = sp1 == std::string::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string::npos || sp2 == std::string::npos ||
      line.find(' ', sp2 + 1) != std::string::npos) {
    return Fail(400, "bad_request", "malformed request line");
  }
  request_.method = line.substr(0, sp1);
  request_.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  request_.version = line.substr(sp2 + 1);
  if (!IsToken(request_.method) || request_.target.empty() || request_.target[0] != '/' ||
      std::any_of(request_.target.begin(), request_.target.end(),
                  [](char ch) { return static_cast<unsigned char>(ch) <= 32 || ch == 127; })) {
    return Fail(400, "bad_request", "malformed request line");
  }
  if (request_.version != "HTTP/1.1" && request_.version != "HTTP/1.0") {
    return Fail(505, "http_version", "only HTTP/1.0 and HTTP/1.1 are served");
  }
  keep_alive_ = request_.version == "HTTP/1.1";
  bool has_length = false;
  std::string transfer_encoding;
  while (line_end != std::string::npos) {
    const std::size_t next = head.find("\r\n", line_end + 2);
    const std::string h = head.substr(line_end + 2, next - line_end - 2);
    line_end = next;
    const std::size_t colon = h.find(':');
    // No space before the colon (request smuggling), no obsolete line folding.
    if (colon == std::string::npos || !IsToken(h.substr(0, colon))) {
      return Fail(400, "bad_request", "malformed header line");
    }
    std::string name = Lower(h.substr(0, colon));
    std::string value = Trim(h.substr(colon + 1));
    if (name == "content-length") {
      if (value.empty() || value.size() > 18 || !AllOf(value, "0123456789") ||
          (has_length && std::stoull(value) != content_length_)) {
        return Fail(400, "bad_request", "malformed Content-Length");
      }
      has_length = true;
      content_length_ = std::stoull(value);
    } else if (name == "transfer-encoding") {
      transfer_encoding += (transfer_encoding.empty() ? "" : ",") + value;
    } else if (name == "connection") {
      if (HasHeaderToken(value, "close")) keep_alive_ = false;
      if (HasHeaderToken(value, "keep-alive") && request_.version == "HTTP/1.0") {
        keep_alive_ = true;
      }
    }
    request_.headers.emplace_back(std::move(name), std::move(value));
  }
  if (!transfer_encoding.empty()) {
    if (has_length) {
      return Fail(400, "bad_request", "both Content-Length and Transfer-Encoding");
    }
    if (Lower(Trim(transfer_encoding)) != "chunked") {
      return Fail(501, "not_implemented", "only the chunked transfer coding is accepted");
    }
    chunked_ = true;
  }
  phase_ = Phase::kHeadRead;
  return Step::kHead;
}

HttpRequestParser::Step HttpRequestParser::AcceptBody() {
  if (phase_ != Phase::kHeadRead) return phase_ == Phase::kFailed ? Step::kError : Step::kNeedMore;
  if (content_length_ > max_body_bytes_) {
    return Fail(413, "payload_too_large",
                "the request body is larger than " + std::to_string(max_body_bytes_) + " bytes");
  }
  phase_ = Phase::kBody;
  return Step::kNeedMore;
}

HttpRequestParser::Step HttpRequestParser::ReadBody(const std::string& in, std::size_t* pos) {
  if (chunked_) return ReadChunked(in, pos);
  const std::size_t take = std::min(content_length_ - request_.body.size(), in.size() - *pos);
  request_.body.append(in, *pos, take);
  *pos += take;
  if (request_.body.size() < content_length_) return Step::kNeedMore;
  phase_ = Phase::kDone;
  return Step::kRequest;
}

HttpRequestParser::Step HttpRequestParser::ReadChunked(const std::string& in, std::size_t* pos) {
  for (;;) {
    const std::size_t buffered = in.size() - *pos;
    switch (chunk_) {
      case Chunk::kSize: {
        const std::size_t eol = in.find("\r\n", *pos);
        if (eol == std::string::npos) {
          if (buffered > 1024) return Fail(400, "bad_request", "malformed chunk size line");
          return Step::kNeedMore;
        }
        std::string size = in.substr(*pos, eol - *pos);
        *pos = eol + 2;
        size = Trim(size.substr(0, size.find(';')));
        if (size.empty() || size.size() > 15 || !AllOf(size, "0123456789abcdefABCDEF")) {
          return Fail(400, "bad_request", "malformed chunk size line");
        }
        chunk_left_ = std::stoull(size, nullptr, 16);
        if (chunk_left_ == 0) {
          chunk_ = Chunk::kTrailer;
          break;
        }
        if (request_.body.size() + chunk_left_ > max_body_bytes_) {
          return Fail(413, "payload_too_large",
                      "the request body is larger than " + std::to_string(max_body_bytes_) +
                          " bytes");
        }
        chunk_ = Chunk::kData;
        break;
      }
      case Chunk::kData: {
        const std::size_t take = std::min(chunk_left_, buffered);
        request_.body.append(in, *pos, take);
        *pos += take;
        chunk_left_ -= take;
        if (chunk_left_ > 0) return Step::kNeedMore;
        chunk_ = Chunk::kDataEnd;
        break;
      }
      case Chunk::kDataEnd:
        if (buffered < 2) return Step::kNeedMore;
        if (in.compare(*pos, 2, "\r\n") != 0) {
          return Fail(400, "bad_request", "a chunk does not end with CRLF");
        }
        *pos += 2;
        chunk_ = Chunk::kSize;
        break;
      case Chunk::kTrailer: {
        const std::size_t eol = in.find("\r\n", *pos);
        if (eol == std::string::npos) {
          if (buffered > max_header_bytes_) {
            return Fail(431, "header_too_large", "the chunked trailer is too large");
          }
          return Step::kNeedMore;
        }
        const bool last = eol == *pos;
        *pos = eol + 2;
        if (last) {
          phase_ = Phase::kDone;
          return Step::kRequest;
        }
        break;  // trailer fields are read and ignored
      }
    }
  }
}

}  // namespace perfplan::planner
