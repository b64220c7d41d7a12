// Unit tests of the hash components beyond the shared suites (memory_component_test.cc and the
// engine tests run over every component): bucket choice by key prefix, iteration merged across
// buckets checked against a sorted reference, memory accounting that grows with the bucket
// count, linked-list buckets cheaper than skiplist ones, a single overfull linked-list bucket,
// and option validation.

#include "memory/hash_rep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "sluice/db.h"
#include "support/test_util.h"
#include "util/random.h"

namespace sluice {
namespace {

using Buckets = HashRep::Buckets;

// Random keys of 4..12 bytes over a small alphabet, so that prefixes repeat.
std::string RandomKey(Random* rnd) {
  std::string k;
  const size_t len = 4 + rnd->Uniform(9);
  for (size_t i = 0; i < len; i++) k.push_back(static_cast<char>('a' + rnd->Uniform(4)));
  return k;
}

std::unique_ptr<HashRep> NewRep(Buckets kind, size_t prefix_length, size_t bucket_count) {
  return std::make_unique<HashRep>(kind, 4 << 20, prefix_length, bucket_count,
                                   [] { return kMaxSequenceNumber; });
}

class HashRepTest : public ::testing::TestWithParam<Buckets> {};

TEST_P(HashRepTest, KeysSharingAPrefixShareABucket) {
  auto rep = NewRep(GetParam(), 3, 1000);
  EXPECT_EQ(rep->BucketOf("abcdef"), rep->BucketOf("abcxyz"));
  EXPECT_EQ(rep->BucketOf("ab"), rep->BucketOf(Slice("ab")));  // shorter keys hash whole
  SequenceNumber seq = 1;
  // 26 distinct 3-byte prefixes, 20 keys each: at most 26 buckets are used.
  for (char c = 'a'; c <= 'z'; c++) {
    for (int i = 0; i < 20; i++) {
      rep->Add(seq++, kTypeValue, std::string("pr") + c + std::to_string(i), "v", false);
    }
  }
  EXPECT_LE(rep->NonEmptyBuckets(), 26u);
  EXPECT_GE(rep->NonEmptyBuckets(), 20u);  // 26 prefixes over 1000 buckets rarely collide
  EXPECT_EQ(520u, rep->NumEntries());
}

// Every version of random keys over many buckets, several per key: the merged iterator must
// give exactly the sorted internal keys, forwards, backwards, and from seeks that land
// between buckets' keys.
TEST_P(HashRepTest, IterationAcrossBucketsMatchesASortedReference) {
  for (size_t buckets : {size_t{1}, size_t{7}, size_t{1000}}) {
    SCOPED_TRACE("buckets " + std::to_string(buckets));
    auto rep = NewRep(GetParam(), 2, buckets);
    Random rnd(static_cast<uint32_t>(buckets));
    std::vector<std::string> reference;  // internal keys
    for (SequenceNumber seq = 1; seq <= 3000; seq++) {
      const std::string k = RandomKey(&rnd);
      const ValueType type = rnd.OneIn(5) ? kTypeDeletion : kTypeValue;
      rep->Add(seq, type, k, type == kTypeValue ? "v" + std::to_string(seq) : "", false);
      std::string ikey;
      AppendInternalKey(&ikey, ParsedInternalKey(k, seq, type));
      reference.push_back(ikey);
    }
    const InternalKeyComparator* cmp = DefaultInternalKeyComparator();
    std::sort(reference.begin(), reference.end(),
              [&](const std::string& a, const std::string& b) { return cmp->Compare(a, b) < 0; });

    std::unique_ptr<InternalIterator> it = rep->NewIterator();
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_LT(i, reference.size());
      ASSERT_EQ(reference[i], it->key().ToString()) << "forward at " << i;
    }
    EXPECT_EQ(reference.size(), i);
    i = reference.size();
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      ASSERT_GT(i, 0u);
      ASSERT_EQ(reference[--i], it->key().ToString()) << "backward at " << i;
    }
    EXPECT_EQ(0u, i);
    for (int probe = 0; probe < 200; probe++) {
      std::string target;
      AppendInternalKey(
          &target, ParsedInternalKey(RandomKey(&rnd), 1 + rnd.Uniform(3000), kValueTypeForSeek));
      auto want = std::lower_bound(
          reference.begin(), reference.end(), target,
          [&](const std::string& a, const std::string& b) { return cmp->Compare(a, b) < 0; });
      it->Seek(target);
      ASSERT_EQ(want != reference.end(), it->Valid());
      if (want == reference.end()) continue;
      ASSERT_EQ(*want, it->key().ToString());
      // One step each way from a seek switches the merge's direction.
      it->Prev();
      if (want == reference.begin()) {
        EXPECT_FALSE(it->Valid());
      } else {
        ASSERT_TRUE(it->Valid());
        EXPECT_EQ(*std::prev(want), it->key().ToString());
        it->Next();
        ASSERT_TRUE(it->Valid());
        EXPECT_EQ(*want, it->key().ToString());
      }
    }
  }
}

// The accounting covers the bucket array and every node: more buckets cost more for the same
// data, and the usage is at least what the nodes and the array must take.
TEST_P(HashRepTest, MemoryUsageCountsBucketsAndNodes) {
  auto few = NewRep(GetParam(), 8, 10);
  auto many = NewRep(GetParam(), 8, 100000);
  const size_t empty_many = many->ApproximateMemoryUsage();
  EXPECT_GE(empty_many, 100000 * sizeof(void*));  // the bucket array, before any insert
  size_t payload = 0;
  for (int i = 0; i < 20000; i++) {
    const std::string k = test::Key(i * 7919 % 100000), v(48, 'x');
    few->Add(static_cast<SequenceNumber>(i + 1), kTypeValue, k, v, false);
    many->Add(static_cast<SequenceNumber>(i + 1), kTypeValue, k, v, false);
    // At least a one-pointer tower, the node header and the encoded entry.
    payload += EntryList::NodeBytes(EncodedEntrySize(k, v), 1);
  }
  EXPECT_GE(few->ApproximateMemoryUsage(), payload);
  EXPECT_GE(many->ApproximateMemoryUsage(), payload + 100000 * sizeof(void*));
  EXPECT_GT(many->ApproximateMemoryUsage(), few->ApproximateMemoryUsage());
}

INSTANTIATE_TEST_SUITE_P(Both, HashRepTest,
                         ::testing::Values(Buckets::kSkipList, Buckets::kLinkList),
                         [](const auto& info) {
                           return info.param == Buckets::kSkipList ? std::string("skiplist")
                                                                   : std::string("linklist");
                         });

// With a few versions per bucket, linked-list buckets (one next pointer per node, a shorter
// head) take less memory than skiplist buckets for the same data.
TEST(HashRep, LinkedListBucketsTakeLessMemoryThanSkiplistBuckets) {
  auto skip = NewRep(Buckets::kSkipList, 8, 4096);
  auto link = NewRep(Buckets::kLinkList, 8, 4096);
  // Enough data that the difference spans several arena blocks (usage grows by blocks).
  for (int i = 0; i < 400000; i++) {
    const std::string k = test::Key(i);
    skip->Add(static_cast<SequenceNumber>(i + 1), kTypeValue, k, "value", false);
    link->Add(static_cast<SequenceNumber>(i + 1), kTypeValue, k, "value", false);
  }
  EXPECT_LT(link->ApproximateMemoryUsage(), skip->ApproximateMemoryUsage());
}

// Every key in one bucket (a one-byte prefix they all share): the linked list gains skip
// levels past its threshold, and every version stays reachable and ordered.
TEST(HashRep, OneOverfullLinkedListBucketStaysCorrect) {
  auto rep = NewRep(Buckets::kLinkList, 1, 1000);
  constexpr int kKeys = 50000;
  Random rnd(3);
  std::vector<int> order(kKeys);
  for (int i = 0; i < kKeys; i++) order[i] = i;
  for (int i = kKeys - 1; i > 0; i--) std::swap(order[i], order[rnd.Uniform(i + 1)]);
  SequenceNumber seq = 1;
  for (int k : order) rep->Add(seq++, kTypeValue, test::Key(k), std::to_string(k), false);
  EXPECT_EQ(1u, rep->NonEmptyBuckets());
  MemoryLookup r;
  for (int k = 0; k < kKeys; k += 97) {
    ASSERT_TRUE(rep->Get(test::Key(k), kMaxSequenceNumber, &r)) << k;
    EXPECT_EQ(std::to_string(k), r.value);
  }
  std::unique_ptr<InternalIterator> it = rep->NewIterator();
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    ASSERT_EQ(test::Key(n), ExtractUserKey(it->key()).ToString());
  }
  EXPECT_EQ(kKeys, n);
}

TEST(HashRep, BadOptionsAreRejectedNamingTheOption) {
  test::TempDir dir;
  Options o;
  o.create_if_missing = true;
  o.memtable = "hash-skiplist";
  o.write_buffer_size = 1 << 20;
  o.bucket_count = 1 << 20;  // an 8 MiB bucket array for a 1 MiB buffer
  std::unique_ptr<DB> db;
  Status s = DB::Open(o, dir.path(), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("bucket_count")) << s.ToString();
  o.bucket_count = 1000;
  o.prefix_length = 0;
  s = DB::Open(o, dir.path(), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("prefix_length")) << s.ToString();
  o.prefix_length = 4;
  EXPECT_OK(DB::Open(o, dir.path(), &db));
}

}  // namespace
}  // namespace sluice
