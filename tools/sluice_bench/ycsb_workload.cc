// sluice_bench/ycsb_workload.cc — see ycsb_workload.h.

#include "sluice_bench/ycsb_workload.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <numeric>

namespace sluice_bench {
namespace {

// workloads/workloada .. workloadf of YCSB 0.17.
constexpr std::array<YcsbWorkload, 6> kWorkloads = {{
    {'A', {0.50, 0.50, 0, 0, 0}, YcsbDistribution::kZipfian, 1000},
    {'B', {0.95, 0.05, 0, 0, 0}, YcsbDistribution::kZipfian, 1000},
    {'C', {1.00, 0, 0, 0, 0}, YcsbDistribution::kZipfian, 1000},
    {'D', {0.95, 0, 0.05, 0, 0}, YcsbDistribution::kLatest, 1000},
    {'E', {0, 0, 0.05, 0.95, 0}, YcsbDistribution::kZipfian, 100},
    {'F', {0.50, 0, 0, 0, 0.50}, YcsbDistribution::kZipfian, 1000},
}};

}  // namespace

std::string_view YcsbOpName(YcsbOp op) {
  switch (op) {
    case YcsbOp::kRead: return "READ";
    case YcsbOp::kUpdate: return "UPDATE";
    case YcsbOp::kInsert: return "INSERT";
    case YcsbOp::kScan: return "SCAN";
    case YcsbOp::kReadModifyWrite: return "READ-MODIFY-WRITE";
  }
  return "?";
}

std::string_view YcsbDistributionName(YcsbDistribution d) {
  switch (d) {
    case YcsbDistribution::kUniform: return "uniform";
    case YcsbDistribution::kZipfian: return "zipfian";
    case YcsbDistribution::kLatest: return "latest";
  }
  return "?";
}

std::optional<YcsbDistribution> ParseYcsbDistribution(std::string_view name) {
  for (YcsbDistribution d :
       {YcsbDistribution::kUniform, YcsbDistribution::kZipfian, YcsbDistribution::kLatest}) {
    if (name == YcsbDistributionName(d)) return d;
  }
  return std::nullopt;
}

const YcsbWorkload* FindYcsbWorkload(char letter) {
  const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
  for (const YcsbWorkload& w : kWorkloads) {
    if (w.letter == upper) return &w;
  }
  return nullptr;
}

YcsbRun::YcsbRun(const YcsbWorkload& workload, const YcsbSettings& settings)
    : workload_(workload),
      settings_(settings),
      distribution_(settings.requestdistribution.value_or(workload.requestdistribution)),
      proportion_sum_(
          std::accumulate(workload.proportions.begin(), workload.proportions.end(), 0.0)),
      maxscanlength_(settings.maxscanlength > 0 ? settings.maxscanlength : workload.maxscanlength),
      // CoreWorkload: expectednewkeys = (int) (opcount * insertproportion * 2.0).
      zipfian_max_(
          settings.recordcount +
          static_cast<uint64_t>(static_cast<double>(settings.operationcount) *
                                workload.proportions[static_cast<size_t>(YcsbOp::kInsert)] * 2.0)),
      insert_keys_(settings.recordcount) {
  assert(settings.recordcount >= 1);
  if (distribution_ == YcsbDistribution::kLatest) {
    latest_zetan_ =
        ZipfianZeta(0, std::max<uint64_t>(insert_keys_.last_value(), 1), kYcsbZipfianConstant);
  }
}

YcsbRun::Chooser::Chooser(YcsbRun* run) : run_(run) {
  switch (run->distribution_) {
    case YcsbDistribution::kZipfian: zipfian_.emplace(0, run->zipfian_max_); break;
    case YcsbDistribution::kLatest: latest_.emplace(&run->insert_keys_, run->latest_zetan_); break;
    case YcsbDistribution::kUniform: break;
  }
}

// DiscreteGenerator.nextString: a uniform double walked over the normalised weights, in the
// order CoreWorkload adds them (READ, UPDATE, INSERT, SCAN, READMODIFYWRITE).
YcsbOp YcsbRun::Chooser::NextOp(Random64* rnd) const {
  const auto& weights = run_->workload_.proportions;
  const double sum = run_->proportion_sum_;
  double val = UniformDouble(rnd);
  size_t last = 0;
  for (size_t i = 0; i < weights.size(); i++) {
    if (weights[i] <= 0) continue;
    last = i;
    const double pw = weights[i] / sum;
    if (val < pw) return static_cast<YcsbOp>(i);
    val -= pw;
  }
  return static_cast<YcsbOp>(last);  // rounding left val just above the last weight
}

uint64_t YcsbRun::Chooser::NextKeynum(Random64* rnd) {
  const AcknowledgedCounter& inserted = run_->insert_keys_;
  switch (run_->distribution_) {
    case YcsbDistribution::kLatest: return latest_->Next(rnd);
    case YcsbDistribution::kUniform: {
      // UniformLongGenerator(insertstart, insertstart + insertcount - 1).
      uint64_t k;
      do {
        k = rnd->Uniform(run_->settings_.recordcount);
      } while (k > inserted.last_value());
      return k;
    }
    case YcsbDistribution::kZipfian: {
      uint64_t k;
      do {
        k = zipfian_->Next(rnd);
      } while (k > inserted.last_value());
      return k;
    }
  }
  return 0;
}

uint64_t YcsbRun::Chooser::NextScanLength(Random64* rnd) const {
  return 1 + rnd->Uniform(static_cast<uint64_t>(run_->maxscanlength_));
}

uint64_t YcsbRun::Chooser::NextField(Random64* rnd) const {
  return rnd->Uniform(static_cast<uint64_t>(run_->settings_.fieldcount));
}

void YcsbThreadStats::Merge(const YcsbThreadStats& other) {
  for (size_t i = 0; i < kYcsbOpKinds; i++) latency[i].Merge(other.latency[i]);
  not_found += other.not_found;
  scanned += other.scanned;
}

}  // namespace sluice_bench
