// Unit tests of the "adaptive" memory component beyond the shared suites (memory_component_test.cc
// and the engine tests run over every component, "adaptive" included): the observations
// (operation_mix.h), the cost model's choice for each of the DBTest'24 paper's workload classes
// and for keys whose prefixes repeat, the policy's history, and a component observing its own
// operations and choosing its successor.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "memory/adaptive/adaptive_component.h"
#include "memory/adaptive/adaptive_factory.h"
#include "memory/adaptive/adaptive_policy.h"
#include "memory/adaptive/operation_mix.h"
#include "sluice/options.h"
#include "support/test_util.h"
#include "util/coding.h"

namespace sluice {
namespace {

// A factory of "adaptive" components of write_buffer_size bytes that report to a policy of their
// own (whose hash candidates use 8-byte prefixes and bucket_count buckets).
AdaptiveComponentFactory FactoryWithPolicy(size_t write_buffer_size, size_t bucket_count) {
  Options options;
  options.memtable = "adaptive";
  options.write_buffer_size = write_buffer_size;
  return AdaptiveComponentFactory(AdaptiveOptionsFrom(options),
                                  std::make_shared<AdaptivePolicy>(8, bucket_count));
}

std::string Key(uint64_t n) {
  std::string k;
  PutFixed64(&k, n * 0x9E3779B97F4A7C15ull);  // spread: every 8-byte prefix distinct
  return k;
}

// A component's worth of operations: `inserts` inserts, with a read after every
// `inserts / reads` of them.
MixSnapshot Mix(uint64_t inserts, uint64_t point_reads, uint64_t scans, uint64_t steps_per_scan) {
  MixSnapshot m;
  m.inserts = inserts;
  m.point_reads = point_reads;
  m.scans = scans;
  m.scan_steps = scans * steps_per_scan;
  m.reads_after_insert = point_reads + scans;
  m.prefix_samples = inserts / OperationMix::kPrefixSampleEvery;
  m.distinct_prefixes = std::min<uint64_t>(m.prefix_samples, OperationMix::kMaxDistinct);
  m.prefix_sample_full = m.distinct_prefixes >= OperationMix::kMaxDistinct;
  return m;
}

std::string Choice(const MixSnapshot& m, size_t buckets = 16384) {
  return kAdaptiveCandidates[EstimateCosts(m, buckets).best];
}

// The paper's four classes for a 16 MB component (about 150K 64-byte entries), at its 0.1% and
// at 1% of queries, and a read-heavy mix (4 point reads per insert).
TEST(AdaptivePolicyTest, ChoosesPerWorkloadClass) {
  EXPECT_EQ("vector-prealloc", Choice(Mix(150000, 0, 0, 0)));
  EXPECT_EQ("hash-linklist", Choice(Mix(150000, 150, 0, 0)));
  EXPECT_EQ("hash-linklist", Choice(Mix(150000, 1500, 0, 0)));
  EXPECT_EQ("hash-linklist", Choice(Mix(150000, 600000, 0, 0)));
  EXPECT_EQ("skiplist", Choice(Mix(150000, 0, 150, 16)));
  EXPECT_EQ("skiplist", Choice(Mix(150000, 0, 1500, 16)));
  EXPECT_EQ("skiplist", Choice(Mix(150000, 0, 1500, 1024)));
  // One scan per component costs a hash buffer less than its cheaper inserts save.
  EXPECT_EQ("hash-linklist", Choice(Mix(150000, 1500, 1, 16)));
}

TEST(AdaptivePolicyTest, VectorOnlyWhileReadsAfterInsertsAreRare) {
  EXPECT_EQ("vector-prealloc", Choice(Mix(150000, 5, 0, 0)));
  EXPECT_NE("vector-prealloc", Choice(Mix(150000, 100, 0, 0)));
  // Reads that follow other reads find the vector sorted: only the transitions cost a sort.
  MixSnapshot batched = Mix(150000, 1500, 0, 0);
  batched.reads_after_insert = 3;
  EXPECT_EQ("vector-prealloc", Choice(batched));
}

TEST(AdaptivePolicyTest, RepeatedPrefixesRuleOutLinkedLists) {
  MixSnapshot few = Mix(150000, 600000, 0, 0);
  few.distinct_prefixes = 4;  // every key shares one of 4 prefixes: 4 buckets in use
  few.prefix_sample_full = false;
  const CostEstimate est = EstimateCosts(few, 16384);
  EXPECT_EQ(4, est.buckets_in_use);
  // Lists of thousands of versions: dearer than one skiplist; skiplist buckets about as dear.
  EXPECT_GT(est.nanos[3], 2 * est.nanos[1]);
  EXPECT_GT(est.nanos[2], 0.8 * est.nanos[1]);
  EXPECT_NE("hash-linklist", std::string(kAdaptiveCandidates[est.best]));
  // The same reads with spread prefixes favour the linked lists.
  EXPECT_EQ("hash-linklist", Choice(Mix(150000, 600000, 0, 0)));
}

TEST(AdaptivePolicyTest, FewBucketsMakeLinkedListsLong) {
  // With 10 buckets, linked lists of thousands of entries lose to skiplist buckets.
  const CostEstimate est = EstimateCosts(Mix(150000, 600000, 0, 0), 10);
  EXPECT_GT(est.nanos[3], est.nanos[2]);
}

TEST(AdaptivePolicyTest, NothingObservedKeepsTheInitialChoice) {
  EXPECT_EQ(kAdaptiveInitial, Choice(MixSnapshot()));
}

TEST(OperationMixTest, CountsAndSamples) {
  OperationMix mix(8);
  for (uint64_t i = 1; i <= 6400; i++) mix.RecordInsert(i, Key(i));
  MixSnapshot m = mix.Snapshot();
  EXPECT_EQ(6400u, m.inserts);
  EXPECT_EQ(100u, m.prefix_samples);
  EXPECT_EQ(100u, m.distinct_prefixes);
  EXPECT_FALSE(m.prefix_sample_full);
  EXPECT_EQ(0u, m.reads_after_insert);

  mix.RecordPointRead();  // after inserts: a vector would sort
  mix.RecordPointRead();  // it would not sort again
  mix.RecordScans(2, 30);
  mix.NoteRead();
  mix.RecordInsert(6401, Key(1));
  mix.NoteRead();
  m = mix.Snapshot();
  EXPECT_EQ(2u, m.point_reads);
  EXPECT_EQ(2u, m.scans);
  EXPECT_EQ(30u, m.scan_steps);
  EXPECT_EQ(2u, m.reads_after_insert);
}

TEST(OperationMixTest, RepeatedPrefixesAreCountedOnce) {
  OperationMix mix(2);
  for (uint64_t i = 1; i <= 64 * 500; i++) {
    mix.RecordInsert(i, std::string(1, static_cast<char>('a' + i % 3)) + "x" + Key(i));
  }
  const MixSnapshot m = mix.Snapshot();
  EXPECT_EQ(500u, m.prefix_samples);
  EXPECT_LE(m.distinct_prefixes, 3u);
}

TEST(OperationMixTest, SampleSetCapsDistinctPrefixes) {
  OperationMix mix(8);
  for (uint64_t i = 1; i <= 64 * 2000; i++) mix.RecordInsert(i, Key(i));
  const MixSnapshot m = mix.Snapshot();
  EXPECT_EQ(OperationMix::kMaxDistinct, m.distinct_prefixes);
  EXPECT_TRUE(m.prefix_sample_full);
}

TEST(AdaptivePolicyTest, HistoryNamesEachDecision) {
  AdaptivePolicy policy(8, 1024);
  std::shared_ptr<OperationMix> mix;
  EXPECT_EQ("skiplist", policy.ChooseNext(&mix));
  for (uint64_t i = 1; i <= 20000; i++) mix->RecordInsert(i, Key(i));
  EXPECT_EQ("vector-prealloc", policy.ChooseNext(&mix));
  EXPECT_EQ("vector-prealloc", policy.ChooseNext(&mix));  // the previous one saw nothing
  const std::string h = policy.ChoicesString();
  EXPECT_NE(std::string::npos, h.find("#1 skiplist: initial choice")) << h;
  EXPECT_NE(std::string::npos, h.find("#2 vector-prealloc: after 20000 inserts, 0 point reads"))
      << h;
  EXPECT_NE(std::string::npos, h.find("#3 vector-prealloc: unchanged")) << h;
  for (int i = 0; i < 100; i++) policy.ChooseNext(&mix);
  std::string history = policy.ChoicesString();
  EXPECT_EQ(AdaptivePolicy::kHistory,
            static_cast<size_t>(std::count(history.begin(), history.end(), '\n')));
}

// A component created through the factory with a policy observes its operations (inserts,
// point reads, iterators) and the next one is chosen from them.
TEST(AdaptiveComponentTest, ObservesItsOperationsAndChoosesTheNext) {
  AdaptiveComponentFactory factory = FactoryWithPolicy(4 << 20, /*bucket_count=*/16384);
  const MemoryComponentContext context;

  std::unique_ptr<MemoryComponent> first;
  ASSERT_OK(factory.NewComponent(context, &first));
  EXPECT_STREQ("adaptive:skiplist", first->Name());
  SequenceNumber seq = 1;
  for (uint64_t i = 0; i < 20000; i++) first->Add(seq++, kTypeValue, Key(i), "v", false);
  std::unique_ptr<MemoryComponent> second;
  ASSERT_OK(factory.NewComponent(context, &second));
  EXPECT_STREQ("adaptive:vector-prealloc", second->Name());

  // Four point reads per insert: a hash buffer next.
  MemoryLookup lookup;
  for (uint64_t i = 0; i < 20000; i++) {
    second->Add(seq++, kTypeValue, Key(i), "v", false);
    for (uint64_t r = 0; r < 4; r++) {
      EXPECT_TRUE(second->Get(Key(i / (r + 1)), kMaxSequenceNumber, &lookup));
    }
  }
  const auto* observed = static_cast<const AdaptiveComponent*>(second.get());
  EXPECT_EQ(80000u, observed->mix().Snapshot().point_reads);
  std::unique_ptr<MemoryComponent> third;
  ASSERT_OK(factory.NewComponent(context, &third));
  EXPECT_EQ(0, std::string(third->Name()).rfind("adaptive:hash-", 0)) << third->Name();

  // Scans interleaved with inserts: a skiplist next.
  for (uint64_t i = 0; i < 20000; i++) {
    third->Add(seq++, kTypeValue, Key(i), "v", false);
    if (i % 100 == 0) {
      std::unique_ptr<InternalIterator> it = third->NewIterator();
      it->Seek(InternalKey(Key(i), kMaxSequenceNumber, kValueTypeForSeek).Encode());
      for (int n = 0; n < 50 && it->Valid(); n++) it->Next();
    }
  }
  EXPECT_EQ(200u, static_cast<const AdaptiveComponent*>(third.get())->mix().Snapshot().scans);
  std::unique_ptr<MemoryComponent> fourth;
  ASSERT_OK(factory.NewComponent(context, &fourth));
  EXPECT_STREQ("adaptive:skiplist", fourth->Name());

  // Once immutable (being flushed), nothing more is recorded.
  third->MarkImmutable();
  const MixSnapshot before = static_cast<const AdaptiveComponent*>(third.get())->mix().Snapshot();
  {
    std::unique_ptr<InternalIterator> it = third->NewIterator();
    it->SeekToFirst();
  }
  EXPECT_TRUE(third->Get(Key(1), kMaxSequenceNumber, &lookup));
  const MixSnapshot after = static_cast<const AdaptiveComponent*>(third.get())->mix().Snapshot();
  EXPECT_EQ(before.scans, after.scans);
  EXPECT_EQ(before.point_reads, after.point_reads);
}

// The initial skiplist, given only inserts, asks to be switched out once an eighth of its
// budget is used (a vector would be much cheaper); a component whose choice fits does not.
TEST(AdaptiveComponentTest, AsksForAnEarlySwitchWhenAnotherFitsMuchBetter) {
  Options options;
  options.write_buffer_size = 1 << 20;
  AdaptiveComponentFactory factory = FactoryWithPolicy(options.write_buffer_size, 1024);
  const MemoryComponentContext context;
  std::unique_ptr<MemoryComponent> first;
  ASSERT_OK(factory.NewComponent(context, &first));
  SequenceNumber seq = 1;
  const std::string value(48, 'v');
  while (first->ApproximateMemoryUsage() < options.write_buffer_size / 16) {
    first->Add(seq, kTypeValue, Key(seq), value, false);
    seq++;
  }
  EXPECT_FALSE(first->WantsEarlySwitch());  // too little observed yet
  while (!first->WantsEarlySwitch() &&
         first->ApproximateMemoryUsage() < options.write_buffer_size) {
    first->Add(seq, kTypeValue, Key(seq), value, false);
    seq++;
  }
  EXPECT_TRUE(first->WantsEarlySwitch());
  EXPECT_LT(first->ApproximateMemoryUsage(), options.write_buffer_size / 2);

  std::unique_ptr<MemoryComponent> second;
  ASSERT_OK(factory.NewComponent(context, &second));
  EXPECT_STREQ("adaptive:vector-prealloc", second->Name());
  while (second->ApproximateMemoryUsage() < options.write_buffer_size) {
    second->Add(seq, kTypeValue, Key(seq), value, false);
    seq++;
  }
  EXPECT_FALSE(second->WantsEarlySwitch());
}

// A component for WAL replay is created without the policy: the initial choice, no decision.
TEST(AdaptiveComponentTest, WithoutAPolicyStartsAsTheInitialChoice) {
  Options options;
  options.memtable = "adaptive";
  AdaptiveComponentFactory factory(AdaptiveOptionsFrom(options));
  std::unique_ptr<MemoryComponent> c;
  ASSERT_OK(factory.NewUnobservedComponent(MemoryComponentContext(), &c));
  EXPECT_EQ(std::string("adaptive:") + kAdaptiveInitial, c->Name());
  std::string choices = "untouched";
  ASSERT_TRUE(factory.GetProperty("sluice.memtable-choices", &choices));
  EXPECT_EQ("", choices);
  // Its accounting is the chosen component's (the observations are not the budget's).
  EXPECT_EQ(c->ApproximateMemoryUsage(),
            static_cast<const AdaptiveComponent*>(c.get())->chosen().ApproximateMemoryUsage());
}

}  // namespace
}  // namespace sluice
