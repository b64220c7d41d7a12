// sluice_bench/sluice_db_counters.h — the sluice database counters a benchmark reports besides
// FloDB's (flodb_counters.h): flushes, compactions and their bytes (the text of
// DB::GetProperty("sluice.io-counters"), name=value pairs) and the representations the
// "adaptive" memory component chose (the lines of "sluice.memtable-choices", counted per
// representation). Counters are cumulative; a benchmark reports the difference of two readings.
// The choices property keeps the last AdaptivePolicy::kHistory (64) decisions, so a benchmark
// that creates more components than that reports the choices among the last 64 only.

#ifndef SLUICE_BENCH_SLUICE_DB_COUNTERS_H_
#define SLUICE_BENCH_SLUICE_DB_COUNTERS_H_

#include <string>
#include <string_view>

#include "sluice_bench/metrics.h"

namespace sluice_bench {

// "flushes=3 flush_bytes=..." as metrics named "io.flushes", ... (unparsable pairs skipped).
Metrics ParseIoCountersText(std::string_view text);
// The memtable-choices lines ("#N name: ...") as metrics "adaptive.<name>": components per
// representation.
Metrics ParseMemtableChoicesText(std::string_view text);

// The change from `before` to `after`: a note such as "[io: 7 flushes (105.2 MB), 3 compactions
// (read 80.1 MB, wrote 79.9 MB)] [adaptive: 1 skiplist, 6 vector]" ("" when nothing changed),
// and the metrics flushes, flush_bytes, compactions, compaction_bytes_read,
// compaction_bytes_written and adaptive_<name> appended to *metrics.
std::string DescribeSluiceDBCounters(const Metrics& before, const Metrics& after, Metrics* metrics);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_SLUICE_DB_COUNTERS_H_
