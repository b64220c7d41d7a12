// Tests every registered memory component through the MemoryComponent interface: versions and
// read sequence numbers, iteration order, memory accounting, and concurrent writers + readers.

#include "memory/memory_component.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "memory/memory_component_factory.h"
#include "support/test_util.h"
#include "util/random.h"

namespace sluice {

namespace {

// Keeps every version: with it, a component that replaces versions in place behaves like a
// multi-version one, which is what the generic tests below check.
class KeepEverything : public VersionKeeper {
 public:
  bool MustKeep(SequenceNumber, SequenceNumber) const override { return true; }
};

class MemoryComponentTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<MemoryComponent> Make(size_t budget = 4 << 20) {
    Options options;
    options.memtable = GetParam();
    options.write_buffer_size = budget;
    MemoryComponentContext context;
    context.keeper = &keeper_;
    context.announced_sequence = [this] { return last_sequence_.load(); };
    std::unique_ptr<MemoryComponentFactory> factory;
    EXPECT_OK(NewMemoryComponentFactory(options, &factory));
    // The component outlives its factory (memory_component_factory.h).
    std::unique_ptr<MemoryComponent> m;
    EXPECT_OK(factory->NewComponent(context, &m));
    return m;
  }
  // An iterator that sees everything added so far.
  std::unique_ptr<InternalIterator> Scan(MemoryComponent* m) {
    bool piggybacked;
    m->PrepareScan(false, &piggybacked);
    return m->NewIterator();
  }

  KeepEverything keeper_;
  std::atomic<SequenceNumber> last_sequence_{kMaxSequenceNumber};
};

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

}  // namespace

TEST_P(MemoryComponentTest, GetReturnsNewestVersionAtOrBelowReadSequence) {
  auto m = Make();
  m->Add(10, kTypeValue, "a", "a10");
  m->Add(20, kTypeValue, "a", "a20");
  m->Add(30, kTypeDeletion, "a", "");
  m->Add(15, kTypeValue, "b", "b15");
  m->Add(5, kTypeValue, "", "empty-key");

  MemoryLookup r;
  EXPECT_FALSE(m->Get("a", 9, &r));
  ASSERT_TRUE(m->Get("a", 10, &r));
  EXPECT_EQ(10u, r.sequence);
  EXPECT_EQ("a10", r.value);
  ASSERT_TRUE(m->Get("a", 29, &r));
  EXPECT_EQ("a20", r.value);
  ASSERT_TRUE(m->Get("a", kMaxSequenceNumber, &r));
  EXPECT_EQ(kTypeDeletion, r.type);
  EXPECT_EQ(30u, r.sequence);
  ASSERT_TRUE(m->Get("b", 100, &r));
  EXPECT_EQ("b15", r.value);
  EXPECT_FALSE(m->Get("c", 100, &r));
  EXPECT_FALSE(m->Get("aa", 100, &r));
  ASSERT_TRUE(m->Get("", 100, &r));
  EXPECT_EQ("empty-key", r.value);
  EXPECT_EQ(5u, m->NumEntries());
}

TEST_P(MemoryComponentTest, IteratorYieldsInternalKeyOrderBothWays) {
  auto m = Make();
  Random rnd(42);
  std::vector<std::string> expected;
  for (int i = 0; i < 2000; i++) {
    const int k = static_cast<int>(rnd.Uniform(500));
    const SequenceNumber seq = static_cast<SequenceNumber>(i + 1);
    std::string value = "v";
    value += std::to_string(i);  // (not "v" + ...: GCC 12 warns falsely on that under -O3)
    m->Add(seq, kTypeValue, Key(k), value);
    std::string ikey;
    AppendInternalKey(&ikey, ParsedInternalKey(Key(k), seq, kTypeValue));
    expected.push_back(ikey);
  }
  const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
  std::sort(expected.begin(), expected.end(),
            [&](const std::string& a, const std::string& b) { return icmp->Compare(a, b) < 0; });

  auto it = Scan(m.get());
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    ASSERT_LT(n, expected.size());
    ASSERT_EQ(expected[n], it->key().ToString());
  }
  EXPECT_EQ(expected.size(), n);
  n = expected.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(n, 0u);
    ASSERT_EQ(expected[--n], it->key().ToString());
  }
  EXPECT_EQ(0u, n);
  // Seek to an internal key lands on the first entry >= it.
  for (size_t i = 0; i < expected.size(); i += 97) {
    it->Seek(expected[i]);
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(expected[i], it->key().ToString());
  }
  LookupKey past(Key(1000), kMaxSequenceNumber);
  it->Seek(past.internal_key());
  EXPECT_FALSE(it->Valid());
}

TEST_P(MemoryComponentTest, MemoryUsageCoversKeysValuesAndMetadata) {
  auto m = Make(1 << 20);
  const std::string value(100, 'v');
  for (int i = 0; i < 10000; i++) m->Add(i + 1, kTypeValue, Key(i), value);
  const size_t payload = 10000 * (Key(0).size() + 8 + value.size());
  // At least 16 bytes of metadata per version (lengths, a link, a header), and not wildly more.
  EXPECT_GE(m->ApproximateMemoryUsage(), payload + 10000 * 16);
  EXPECT_LE(m->ApproximateMemoryUsage(), 2 * payload);
}

TEST_P(MemoryComponentTest, ConcurrentWritersAndReaders) {
  auto m = Make(64 << 20);
  constexpr int kWriters = 4, kPerWriter = 5000;
  std::atomic<SequenceNumber> seq{0};
  std::atomic<bool> done{false};
  std::atomic<int> reader_errors{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kPerWriter; i++) {
        const int k = w * kPerWriter + i;
        m->Add(seq.fetch_add(1) + 1, kTypeValue, Key(k), "value-" + Key(k));
      }
    });
  }
  threads.emplace_back([&] {
    Random rnd(7);
    while (!done.load()) {
      const int k = static_cast<int>(rnd.Uniform(kWriters * kPerWriter));
      MemoryLookup r;
      if (m->Get(Key(k), kMaxSequenceNumber, &r) && r.value != "value-" + Key(k)) {
        reader_errors.fetch_add(1);
      }
      auto it = Scan(m.get());
      std::string last;
      int steps = 0;
      for (it->Seek(InternalKey(Key(k), kMaxSequenceNumber, kValueTypeForSeek).Encode());
           it->Valid() && steps < 50; it->Next(), steps++) {
        std::string cur = it->key().ToString();
        if (!last.empty() && DefaultInternalKeyComparator()->Compare(last, cur) >= 0) {
          reader_errors.fetch_add(1);
        }
        last = cur;
      }
    }
  });
  for (int w = 0; w < kWriters; w++) threads[w].join();
  done.store(true);
  threads.back().join();
  EXPECT_EQ(0, reader_errors.load());
  EXPECT_EQ(static_cast<uint64_t>(kWriters * kPerWriter), m->NumEntries());
  for (int k = 0; k < kWriters * kPerWriter; k++) {
    MemoryLookup r;
    ASSERT_TRUE(m->Get(Key(k), kMaxSequenceNumber, &r)) << k;
    ASSERT_EQ("value-" + Key(k), r.value);
  }
}

INSTANTIATE_TEST_SUITE_P(AllComponents, MemoryComponentTest,
                         ::testing::ValuesIn(MemoryComponentNames()), [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(MemoryComponentFactory, UnknownNameIsInvalidArgumentNamingTheOption) {
  Options options;
  options.memtable = "no-such-thing";
  std::unique_ptr<MemoryComponentFactory> f;
  Status s = NewMemoryComponentFactory(options, &f);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("no-such-thing"));
  EXPECT_NE(std::string::npos, s.ToString().find("memtable"));
}

}  // namespace sluice
