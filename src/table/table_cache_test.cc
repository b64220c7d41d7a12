// Tests of TableCache's point-read path through its recent-readers slots: with more files than
// open readers allowed (so readers are evicted and reopened all the time) and file numbers
// that share a slot, every Get reads the right file; an evicted reader is never served from a
// slot (the next Get reopens the file, and fails if it is gone); and threads reading while
// others evict see only whole, live readers (a reader freed while a Get still used it would be
// a use-after-free, which `make test-asan` reports; `make test-tsan` checks the orderings).

#include "table/table_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "base/filename.h"
#include "support/test_util.h"
#include "table/table_test_util.h"
#include "util/random.h"

namespace sluice {

namespace {

constexpr int kKeysPerFile = 200;

std::string FileValue(uint64_t number, int i) {
  return "file" + std::to_string(number) + "-" + std::to_string(i);
}

class TableCacheTest : public ::testing::Test {
 public:
  // Writes SST file `number`: keys 0..kKeysPerFile-1, each with FileValue(number, i).
  void WriteFile(uint64_t number) {
    test::KVs entries;
    for (int i = 0; i < kKeysPerFile; i++) {
      std::string key;
      AppendInternalKey(&key, ParsedInternalKey(test::UserKey(i), 5, kTypeValue));
      entries.emplace_back(std::move(key), FileValue(number, i));
    }
    std::string contents;
    ASSERT_TRUE(test::BuildTable(options_, entries, &contents).ok());
    std::unique_ptr<WritableFile> file;
    ASSERT_TRUE(Env::Default()->NewWritableFile(TableFileName(dir_.path(), number), &file).ok());
    ASSERT_TRUE(file->Append(contents).ok());
    ASSERT_TRUE(file->Close().ok());
    sizes_[number] = contents.size();
  }

  // The value of key i in file `number` through the cache ("" if absent, "error: ..." on error).
  std::string Get(TableCache* cache, uint64_t number, int i) {
    std::string lookup;
    AppendInternalKey(&lookup,
                      ParsedInternalKey(test::UserKey(i), kMaxSequenceNumber, kValueTypeForSeek));
    std::string value;
    Status s = cache->Get(ReadOptions(), number, sizes_.at(number), lookup,
                          [&](const Slice& key, const Slice& v) {
                            if (ExtractUserKey(key) == Slice(test::UserKey(i)))
                              value = v.ToString();
                          });
    return s.ok() ? value : "error: " + s.ToString();
  }

 protected:
  test::TempDir dir_;
  TableOptions options_;
  std::map<uint64_t, uint64_t> sizes_;
};

// Numbers that share a recent slot (the slots number at least 64, a power of two).
const std::vector<uint64_t> kNumbers = {5, 69, 133, 6, 7, 8, 1029, 2053};

}  // namespace

TEST_F(TableCacheTest, GetsReadTheRightFileWhileReadersAreEvictedAndShareSlots) {
  for (uint64_t n : kNumbers) WriteFile(n);
  TableCache cache(dir_.path(), Env::Default(), options_, 2);  // two readers open at most
  Random rnd(7);
  for (int round = 0; round < 3000; round++) {
    const uint64_t n = kNumbers[rnd.Uniform(kNumbers.size())];
    const int i = static_cast<int>(rnd.Uniform(kKeysPerFile));
    ASSERT_EQ(FileValue(n, i), Get(&cache, n, i)) << round;
  }
}

TEST_F(TableCacheTest, AnEvictedReaderIsNotServedFromItsSlot) {
  WriteFile(9);
  TableCache cache(dir_.path(), Env::Default(), options_, 100);
  ASSERT_EQ(FileValue(9, 3), Get(&cache, 9, 3));
  ASSERT_EQ(FileValue(9, 4), Get(&cache, 9, 4));  // served from the slot
  cache.Evict(9);
  ASSERT_TRUE(Env::Default()->RemoveFile(TableFileName(dir_.path(), 9)).ok());
  const std::string after = Get(&cache, 9, 3);
  EXPECT_EQ(0u, after.rfind("error: ", 0)) << "a deleted, evicted file was still read: " << after;
}

TEST_F(TableCacheTest, ConcurrentGetsWhileOtherThreadsEvict) {
  for (uint64_t n : kNumbers) WriteFile(n);
  TableCache cache(dir_.path(), Env::Default(), options_, 3);
  std::atomic<int> bad{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; t++) {
    readers.emplace_back([&, t] {
      Random rnd(100 + t);
      for (int round = 0; round < 4000; round++) {
        const uint64_t n = kNumbers[rnd.Uniform(kNumbers.size())];
        const int i = static_cast<int>(rnd.Uniform(kKeysPerFile));
        if (Get(&cache, n, i) != FileValue(n, i)) bad.fetch_add(1);
      }
    });
  }
  std::thread evictor([&] {
    Random rnd(99);
    while (!stop.load(std::memory_order_relaxed)) {
      cache.Evict(kNumbers[rnd.Uniform(kNumbers.size())]);
      std::this_thread::yield();
    }
  });
  for (auto& r : readers) r.join();
  stop.store(true, std::memory_order_relaxed);
  evictor.join();
  EXPECT_EQ(0, bad.load());
}

}  // namespace sluice
