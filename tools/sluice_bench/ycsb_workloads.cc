// sluice_bench/ycsb_workloads.cc — YCSB's core workloads (ycsb_load, ycsb_a .. ycsb_f) against
// any engine: the load phase and the transaction phase of CoreWorkload (ycsb_workload.h).
//
// A record is its fieldcount fields of fieldlength bytes each, side by side under the key
// "user<fnvhash64(keynum)>" (YCSB's RocksDB binding also stores each field's name and length:
// 14 more bytes per field). Operations, as YCSB's key-value bindings do them:
//   READ               Get of the record (readallfields=true);
//   UPDATE             one field replaced (writeallfields=false): the record is read, the field
//                      replaced, the record written back — through sluice's atomic
//                      ReadModifyWrite, or Get then Put for engines without one (YCSB's RocksDB
//                      binding does Get then Put); writeallfields=true: a Put of a new record;
//   INSERT             a Put of a new record under the next insert key number;
//   SCAN               a range read of up to scan-length records from the chosen key;
//   READ-MODIFY-WRITE  a READ then an UPDATE of the same record: one ReadModifyWrite on
//                      sluice (whose function sees the record read), Get then Put elsewhere.
// Every operation is timed, per type, for the P50/P99/P99.9 report.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/op_budget.h"
#include "sluice_bench/value_generator.h"

namespace sluice_bench {

YcsbSettings BenchmarkRunner::YcsbSettingsFromFlags() const {
  YcsbSettings s;
  s.recordcount = static_cast<uint64_t>(flags_.num);
  s.operationcount = flags_.ycsb_operationcount > 0
                         ? static_cast<uint64_t>(flags_.ycsb_operationcount)
                         : flags_.EffectiveReads();
  s.fieldcount = flags_.ycsb_fieldcount;
  s.fieldlength = flags_.ycsb_fieldlength;
  s.maxscanlength = flags_.ycsb_maxscanlength;
  s.requestdistribution = ParseYcsbDistribution(flags_.ycsb_requestdistribution);
  s.writeallfields = flags_.ycsb_writeallfields;
  return s;
}

void BenchmarkRunner::DoYcsbLoad(ThreadContext* t, YcsbRun* run, std::atomic<uint64_t>* next) {
  const YcsbSettings& s = run->settings();
  const size_t record_size = static_cast<size_t>(s.fieldcount) * static_cast<size_t>(s.fieldlength);
  ValueGenerator values(flags_.compression_ratio, record_size, t->rnd.Next());
  const WriteMode mode{flags_.engine.sync, flags_.engine.disable_wal};
  LatencyHistogram& latency = t->ycsb->latency[static_cast<size_t>(YcsbOp::kInsert)];
  // CoreWorkload's load: each thread takes the next key number of one shared counter.
  for (uint64_t keynum = next->fetch_add(1, std::memory_order_relaxed); keynum < s.recordcount;
       keynum = next->fetch_add(1, std::memory_order_relaxed)) {
    const std::string key = YcsbKeyName(keynum);
    const std::string_view record = values.Next(record_size);
    const uint64_t start = NowNanos();
    EngineStatus st = engine_->Put(key, record, mode);
    if (!st.ok()) {
      t->error = std::move(st);
      return;
    }
    latency.Record(NowNanos() - start);
    t->stats.FinishedOps(start, 1, key.size() + record.size());
  }
}

void BenchmarkRunner::DoYcsb(ThreadContext* t, const Workload& w, YcsbRun* run) {
  const YcsbSettings& s = run->settings();
  const size_t field_size = static_cast<size_t>(s.fieldlength);
  const size_t record_size = static_cast<size_t>(s.fieldcount) * field_size;
  ValueGenerator values(flags_.compression_ratio, record_size, t->rnd.Next());
  const WriteMode mode{flags_.engine.sync, flags_.engine.disable_wal};
  const bool native_rmw =
      (IsYcsbNativeRmw(w.kind) || flags_.ycsb_native_rmw) && engine_->NativeRmwSupport().ok();
  YcsbRun::Chooser chooser(run);
  // operationcount is for all threads together: this thread's share.
  const uint64_t threads = static_cast<uint64_t>(flags_.threads);
  const uint64_t self = static_cast<uint64_t>(t->thread);
  const uint64_t ops = w.ops / threads + (self < w.ops % threads ? 1 : 0);
  std::string value;
  std::vector<std::pair<std::string, std::string>> entries;

  // One field replaced (UPDATE), after reading the record (READ-MODIFY-WRITE reads it anyway).
  // A key without a record is left alone and counted, as YCSB's bindings answer NOT_FOUND.
  auto update_field = [&](const std::string& key) -> EngineStatus {
    const size_t field = static_cast<size_t>(chooser.NextField(&t->rnd));
    const std::string_view bytes = values.Next(field_size);
    auto replace = [&](std::string* record) {
      if (record->size() < (field + 1) * field_size) record->resize((field + 1) * field_size);
      record->replace(field * field_size, field_size, bytes);
    };
    if (native_rmw) {
      bool missing = false;
      EngineStatus st = engine_->ReadModifyWrite(
          key,
          [&](const std::string* current) -> std::optional<std::string> {
            missing = current == nullptr;
            if (missing) return std::nullopt;
            std::string record = *current;
            replace(&record);
            return record;
          },
          mode);
      if (st.ok() && missing) ++t->ycsb->not_found;
      return st;
    }
    EngineStatus st = engine_->Get(key, &value);
    if (st.IsNotFound()) {
      ++t->ycsb->not_found;
      return EngineStatus::OK();
    }
    if (!st.ok()) return st;
    replace(&value);
    return engine_->Put(key, value, mode);
  };

  OpBudget budget(ops, w.duration);
  uint64_t done = 0;
  while (budget.More(done)) {
    const YcsbOp op = chooser.NextOp(&t->rnd);
    uint64_t insert_keynum = 0;
    std::string key;
    if (op == YcsbOp::kInsert) {
      insert_keynum = run->insert_keys()->Next();
      key = YcsbKeyName(insert_keynum);
    } else {
      key = YcsbKeyName(chooser.NextKeynum(&t->rnd));
    }
    const uint64_t scan_length = op == YcsbOp::kScan ? chooser.NextScanLength(&t->rnd) : 0;
    const uint64_t start = NowNanos();
    EngineStatus st;
    uint64_t bytes = key.size();
    switch (op) {
      case YcsbOp::kRead:
        st = engine_->Get(key, &value);
        if (st.IsNotFound()) {
          ++t->ycsb->not_found;
          st = EngineStatus::OK();
        } else {
          bytes += value.size();
        }
        break;
      case YcsbOp::kUpdate:
        if (s.writeallfields) {
          st = engine_->Put(key, values.Next(record_size), mode);
        } else {
          st = update_field(key);
        }
        bytes += s.writeallfields ? record_size : field_size;
        break;
      case YcsbOp::kInsert:
        st = engine_->Put(key, values.Next(record_size), mode);
        if (st.ok()) run->insert_keys()->Acknowledge(insert_keynum);
        bytes += record_size;
        break;
      case YcsbOp::kScan:
        st = engine_->Scan(key, scan_length, &entries);
        t->ycsb->scanned += entries.size();
        for (const auto& [k, v] : entries) bytes += k.size() + v.size();
        break;
      case YcsbOp::kReadModifyWrite:
        if (s.writeallfields) {
          st = engine_->Get(key, &value);
          if (st.IsNotFound()) {
            ++t->ycsb->not_found;
            st = EngineStatus::OK();
          } else if (st.ok()) {
            st = engine_->Put(key, values.Next(record_size), mode);
          }
        } else {
          st = update_field(key);
        }
        bytes += record_size;
        break;
    }
    if (!st.ok()) {
      t->error = std::move(st);
      return;
    }
    t->ycsb->latency[static_cast<size_t>(op)].Record(NowNanos() - start);
    t->stats.FinishedOps(start, 1, bytes);
    ++done;
  }
}

void BenchmarkRunner::DescribeYcsb(const YcsbRun& run, bool load, const YcsbThreadStats& stats,
                                   BenchResult* r) const {
  std::string counts;
  for (size_t i = 0; i < kYcsbOpKinds; i++) {
    const LatencyHistogram& h = stats.latency[i];
    if (h.count() == 0) continue;
    const auto op = static_cast<YcsbOp>(i);
    std::string name(YcsbOpName(op));
    if (!counts.empty()) counts += ", ";
    counts += fmt::format("{} {}", h.count(), name);
    r->details += fmt::format(
        "  [{}] ops {} avg {:.1f} us  P50 {:.1f}  P99 {:.1f}  P99.9 {:.1f}  max {:.1f} us\n", name,
        h.count(), h.Average() / 1e3, h.Percentile(50) / 1e3, h.Percentile(99) / 1e3,
        h.Percentile(99.9) / 1e3, static_cast<double>(h.max()) / 1e3);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](char c) { return c == '-' ? '_' : static_cast<char>(std::tolower(c)); });
    r->metrics.emplace_back(name + "_ops", static_cast<double>(h.count()));
    r->metrics.emplace_back(name + "_avg_us", h.Average() / 1e3);
    r->metrics.emplace_back(name + "_p50_us", h.Percentile(50) / 1e3);
    r->metrics.emplace_back(name + "_p99_us", h.Percentile(99) / 1e3);
    r->metrics.emplace_back(name + "_p999_us", h.Percentile(99.9) / 1e3);
  }
  if (load) {
    r->message = fmt::format("({} records of {} bytes)", counts,
                             run.settings().fieldcount * run.settings().fieldlength);
    return;
  }
  r->message = fmt::format("({}; {}; {} not found", counts,
                           YcsbDistributionName(run.distribution()), stats.not_found);
  if (stats.scanned > 0) r->message += fmt::format("; {} records scanned", stats.scanned);
  r->message += ")";
  r->metrics.emplace_back("not_found", static_cast<double>(stats.not_found));
  if (stats.scanned > 0) r->metrics.emplace_back("scanned", static_cast<double>(stats.scanned));
}

}  // namespace sluice_bench
