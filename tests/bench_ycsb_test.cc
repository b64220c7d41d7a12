// tests/bench_ycsb_test.cc — sluice_bench's YCSB core workloads: the generators against YCSB's
// definitions (FNV key hashing, zipfian and latest distributions on histograms, the
// acknowledged insert counter, scan lengths, the operation mix) and the ycsb_* benchmarks run
// through the runner on an in-memory engine (record layout, read-modify-write counts, inserts).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/ycsb_generators.h"
#include "sluice_bench/ycsb_workload.h"
#include "support/map_engine.h"

namespace sluice_bench {
namespace {

// P(rank i) of a zipfian over n items: 1/(i+1)^theta / zeta(n).
double ZipfianProbability(uint64_t i, uint64_t n) {
  return 1.0 / std::pow(static_cast<double>(i + 1), kYcsbZipfianConstant) /
         ZipfianZeta(0, n, kYcsbZipfianConstant);
}

TEST(YcsbGeneratorsTest, KeysAreYcsbsFnvHashedNames) {
  // Values of Utils.fnvhash64 (Java), and the first key of every YCSB load.
  EXPECT_EQ(FnvHash64(0), 6284781860667377211LL);
  EXPECT_EQ(FnvHash64(1), 8517097267634966620LL);
  EXPECT_EQ(FnvHash64(12345), 1792800413050876852LL);
  EXPECT_EQ(YcsbKeyName(0), "user6284781860667377211");
  EXPECT_EQ(YcsbKeyName(20000000), "user4495759069845384916");
  EXPECT_EQ(YcsbKeyName(42, /*hashed=*/false), "user42");
  for (int64_t v = 0; v < 100000; v++) EXPECT_GE(FnvHash64(v), 0) << v;
}

TEST(YcsbGeneratorsTest, ZipfianRanksFollowTheDistributionOnAHistogram) {
  constexpr uint64_t kItems = 100;
  constexpr int kDraws = 400000;
  ZipfianGenerator zipf(kItems);
  EXPECT_NEAR(zipf.zetan(), ZipfianZeta(0, kItems, kYcsbZipfianConstant), 1e-12);
  Random64 rnd(7);
  std::vector<int> counts(kItems, 0);
  for (int i = 0; i < kDraws; i++) {
    const uint64_t r = zipf.Next(&rnd);
    ASSERT_LT(r, kItems);
    counts[r]++;
  }
  auto share = [&](uint64_t i) { return static_cast<double>(counts[i]) / kDraws; };
  // Gray et al.'s method is exact for ranks 0 and 1, an approximation beyond.
  EXPECT_NEAR(share(0), ZipfianProbability(0, kItems), 0.004);
  EXPECT_NEAR(share(1), ZipfianProbability(1, kItems), 0.003);
  for (uint64_t i : {5, 10, 20, 50, 99}) {
    EXPECT_NEAR(share(i) / ZipfianProbability(i, kItems), 1.0, 0.2) << "rank " << i;
  }
  double top = 0, expected_top = 0;
  for (uint64_t i = 0; i < 50; i++) {
    top += share(i);
    expected_top += ZipfianProbability(i, kItems);
  }
  EXPECT_NEAR(top, expected_top, 0.02);
  // Ranks are non-increasing in popularity, give or take sampling noise.
  EXPECT_GT(counts[0], counts[1]);
  EXPECT_GT(counts[1], counts[10]);
  EXPECT_GT(counts[10], counts[90]);
}

TEST(YcsbGeneratorsTest, ZipfianZetaGrowsIncrementallyWithTheItemCount) {
  ZipfianGenerator zipf(1000);
  Random64 rnd(3);
  for (int i = 0; i < 1000; i++) EXPECT_LT(zipf.Next(&rnd, 5000), 5000u);
  EXPECT_NEAR(zipf.zetan(), ZipfianZeta(0, 5000, kYcsbZipfianConstant), 1e-9);
}

TEST(YcsbGeneratorsTest, ScrambledZipfianSpreadsHotKeysOverTheRange) {
  constexpr uint64_t kMin = 1000, kMax = 50999;
  ScrambledZipfian chooser(kMin, kMax);
  Random64 rnd(11);
  std::map<uint64_t, int> counts;
  constexpr int kDraws = 300000;
  for (int i = 0; i < kDraws; i++) {
    const uint64_t k = chooser.Next(&rnd);
    ASSERT_GE(k, kMin);
    ASSERT_LE(k, kMax);
    counts[k]++;
  }
  std::vector<int> sorted;
  for (const auto& [k, c] : counts) sorted.push_back(c);
  std::sort(sorted.rbegin(), sorted.rend());
  // The hottest key takes rank 0 of a zipfian over 10^10 items: 1/26.469 = 3.78%.
  EXPECT_NEAR(static_cast<double>(sorted[0]) / kDraws, 1.0 / 26.46902820178302, 0.004);
  // The hot keys are hashed, not the smallest numbers.
  const auto hottest =
      std::max_element(counts.begin(), counts.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  EXPECT_NE(hottest->first, kMin);
  EXPECT_EQ(hottest->first, kMin + static_cast<uint64_t>(FnvHash64(0)) % (kMax - kMin + 1));
}

TEST(YcsbGeneratorsTest, AcknowledgedCounterAdvancesOnlyOverContiguousInserts) {
  AcknowledgedCounter counter(100);
  EXPECT_EQ(counter.last_value(), 99u);
  const uint64_t a = counter.Next(), b = counter.Next(), c = counter.Next();
  EXPECT_EQ(a, 100u);
  EXPECT_EQ(c, 102u);
  counter.Acknowledge(b);
  EXPECT_EQ(counter.last_value(), 99u);  // 100 is still being inserted
  counter.Acknowledge(c);
  EXPECT_EQ(counter.last_value(), 99u);
  counter.Acknowledge(a);
  EXPECT_EQ(counter.last_value(), 102u);
}

TEST(YcsbGeneratorsTest, LatestFavoursTheNewestInsertAndFollowsNewOnes) {
  AcknowledgedCounter counter(1000);
  SkewedLatest latest(&counter);
  Random64 rnd(5);
  constexpr int kDraws = 200000;
  auto newest_share = [&](uint64_t newest) {
    int hits = 0;
    for (int i = 0; i < kDraws; i++) {
      const uint64_t k = latest.Next(&rnd);
      EXPECT_LE(k, newest);
      if (k == newest) hits++;
    }
    return static_cast<double>(hits) / kDraws;
  };
  // Rank 0 is the newest key: P = 1/zeta(999).
  EXPECT_NEAR(newest_share(999), ZipfianProbability(0, 999), 0.006);
  for (int i = 0; i < 500; i++) counter.Acknowledge(counter.Next());
  EXPECT_EQ(counter.last_value(), 1499u);
  EXPECT_NEAR(newest_share(1499), ZipfianProbability(0, 1499), 0.006);
}

TEST(YcsbWorkloadTest, WorkloadsAreYcsbsFilesAndOperationsFollowTheirProportions) {
  ASSERT_NE(FindYcsbWorkload('a'), nullptr);
  EXPECT_EQ(FindYcsbWorkload('G'), nullptr);
  EXPECT_EQ(FindYcsbWorkload('D')->requestdistribution, YcsbDistribution::kLatest);
  EXPECT_EQ(FindYcsbWorkload('E')->maxscanlength, 100);
  for (char letter : std::string("ABCDEF")) {
    const YcsbWorkload& w = *FindYcsbWorkload(letter);
    YcsbSettings s;
    s.recordcount = 1000;
    s.operationcount = 100000;
    YcsbRun run(w, s);
    YcsbRun::Chooser chooser(&run);
    Random64 rnd(static_cast<uint64_t>(letter));
    std::array<int, kYcsbOpKinds> counts{};
    constexpr int kDraws = 100000;
    for (int i = 0; i < kDraws; i++) counts[static_cast<size_t>(chooser.NextOp(&rnd))]++;
    for (size_t op = 0; op < kYcsbOpKinds; op++) {
      EXPECT_NEAR(static_cast<double>(counts[op]) / kDraws, w.proportions[op], 0.006)
          << letter << " " << YcsbOpName(static_cast<YcsbOp>(op));
    }
  }
}

TEST(YcsbWorkloadTest, ScanLengthsAreUniformOverOneToMaxscanlength) {
  YcsbSettings s;
  s.recordcount = 100;
  s.operationcount = 100;
  YcsbRun run(*FindYcsbWorkload('E'), s);
  YcsbRun::Chooser chooser(&run);
  Random64 rnd(9);
  std::vector<int> counts(101, 0);
  constexpr int kDraws = 200000;
  double sum = 0;
  for (int i = 0; i < kDraws; i++) {
    const uint64_t len = chooser.NextScanLength(&rnd);
    ASSERT_GE(len, 1u);
    ASSERT_LE(len, 100u);
    counts[len]++;
    sum += static_cast<double>(len);
  }
  EXPECT_NEAR(sum / kDraws, 50.5, 0.3);
  for (int len = 1; len <= 100; len++) EXPECT_NEAR(counts[len], kDraws / 100, 300) << len;
}

TEST(YcsbWorkloadTest, ChosenKeysWereInsertedAndZipfianSpansExpectedNewKeys) {
  YcsbSettings s;
  s.recordcount = 500;
  s.operationcount = 10000;
  for (YcsbDistribution d :
       {YcsbDistribution::kUniform, YcsbDistribution::kZipfian, YcsbDistribution::kLatest}) {
    s.requestdistribution = d;
    YcsbRun run(*FindYcsbWorkload('D'), s);
    YcsbRun::Chooser chooser(&run);
    Random64 rnd(1);
    for (int i = 0; i < 20000; i++) {
      const uint64_t k = chooser.NextKeynum(&rnd);
      ASSERT_LE(k, run.insert_keys()->last_value()) << YcsbDistributionName(d);
      if (i % 100 == 0) run.insert_keys()->Acknowledge(run.insert_keys()->Next());
    }
  }
}

// ------------------------------------------------------------------------------------------
// The ycsb_* benchmarks through the runner.

class BenchYcsbRunnerTest : public testing::Test {
 protected:
  BenchYcsbRunnerTest() : out_(std::tmpfile()) {
    flags_ = DefaultBenchFlags();
    flags_.num = 2000;
    flags_.ycsb_operationcount = 6000;
    flags_.db = testing::TempDir() + "/bench_ycsb_test";
  }
  ~BenchYcsbRunnerTest() override { std::fclose(out_); }

  std::vector<BenchResult> Run(std::vector<std::string> benchmarks) {
    flags_.benchmarks = std::move(benchmarks);
    return RunBenchmarks(flags_, &engine_, flags_.db + "/map", out_);
  }

  static double Metric(const BenchResult& r, std::string_view name) {
    return FindMetric(r.metrics, name).value_or(-1);
  }

  BenchFlags flags_;
  MapEngine engine_;
  std::FILE* out_;
};

TEST_F(BenchYcsbRunnerTest, LoadWritesRecordcountRecordsOfFieldcountTimesFieldlength) {
  flags_.threads = 3;  // the load's key numbers are shared: each record is written once
  const auto r = Run({"ycsb_load"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].ops, 2000u);
  EXPECT_EQ(engine_.size(), 2000u);
  EXPECT_EQ(engine_.puts, 2000u);
  std::string v;
  ASSERT_TRUE(engine_.Get(YcsbKeyName(0), &v).ok());
  EXPECT_EQ(v.size(), 1000u);
  ASSERT_TRUE(engine_.Get(YcsbKeyName(1999), &v).ok());
  EXPECT_FALSE(engine_.Get(YcsbKeyName(2000), &v).ok());
  EXPECT_EQ(Metric(r[0], "insert_ops"), 2000);
}

TEST_F(BenchYcsbRunnerTest, WorkloadFByDefaultReadsThenPutsEvenWhereTheEngineHasAnRmw) {
  engine_.native_rmw = true;
  const auto r = Run({"ycsb_load", "ycsb_f"});
  ASSERT_EQ(r.size(), 2u);
  const double rmws = Metric(r[1], "read_modify_write_ops");
  EXPECT_NEAR(rmws / 6000, 0.5, 0.03);
  EXPECT_EQ(engine_.rmws, 0u);
  EXPECT_EQ(engine_.puts, 2000u + static_cast<uint64_t>(rmws));
}

TEST_F(BenchYcsbRunnerTest, NativeRmwRowsAreSkippedByEnginesWithoutOne) {
  const auto r = Run({"ycsb_load", "ycsb_a_native_rmw", "ycsb_f_native_rmw"});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(r[1].skipped);
  EXPECT_TRUE(r[2].skipped);
  EXPECT_NE(r[2].skip_reason.find("no atomic read-modify-write"), std::string::npos)
      << r[2].skip_reason;
}

TEST_F(BenchYcsbRunnerTest, WorkloadFDoesHalfReadModifyWritesNativelyWhenTheEngineCan) {
  engine_.native_rmw = true;
  flags_.threads = 2;
  const auto r = Run({"ycsb_load", "ycsb_f_native_rmw"});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].ops, 6000u);  // operationcount is for all threads together
  const double rmws = Metric(r[1], "read_modify_write_ops");
  const double reads = Metric(r[1], "read_ops");
  EXPECT_EQ(rmws + reads, 6000);
  EXPECT_NEAR(rmws / 6000, 0.5, 0.03);
  EXPECT_EQ(engine_.rmws, static_cast<uint64_t>(rmws));
  EXPECT_EQ(engine_.puts, 2000u);  // the load's only
  EXPECT_EQ(Metric(r[1], "not_found"), 0);
  EXPECT_GT(Metric(r[1], "read_modify_write_p99_us"), 0);
  EXPECT_NE(r[1].details.find("[READ-MODIFY-WRITE] ops"), std::string::npos) << r[1].details;
  // Every record still has its 10 fields of 100 bytes.
  std::string v;
  ASSERT_TRUE(engine_.Get(YcsbKeyName(0), &v).ok());
  EXPECT_EQ(v.size(), 1000u);
}

TEST_F(BenchYcsbRunnerTest, WithoutNativeRmwUpdatesAreAGetThenAPutOfOneField) {
  const auto r = Run({"ycsb_load", "ycsb_a"});
  const double updates = Metric(r[1], "update_ops");
  EXPECT_NEAR(updates / 6000, 0.5, 0.03);
  EXPECT_EQ(engine_.rmws, 0u);
  EXPECT_EQ(engine_.puts, 2000u + static_cast<uint64_t>(updates));
  EXPECT_EQ(engine_.gets.load(), 6000u);  // every read and every update reads the record
  flags_.ycsb_writeallfields = true;
  engine_.native_rmw = true;
  const auto blind = Run({"ycsb_load", "ycsb_a"});
  ASSERT_EQ(blind.size(), 2u);
  EXPECT_EQ(engine_.rmws, 0u);  // whole records are written without a read
}

TEST_F(BenchYcsbRunnerTest, InsertsExtendTheKeySpaceAndScansReadUpToMaxscanlength) {
  const auto r = Run({"ycsb_load", "ycsb_d", "ycsb_e"});
  ASSERT_EQ(r.size(), 3u);
  const double d_inserts = Metric(r[1], "insert_ops");
  EXPECT_NEAR(d_inserts / 6000, 0.05, 0.015);
  EXPECT_EQ(Metric(r[1], "not_found"), 0);  // latest reads only finished inserts
  // D's inserts took key numbers 2000, 2001, ...; E starts again from 2000 (as YCSB does when
  // run on the same database), so the record count grows by the larger of the two.
  const double e_inserts = Metric(r[2], "insert_ops");
  EXPECT_EQ(engine_.size(), 2000u + static_cast<size_t>(std::max(d_inserts, e_inserts)));
  const double scans = Metric(r[2], "scan_ops");
  EXPECT_NEAR(scans / 6000, 0.95, 0.015);
  EXPECT_EQ(engine_.scans, static_cast<uint64_t>(scans));
  // Uniform lengths in [1, 100]: about 50.5 records a scan (fewer near the end of the keys).
  EXPECT_NEAR(Metric(r[2], "scanned") / scans, 50.5, 3.0);
}

TEST_F(BenchYcsbRunnerTest, BadYcsbFlagsFailNamingTheFlag) {
  std::ostringstream out, err;
  BenchFlags f = DefaultBenchFlags();
  const char* args[] = {"sluice_bench", "--benchmarks=ycsb_a", "--ycsb_requestdistribution=pareto"};
  EXPECT_FALSE(ParseBenchFlags(3, args, &f, out, err).proceed);
  EXPECT_NE(err.str().find("--ycsb_requestdistribution"), std::string::npos) << err.str();
  const char* args2[] = {"sluice_bench", "--benchmarks=ycsb_a", "--ycsb_fieldcount=0"};
  f = DefaultBenchFlags();
  EXPECT_FALSE(ParseBenchFlags(3, args2, &f, out, err).proceed);
  EXPECT_NE(err.str().find("--ycsb_fieldcount"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace sluice_bench
