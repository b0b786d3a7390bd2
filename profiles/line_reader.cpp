#include "profiles/line_reader.h"

#include <cstring>

namespace perfplan::profiles {

BoundedLineReader::BoundedLineReader(LineSource* source, std::size_t max_line_bytes)
    : source_(source), max_line_bytes_(max_line_bytes) {}

void BoundedLineReader::Reset(std::int64_t offset) {
  buffer_.clear();
  begin_ = 0;
  line_end_ = 0;
  eof_ = false;
  too_long_ = false;
  terminated_ = true;
  line_number_ = 0;
  offset_ = offset;
}

bool BoundedLineReader::Next(std::string_view* line) {
  too_long_ = false;
  std::size_t scan_from = begin_;
  for (;;) {
    const void* nl = scan_from < buffer_.size()
                         ? std::memchr(buffer_.data() + scan_from, '\n', buffer_.size() - scan_from)
                         : nullptr;
    if (nl != nullptr) {
      const std::size_t end =
          static_cast<std::size_t>(static_cast<const char*>(nl) - buffer_.data());
      const std::size_t length = end - begin_;
      offset_ += static_cast<std::int64_t>(length + 1);
      ++line_number_;
      terminated_ = true;
      too_long_ = length > max_line_bytes_;
      *line = too_long_ ? std::string_view() : std::string_view(buffer_).substr(begin_, length);
      if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
      line_end_ = too_long_ ? buffer_.size() : begin_ + line->size();
      begin_ = end + 1;
      return true;
    }
    if (eof_) break;
    if (buffer_.size() - begin_ > max_line_bytes_) {
      SkipLongLine();
      line_end_ = buffer_.size();
      *line = std::string_view();
      return true;
    }
    if (begin_ > 0) {  // keep only the unfinished line before reading on
      buffer_.erase(0, begin_);
      begin_ = 0;
    }
    scan_from = buffer_.size();
    if (!source_->Read(&buffer_)) eof_ = true;
  }
  if (begin_ == buffer_.size()) return false;
  const std::size_t length = buffer_.size() - begin_;
  offset_ += static_cast<std::int64_t>(length);
  ++line_number_;
  terminated_ = false;
  too_long_ = length > max_line_bytes_;
  *line = too_long_ ? std::string_view() : std::string_view(buffer_).substr(begin_, length);
  if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
  line_end_ = too_long_ ? buffer_.size() : begin_ + line->size();
  begin_ = buffer_.size();
  return true;
}

void BoundedLineReader::SkipLongLine() {
  std::int64_t skipped = static_cast<std::int64_t>(buffer_.size() - begin_);
  ++line_number_;
  too_long_ = true;
  for (;;) {
    buffer_.clear();
    begin_ = 0;
    if (!source_->Read(&buffer_)) {
      eof_ = true;
      terminated_ = false;
      offset_ += skipped;
      return;
    }
    const void* nl = std::memchr(buffer_.data(), '\n', buffer_.size());
    if (nl != nullptr) {
      const std::size_t at =
          static_cast<std::size_t>(static_cast<const char*>(nl) - buffer_.data());
      terminated_ = true;
      offset_ += skipped + static_cast<std::int64_t>(at + 1);
      begin_ = at + 1;
      return;
    }
    skipped += static_cast<std::int64_t>(buffer_.size());
  }
}

std::string TooLongReason(std::size_t max_line_bytes) {
  return "line longer than " + std::to_string(max_line_bytes) +
         " bytes (the maximum line length); skipped";
}

}  // namespace perfplan::profiles
