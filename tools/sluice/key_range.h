// tools/sluice/key_range.h — the key range `scan` and `dump` walk: [from, to) intersected with
// the keys that start with prefix, forwards or backwards, at most limit entries. Walking takes
// one iterator, so the entries form one consistent state of the database.

#ifndef SLUICE_TOOLS_SLUICE_KEY_RANGE_H_
#define SLUICE_TOOLS_SLUICE_KEY_RANGE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cli_common.h"
#include "sluice/db.h"

namespace CLI {
class App;
}

namespace sluice::cli {

struct KeyRange {
  std::optional<std::string> from;  // first key (inclusive)
  std::optional<std::string> to;    // end (exclusive)
  std::string prefix;               // only keys that start with it ("" = all)
  uint64_t limit = 0;               // 0 = no limit
  bool reverse = false;
};

// --from, --to and --prefix as given on the command line (literal, or hex with --hex).
struct RangeArgs {
  std::optional<std::string> from, to;
  std::string prefix;
};
void AddRangeOptions(CLI::App* cmd, RangeArgs* args);
// The range args describe; InvalidArgument naming the option if one is bad hex.
Status ToKeyRange(const GlobalOptions& g, const RangeArgs& args, KeyRange* range);

// Calls fn(key, value) for each entry of range in order until fn returns false. Returns the
// iterator's status (Corruption or IOError if a file could not be read).
Status WalkRange(DB* db, ColumnFamilyHandle* family, const KeyRange& range,
                 const std::function<bool(const Slice& key, const Slice& value)>& fn);

}  // namespace sluice::cli

#endif  // SLUICE_TOOLS_SLUICE_KEY_RANGE_H_
