// Unit tests of the "vector" components beyond the shared suites (memory_component_test.cc and
// the engine tests run over every component): lazy sorting with iterators that keep their run,
// the up-front reservation of "vector-prealloc", and concurrent appends with readers.

#include "memory/vector_rep.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "support/test_util.h"
#include "util/random.h"

namespace sluice {
namespace {

using test::Key;

TEST(VectorRep, SortsLazilyAndIteratorsKeepTheirRun) {
  VectorRep rep(1 << 20, /*preallocate=*/false);
  Random rnd(7);
  std::vector<int> order;
  for (int i = 0; i < 500; i++) order.push_back(i);
  for (int i = 499; i > 0; i--) std::swap(order[i], order[rnd.Uniform(i + 1)]);
  SequenceNumber seq = 1;
  for (int k : order) rep.Add(seq++, kTypeValue, Key(k), "v" + std::to_string(k), false);
  rep.Add(seq++, kTypeDeletion, Key(3), "", false);  // a newer version of key000003

  MemoryLookup r;
  ASSERT_TRUE(rep.Get(Key(42), kMaxSequenceNumber, &r));
  EXPECT_EQ("v42", r.value);
  ASSERT_TRUE(rep.Get(Key(3), kMaxSequenceNumber, &r));
  EXPECT_EQ(kTypeDeletion, r.type);
  ASSERT_TRUE(rep.Get(Key(3), seq - 2, &r));  // below the deletion
  EXPECT_EQ(kTypeValue, r.type);
  EXPECT_FALSE(rep.Get("nope", kMaxSequenceNumber, &r));

  std::unique_ptr<InternalIterator> before = rep.NewIterator();
  rep.Add(seq++, kTypeValue, Key(1000), "late", false);
  int n = 0;
  std::string prev;
  for (before->SeekToFirst(); before->Valid(); before->Next(), n++) {
    const std::string user = ExtractUserKey(before->key()).ToString();
    EXPECT_LE(prev, user);
    prev = user;
  }
  EXPECT_EQ(501, n);  // the iterator's run predates the late entry
  std::unique_ptr<InternalIterator> after = rep.NewIterator();
  after->SeekToLast();
  ASSERT_TRUE(after->Valid());
  EXPECT_EQ(Key(1000), ExtractUserKey(after->key()).ToString());
  EXPECT_EQ(502u, rep.NumEntries());
}

TEST(VectorRep, PreallocReservesItsIndexUpFront) {
  const size_t budget = 4 << 20;
  VectorRep plain(budget, /*preallocate=*/false);
  VectorRep prealloc(budget, /*preallocate=*/true);
  const size_t reserved = VectorRep::PreallocatedEntries(budget) * sizeof(const char*);
  EXPECT_GE(prealloc.ApproximateMemoryUsage(), plain.ApproximateMemoryUsage() + reserved);
  // 64-byte entries (pointer included) up to the reservation never grow the index: memory
  // grows only by the arena's blocks.
  const std::string value(64 - sizeof(const char*) - 20, 'x');
  const size_t base = prealloc.ApproximateMemoryUsage();
  for (int i = 0; i < 10000; i++) prealloc.Add(i + 1, kTypeValue, Key(i), value, false);
  EXPECT_LT(prealloc.ApproximateMemoryUsage() - base, 10000 * 64 + (1 << 20));
  EXPECT_EQ("vector-prealloc", std::string(prealloc.Name()));
  EXPECT_EQ("vector", std::string(plain.Name()));
}

TEST(VectorRep, ConcurrentAppendsWithReaders) {
  VectorRep rep(8 << 20, /*preallocate=*/false);
  constexpr int kWriters = 2, kPerWriter = 5000;
  std::atomic<SequenceNumber> seq{0};
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kPerWriter; i++) {
        rep.Add(seq.fetch_add(1) + 1, kTypeValue, Key(w * kPerWriter + i), "v", false);
      }
    });
  }
  threads.emplace_back([&] {
    while (!stop.load()) {
      std::unique_ptr<InternalIterator> it = rep.NewIterator();
      std::string prev;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string user = ExtractUserKey(it->key()).ToString();
        if (user < prev) errors++;
        prev = user;
      }
      MemoryLookup r;
      rep.Get(Key(17), kMaxSequenceNumber, &r);
    }
  });
  threads[0].join();
  threads[1].join();
  stop.store(true);
  threads[2].join();
  EXPECT_EQ(0, errors.load());
  MemoryLookup r;
  for (int k = 0; k < kWriters * kPerWriter; k++) {
    ASSERT_TRUE(rep.Get(Key(k), kMaxSequenceNumber, &r)) << k;
  }
}

}  // namespace
}  // namespace sluice
