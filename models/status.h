// Status and Result<T>: how perfplan functions report failure without exceptions crossing layers.
//
// A Status is ok or carries a code and a human-readable message that already says what was wrong,
// where, and what was expected. Result<T> holds either a value or a non-ok Status. Both are plain
// values; copy them freely. Thread-safe as any value type.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace perfplan {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad input: the caller (user) must change something; CLI exit code 2
  kNotFound,         // a named thing (file, site, dataset, application) does not exist; exit 2
  kFailed,           // the operation itself failed (I/O, infeasible plan); CLI exit code 1
};

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status NotFound(std::string message) {
    return Status(StatusCode::kNotFound, std::move(message));
  }
  static Status Failed(std::string message) {
    return Status(StatusCode::kFailed, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a T or a non-ok Status. Accessing value() of an error is a programming bug (asserted).
template <typename T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}            // NOLINT(google-explicit-constructor)
  Result(Status status) : data_(std::move(status)) {}     // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T& value() & { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(data_); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace perfplan
