// table/table_test_util.h — in-memory files for the table-layer tests (header only, used only
// by *_test.cc files).
//
// StringSink collects appended bytes; StringSource serves reads from a string with pread-like
// semantics (short result at end of file), or views of it as a mapped file, counts its reads,
// and can be told to fail them.
// MakeEntries / BuildTable / OpenTable produce and open tables in memory.

#ifndef SLUICE_TABLE_TABLE_TEST_UTIL_H_
#define SLUICE_TABLE_TABLE_TEST_UTIL_H_

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/internal_key.h"
#include "sluice/env.h"
#include "table/table.h"
#include "table/table_builder.h"
#include "util/random.h"

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
  // views: reads return views of the contents (as a memory-mapped file's do) and never touch
  // scratch.
  explicit StringSource(std::string contents, bool views = false)
      : contents_(std::move(contents)), views_(views) {}

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    reads_.fetch_add(1, std::memory_order_relaxed);
    if (fail_.load(std::memory_order_relaxed)) {
      *result = Slice();
      return Status::IOError("injected read failure");
    }
    if (offset >= contents_.size()) {
      *result = Slice(views_ ? contents_.data() : scratch, 0);
      return Status::OK();
    }
    const size_t len = std::min<uint64_t>(n, contents_.size() - offset);
    if (views_) {
      *result = Slice(contents_.data() + offset, len);
      return Status::OK();
    }
    std::memcpy(scratch, contents_.data() + offset, len);
    *result = Slice(scratch, len);
    return Status::OK();
  }
  bool ReturnsViews() const override { return views_; }

  uint64_t reads() const { return reads_.load(std::memory_order_relaxed); }
  void set_fail(bool fail) { fail_.store(fail, std::memory_order_relaxed); }

 private:
  const std::string contents_;
  const bool views_;
  mutable std::atomic<uint64_t> reads_{0};
  std::atomic<bool> fail_{false};
};

using KVs = std::vector<std::pair<std::string, std::string>>;

inline const std::string kTestFname = "/db/000123.sst";

// The user key of index i: "key" + 7 digits of 2*i, so "key" + odd numbers fall between keys.
inline std::string UserKey(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%07d", 2 * i);
  return buf;
}

// Sorted internal-key entries over n user keys: every 5th user key also has an older version,
// every 7th newest version is a deletion (empty value); sequence numbers are distinct. Values
// are compressible unless random_values, and vary in length.
inline KVs MakeEntries(int n, bool random_values = false, uint64_t seed = 1) {
  Random rnd(seed);
  KVs kvs;
  SequenceNumber seq = 10 * static_cast<SequenceNumber>(n) + 100;
  for (int i = 0; i < n; i++) {
    const int versions = i % 5 == 0 ? 2 : 1;
    for (int v = 0; v < versions; v++) {
      const bool deletion = v == 0 && i % 7 == 0;
      std::string key;
      AppendInternalKey(
          &key, ParsedInternalKey(UserKey(i), seq--, deletion ? kTypeDeletion : kTypeValue));
      std::string value;
      if (!deletion) {
        const size_t len = rnd.Uniform(120);
        if (random_values) {
          for (size_t j = 0; j < len; j++) value.push_back(static_cast<char>(rnd.Uniform(256)));
        } else {
          value = std::string(len, static_cast<char>('a' + i % 26)) + std::to_string(i * 10 + v);
        }
      }
      kvs.emplace_back(std::move(key), std::move(value));
    }
  }
  return kvs;
}

// Builds a table holding entries; *contents receives the file.
inline Status BuildTable(const TableOptions& options, const KVs& entries, std::string* contents) {
  StringSink sink;
  TableBuilder builder(options, &sink);
  for (const auto& [k, v] : entries) builder.Add(k, v);
  Status s = builder.Finish();
  *contents = sink.contents();
  if (s.ok() && builder.FileSize() != contents->size()) {
    return Status::Corruption("builder FileSize() disagrees with the bytes written");
  }
  return s;
}

// Opens contents as a table named fname; *source (if given) receives the file's StringSource,
// owned by the table.
inline Status OpenTable(const TableOptions& options, const std::string& contents,
                        std::unique_ptr<Table>* table, StringSource** source = nullptr,
                        const std::string& fname = kTestFname, bool views = false) {
  auto file = std::make_unique<StringSource>(contents, views);
  if (source != nullptr) *source = file.get();
  return Table::Open(options, std::move(file), contents.size(), fname, table);
}

}  // namespace sluice::test

#endif  // SLUICE_TABLE_TABLE_TEST_UTIL_H_
