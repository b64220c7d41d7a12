// sluice_bench/kv_engine.cc — names of the compression codecs shared by the engines, and the
// default implementations of KVEngine's optional calls.

#include "sluice_bench/kv_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string>
#include <thread>

namespace sluice_bench {

std::string_view CompressionName(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone: return "none";
    case CompressionKind::kSnappy: return "snappy";
    case CompressionKind::kZstd: return "zstd";
    case CompressionKind::kLz4: return "lz4";
  }
  return "none";
}

bool ParseCompression(std::string_view name, CompressionKind* kind) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (CompressionKind k : {CompressionKind::kNone, CompressionKind::kSnappy,
                            CompressionKind::kZstd, CompressionKind::kLz4}) {
    if (lower == CompressionName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

EngineStatus WaitUntilCountersZero(
    const std::vector<std::string>& names, std::string* how,
    const std::function<std::optional<uint64_t>(const std::string& name)>& read) {
  *how = "polled until 0:";
  for (const std::string& name : names) *how += (name == names.front() ? " " : ", ") + name;
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::hours(1);
  int quiet_polls = 0;
  while (quiet_polls < 2) {
    bool quiet = true;
    for (const std::string& name : names) {
      const std::optional<uint64_t> v = read(name);
      if (!v.has_value()) return EngineStatus::Error(fmt::format("cannot read {}", name));
      quiet = quiet && *v == 0;
    }
    quiet_polls = quiet ? quiet_polls + 1 : 0;
    if (quiet_polls == 2) break;
    if (Clock::now() > deadline) {
      return EngineStatus::Error("background work still pending after an hour");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return EngineStatus::OK();
}

EngineStatus KVEngine::Scan(std::string_view start, size_t limit,
                            std::vector<std::pair<std::string, std::string>>* result) {
  result->clear();
  std::unique_ptr<KVIterator> it = NewIterator();
  for (it->Seek(start); it->Valid() && result->size() < limit; it->Next()) {
    result->emplace_back(it->key(), it->value());
  }
  return it->status();
}

void KVEngine::MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                        std::vector<EngineStatus>* statuses) {
  values->resize(keys.size());
  statuses->clear();
  for (size_t i = 0; i < keys.size(); i++) statuses->push_back(Get(keys[i], &(*values)[i]));
}

EngineStatus KVEngine::DeleteRange(std::string_view /*begin*/, std::string_view /*end*/,
                                   const WriteMode& /*mode*/) {
  return EngineStatus::NotSupported(fmt::format("{} has no range deletion", name()));
}

EngineStatus KVEngine::NativeRmwSupport() const {
  return EngineStatus::NotSupported(fmt::format(
      "{} has no atomic read-modify-write; --rmw=striped runs a lock-striped one", name()));
}

EngineStatus KVEngine::PutIfAbsent(std::string_view /*key*/, std::string_view /*value*/,
                                   const WriteMode& /*mode*/, bool* /*inserted*/) {
  return NativeRmwSupport();
}

EngineStatus KVEngine::Increment(std::string_view /*key*/, int64_t /*delta*/,
                                 const WriteMode& /*mode*/, int64_t* /*result*/) {
  return NativeRmwSupport();
}

EngineStatus KVEngine::WaitForCompaction(std::string* /*how*/) {
  return EngineStatus::NotSupported(
      fmt::format("{} cannot tell whether compaction is pending", name()));
}

EngineStatus KVEngine::ReadModifyWrite(std::string_view /*key*/, const ModifyFunction& /*modify*/,
                                       const WriteMode& /*mode*/) {
  return NativeRmwSupport();
}

EngineStatus KVEngine::NewMemoryComponentDriver(
    std::unique_ptr<KVMemoryComponentDriver>* /*driver*/) {
  return EngineStatus::NotSupported(fmt::format(
      "memcomponent drives sluice's memory component directly; {} has no such interface", name()));
}

EngineStatus KVEngine::NewBufferProbe(std::unique_ptr<KVBufferProbe>* /*probe*/) {
  return EngineStatus::NotSupported(fmt::format(
      "the buffer_* benchmarks drive sluice's memory components directly; {} has no such "
      "interface",
      name()));
}

EngineStatus KVEngine::NewPersistJob(const std::string& /*dir*/,
                                     std::unique_ptr<KVPersistJob>* /*job*/) {
  return EngineStatus::NotSupported(
      fmt::format("persist drives sluice's flush code directly; {} has no such interface", name()));
}

}  // namespace sluice_bench
