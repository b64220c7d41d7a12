// tests/support/test_util.cc — see test_util.h.

#include "support/test_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sluice::test {

namespace fs = std::filesystem;

::testing::AssertionResult IsOk(const char* expr, const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "Value of: " << expr << "\n  Actual: " << status.ToString() << "\nExpected: OK";
}

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string templ = std::string(base != nullptr ? base : "/tmp") + "/sluice-test-XXXXXX";
  char* made = ::mkdtemp(templ.data());
  if (made == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << templ;
    std::abort();
  }
  path_ = made;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ReadFileOrDie(const std::string& fname) {
  std::ifstream in(fname, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << fname;
    return "";
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFileOrDie(const std::string& fname, const std::string& contents) {
  std::ofstream out(fname, std::ios::binary | std::ios::trunc);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (!out) ADD_FAILURE() << "cannot write " << fname;
}

void FlipByte(const std::string& fname, uint64_t offset, uint8_t mask) {
  std::string data = ReadFileOrDie(fname);
  if (offset >= data.size()) {
    ADD_FAILURE() << "offset " << offset << " past end of " << fname;
    return;
  }
  data[offset] = static_cast<char>(data[offset] ^ mask);
  WriteFileOrDie(fname, data);
}

void TruncateFileOrDie(const std::string& fname, uint64_t size) {
  std::error_code ec;
  fs::resize_file(fname, size, ec);
  if (ec) ADD_FAILURE() << "cannot truncate " << fname << ": " << ec.message();
}

void ZeroBytes(const std::string& fname, uint64_t offset, uint64_t n) {
  std::string data = ReadFileOrDie(fname);
  if (offset + n > data.size()) data.resize(offset + n);
  std::fill(data.begin() + static_cast<std::ptrdiff_t>(offset),
            data.begin() + static_cast<std::ptrdiff_t>(offset + n), '\0');
  WriteFileOrDie(fname, data);
}

uint64_t FileSizeOrDie(const std::string& fname) {
  std::error_code ec;
  const auto size = fs::file_size(fname, ec);
  if (ec) ADD_FAILURE() << "cannot stat " << fname;
  return ec ? 0 : size;
}

std::vector<std::string> FilesWithSuffix(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

void CopyDirOrDie(const std::string& src, const std::string& dst) {
  std::error_code ec;
  fs::copy(src, dst, fs::copy_options::recursive, ec);
  if (ec) ADD_FAILURE() << "cannot copy " << src << " to " << dst << ": " << ec.message();
}

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

}  // namespace sluice::test
