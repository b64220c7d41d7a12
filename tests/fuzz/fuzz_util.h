// tests/fuzz/fuzz_util.h — helpers shared by the libFuzzer targets (header only): a checked
// assertion that aborts with a message (libFuzzer then saves the input as a crash), in-memory
// files serving the fuzzer's bytes, a per-process scratch directory on tmpfs for targets that
// need real files, and the check that an error is the Corruption naming the right file.

#ifndef SLUICE_TESTS_FUZZ_FUZZ_UTIL_H_
#define SLUICE_TESTS_FUZZ_FUZZ_UTIL_H_

#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "sluice/env.h"
#include "sluice/slice.h"
#include "sluice/status.h"

// For targets whose inputs open a database (memory components, caches, threads each time): a
// smaller ASan quarantine (default 256 MiB) lets that memory be reused instead of faulted in
// anew, about a third faster, still ample for the use-after-free window of one small database.
// Use once per target, at namespace scope.
#define SLUICE_FUZZ_SMALL_ASAN_QUARANTINE() \
  extern "C" const char* __asan_default_options() { return "quarantine_size_mb=32"; }

namespace sluice::fuzz {

// Reports a failed check and aborts: libFuzzer records the input as a crash.
[[noreturn]] inline void Fail(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "\n*** FUZZ CHECK FAILED at %s:%d: %s\n", file, line, what.c_str());
  std::fflush(stderr);
  std::abort();
}

#define FUZZ_CHECK(cond, ...)                                                     \
  do {                                                                            \
    if (!(cond)) {                                                                \
      ::sluice::fuzz::Fail(__FILE__, __LINE__,                                    \
                           std::string(#cond) + ": " + fmt::format(__VA_ARGS__)); \
    }                                                                             \
  } while (0)

// Non-OK statuses must be Corruption whose text names `fname` (docs/formats.md: every problem
// with a file is reported as Corruption naming it).
inline void CheckCorruptionNames(const Status& s, const std::string& fname, const char* what) {
  if (s.ok()) return;
  FUZZ_CHECK(s.IsCorruption(), "{}: expected OK or Corruption, got {}", what, s.ToString());
  FUZZ_CHECK(s.ToString().find(fname) != std::string::npos, "{}: error does not name {}: {}", what,
             fname, s.ToString());
}

// A printable, bounded rendering of bytes for failure messages.
inline std::string Show(std::string_view s) {
  std::string r;
  for (size_t i = 0; i < s.size() && i < 64; i++) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      r.push_back(static_cast<char>(c));
    } else {
      r += fmt::format("\\x{:02x}", c);
    }
  }
  if (s.size() > 64) r += fmt::format("...({} bytes)", s.size());
  return r;
}

// A SequentialFile over a string (short read only at the end).
class MemSequentialFile final : public SequentialFile {
 public:
  explicit MemSequentialFile(std::string data) : data_(std::move(data)) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    const size_t len = std::min(n, data_.size() - pos_);
    std::memcpy(scratch, data_.data() + pos_, len);
    pos_ += len;
    *result = Slice(scratch, len);
    return Status::OK();
  }
  Status Skip(uint64_t n) override {
    pos_ += static_cast<size_t>(std::min<uint64_t>(n, data_.size() - pos_));
    return Status::OK();
  }

 private:
  const std::string data_;
  size_t pos_ = 0;
};

// A RandomAccessFile over a string, pread-like: reads past the end are short.
class MemRandomAccessFile final : public RandomAccessFile {
 public:
  explicit MemRandomAccessFile(std::string data) : data_(std::move(data)) {}
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    if (offset >= data_.size()) {
      *result = Slice(scratch, 0);
      return Status::OK();
    }
    const size_t len = static_cast<size_t>(std::min<uint64_t>(n, data_.size() - offset));
    std::memcpy(scratch, data_.data() + offset, len);
    *result = Slice(scratch, len);
    return Status::OK();
  }

 private:
  const std::string data_;
};

// A WritableFile collecting what is appended.
class MemWritableFile final : public WritableFile {
 public:
  explicit MemWritableFile(std::string* out) : out_(out) {}
  Status Append(const Slice& data) override {
    out_->append(data.data(), data.size());
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }

 private:
  std::string* const out_;
};

// The process's scratch directory, created on first use and removed at exit: under
// $SLUICE_FUZZ_TMPDIR if set, else /dev/shm (tmpfs: fsync is free) if usable, else $TMPDIR or
// /tmp. Each fuzzing process (libFuzzer -jobs/-fork run several) gets its own.
inline const std::string& ScratchRoot() {
  static const std::string root = [] {
    std::string base;
    if (const char* e = std::getenv("SLUICE_FUZZ_TMPDIR"); e != nullptr && *e != '\0') {
      base = e;
    } else if (access("/dev/shm", W_OK) == 0) {
      base = "/dev/shm";
    } else if (const char* t = std::getenv("TMPDIR"); t != nullptr && *t != '\0') {
      base = t;
    } else {
      base = "/tmp";
    }
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
    std::string tmpl = base + "/sluice-fuzz-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) {
      std::fprintf(stderr, "fuzz: cannot create a scratch directory under %s\n", base.c_str());
      std::abort();
    }
    static std::string to_remove;
    to_remove = tmpl;
    std::atexit([] {
      std::error_code ec2;
      std::filesystem::remove_all(to_remove, ec2);
    });
    return tmpl;
  }();
  return root;
}

// An empty directory ScratchRoot()/name (whatever it held before is removed).
inline std::string FreshDir(const std::string& name) {
  const std::string dir = ScratchRoot() + "/" + name;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir, ec);
  if (ec) Fail(__FILE__, __LINE__, "cannot create " + dir + ": " + ec.message());
  return dir;
}

inline void RemoveDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

inline void WriteWholeFile(const std::string& path, std::string_view data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out) Fail(__FILE__, __LINE__, "cannot write " + path);
}

}  // namespace sluice::fuzz

#endif  // SLUICE_TESTS_FUZZ_FUZZ_UTIL_H_
