// tests/bench_tool_test.cc — tests of sluice_bench's engine-neutral parts: the latency histogram,
// key formatting, the compressible value generator, flag parsing, report formatting, the JSON
// document and the benchmark runner (driven through an in-memory test engine).

#include <gtest/gtest.h>
#include <lz4.h>
#include <snappy.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sluice/options.h"
#include "sluice_bench/bench_flags.h"
#include "sluice_bench/bench_result.h"
#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/engine_tables.h"
#include "sluice_bench/histogram.h"
#include "sluice_bench/key_format.h"
#include "sluice_bench/machine_info.h"
#include "sluice_bench/results_json.h"
#include "sluice_bench/round_summary.h"
#include "sluice_bench/value_generator.h"
#include "support/map_engine.h"

namespace sluice_bench {
namespace {

// ------------------------------------------------------------------------------------------
// LatencyHistogram

// The nearest-rank percentile of sorted values: the smallest v with at least p% of values <= v.
uint64_t ExactPercentile(const std::vector<uint64_t>& sorted, double p) {
  const double rank = p / 100.0 * static_cast<double>(sorted.size());
  size_t index = static_cast<size_t>(std::ceil(rank));
  index = std::clamp<size_t>(index, 1, sorted.size()) - 1;
  return sorted[index];
}

uint64_t BucketWidthOf(uint64_t v) {
  const size_t i = LatencyHistogram::BucketIndex(v);
  return LatencyHistogram::BucketUpper(i) - LatencyHistogram::BucketLower(i);
}

TEST(BenchHistogramTest, EmptyHistogramReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.Average(), 0.0);
  EXPECT_EQ(h.StandardDeviation(), 0.0);
  EXPECT_EQ(h.Percentile(99), 0.0);
  EXPECT_NE(h.ToString().find("Count: 0 "), std::string::npos);
}

TEST(BenchHistogramTest, BucketsCoverEveryValueWithBoundedWidth) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> values = {
      0, 1, 127, 128, 129, 255, 256, 1000, 65535, 65536, UINT64_MAX - 1, UINT64_MAX};
  for (int i = 0; i < 20000; ++i) values.push_back(rng() >> (rng() % 64));
  for (uint64_t v : values) {
    const size_t i = LatencyHistogram::BucketIndex(v);
    ASSERT_LT(i, LatencyHistogram::kNumBuckets) << v;
    const uint64_t lower = LatencyHistogram::BucketLower(i);
    const uint64_t upper = LatencyHistogram::BucketUpper(i);
    EXPECT_LE(lower, v);
    if (upper != UINT64_MAX) {
      EXPECT_LT(v, upper) << v;
    }
    // Exact below 128, at most 1/64 of the value above.
    EXPECT_LE(static_cast<double>(upper - lower), std::max(1.0, static_cast<double>(lower) / 64));
  }
  // Buckets tile the value range in order.
  for (size_t i = 1; i < LatencyHistogram::kNumBuckets; ++i) {
    EXPECT_EQ(LatencyHistogram::BucketLower(i), LatencyHistogram::BucketUpper(i - 1)) << i;
  }
}

TEST(BenchHistogramTest, PercentilesMatchExactValuesWithinOneBucket) {
  std::mt19937_64 rng(42);
  // Latency-like: mostly around 1-5 us with a long tail up to milliseconds.
  std::lognormal_distribution<double> dist(std::log(2000.0), 0.8);
  LatencyHistogram h;
  std::vector<uint64_t> values;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = static_cast<uint64_t>(dist(rng));
    values.push_back(v);
    h.Record(v);
  }
  std::sort(values.begin(), values.end());
  for (double p : {0.0, 1.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
    const uint64_t exact = ExactPercentile(values, p);
    EXPECT_NEAR(h.Percentile(p), static_cast<double>(exact),
                static_cast<double>(BucketWidthOf(exact)))
        << "p=" << p;
  }
  EXPECT_EQ(h.min(), values.front());
  EXPECT_EQ(h.max(), values.back());
  EXPECT_DOUBLE_EQ(h.Percentile(0), static_cast<double>(values.front()));
  EXPECT_DOUBLE_EQ(h.Percentile(100), static_cast<double>(values.back()));

  double sum = 0;
  for (uint64_t v : values) sum += static_cast<double>(v);
  const double mean = sum / static_cast<double>(values.size());
  double squares = 0;
  for (uint64_t v : values) {
    const double d = static_cast<double>(v) - mean;
    squares += d * d;
  }
  EXPECT_NEAR(h.Average(), mean, mean * 1e-9);
  EXPECT_NEAR(h.StandardDeviation(), std::sqrt(squares / static_cast<double>(values.size())),
              1e-6 * mean);
}

TEST(BenchHistogramTest, ConstantValuesGiveThatValueEverywhere) {
  LatencyHistogram h;
  for (int i = 0; i < 1000; ++i) h.Record(1234);
  for (double p : {0.0, 50.0, 99.0, 99.99, 100.0}) EXPECT_DOUBLE_EQ(h.Percentile(p), 1234.0);
  EXPECT_DOUBLE_EQ(h.StandardDeviation(), 0.0);
}

TEST(BenchHistogramTest, MergeEqualsRecordingEverythingInOne) {
  LatencyHistogram a, b, all;
  for (uint64_t v = 1; v < 5000; v += 3) {
    (v % 2 ? a : b).Record(v * 7);
    all.Record(v * 7);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_DOUBLE_EQ(a.Average(), all.Average());
  for (double p : {10.0, 50.0, 99.0}) EXPECT_DOUBLE_EQ(a.Percentile(p), all.Percentile(p));
  EXPECT_EQ(a.ToString(), all.ToString());
}

TEST(BenchHistogramTest, ToStringHasDbBenchLayoutInMicroseconds) {
  LatencyHistogram h;
  for (int i = 0; i < 100; ++i) h.Record(2000);  // 2 us
  h.Record(1'000'000);                           // 1 ms
  const std::string text = h.ToString();
  EXPECT_NE(text.find("Count: 101 Average: "), std::string::npos) << text;
  // The median lies in 2000's bucket, [2000, 2016) ns.
  EXPECT_NE(text.find("Min: 2.000  Median: 2.0"), std::string::npos) << text;
  EXPECT_NE(text.find("Max: 1000.000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Percentiles: P50: 2.0"), std::string::npos) << text;
  EXPECT_NE(text.find("P99.99: 1000.00"), std::string::npos) << text;
  EXPECT_NE(text.find("100.000%"), std::string::npos) << text;  // cumulative column ends at 100
}

// ------------------------------------------------------------------------------------------
// Keys

TEST(BenchKeyTest, KeysAreZeroPaddedDecimal) {
  EXPECT_EQ(MakeKey(12345, 16), "0000000000012345");
  EXPECT_EQ(MakeKey(0, 1), "0");
  EXPECT_EQ(MakeKey(999, 3), "999");
  EXPECT_EQ(DecimalDigits(0), 1);
  EXPECT_EQ(DecimalDigits(9), 1);
  EXPECT_EQ(DecimalDigits(10), 2);
  EXPECT_EQ(DecimalDigits(UINT64_MAX), 20);
  EXPECT_EQ(MinKeySizeFor(1), 1);
  EXPECT_EQ(MinKeySizeFor(10), 1);
  EXPECT_EQ(MinKeySizeFor(11), 2);
  EXPECT_EQ(MinKeySizeFor(1000000), 6);
}

TEST(BenchKeyTest, ByteOrderIsNumericOrderAndMissingKeysFallBetween) {
  KeyBuffer buf(8);
  for (uint64_t n : {0ull, 9ull, 10ull, 4711ull, 99999998ull}) {
    const std::string key(buf.Set(n));
    const std::string next(buf.Set(n + 1));
    const std::string missing(buf.SetMissing(n));
    EXPECT_EQ(key.size(), 8u);
    EXPECT_LT(key, next);
    EXPECT_LT(key, missing);
    EXPECT_LT(missing, next);
    EXPECT_EQ(missing, key + ".");
  }
}

// ------------------------------------------------------------------------------------------
// Values

// Compressed/raw size of `data` cut into 4 KiB blocks, as an SST writer would compress it.
double BlockCompressionRatio(const std::string& data, const std::string& codec) {
  constexpr size_t kBlock = 4096;
  size_t compressed = 0;
  for (size_t off = 0; off < data.size(); off += kBlock) {
    const size_t len = std::min(kBlock, data.size() - off);
    const char* src = data.data() + off;
    if (codec == "snappy") {
      std::string out;
      compressed += snappy::Compress(src, len, &out);
    } else if (codec == "zstd") {
      std::string out(ZSTD_compressBound(len), '\0');
      compressed += ZSTD_compress(out.data(), out.size(), src, len, 3);
    } else {
      std::string out(static_cast<size_t>(LZ4_compressBound(static_cast<int>(len))), '\0');
      compressed += static_cast<size_t>(LZ4_compress_default(src, out.data(), static_cast<int>(len),
                                                             static_cast<int>(out.size())));
    }
  }
  return static_cast<double>(compressed) / static_cast<double>(data.size());
}

TEST(BenchValueTest, ValuesHaveTheRequestedLengthAndAreReproducible) {
  ValueGenerator a(0.5, 100, 1), b(0.5, 100, 1), c(0.5, 100, 2);
  EXPECT_GE(a.pool_size(), ValueGenerator::kMinPoolSize);
  EXPECT_EQ(a.Next(100).size(), 100u);
  EXPECT_EQ(a.Next(0).size(), 0u);
  b.Next(100);
  EXPECT_EQ(a.Next(37), b.Next(37));  // same seed, same position: same bytes
  EXPECT_NE(std::string(ValueGenerator(0.5, 100, 1).Next(100)), std::string(c.Next(100)));
  ValueGenerator big(0.5, 3 << 20, 1);
  EXPECT_EQ(big.Next(3 << 20).size(), size_t{3} << 20);
}

TEST(BenchValueTest, ValuesCompressToTheRequestedRatio) {
  for (double ratio : {0.25, 0.5, 1.0}) {
    ValueGenerator gen(ratio, 100, 99);
    std::string data;
    while (data.size() < (1 << 20)) data.append(gen.Next(100));
    for (const char* codec : {"snappy", "zstd", "lz4"}) {
      const double got = BlockCompressionRatio(data, codec);
      // Codec framing adds a few percent; incompressible data cannot shrink.
      EXPECT_GE(got, ratio - 0.02) << codec << " ratio=" << ratio;
      EXPECT_LE(got, ratio + 0.08) << codec << " ratio=" << ratio;
    }
  }
}

// ------------------------------------------------------------------------------------------
// Flags

struct Parsed {
  ParseOutcome outcome;
  BenchFlags flags;
  std::string out;
  std::string err;
};

Parsed Parse(std::vector<const char*> args) {
  args.insert(args.begin(), "sluice_bench");
  Parsed p;
  p.flags = DefaultBenchFlags();
  std::ostringstream out, err;
  p.outcome = ParseBenchFlags(static_cast<int>(args.size()), args.data(), &p.flags, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

TEST(BenchFlagsTest, DefaultsAreDbBenchWorkloadAndSluiceOptions) {
  const Parsed p = Parse({});
  ASSERT_TRUE(p.outcome.proceed) << p.err;
  const sluice::Options sluice_defaults;
  EXPECT_EQ(p.flags.engines, std::vector<std::string>{"sluice"});
  EXPECT_EQ(p.flags.num, 1000000);
  EXPECT_EQ(p.flags.EffectiveReads(), 1000000u);
  EXPECT_EQ(p.flags.key_size, 16);
  EXPECT_EQ(p.flags.value_size, 100);
  EXPECT_EQ(p.flags.batch_size, 1);
  EXPECT_DOUBLE_EQ(p.flags.compression_ratio, 0.5);
  EXPECT_EQ(p.flags.db, "/tmp/sluice_bench");
  EXPECT_EQ(p.flags.engine.write_buffer_size, sluice_defaults.write_buffer_size);
  EXPECT_EQ(p.flags.engine.cache_size, sluice_defaults.block_cache_size);
  EXPECT_EQ(p.flags.engine.bloom_bits, sluice_defaults.bloom_bits_per_key);
  EXPECT_EQ(p.flags.engine.level0_stop_writes_trigger, sluice_defaults.level0_stop_writes_trigger);
  EXPECT_EQ(p.flags.engine.max_bytes_for_level_base, sluice_defaults.max_bytes_for_level_base);
  EXPECT_EQ(p.flags.engine.compression, CompressionKind::kSnappy);
}

TEST(BenchFlagsTest, ParsesDbBenchStyleFlags) {
  const Parsed p =
      Parse({"--engine=rocksdb,leveldb", "--benchmarks=fillseq,readrandom,", "--num=5000",
             "--reads", "100", "--threads=3", "--histogram=1", "--sync=false", "--disable_wal",
             "--write_buffer_size=8MB", "--cache_size=0", "--compression_type=ZSTD",
             "--batch_size=10", "--json=/tmp/r.json", "--memtable=skiplist", "--key_size=4"});
  ASSERT_TRUE(p.outcome.proceed) << p.err;
  EXPECT_EQ(p.flags.engines, (std::vector<std::string>{"rocksdb", "leveldb"}));
  EXPECT_EQ(p.flags.benchmarks, (std::vector<std::string>{"fillseq", "readrandom"}));
  EXPECT_EQ(p.flags.num, 5000);
  EXPECT_EQ(p.flags.EffectiveReads(), 100u);
  EXPECT_EQ(p.flags.threads, 3);
  EXPECT_TRUE(p.flags.histogram);
  EXPECT_FALSE(p.flags.engine.sync);
  EXPECT_TRUE(p.flags.engine.disable_wal);
  EXPECT_EQ(p.flags.engine.write_buffer_size, size_t{8} << 20);
  EXPECT_EQ(p.flags.engine.cache_size, 0u);
  EXPECT_EQ(p.flags.engine.compression, CompressionKind::kZstd);
  EXPECT_EQ(p.flags.batch_size, 10);
  EXPECT_EQ(p.flags.json_path, "/tmp/r.json");
}

TEST(BenchFlagsTest, BadFlagsFailNamingTheFlag) {
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"--benchmarks=fillseq,nosuchbench"}, "--benchmarks"},
      {{"--benchmarks=,"}, "--benchmarks"},
      {{"--engine=mysql"}, "--engine"},
      {{"--engine=leveldb,leveldb"}, "--engine"},
      {{"--num=0"}, "--num"},
      {{"--num=ten"}, "--num"},
      {{"--threads=0"}, "--threads"},
      {{"--key_size=5", "--num=1000000"}, "--key_size"},
      {{"--compression_type=brotli"}, "--compression_type"},
      {{"--compression_ratio=1.5"}, "--compression_ratio"},
      {{"--write_buffer_size=lots"}, "--write_buffer_size"},
      {{"--level0_stop_writes_trigger=5"}, "--level0_slowdown_writes_trigger"},
      {{"--no_such_flag=1"}, "--no_such_flag"},
  };
  for (const auto& [args, flag] : cases) {
    const Parsed p = Parse(args);
    EXPECT_FALSE(p.outcome.proceed) << flag;
    EXPECT_NE(p.outcome.exit_code, 0) << flag;
    EXPECT_NE(p.err.find(flag), std::string::npos) << "expected '" << flag << "' in: " << p.err;
  }
}

TEST(BenchFlagsTest, HelpExitsZeroAndListsFlags) {
  const Parsed p = Parse({"--help"});
  EXPECT_FALSE(p.outcome.proceed);
  EXPECT_EQ(p.outcome.exit_code, 0);
  EXPECT_NE(p.out.find("--benchmarks"), std::string::npos);
  EXPECT_NE(p.out.find("--compression_type"), std::string::npos);
}

// ------------------------------------------------------------------------------------------
// Reports

TEST(BenchReportTest, LineMatchesRocksDbDbBenchFormat) {
  BenchResult r;
  r.name = "fillrandom";
  r.ops = 1000000;
  r.elapsed_seconds = 2.341;
  r.thread_seconds = 2.341;
  r.bytes = 116111000;
  EXPECT_EQ(FormatReportLine(r),
            "fillrandom   :       2.341 micros/op 427167 ops/sec 2.341 seconds 1000000 "
            "operations;   47.3 MB/s");

  BenchResult m;
  m.name = "readmissing";
  m.ops = 200;
  m.elapsed_seconds = 0.25;
  m.thread_seconds = 0.5;  // two threads: micros/op is per thread, ops/sec overall
  m.message = "(0 of 200 found)";
  EXPECT_EQ(FormatReportLine(m),
            "readmissing  :    2500.000 micros/op 800 ops/sec 0.250 seconds 200 operations; "
            "(0 of 200 found)");

  BenchResult s;
  s.name = "fillseq";
  s.skipped = true;
  s.skip_reason = "why";
  EXPECT_EQ(FormatReportLine(s), "fillseq      : skipped (why)");
}

TEST(BenchReportTest, MergeUsesWallClockForRatesAndThreadTimeForMicrosPerOp) {
  ThreadStats a(true), b(true);
  a.Start();
  b.Start();
  a.FinishedOps(a.OpStart(), 10, 1000);
  b.FinishedOps(b.OpStart(), 30, 3000);
  a.AddLookups(10, 4);
  a.Stop();
  b.Stop();
  const BenchResult r = MergeThreadStats("readrandom", "read", {&a, &b});
  EXPECT_EQ(r.ops, 40u);
  EXPECT_EQ(r.bytes, 4000u);
  EXPECT_EQ(r.found, 4u);
  EXPECT_EQ(r.lookups, 10u);
  EXPECT_EQ(r.threads, 2);
  EXPECT_TRUE(r.has_latency);
  EXPECT_EQ(r.latency.count(), 2u);
  EXPECT_LE(r.elapsed_seconds, r.thread_seconds);
  EXPECT_NE(FormatLatencyReport(r).find("Microseconds per read:\nCount: 2 "), std::string::npos);
}

BenchResult ResultAt(std::string name, double ops_per_sec) {
  BenchResult r;
  r.name = std::move(name);
  r.ops = static_cast<uint64_t>(ops_per_sec);
  r.elapsed_seconds = 1;
  return r;
}

TEST(BenchReportTest, SummaryTableKeepsRepeatedBenchmarksApart) {
  BenchResult skipped;
  skipped.name = "fillseq";
  skipped.skipped = true;
  const std::vector<BenchmarkSpread> spreads =
      SummarizeRounds({{{ResultAt("readrandom", 100), ResultAt("readrandom", 300), skipped},
                        {ResultAt("readrandom", 300)}}});
  const std::string table = FormatRoundsSummary({"rocksdb", "leveldb"}, 1, spreads);
  EXPECT_NE(table.find("readrandom #2"), std::string::npos) << table;
  EXPECT_NE(table.find("skipped"), std::string::npos) << table;
  EXPECT_NE(table.find("300"), std::string::npos) << table;
  EXPECT_NE(table.find("rocksdb/leveldb"), std::string::npos) << table;
  EXPECT_NE(table.find("0.33"), std::string::npos) << table;  // readrandom: 100 / 300
}

TEST(BenchRoundsTest, EachRoundRotatesTheEngineOrder) {
  EXPECT_EQ(RoundOrder(3, 0), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(RoundOrder(3, 1), (std::vector<size_t>{1, 2, 0}));
  EXPECT_EQ(RoundOrder(3, 2), (std::vector<size_t>{2, 0, 1}));
  EXPECT_EQ(RoundOrder(3, 3), (std::vector<size_t>{0, 1, 2}));
  // Over as many rounds as engines, every engine runs in every position once.
  for (size_t engines = 1; engines <= 4; ++engines) {
    std::vector<std::vector<int>> seen(engines, std::vector<int>(engines, 0));
    for (size_t round = 0; round < engines; ++round) {
      const std::vector<size_t> order = RoundOrder(engines, round);
      for (size_t position = 0; position < engines; ++position) seen[order[position]][position]++;
    }
    for (const auto& row : seen) EXPECT_EQ(row, std::vector<int>(engines, 1));
  }
}

TEST(BenchRoundsTest, MediansAndRangesOfFiguresAndOfEachRoundsRatio) {
  ASSERT_TRUE(SpreadOf({3, 1, 2}).has_value());
  EXPECT_DOUBLE_EQ(SpreadOf({3, 1, 2})->median, 2);
  EXPECT_DOUBLE_EQ(SpreadOf({4, 1, 2, 3})->median, 2.5);
  EXPECT_DOUBLE_EQ(SpreadOf({4, 1, 2, 3})->min, 1);
  EXPECT_DOUBLE_EQ(SpreadOf({4, 1, 2, 3})->max, 4);
  EXPECT_FALSE(SpreadOf({}).has_value());
  // Three rounds of two engines; a slow third round for both: the ratio's median is that of
  // the rounds' ratios (2, 2, 4 -> 2), not the ratio of the medians (200 / 90).
  std::vector<std::vector<std::vector<BenchResult>>> rounds = {
      {{ResultAt("fillseq", 200)}, {ResultAt("fillseq", 100)}},
      {{ResultAt("fillseq", 220)}, {ResultAt("fillseq", 110)}},
      {{ResultAt("fillseq", 80)}, {ResultAt("fillseq", 20)}},
  };
  const std::vector<BenchmarkSpread> s = SummarizeRounds(rounds);
  ASSERT_EQ(s.size(), 1u);
  ASSERT_TRUE(s[0].ops_per_sec[0].has_value());
  EXPECT_DOUBLE_EQ(s[0].ops_per_sec[0]->median, 200);
  EXPECT_DOUBLE_EQ(s[0].ops_per_sec[1]->median, 100);
  ASSERT_TRUE(s[0].ratios[0].has_value());
  EXPECT_DOUBLE_EQ(s[0].ratios[0]->median, 2);
  EXPECT_DOUBLE_EQ(s[0].ratios[0]->min, 2);
  EXPECT_DOUBLE_EQ(s[0].ratios[0]->max, 4);
  const std::string table = FormatRoundsSummary({"sluice", "rocksdb"}, 3, s);
  EXPECT_NE(table.find("200 [80..220]"), std::string::npos) << table;
  EXPECT_NE(table.find("2.00 [2.00..4.00]"), std::string::npos) << table;
}

TEST(BenchMachineTest, FileSystemIsTheDeepestMountHoldingThePath) {
  const std::string mounts =
      "/dev/vda / ext4 rw,relatime 0 0\n"
      "tmpfs /tmp tmpfs rw 0 0\n"
      "/dev/vdb /tmpfoo xfs rw 0 0\n";
  EXPECT_EQ(FileSystemOf("/tmp/sluice_bench", mounts), "tmpfs (tmpfs)");
  EXPECT_EQ(FileSystemOf("/tmp", mounts), "tmpfs (tmpfs)");
  EXPECT_EQ(FileSystemOf("/tmpfoo/x", mounts), "xfs (/dev/vdb)");
  EXPECT_EQ(FileSystemOf("/work/db", mounts), "ext4 (/dev/vda)");
  const MachineInfo m = ReadMachineInfo("/tmp/does/not/exist/yet");
  EXPECT_FALSE(m.cpu_model.empty());
  EXPECT_GT(m.hardware_threads, 0u);
  EXPECT_NE(m.kernel.find("Linux"), std::string::npos);
  EXPECT_NE(m.file_system, "unknown");
}

TEST(BenchReportTest, JsonHasEveryResultField) {
  BenchFlags flags = DefaultBenchFlags();
  BenchResult r;
  r.name = "readrandom";
  r.threads = 1;
  r.ops = 4;
  r.elapsed_seconds = 2;
  r.thread_seconds = 2;
  r.bytes = 1048576;
  r.has_lookups = true;
  r.lookups = 4;
  r.found = 3;
  r.has_latency = true;
  for (uint64_t v : {1000, 2000, 3000, 4000}) r.latency.Record(v);
  EngineRun run;
  run.engine = "rocksdb";
  run.version = "RocksDB x";
  run.options = {{"block_size", "4096", ""}, {"num_levels", "7 (fixed)", "a note"}};
  run.results = {r};
  MachineInfo machine;
  machine.cpu_model = "a CPU";
  const nlohmann::ordered_json doc =
      ResultsToJson(flags, RunInfo{"t", {"sluice_bench"}}, machine, {run}, {"rocksdb"},
                    SummarizeRounds({{run.results}}));
  const auto parsed = nlohmann::json::parse(doc.dump());
  EXPECT_EQ(parsed["tool"], "sluice_bench");
  EXPECT_EQ(parsed["machine"]["cpu_model"], "a CPU");
  EXPECT_EQ(parsed["summary"][0]["benchmark"], "readrandom");
  EXPECT_DOUBLE_EQ(parsed["summary"][0]["ops_per_sec"]["rocksdb"]["median"].get<double>(), 2.0);
  EXPECT_EQ(parsed["workload"]["num"], 1000000);
  const auto& e = parsed["engines"][0];
  EXPECT_EQ(e["engine"], "rocksdb");
  EXPECT_EQ(e["options"][1]["note"], "a note");
  const auto& b = e["benchmarks"][0];
  EXPECT_EQ(b["ops"], 4);
  EXPECT_DOUBLE_EQ(b["ops_per_sec"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(b["micros_per_op"].get<double>(), 500000.0);
  EXPECT_DOUBLE_EQ(b["mb_per_sec"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(b["seconds"].get<double>(), 2.0);
  EXPECT_EQ(b["found"], 3);
  for (const char* key : {"count", "average", "stddev", "min", "median", "max", "p50", "p75", "p99",
                          "p99_9", "p99_99"}) {
    EXPECT_TRUE(b["latency_us"].contains(key)) << key;
  }
  EXPECT_DOUBLE_EQ(b["latency_us"]["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(b["latency_us"]["max"].get<double>(), 4.0);
}

// ------------------------------------------------------------------------------------------
// Runner, against an in-memory engine (a test double standing in for a real store).

class BenchRunnerTest : public testing::Test {
 protected:
  BenchRunnerTest() : out_(std::tmpfile()) {
    flags_ = DefaultBenchFlags();
    flags_.num = 1000;
    flags_.db = testing::TempDir() + "/bench_runner_test";
  }
  ~BenchRunnerTest() override { std::fclose(out_); }

  std::vector<BenchResult> Run(std::vector<std::string> benchmarks) {
    flags_.benchmarks = std::move(benchmarks);
    return RunBenchmarks(flags_, &engine_, flags_.db + "/map", out_);
  }

  std::string Output() {
    std::fflush(out_);
    std::rewind(out_);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), out_)) > 0) text.append(buf, n);
    return text;
  }

  BenchFlags flags_;
  MapEngine engine_;
  std::FILE* out_;
};

TEST_F(BenchRunnerTest, SequentialFillThenReadsSeeEveryKey) {
  const auto r = Run(
      {"fillseq", "readrandom", "readmissing", "seekrandom", "readseq", "readreverse", "stats"});
  ASSERT_EQ(r.size(), 6u);  // stats prints but is not a measured benchmark
  EXPECT_EQ(engine_.size(), 1000u);
  EXPECT_EQ(r[0].name, "fillseq");
  EXPECT_EQ(r[0].ops, 1000u);
  EXPECT_EQ(r[0].bytes, 1000u * (16 + 100));
  EXPECT_EQ(r[1].message, "(1000 of 1000 found)");
  EXPECT_EQ(r[2].found, 0u);
  EXPECT_EQ(r[2].lookups, 1000u);
  EXPECT_EQ(r[3].found, 1000u);
  EXPECT_EQ(r[4].ops, 1000u);
  EXPECT_EQ(r[5].ops, 1000u);
  const std::string out = Output();
  EXPECT_NE(out.find("fillseq      : "), std::string::npos) << out;
  EXPECT_NE(out.find("map.stats:\nkeys=1000"), std::string::npos) << out;
}

TEST_F(BenchRunnerTest, RandomFillCoversAboutOneMinusOneOverEOfTheKeys) {
  flags_.num = 20000;
  const auto r = Run({"fillrandom", "readrandom"});
  const double fraction = static_cast<double>(engine_.size()) / 20000.0;
  EXPECT_NEAR(fraction, 1.0 - std::exp(-1.0), 0.02);
  EXPECT_NEAR(static_cast<double>(r[1].found) / 20000.0, fraction, 0.03);
}

TEST_F(BenchRunnerTest, ThreadsEachDoTheFullCountAndBatchesAreUsed) {
  flags_.threads = 3;
  flags_.batch_size = 7;  // not a divisor of num: the last batch is short
  flags_.histogram = true;
  const auto r = Run({"fillseq", "readrandom", "deleterandom", "readwhilewriting"});
  EXPECT_EQ(r[0].ops, 3000u);
  EXPECT_EQ(r[0].threads, 3);
  EXPECT_EQ(engine_.batches, 3 * 143 + 3 * 143);  // ceil(1000 / 7) per thread, two benchmarks
  EXPECT_EQ(r[1].found, 3000u);
  EXPECT_EQ(r[1].latency.count(), 3000u);
  EXPECT_TRUE(r[0].has_latency);
  EXPECT_EQ(r[0].latency.count(), 3u * 143);  // one latency per batch
  EXPECT_EQ(r[2].ops, 3000u);
  EXPECT_EQ(r[3].ops, 3000u);  // readers only; the writer is reported in the message
  EXPECT_NE(r[3].message.find("(writer: "), std::string::npos) << r[3].message;
}

TEST_F(BenchRunnerTest, MultiReadRandomLooksUpBatchesOfKeys) {
  flags_.batch_size = 7;  // not a divisor of --reads: the last batch is short
  flags_.histogram = true;
  for (bool as_gets : {false, true}) {  // as_gets: the baseline, Gets in a loop timed the same way
    flags_.multiget_as_gets = as_gets;
    const auto r = Run({"fillseq", "multireadrandom"});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[1].ops, 1000u);
    EXPECT_EQ(r[1].found, 1000u);  // every key of the sequential fill
    EXPECT_EQ(r[1].lookups, 1000u);
    EXPECT_EQ(r[1].latency.count(), 143u);  // one latency per batch: ceil(1000 / 7)
    EXPECT_EQ(r[1].message, "(1000 of 1000 found)");
  }
}

TEST_F(BenchRunnerTest, DeleteRangeDeletesRangesOfTheGivenWidth) {
  flags_.max_num_range_tombstones = 5;
  flags_.range_tombstone_width = 10;
  auto r = Run({"fillseq", "deleterange", "readrandom"});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1].ops, 5u);
  EXPECT_EQ(engine_.range_deletes, 5);
  // At most 50 keys gone (ranges may overlap), at least 10.
  EXPECT_LE(engine_.size(), 990u);
  EXPECT_GE(engine_.size(), 950u);
  EXPECT_EQ(r[1].message, "(5 ranges of 10 keys)");
  engine_.range_deletes_supported = false;  // as LevelDB: reported as skipped
  r = Run({"fillseq", "deleterange"});
  EXPECT_TRUE(r[1].skipped);
  EXPECT_NE(r[1].skip_reason.find("no range deletion"), std::string::npos) << r[1].skip_reason;
}

// Records each MultiGet's keys (as numbers: the decimal key format).
class BatchRecordingEngine : public MapEngine {
 public:
  void MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                std::vector<EngineStatus>* statuses) override {
    std::vector<uint64_t> batch;
    for (std::string_view k : keys) batch.push_back(std::stoull(std::string(k)));
    batches.push_back(batch);
    MapEngine::MultiGet(keys, values, statuses);
  }
  std::vector<std::vector<uint64_t>> batches;
};

TEST(BenchMultiReadStride, BatchesAreARandomKeyAndTheKeysStrideApart) {
  BenchFlags flags = DefaultBenchFlags();
  flags.num = 1000;
  flags.db = testing::TempDir() + "/bench_multiread_stride";
  flags.batch_size = 10;
  flags.reads = 500;
  std::FILE* out = std::tmpfile();
  for (int64_t stride : {0, 1, 7}) {
    flags.multiread_stride = stride;
    flags.benchmarks = {"fillseq", "multireadrandom"};
    BatchRecordingEngine engine;
    const auto r = RunBenchmarks(flags, &engine, flags.db + "/map", out);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[1].found, 500u);
    ASSERT_EQ(engine.batches.size(), 50u);
    bool all_strided = true;
    for (const auto& b : engine.batches) {
      ASSERT_EQ(b.size(), 10u);
      for (size_t i = 1; i < b.size(); i++) all_strided &= b[i] == b[0] + i * stride;
      EXPECT_LT(b.back(), 1000u);
    }
    // Random keys are (almost surely) not stride 0 apart.
    EXPECT_EQ(stride != 0, all_strided) << "stride " << stride;
  }
  std::fclose(out);
}

TEST_F(BenchRunnerTest, FreshBenchmarksRecreateOrAreSkippedWithExistingDb) {
  auto r = Run({"fillseq", "fillsync", "fill100K"});
  EXPECT_EQ(r[1].ops, 1u);  // num / 1000
  EXPECT_EQ(engine_.synced_writes, 1);
  EXPECT_EQ(r[2].bytes, 16u + 100000u);
  EXPECT_EQ(engine_.size(), 1u);  // fill100K started from an empty database

  flags_.use_existing_db = true;
  r = Run({"fillrandom", "readrandom", "flush"});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(r[0].skipped);
  EXPECT_FALSE(r[1].skipped);
  EXPECT_TRUE(r[2].skipped);  // the engine reported NotSupported
  EXPECT_EQ(r[2].skip_reason, "no flush here");
}

TEST_F(BenchRunnerTest, DurationRunsForThatLongInsteadOfACount) {
  flags_.duration = 1;
  flags_.num = 100;
  const auto r = Run({"readseq"});  // empty database: stops instead of spinning
  EXPECT_EQ(r[0].ops, 0u);
  const auto w = Run({"fillrandom"});
  EXPECT_GT(w[0].ops, 100u);  // not limited to --num
  EXPECT_GE(w[0].elapsed_seconds, 0.99);
  EXPECT_LT(w[0].elapsed_seconds, 1.5);
  EXPECT_TRUE(w[0].intervals.empty());
}

TEST_F(BenchRunnerTest, StatsIntervalsReportEachIntervalsThroughput) {
  flags_.duration = 3;
  flags_.threads = 2;
  flags_.stats_interval_seconds = 1;
  const auto w = Run({"fillrandom"});
  // Two or three full intervals in three seconds, depending on where the last sample falls.
  ASSERT_GE(w[0].intervals.size(), 2u);
  ASSERT_LE(w[0].intervals.size(), 3u);
  double ops = 0;
  for (size_t i = 0; i < w[0].intervals.size(); i++) {
    const auto& p = w[0].intervals[i];
    EXPECT_NEAR(p.end_seconds, static_cast<double>(i + 1), 0.3) << i;
    EXPECT_GT(p.ops_per_sec, 0) << i;
    ops += p.ops_per_sec;  // about one second each
  }
  EXPECT_LE(ops, static_cast<double>(w[0].ops) * 1.2);
  EXPECT_NE(Output().find("  [interval]"), std::string::npos);
  // The map reports no background writes: no amplification in the points or the lines.
  EXPECT_FALSE(w[0].intervals[0].background_bytes.has_value());
  EXPECT_EQ(Output().find("write amplification so far"), std::string::npos);
}

TEST_F(BenchRunnerTest, StatsIntervalsCarryTheDataWrittenAndTheEnginesBackgroundBytes) {
  flags_.duration = 2;
  flags_.stats_interval_seconds = 1;
  engine_.background_bytes = 3u << 20;
  const auto w = Run({"fillrandom"});
  ASSERT_GE(w[0].intervals.size(), 1u);
  uint64_t before = 0;
  for (const auto& p : w[0].intervals) {
    EXPECT_GT(p.user_bytes, before);  // cumulative, one whole write at a time
    EXPECT_EQ(p.user_bytes % (16 + 100), 0u);
    before = p.user_bytes;
    ASSERT_TRUE(p.background_bytes.has_value());
    EXPECT_EQ(*p.background_bytes, 3u << 20);
  }
  EXPECT_LE(before, w[0].ops * (16 + 100));
  EXPECT_NE(Output().find(", write amplification so far "), std::string::npos);
}

TEST_F(BenchRunnerTest, DiskReportCountsWrittenBytesSinceTheLastFreshDatabase) {
  flags_.benchmarks = {"fillseq", "readrandom", "overwrite"};
  BenchmarkRunner runner(flags_, &engine_, flags_.db + "/map", out_);
  std::vector<BenchResult> results;
  std::string error;
  ASSERT_TRUE(runner.Run(&results, &error)) << error;
  EXPECT_EQ(runner.disk().user_bytes_written, 2u * 1000u * (16 + 100));  // not the reads
  EXPECT_FALSE(runner.disk().background_bytes_written.has_value());      // MapEngine cannot tell
  flags_.benchmarks = {"fillseq", "fillrandom"};  // fillrandom starts a new database
  BenchmarkRunner again(flags_, &engine_, flags_.db + "/map", out_);
  ASSERT_TRUE(again.Run(&results, &error)) << error;
  EXPECT_EQ(again.disk().user_bytes_written, 1000u * (16 + 100));
  EXPECT_NE(Output().find("Disk: after close the directory holds"), std::string::npos);
}

TEST(BenchDiskTest, DirectoryIsMeasuredRecursivelyAndTheReportSaysWhatItKnows) {
  const std::string dir = testing::TempDir() + "/bench_disk_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/lost");
  auto write = [&](const std::string& name, size_t bytes) {
    std::FILE* f = std::fopen((dir + "/" + name).c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(std::string(bytes, 'x').data(), 1, bytes, f);
    std::fclose(f);
  };
  write("000012.sst", 1000);
  write("000013.ldb", 500);
  write("LOG", 30);
  write("lost/000007.sst", 200);
  BenchmarkRunner::DiskReport d;
  MeasureDirectory(dir, &d);
  EXPECT_EQ(d.files_after_close, 4u);
  EXPECT_EQ(d.bytes_after_close, 1730u);
  EXPECT_EQ(d.table_files_after_close, 3u);
  EXPECT_EQ(FormatDiskReport(d),
            "Disk: after close the directory holds 0.0 MiB in 4 files (3 table files)");
  d.background_bytes_written = 3 << 20;
  d.user_bytes_written = 2 << 20;
  EXPECT_EQ(FormatDiskReport(d),
            "Disk: flushes and compactions wrote 3.0 MiB since open (write amplification 1.50 "
            "over 2.0 MiB of keys and values); after close the directory holds 0.0 MiB in 4 "
            "files (3 table files)");
  std::filesystem::remove_all(dir);
}

// cLSM's workloads (clsm_workloads.cc). MapEngine's Get and Put are each atomic but has no
// read-modify-write: --rmw=native skips it, --rmw=striped must still be exact.
TEST_F(BenchRunnerTest, StripedRmwIsExactAndNativeRmwNeedsAnEngineWithOne) {
  flags_.num = 40;
  flags_.threads = 4;
  flags_.rmw = "native";
  auto r = Run({"rmw_increment"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].skipped);
  EXPECT_NE(r[0].skip_reason.find("--rmw=striped"), std::string::npos) << r[0].skip_reason;

  flags_.rmw = "striped";
  r = Run({"rmw_increment"});
  ASSERT_FALSE(r[0].skipped);
  EXPECT_EQ(r[0].ops, 4u * 40u);
  uint64_t sum = 0;
  for (uint64_t k = 0; k < 40; k++) {
    std::string v;
    if (!engine_.Get(std::string(KeyBuffer(16).Set(k)), &v).ok()) continue;
    ASSERT_EQ(v.size(), 8u);
    uint64_t n = 0;
    std::memcpy(&n, v.data(), 8);
    sum += n;
  }
  EXPECT_EQ(sum, 4u * 40u);
  EXPECT_NE(r[0].message.find("160 increments; lock-striped"), std::string::npos) << r[0].message;

  // Every distinct key is inserted exactly once, whichever thread gets there first.
  engine_.Destroy("");  // the runner destroys only databases it finds on disk
  r = Run({"rmw_putifabsent"});
  EXPECT_EQ(engine_.size(), 40u);
  EXPECT_NE(r[0].message.find("40 of 160 inserted"), std::string::npos) << r[0].message;
}

TEST_F(BenchRunnerTest, ReadWriteMixSkewedReadsAndScansWhileWriting) {
  flags_.num = 1000;
  flags_.readwritepercent = 50;
  auto r = Run({"fillseq", "readrandomwriterandom"});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].ops, 1000u);
  EXPECT_EQ(r[1].found, r[1].lookups);  // every key exists after fillseq
  EXPECT_GT(r[1].lookups, 400u);
  EXPECT_LT(r[1].lookups, 600u);

  flags_.hot_op_fraction = 0.9;
  flags_.hot_key_fraction = 0.1;
  r = Run({"readskewed"});
  EXPECT_EQ(r[0].found, 1000u);
  EXPECT_NE(r[0].message.find("on hot keys"), std::string::npos) << r[0].message;

  flags_.scan_length = 10;
  flags_.reads = 500;
  r = Run({"scanwhilewriting"});
  EXPECT_GE(r[0].ops, 500u);  // keys read; the last scan may overshoot
  EXPECT_LT(r[0].ops, 510u);
  EXPECT_NE(r[0].message.find("scans)"), std::string::npos) << r[0].message;
  EXPECT_NE(r[0].message.find("writer:"), std::string::npos) << r[0].message;
}

}  // namespace
}  // namespace sluice_bench
