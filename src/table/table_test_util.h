// table/table_test_util.h — in-memory files for the table-layer tests (header only, used only
// by *_test.cc files).
//
// StringSink collects appended bytes; StringSource serves reads from a string with pread-like
// semantics (short result at end of file), counts its reads, and can be told to fail them.

#ifndef SLUICE_TABLE_TABLE_TEST_UTIL_H_
#define SLUICE_TABLE_TABLE_TEST_UTIL_H_

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "sluice/env.h"

namespace sluice::test {

class StringSink final : public WritableFile {
 public:
  Status Append(const Slice& data) override {
    if (closed_) return Status::IOError("append to closed file");
    contents_.append(data.data(), data.size());
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override {
    closed_ = true;
    return Status::OK();
  }
  const std::string& contents() const { return contents_; }

 private:
  std::string contents_;
  bool closed_ = false;
};

class StringSource final : public RandomAccessFile {
 public:
  explicit StringSource(std::string contents) : contents_(std::move(contents)) {}

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    reads_.fetch_add(1, std::memory_order_relaxed);
    if (fail_.load(std::memory_order_relaxed)) {
      *result = Slice();
      return Status::IOError("injected read failure");
    }
    if (offset >= contents_.size()) {
      *result = Slice(scratch, 0);
      return Status::OK();
    }
    const size_t len = std::min<uint64_t>(n, contents_.size() - offset);
    std::memcpy(scratch, contents_.data() + offset, len);
    *result = Slice(scratch, len);
    return Status::OK();
  }

  uint64_t reads() const { return reads_.load(std::memory_order_relaxed); }
  void set_fail(bool fail) { fail_.store(fail, std::memory_order_relaxed); }

 private:
  const std::string contents_;
  mutable std::atomic<uint64_t> reads_{0};
  std::atomic<bool> fail_{false};
};

}  // namespace sluice::test

#endif  // SLUICE_TABLE_TABLE_TEST_UTIL_H_
