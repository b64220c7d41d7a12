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

Status WalkRange(DB* db, const KeyRange& range,
                 const std::function<bool(const Slice& key, const Slice& value)>& fn) {
  // Bounds: the tighter of [from, to) and [prefix, PrefixSuccessor(prefix)).
  std::optional<std::string> lower = range.from, upper = range.to;
  if (!range.prefix.empty()) {
    if (!lower || *lower < range.prefix) lower = range.prefix;
    const std::optional<std::string> prefix_end = PrefixSuccessor(range.prefix);
    if (prefix_end && (!upper || *prefix_end < *upper)) upper = prefix_end;
  }
  auto in_range = [&](const Slice& k) {
    if (lower && k.compare(Slice(*lower)) < 0) return false;
    if (upper && k.compare(Slice(*upper)) >= 0) return false;
    return true;
  };

  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  if (!range.reverse) {
    lower ? it->Seek(*lower) : it->SeekToFirst();
  } else if (upper) {
    it->SeekForPrev(*upper);
    if (it->Valid() && it->key().compare(Slice(*upper)) >= 0) it->Prev();  // `to` is exclusive
  } else {
    it->SeekToLast();
  }
  uint64_t n = 0;
  for (; it->Valid() && in_range(it->key()); range.reverse ? it->Prev() : it->Next()) {
    if (range.limit > 0 && n == range.limit) break;
    n++;
    if (!fn(it->key(), it->value())) break;
  }
  return it->status();
}

}  // namespace sluice::cli
