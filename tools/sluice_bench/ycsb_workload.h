// sluice_bench/ycsb_workload.h — YCSB's core workloads A–F as data, and what the threads of one
// ycsb_* benchmark share.
//
// The proportions, request distributions and scan lengths are those of YCSB's workload files
// (workloads/workloada … workloadf) over CoreWorkload's defaults: fieldcount 10, fieldlength
// 100, readallfields true, writeallfields false, maxscanlength 1000 (workload E: 100),
// scanlengthdistribution uniform, insertorder hashed, zipfian constant 0.99.
//
//   A  update heavy   read 0.50  update 0.50                     zipfian
//   B  read mostly    read 0.95  update 0.05                     zipfian
//   C  read only      read 1.00                                  zipfian
//   D  read latest    read 0.95  insert 0.05                     latest
//   E  short ranges   scan 0.95  insert 0.05                     zipfian, maxscanlength 100
//   F  read-modify-write  read 0.50  readmodifywrite 0.50        zipfian
//
// Key choice follows CoreWorkload.nextKeynum: a zipfian chooser spans recordcount plus twice
// the inserts the run expects (expectednewkeys) and redraws numbers not yet inserted; uniform
// spans recordcount; latest follows the insert counter.

#ifndef SLUICE_BENCH_YCSB_WORKLOAD_H_
#define SLUICE_BENCH_YCSB_WORKLOAD_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sluice_bench/histogram.h"
#include "sluice_bench/random.h"
#include "sluice_bench/ycsb_generators.h"

namespace sluice_bench {

enum class YcsbOp { kRead, kUpdate, kInsert, kScan, kReadModifyWrite };
inline constexpr size_t kYcsbOpKinds = 5;

// YCSB's names in its reports: "READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE".
std::string_view YcsbOpName(YcsbOp op);

enum class YcsbDistribution { kUniform, kZipfian, kLatest };
std::string_view YcsbDistributionName(YcsbDistribution d);
// "uniform", "zipfian", "latest"; nullopt otherwise.
std::optional<YcsbDistribution> ParseYcsbDistribution(std::string_view name);

struct YcsbWorkload {
  char letter;  // 'A' .. 'F'
  // readproportion, updateproportion, insertproportion, scanproportion,
  // readmodifywriteproportion, in YcsbOp order.
  std::array<double, kYcsbOpKinds> proportions;
  YcsbDistribution requestdistribution;
  int maxscanlength;
};

// The workload of a letter 'A'..'F' (case-insensitive); nullptr for any other.
const YcsbWorkload* FindYcsbWorkload(char letter);

// The properties a run may override (sluice_bench's --ycsb_* flags); 0 / nullopt: the
// workload's own.
struct YcsbSettings {
  uint64_t recordcount = 0;
  uint64_t operationcount = 0;  // all threads together
  int fieldcount = 10;
  int fieldlength = 100;
  int maxscanlength = 0;
  std::optional<YcsbDistribution> requestdistribution;
  bool writeallfields = false;
};

// What the threads of one ycsb_a..ycsb_f benchmark share: the insert key counter and the
// key choosers' parameters. Thread-safe.
class YcsbRun {
 public:
  // REQUIRES: settings.recordcount >= 1.
  YcsbRun(const YcsbWorkload& workload, const YcsbSettings& settings);

  const YcsbWorkload& workload() const { return workload_; }
  YcsbDistribution distribution() const { return distribution_; }
  int maxscanlength() const { return maxscanlength_; }
  const YcsbSettings& settings() const { return settings_; }
  AcknowledgedCounter* insert_keys() { return &insert_keys_; }

  // A thread's own choosers (operation, key, scan length, field), drawing from its generator.
  class Chooser {
   public:
    explicit Chooser(YcsbRun* run);
    YcsbOp NextOp(Random64* rnd) const;
    // CoreWorkload.nextKeynum: a key number already inserted.
    uint64_t NextKeynum(Random64* rnd);
    // In [1, maxscanlength] (scanlengthdistribution=uniform, minscanlength 1).
    uint64_t NextScanLength(Random64* rnd) const;
    // The field an update writes (fieldchooser: uniform over fieldcount).
    uint64_t NextField(Random64* rnd) const;

   private:
    YcsbRun* run_;
    std::optional<ScrambledZipfian> zipfian_;
    std::optional<SkewedLatest> latest_;
  };

 private:
  const YcsbWorkload workload_;
  const YcsbSettings settings_;
  const YcsbDistribution distribution_;
  // The proportions' sum, by which NextOp normalises them.
  const double proportion_sum_;
  const int maxscanlength_;
  // CoreWorkload: the zipfian chooser's upper bound, recordcount + expectednewkeys.
  const uint64_t zipfian_max_;
  AcknowledgedCounter insert_keys_;
  // The zeta of the latest chooser's initial item count, computed once for every thread.
  double latest_zetan_ = -1;
};

// What one thread of a ycsb benchmark did, per operation type.
struct YcsbThreadStats {
  std::array<LatencyHistogram, kYcsbOpKinds> latency;
  uint64_t not_found = 0;  // reads, updates and read-modify-writes of a key with no record
  uint64_t scanned = 0;    // records the scans returned

  void Merge(const YcsbThreadStats& other);
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_YCSB_WORKLOAD_H_
