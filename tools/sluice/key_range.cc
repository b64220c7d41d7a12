// tools/sluice/key_range.cc — walking a key range with one iterator (key_range.h).

#include "key_range.h"

#include <CLI/CLI.hpp>

namespace sluice::cli {

void AddRangeOptions(CLI::App* cmd, RangeArgs* args) {
  cmd->add_option("--from", args->from, "First key (inclusive)");
  cmd->add_option("--to", args->to, "End key (exclusive)");
  cmd->add_option("--prefix", args->prefix, "Only keys that start with this prefix");
}

Status ToKeyRange(const GlobalOptions& g, const RangeArgs& args, KeyRange* range) {
  std::string bytes;
  Status s;
  if (args.from && (s = ParseArgument(g, "--from", *args.from, &bytes)).ok()) range->from = bytes;
  if (s.ok() && args.to && (s = ParseArgument(g, "--to", *args.to, &bytes)).ok()) {
    range->to = bytes;
  }
  if (s.ok()) s = ParseArgument(g, "--prefix", args.prefix, &range->prefix);
  return s;
}

Status WalkRange(DB* db, ColumnFamilyHandle* family, const KeyRange& range,
                 const std::function<bool(const Slice& key, const Slice& value)>& fn) {
  std::optional<std::string> lower = range.from, upper = range.to;
  NarrowToPrefix(range.prefix, &lower, &upper);
  Slice lower_slice, upper_slice;
  ReadOptions options;
  if (lower) options.iterate_lower_bound = &(lower_slice = *lower);
  if (upper) options.iterate_upper_bound = &(upper_slice = *upper);
  std::unique_ptr<Iterator> it = db->NewIterator(options, family);
  uint64_t n = 0;
  for (range.reverse ? it->SeekToLast() : it->SeekToFirst(); it->Valid();
       range.reverse ? it->Prev() : it->Next()) {
    if (range.limit > 0 && n == range.limit) break;
    n++;
    if (!fn(it->key(), it->value())) break;
  }
  return it->status();
}

}  // namespace sluice::cli
