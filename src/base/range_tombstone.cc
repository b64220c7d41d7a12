// base/range_tombstone.cc — see range_tombstone.h.

#include "base/range_tombstone.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>

#include "util/coding.h"

namespace sluice {

FragmentedRangeTombstones::FragmentedRangeTombstones(
    const std::vector<RangeTombstone>& tombstones) {
  std::vector<const RangeTombstone*> sorted;
  std::vector<Slice> points;
  sorted.reserve(tombstones.size());
  points.reserve(tombstones.size() * 2);
  for (const RangeTombstone& t : tombstones) {
    if (Slice(t.begin).compare(Slice(t.end)) >= 0) continue;
    sorted.push_back(&t);
    points.emplace_back(t.begin);
    points.emplace_back(t.end);
  }
  if (sorted.empty()) return;
  std::sort(sorted.begin(), sorted.end(), [](const RangeTombstone* a, const RangeTombstone* b) {
    return Slice(a->begin).compare(Slice(b->begin)) < 0;
  });
  std::sort(points.begin(), points.end(), [](const Slice& a, const Slice& b) { return a < b; });
  points.erase(std::unique(points.begin(), points.end()), points.end());

  // Sweep the points left to right; `active` holds the tombstones covering [p_i, p_i+1).
  auto by_end = [](const RangeTombstone* a, const RangeTombstone* b) {
    return Slice(a->end).compare(Slice(b->end)) < 0;
  };
  std::multiset<const RangeTombstone*, decltype(by_end)> active(by_end);
  std::multiset<SequenceNumber> active_seqs;
  size_t next = 0;
  for (size_t i = 0; i + 1 < points.size(); i++) {
    const Slice p = points[i];
    while (!active.empty() && Slice((*active.begin())->end).compare(p) <= 0) {
      active_seqs.erase(active_seqs.find((*active.begin())->seq));
      active.erase(active.begin());
    }
    while (next < sorted.size() && Slice(sorted[next]->begin).compare(p) <= 0) {
      active.insert(sorted[next]);
      active_seqs.insert(sorted[next]->seq);
      next++;
    }
    if (active.empty()) continue;
    std::vector<SequenceNumber> seqs;
    for (auto it = active_seqs.rbegin(); it != active_seqs.rend(); ++it) {
      if (seqs.empty() || seqs.back() != *it) seqs.push_back(*it);
    }
    // A fragment that continues the previous one with the same tombstones extends it.
    if (!fragments_.empty() && Slice(fragments_.back().end) == p &&
        fragments_.back().seqs == seqs) {
      fragments_.back().end = points[i + 1].ToString();
      continue;
    }
    num_pairs_ += seqs.size();
    fragments_.push_back(Fragment{p.ToString(), points[i + 1].ToString(), std::move(seqs)});
  }
}

const FragmentedRangeTombstones::Fragment* FragmentedRangeTombstones::FindFragment(
    const Slice& user_key) const {
  // The last fragment with begin <= user_key.
  auto it = std::upper_bound(
      fragments_.begin(), fragments_.end(), user_key,
      [](const Slice& k, const Fragment& f) { return k.compare(Slice(f.begin)) < 0; });
  if (it == fragments_.begin()) return nullptr;
  --it;
  return user_key.compare(Slice(it->end)) < 0 ? &*it : nullptr;
}

std::vector<RangeTombstone> FragmentedRangeTombstones::ToTombstones() const {
  std::vector<RangeTombstone> out;
  out.reserve(num_pairs_);
  for (const Fragment& f : fragments_) {
    for (SequenceNumber t : f.seqs) out.push_back(RangeTombstone{f.begin, f.end, t});
  }
  return out;
}

std::shared_ptr<const FragmentedRangeTombstones> MergeRangeTombstones(
    const std::vector<std::shared_ptr<const FragmentedRangeTombstones>>& sources) {
  std::shared_ptr<const FragmentedRangeTombstones> only;
  size_t nonempty = 0;
  for (const auto& t : sources) {
    if (t == nullptr || t->empty()) continue;
    only = t;
    nonempty++;
  }
  if (nonempty <= 1) return only;
  std::vector<RangeTombstone> all;
  for (const auto& t : sources) {
    if (t == nullptr) continue;
    std::vector<RangeTombstone> part = t->ToTombstones();
    all.insert(all.end(), std::make_move_iterator(part.begin()),
               std::make_move_iterator(part.end()));
  }
  return std::make_shared<const FragmentedRangeTombstones>(all);
}

std::string EncodeRangeTombstones(const std::vector<RangeTombstone>& tombstones) {
  std::string out;
  PutVarint32(&out, static_cast<uint32_t>(tombstones.size()));
  for (const RangeTombstone& t : tombstones) {
    PutLengthPrefixedSlice(&out, t.begin);
    PutLengthPrefixedSlice(&out, t.end);
    PutFixed64(&out, t.seq);
  }
  return out;
}

Status DecodeRangeTombstones(const Slice& block, const std::string& what,
                             std::vector<RangeTombstone>* tombstones) {
  Slice in = block;
  uint32_t count = 0;
  if (!GetVarint32(&in, &count)) {
    return Status::Corruption(what, "range tombstone block: bad count");
  }
  // Each tombstone takes at least 10 bytes: a corrupt count must not reserve gigabytes.
  if (count > in.size() / 10) {
    return Status::Corruption(what, fmt::format("range tombstone block: count {} exceeds its {} "
                                                "bytes",
                                                count, in.size()));
  }
  tombstones->clear();
  tombstones->reserve(count);
  for (uint32_t i = 0; i < count; i++) {
    Slice begin, end;
    if (!GetLengthPrefixedSlice(&in, &begin) || !GetLengthPrefixedSlice(&in, &end) ||
        in.size() < 8) {
      return Status::Corruption(what, fmt::format("range tombstone {} is truncated", i));
    }
    const SequenceNumber seq = DecodeFixed64(in.data());
    in.remove_prefix(8);
    if (begin.compare(end) >= 0 || seq > kMaxSequenceNumber) {
      return Status::Corruption(what, fmt::format("range tombstone {} is empty or has a bad "
                                                  "sequence number",
                                                  i));
    }
    tombstones->push_back(RangeTombstone{begin.ToString(), end.ToString(), seq});
  }
  if (!in.empty()) {
    return Status::Corruption(what, "range tombstone block has trailing bytes");
  }
  return Status::OK();
}

}  // namespace sluice
