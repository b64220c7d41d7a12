// memory/adaptive/adaptive_policy.cc — the adaptive component's cost model (see adaptive_policy.h).

#include "memory/adaptive/adaptive_policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sluice {

namespace {

// Distinct key prefixes, from the sample: when nearly every sampled prefix was new (or the
// sample set filled up), prefixes are too many to limit the buckets in use.
double EstimatedPrefixes(const MixSnapshot& mix) {
  const double unbounded = std::numeric_limits<double>::infinity();
  if (mix.prefix_samples == 0 || mix.prefix_sample_full) return unbounded;
  const auto distinct = static_cast<double>(mix.distinct_prefixes);
  if (distinct >= 0.9 * static_cast<double>(mix.prefix_samples)) return unbounded;
  return std::max(distinct, 1.0);
}

}  // namespace

CostEstimate EstimateCosts(const MixSnapshot& mix, size_t bucket_count, const AdaptiveCosts& c) {
  const auto inserts = static_cast<double>(mix.inserts);
  const auto gets = static_cast<double>(mix.point_reads);
  const auto scans = static_cast<double>(mix.scans);
  const auto steps = static_cast<double>(mix.scan_steps);
  const double prefixes = EstimatedPrefixes(mix);
  const double buckets = static_cast<double>(std::max<size_t>(bucket_count, 1));

  CostEstimate est;
  // Non-empty buckets at the end, and on average while the component filled (what a scan,
  // taken at a random moment, merges).
  est.buckets_in_use = std::min({buckets, prefixes, std::max(inserts, 1.0)});
  const double buckets_midway = std::min({buckets, prefixes, std::max(inserts / 2, 1.0)});
  est.entries_per_bucket = inserts / 2 / est.buckets_in_use;
  const double e = est.entries_per_bucket;
  const double skip_levels = std::log2(1 + e);
  const double walk = std::min(e, c.linklist_max_walk) / 2 * c.linklist_per_node;
  const double linklist_skip =
      e > c.linklist_max_walk ? std::log2(e / c.linklist_max_walk) * c.hash_skiplist_per_level : 0;
  const double hash_scans = scans * c.hash_seek_per_bucket * buckets_midway +
                            steps * c.hash_step_per_level * std::log2(1 + buckets_midway);

  const double steps_cost = steps * c.scan_step;
  est.nanos[0] = inserts * c.vector_insert +
                 static_cast<double>(mix.reads_after_insert) * c.sort_per_entry * inserts / 2 +
                 gets * c.vector_point_read + scans * c.vector_seek + steps_cost;
  est.nanos[1] = inserts * c.skiplist_insert + gets * c.skiplist_point_read +
                 scans * c.skiplist_seek + steps_cost;
  const double skiplist_bucket = c.hash_skiplist_per_level * skip_levels;
  est.nanos[2] = inserts * (c.hash_skiplist_insert + skiplist_bucket) +
                 gets * (c.hash_skiplist_point_read + skiplist_bucket) + hash_scans + steps_cost;
  est.nanos[3] = inserts * (c.hash_linklist_insert + walk + linklist_skip) +
                 gets * (c.hash_linklist_point_read + walk + linklist_skip) + hash_scans +
                 steps_cost;
  // Ties (nothing observed) keep the initial representation.
  est.best = 1;
  for (size_t i = 0; i < est.nanos.size(); i++) {
    if (est.nanos[i] < est.nanos[est.best]) est.best = i;
  }
  return est;
}

MixSnapshot ScaleMix(const MixSnapshot& mix, double factor) {
  MixSnapshot m = mix;
  auto scale = [factor](uint64_t n) {
    return static_cast<uint64_t>(static_cast<double>(n) * factor + 0.5);
  };
  m.inserts = scale(mix.inserts);
  m.point_reads = scale(mix.point_reads);
  m.scans = scale(mix.scans);
  m.scan_steps = scale(mix.scan_steps);
  m.reads_after_insert = scale(mix.reads_after_insert);
  return m;
}

std::string DescribeChoice(uint64_t component, const MixSnapshot& mix, const CostEstimate& est) {
  std::string line = fmt::format(
      "#{} {}: after {} inserts, {} point reads, {} scans ({} steps), {} reads after an insert, "
      "{}{} distinct prefixes in {} samples; estimated ms:",
      component, kAdaptiveCandidates[est.best], mix.inserts, mix.point_reads, mix.scans,
      mix.scan_steps, mix.reads_after_insert, mix.distinct_prefixes,
      mix.prefix_sample_full ? "+" : "", mix.prefix_samples);
  for (size_t i = 0; i < est.nanos.size(); i++) {
    line += fmt::format(" {} {:.1f}", kAdaptiveCandidates[i], est.nanos[i] / 1e6);
  }
  return line;
}

std::string AdaptivePolicy::ChooseNext(std::shared_ptr<OperationMix>* mix) {
  MutexLock l(&mu_);
  components_++;
  std::string name = kAdaptiveInitial;
  std::string line;
  if (current_ == nullptr) {
    line = fmt::format("#{} {}: initial choice, nothing observed yet", components_, name);
  } else {
    const MixSnapshot observed = current_->Snapshot();
    if (observed.inserts == 0 && observed.point_reads == 0 && observed.scans == 0) {
      name = last_choice_;
      line = fmt::format("#{} {}: unchanged, the previous component saw no operations", components_,
                         name);
    } else {
      // A component switched out early is extrapolated to a full one (at most 8x).
      const double fill = current_->Fill();
      const MixSnapshot full =
          fill > 0 && fill < 1 ? ScaleMix(observed, std::min(1 / fill, 8.0)) : observed;
      const CostEstimate est = EstimateCosts(full, bucket_count_);
      name = kAdaptiveCandidates[est.best];
      line = DescribeChoice(components_, observed, est);
    }
  }
  history_.push_back(std::move(line));
  while (history_.size() > kHistory) history_.pop_front();
  last_choice_ = name;
  current_ = std::make_shared<OperationMix>(prefix_length_);
  *mix = current_;
  return name;
}

std::string AdaptivePolicy::ChoicesString() const {
  MutexLock l(&mu_);
  std::string r;
  for (const std::string& line : history_) r += line + "\n";
  return r;
}

}  // namespace sluice
