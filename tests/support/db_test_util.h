// tests/support/db_test_util.h — a fixture for engine tests: a DB in a temporary directory,
// reopened at will, with short helpers for the common calls. Suites parameterised over memory
// components derive from DBTestBase and pass the component name.

#ifndef SLUICE_TESTS_SUPPORT_DB_TEST_UTIL_H_
#define SLUICE_TESTS_SUPPORT_DB_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/db.h"
#include "support/test_util.h"

namespace sluice::test {

class DBTestBase {
 public:
  explicit DBTestBase(std::string memtable);
  virtual ~DBTestBase();

  // Options for this test: small buffers so flushes and compactions happen quickly.
  Options DefaultOptions() const;

  Status TryOpen(const Options& options);
  void Open(const Options& options);
  void Open() { Open(DefaultOptions()); }
  void Reopen() { Reopen(options_); }
  void Reopen(const Options& options);
  void Close();

  Status Put(const std::string& k, const std::string& v, bool sync = false);
  Status Delete(const std::string& k);
  // The value, "NOT_FOUND", or the error's text.
  std::string Get(const std::string& k, const Snapshot* snapshot = nullptr);
  // Every key/value visible (at snapshot), as "k1->v1, k2->v2".
  std::string Contents(const Snapshot* snapshot = nullptr);
  std::map<std::string, std::string> ContentsMap(const Snapshot* snapshot = nullptr);
  int NumFilesAtLevel(int level);
  int TotalFiles();

  DB* db() { return db_.get(); }
  const std::string& dbname() const { return dir_.path(); }
  const Options& options() const { return options_; }
  const std::string& memtable() const { return memtable_; }

 protected:
  const std::string memtable_;
  TempDir dir_;
  Options options_;
  std::unique_ptr<DB> db_;
};

// A value of `len` bytes derived from seed.
std::string Value(int seed, size_t len = 100);

// A column family handle no DB created: every call given it must refuse it.
class ForeignColumnFamilyHandle final : public ColumnFamilyHandle {
 public:
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return 7; }

 private:
  std::string name_ = "foreign";
};

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_DB_TEST_UTIL_H_
