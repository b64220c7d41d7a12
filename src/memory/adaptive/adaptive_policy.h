// memory/adaptive/adaptive_policy.h — how the "adaptive" memory component picks the representation
// of the next memory component from what it observed on the current one (operation_mix.h).
//
// The policy is a cost model. For each candidate ("vector-prealloc", "skiplist",
// "hash-skiplist", "hash-linklist") it estimates the time the observed operations would have
// taken on that representation, from per-operation costs measured by `make bench-buffer`
// (AdaptiveCosts), and picks the cheapest:
//   * every representation pays an insert cost per insert and a point-read cost per Get;
//   * a vector also sorts its whole content for every read that follows an insert
//     (reads_after_insert × sort cost per entry × the entries it holds on average);
//   * a scan pays a positioning cost and a cost per step; the hash buffers position a merging
//     iterator over every non-empty bucket and pay a heap step on the way;
//   * the hash buffers' costs grow with the entries per bucket, estimated from the sampled
//     prefixes: keys whose prefixes repeat share buckets (a linked-list bucket is walked
//     node by node, a skiplist bucket is searched in log time).
// The first component, with nothing observed yet, is a "skiplist": the representation that is
// never the worst by much on any workload class.
//
// Thread-safety: AdaptivePolicy is shared by the components of one DB; ChooseNext and
// ChoicesString take its mutex (called once per memory component switch, and by GetProperty).

#ifndef SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_POLICY_H_
#define SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_POLICY_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "memory/adaptive/operation_mix.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

// The representations the policy chooses between, in this order in CostEstimate::nanos.
inline constexpr std::array<const char*, 4> kAdaptiveCandidates = {
    "vector-prealloc", "skiplist", "hash-skiplist", "hash-linklist"};
// The representation of a component created with nothing observed.
inline constexpr const char* kAdaptiveInitial = "skiplist";

// Per-operation costs in nanoseconds, measured through the whole database (buffer_mix_* of
// bench/buffer_experiments.sh: 16 MB components, 64-byte entries, one thread, the hash
// buffers at their defaults), so that an insert includes its share of flushing and a point
// read or scan its share of probing the immutable components and SSTs as well. The hash
// buffers' bucket-occupancy terms come from the buffer-level experiments (buffer_insert,
// buffer_point, the X and H sweeps); their bases are set so that the total matches the
// database-level figure at the default H (4.6 entries per bucket on average).
// docs/choosing-a-memory-component.md gives the runs each comes from.
struct AdaptiveCosts {
  double vector_insert = 430;  // vector-prealloc
  double skiplist_insert = 930;
  double hash_skiplist_insert = 820;
  double hash_linklist_insert = 745;
  double vector_point_read = 1760;  // binary search of a sorted run, as the skiplist's
  double skiplist_point_read = 1760;
  double hash_skiplist_point_read = 1030;
  double hash_linklist_point_read = 765;
  double sort_per_entry = 30;  // a vector's sort before a read, per entry it holds
  double skiplist_seek = 2000;
  double vector_seek = 2000;
  // A scan of the database positions every non-empty bucket of the hash components it reads
  // (the mutable one and the immutable ones waiting for flush), per bucket in use in the
  // mutable one.
  double hash_seek_per_bucket = 570;
  double scan_step = 260;               // every representation: the database's merge
  double hash_step_per_level = 115;     // plus, for a hash buffer, per level of its merging heap
  double hash_skiplist_per_level = 40;  // per level of a skiplist bucket (log2 of its entries)
  double linklist_per_node = 50;        // per node walked in a linked-list bucket (half its length)
  double linklist_max_walk = 256;       // a bucket past this many versions gains skip levels
};

struct CostEstimate {
  std::array<double, kAdaptiveCandidates.size()> nanos{};
  size_t best = 1;                // index into kAdaptiveCandidates
  double buckets_in_use = 0;      // estimated non-empty hash buckets at the end
  double entries_per_bucket = 0;  // estimated average while the component filled
};

// The estimate for one observed mix, for hash buffers of bucket_count buckets. Pure.
CostEstimate EstimateCosts(const MixSnapshot& mix, size_t bucket_count,
                           const AdaptiveCosts& costs = AdaptiveCosts());

class AdaptivePolicy {
 public:
  explicit AdaptivePolicy(size_t prefix_length, size_t bucket_count)
      : prefix_length_(prefix_length), bucket_count_(bucket_count) {}

  // Decides the representation of a component being created from the mix of the component
  // created before it (none yet: kAdaptiveInitial), records the decision, and makes *mix
  // (a fresh one, returned) the mix the new component records into.
  std::string ChooseNext(std::shared_ptr<OperationMix>* mix);

  // The decisions so far, one line each (the last kHistory), for
  // GetProperty("sluice.memtable-choices").
  std::string ChoicesString() const;

  static constexpr size_t kHistory = 64;

 private:
  const size_t prefix_length_;
  const size_t bucket_count_;
  mutable Mutex mu_;
  std::shared_ptr<OperationMix> current_ GUARDED_BY(mu_);
  uint64_t components_ GUARDED_BY(mu_) = 0;
  std::string last_choice_ GUARDED_BY(mu_) = kAdaptiveInitial;
  std::deque<std::string> history_ GUARDED_BY(mu_);
};

// The counts of `mix` scaled by `factor` (what a component observed when `1 / factor` full,
// extrapolated to a full one: a vector's sorts grow with the square of the entries, so a
// partial mix would underestimate them). The prefix sample is kept as it is.
MixSnapshot ScaleMix(const MixSnapshot& mix, double factor);

// One line describing a decision (for the history and for logs).
std::string DescribeChoice(uint64_t component, const MixSnapshot& mix, const CostEstimate& est);

}  // namespace sluice

#endif  // SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_POLICY_H_
