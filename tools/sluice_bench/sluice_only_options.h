// sluice_bench/sluice_only_options.h — the options-table rows of the flags only sluice
// understands (its FloDB memory component's), for the columns of the other engines.
//
// RocksDB and LevelDB have no Membuffer: they ignore --membuffer_fraction,
// --membuffer_partition_bits, --flodb_drain_threads, --flodb_use_membuffer and
// --flodb_multi_insert; nor sluice's idle L0 compaction (--level0_idle_compaction_ms). Their
// rows say "n/a", with a note (printed under the table) when the flag was changed from sluice's
// default, i.e. when the run is about that flag. Their level0_compression row shows the codec
// their L0 files really get: --compression_type, as every level.

#ifndef SLUICE_BENCH_SLUICE_ONLY_OPTIONS_H_
#define SLUICE_BENCH_SLUICE_ONLY_OPTIONS_H_

#include <string_view>
#include <vector>

#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

// engine_label: e.g. "RocksDB", used in the notes.
std::vector<OptionRow> SluiceOnlyOptionRows(const EngineOptions& requested,
                                            std::string_view engine_label);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_SLUICE_ONLY_OPTIONS_H_
