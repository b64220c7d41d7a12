// sluice/status.h — the result of an operation: OK, or an error code with a message.
//
// Every fallible call in the API returns a Status; sluice never throws across its API. An OK
// Status holds no allocation, so returning it on the hot path is free.

#ifndef SLUICE_STATUS_H_
#define SLUICE_STATUS_H_

#include <memory>
#include <string>

#include "sluice/slice.h"

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class Status {
 public:
  enum class Code : unsigned char {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,
    kNotSupported = 3,
    kInvalidArgument = 4,
    kIOError = 5,
    kBusy = 6,
  };

  Status() noexcept = default;
  ~Status() = default;
  Status(const Status& rhs) : code_(rhs.code_) {
    if (rhs.msg_) msg_ = std::make_unique<std::string>(*rhs.msg_);
  }
  Status& operator=(const Status& rhs) {
    if (this != &rhs) {
      code_ = rhs.code_;
      msg_ = rhs.msg_ ? std::make_unique<std::string>(*rhs.msg_) : nullptr;
    }
    return *this;
  }
  Status(Status&& rhs) noexcept = default;
  Status& operator=(Status&& rhs) noexcept = default;

  static Status OK() { return Status(); }
  static Status NotFound(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(Code::kNotFound, msg, msg2);
  }
  static Status Corruption(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(Code::kCorruption, msg, msg2);
  }
  static Status NotSupported(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(Code::kNotSupported, msg, msg2);
  }
  static Status InvalidArgument(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(Code::kInvalidArgument, msg, msg2);
  }
  static Status IOError(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(Code::kIOError, msg, msg2);
  }
  static Status Busy(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(Code::kBusy, msg, msg2);
  }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsBusy() const { return code_ == Code::kBusy; }

  Code code() const { return code_; }
  // The message without the code prefix ("" for OK).
  std::string message() const { return msg_ ? *msg_ : std::string(); }
  // "OK", or e.g. "Corruption: bad block checksum: /db/000012.sst".
  std::string ToString() const {
    if (ok()) return "OK";
    std::string r;
    switch (code_) {
      case Code::kNotFound: r = "NotFound: "; break;
      case Code::kCorruption: r = "Corruption: "; break;
      case Code::kNotSupported: r = "Not supported: "; break;
      case Code::kInvalidArgument: r = "Invalid argument: "; break;
      case Code::kIOError: r = "IO error: "; break;
      case Code::kBusy: r = "Busy: "; break;
      case Code::kOk: break;
    }
    if (msg_) r += *msg_;
    return r;
  }

 private:
  Status(Code code, const Slice& msg, const Slice& msg2) : code_(code) {
    std::string m = msg.ToString();
    if (!msg2.empty()) {
      m += ": ";
      m.append(msg2.data(), msg2.size());
    }
    msg_ = std::make_unique<std::string>(std::move(m));
  }

  Code code_ = Code::kOk;
  std::unique_ptr<std::string> msg_;
};

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_STATUS_H_
