// tests/support/map_engine.h — an in-memory KVEngine (a std::map under a lock) that stands in
// for a real store in the tests of sluice_bench's runner, counting what the runner asked of it.
// Header-only: the tests that use it are built only with the tools (tests/CMakeLists.txt).

#ifndef SLUICE_TESTS_SUPPORT_MAP_ENGINE_H_
#define SLUICE_TESTS_SUPPORT_MAP_ENGINE_H_

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "sluice_bench/bench_flags.h"
#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

class MapEngine : public KVEngine {
 public:
  class Batch : public KVWriteBatch {
   public:
    void Put(std::string_view k, std::string_view v) override { ops.emplace_back(k, v, false); }
    void Delete(std::string_view k) override { ops.emplace_back(k, "", true); }
    void Clear() override { ops.clear(); }
    std::vector<std::tuple<std::string, std::string, bool>> ops;
  };

  // Iterates a copy of the map taken when it was created.
  class Iter : public KVIterator {
   public:
    explicit Iter(std::map<std::string, std::string> data) : data_(std::move(data)) {
      it_ = data_.end();
    }
    bool Valid() const override { return it_ != data_.end(); }
    void SeekToFirst() override { it_ = data_.begin(); }
    void SeekToLast() override { it_ = data_.empty() ? data_.end() : std::prev(data_.end()); }
    void Seek(std::string_view t) override { it_ = data_.lower_bound(std::string(t)); }
    void Next() override { ++it_; }
    void Prev() override { it_ = it_ == data_.begin() ? data_.end() : std::prev(it_); }
    std::string_view key() const override { return it_->first; }
    std::string_view value() const override { return it_->second; }
    EngineStatus status() const override { return EngineStatus::OK(); }

   private:
    std::map<std::string, std::string> data_;
    std::map<std::string, std::string>::const_iterator it_;
  };

  std::string_view name() const override { return "map"; }
  std::string version() const override { return "map 1"; }
  std::string_view stats_property() const override { return "map.stats"; }
  EngineStatus Configure(const EngineOptions&) override { return EngineStatus::OK(); }
  std::vector<OptionRow> DescribeOptions() const override { return {}; }
  EngineStatus Open(const std::string&) override {
    ++opens;
    return EngineStatus::OK();
  }
  EngineStatus Close() override { return EngineStatus::OK(); }
  EngineStatus Destroy(const std::string&) override {
    std::unique_lock lock(mu_);
    data_.clear();
    return EngineStatus::OK();
  }
  EngineStatus Put(std::string_view k, std::string_view v, const WriteMode& mode) override {
    std::unique_lock lock(mu_);
    ++puts;
    if (mode.sync) ++synced_writes;
    data_[std::string(k)] = std::string(v);
    return EngineStatus::OK();
  }
  EngineStatus Delete(std::string_view k, const WriteMode&) override {
    std::unique_lock lock(mu_);
    ++deletes;
    data_.erase(std::string(k));
    return EngineStatus::OK();
  }
  // With range_deletes_supported false, the KVEngine default (NotSupported), as LevelDB.
  EngineStatus DeleteRange(std::string_view begin, std::string_view end,
                           const WriteMode& mode) override {
    if (!range_deletes_supported) return KVEngine::DeleteRange(begin, end, mode);
    std::unique_lock lock(mu_);
    ++range_deletes;
    data_.erase(data_.lower_bound(std::string(begin)), data_.lower_bound(std::string(end)));
    return EngineStatus::OK();
  }
  bool range_deletes_supported = true;
  int range_deletes = 0;
  std::unique_ptr<KVWriteBatch> NewWriteBatch() override { return std::make_unique<Batch>(); }
  EngineStatus Write(KVWriteBatch* batch, const WriteMode&) override {
    std::unique_lock lock(mu_);
    ++batches;
    for (const auto& [k, v, del] : static_cast<Batch*>(batch)->ops) {
      if (del) {
        data_.erase(k);
      } else {
        data_[k] = v;
      }
    }
    return EngineStatus::OK();
  }
  EngineStatus Get(std::string_view k, std::string* v) override {
    std::shared_lock lock(mu_);
    gets.fetch_add(1, std::memory_order_relaxed);
    auto it = data_.find(std::string(k));
    if (it == data_.end()) return EngineStatus::NotFound();
    *v = it->second;
    return EngineStatus::OK();
  }
  std::unique_ptr<KVIterator> NewIterator() override {
    std::shared_lock lock(mu_);
    return std::make_unique<Iter>(data_);
  }
  EngineStatus Scan(std::string_view start, size_t limit,
                    std::vector<std::pair<std::string, std::string>>* result) override {
    std::unique_lock lock(mu_);
    result->clear();
    for (auto it = data_.lower_bound(std::string(start));
         it != data_.end() && result->size() < limit; ++it) {
      result->emplace_back(it->first, it->second);
    }
    ++scans;
    scanned += result->size();
    return EngineStatus::OK();
  }
  // With native_rmw set, the engine offers an atomic read-modify-write (counted in rmws).
  EngineStatus NativeRmwSupport() const override {
    return native_rmw ? EngineStatus::OK() : KVEngine::NativeRmwSupport();
  }
  EngineStatus ReadModifyWrite(std::string_view k, const ModifyFunction& modify,
                               const WriteMode& mode) override {
    if (!native_rmw) return KVEngine::ReadModifyWrite(k, modify, mode);
    std::unique_lock lock(mu_);
    ++rmws;
    auto it = data_.find(std::string(k));
    std::optional<std::string> v = modify(it == data_.end() ? nullptr : &it->second);
    if (!v.has_value()) {
      if (it != data_.end()) data_.erase(it);
    } else {
      data_[std::string(k)] = std::move(*v);
    }
    return EngineStatus::OK();
  }
  EngineStatus Flush() override { return EngineStatus::NotSupported("no flush here"); }
  EngineStatus CompactAll() override { return EngineStatus::OK(); }
  // What the test sets (nothing by default: a map has no background writes).
  std::optional<uint64_t> BackgroundBytesWritten() override {
    const uint64_t bytes = background_bytes.load();
    return bytes == 0 ? std::nullopt : std::optional<uint64_t>(bytes);
  }
  EngineStatus GetStats(std::string* stats) override {
    std::shared_lock lock(mu_);
    *stats = "keys=" + std::to_string(data_.size());
    return EngineStatus::OK();
  }

  size_t size() {
    std::shared_lock lock(mu_);
    return data_.size();
  }

  // What the runner did (the plain counters change under the engine's exclusive lock).
  int opens = 0;
  int synced_writes = 0;
  int batches = 0;
  uint64_t puts = 0, deletes = 0, scans = 0, scanned = 0, rmws = 0;
  bool native_rmw = false;
  std::atomic<uint64_t> gets{0};
  std::atomic<uint64_t> background_bytes{0};  // 0: BackgroundBytesWritten reports nothing

 private:
  std::shared_mutex mu_;
  std::map<std::string, std::string> data_;
};

// Runs flags.benchmarks on engine (its data under path, the report to out) and returns the
// results; a failed run fails the calling test.
inline std::vector<BenchResult> RunBenchmarks(const BenchFlags& flags, KVEngine* engine,
                                              const std::string& path, std::FILE* out) {
  BenchmarkRunner runner(flags, engine, path, out);
  std::vector<BenchResult> results;
  std::string error;
  EXPECT_TRUE(runner.Run(&results, &error)) << error;
  return results;
}

}  // namespace sluice_bench

#endif  // SLUICE_TESTS_SUPPORT_MAP_ENGINE_H_
