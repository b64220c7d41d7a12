// sluice_bench/sluice_only_options.cc — rows of the FloDB-only flags for other engines (see
// sluice_only_options.h).

#include "sluice_bench/sluice_only_options.h"

#include <fmt/format.h>

#include <string>

#include "sluice_bench/bench_flags.h"

namespace sluice_bench {

std::vector<OptionRow> SluiceOnlyOptionRows(const EngineOptions& r, std::string_view engine_label) {
  const EngineOptions d = DefaultBenchFlags().engine;
  auto row = [&](const char* name, bool changed, const char* component = "FloDB component") {
    return OptionRow{name, "n/a",
                     changed ? fmt::format("--{} applies to sluice's {} only; {} ignores it", name,
                                           component, engine_label)
                             : std::string()};
  };
  return {
      row("membuffer_fraction", r.membuffer_fraction != d.membuffer_fraction),
      row("membuffer_partition_bits", r.membuffer_partition_bits != d.membuffer_partition_bits),
      row("flodb_drain_threads", r.flodb_drain_threads != d.flodb_drain_threads),
      row("flodb_use_membuffer", r.flodb_use_membuffer != d.flodb_use_membuffer),
      row("flodb_multi_insert", r.flodb_multi_insert != d.flodb_multi_insert),
      row("prefix_length", r.prefix_length != d.prefix_length, "hash components"),
      row("bucket_count", r.bucket_count != d.bucket_count, "hash components"),
      row("level0_idle_compaction_ms", r.level0_idle_compaction_ms != d.level0_idle_compaction_ms,
          "compaction policy"),
      row("level0_scan_compaction", r.level0_scan_compaction != d.level0_scan_compaction,
          "compaction policy"),
      row("level0_backlog_flush_merge",
          r.level0_backlog_flush_merge != d.level0_backlog_flush_merge, "flush policy"),
      // Their L0 files are compressed like every other level.
      OptionRow{"level0_compression", std::string(CompressionName(r.compression)), ""},
  };
}

}  // namespace sluice_bench
