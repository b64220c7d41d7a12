// tests/support/db_test_util.cc — see db_test_util.h.

#include "support/db_test_util.h"

#include <cstdio>

#include "support/test_util.h"

namespace sluice::test {

DBTestBase::DBTestBase(std::string memtable) : memtable_(std::move(memtable)) {}

DBTestBase::~DBTestBase() { Close(); }

Options DBTestBase::DefaultOptions() const {
  Options o;
  o.create_if_missing = true;
  o.memtable = memtable_;
  o.write_buffer_size = 64 << 10;
  o.target_file_size_base = 64 << 10;
  o.max_bytes_for_level_base = 256 << 10;
  o.block_cache_size = 1 << 20;
  return o;
}

Status DBTestBase::TryOpen(const Options& options) {
  Close();
  options_ = options;
  return DB::Open(options, dir_.path(), &db_);
}

void DBTestBase::Open(const Options& options) {
  Status s = TryOpen(options);
  ASSERT_OK(s);
}

void DBTestBase::Reopen(const Options& options) { Open(options); }

void DBTestBase::Close() {
  if (db_ != nullptr) {
    Status s = db_->Close();
    EXPECT_OK(s);
    db_.reset();
  }
}

Status DBTestBase::Put(const std::string& k, const std::string& v, bool sync) {
  WriteOptions wo;
  wo.sync = sync;
  return db_->Put(wo, k, v);
}

Status DBTestBase::Delete(const std::string& k) { return db_->Delete(WriteOptions(), k); }

std::string DBTestBase::Get(const std::string& k, const Snapshot* snapshot) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  std::string value;
  Status s = db_->Get(ro, k, &value);
  if (s.IsNotFound()) return "NOT_FOUND";
  if (!s.ok()) return s.ToString();
  return value;
}

std::map<std::string, std::string> DBTestBase::ContentsMap(const Snapshot* snapshot) {
  ReadOptions ro;
  ro.snapshot = snapshot;
  std::map<std::string, std::string> result;
  std::unique_ptr<Iterator> it = db_->NewIterator(ro);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    result[it->key().ToString()] = it->value().ToString();
  }
  EXPECT_OK(it->status());
  return result;
}

std::string DBTestBase::Contents(const Snapshot* snapshot) {
  std::string r;
  for (const auto& [k, v] : ContentsMap(snapshot)) {
    if (!r.empty()) r += ", ";
    r += k + "->" + v;
  }
  return r;
}

int DBTestBase::NumFilesAtLevel(int level) {
  std::string v;
  EXPECT_TRUE(db_->GetProperty("sluice.num-files-at-level" + std::to_string(level), &v));
  return std::stoi(v);
}

int DBTestBase::TotalFiles() {
  int total = 0;
  for (int level = 0; level < options_.num_levels; level++) total += NumFilesAtLevel(level);
  return total;
}

std::string Value(int seed, size_t len) {
  std::string v = "value" + std::to_string(seed) + "-";
  while (v.size() < len) v.push_back(static_cast<char>('a' + (v.size() * 31 + seed) % 26));
  v.resize(len);
  return v;
}

}  // namespace sluice::test
