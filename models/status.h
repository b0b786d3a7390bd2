// Status and Result<T>: how perfplan functions report failure without exceptions crossing layers.
//
// A Status is ok or carries a code and a human-readable message that already says what was wrong,
// where, and what was expected, plus (when one applies) the name of the input field it is about, so
// the HTTP layer and the CLI map the error by structure instead of parsing the message.
// Result<T> holds either a value or a non-ok Status. Both are plain values; copy them freely.
// Thread-safe as any value type.
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
  // InvalidArgument about one input field: the message is "FIELD: WHAT" and field() is FIELD
  // (a struct field or input name such as "train", "to_ms", "sources[2]"; never a CLI flag).
  static Status InvalidField(std::string field, const std::string& what) {
    Status s(StatusCode::kInvalidArgument, field + ": " + what);
    s.field_ = std::move(field);
    return s;
  }
  // This status, naming `field` as the input it is about; code and message are unchanged.
  Status WithField(std::string field) const {
    Status s = *this;
    s.field_ = std::move(field);
    return s;
  }
  // This status with another message (e.g. the CLI's spelling of it); code and field unchanged.
  Status WithMessage(std::string message) const {
    Status s = *this;
    s.message_ = std::move(message);
    return s;
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // The input field the error is about, or "" when it is not about one field.
  const std::string& field() const { return field_; }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  std::string field_;
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
