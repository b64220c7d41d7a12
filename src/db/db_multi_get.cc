// db/db_multi_get.cc — MultiGet: many point lookups that read one state and share their work.
//
// One read point for every key: the caller's snapshot, else one taken for the call as
// GetSnapshot takes it (registered first when the memory component replaces versions in
// place, so no version the call needs is replaced while it runs; a plain sequence number chosen
// after the trees are pinned otherwise). Then, inside one epoch section, family by family with
// one SuperVersion each: the distinct keys in key order through the memory components, and
// those they do not answer through Version::MultiGet, which opens each SST file once for its keys
// and reads each data block once for the keys it holds. A key that repeats is looked up once.

#include <algorithm>
#include <cassert>
#include <deque>
#include <numeric>

#include "db/db_impl.h"
#include "util/epoch.h"

namespace sluice {

std::vector<Status> DBImpl::MultiGet(const ReadOptions& options,
                                     const std::vector<ColumnFamilyHandle*>& families,
                                     const std::vector<Slice>& keys,
                                     std::vector<std::string>* values) {
  const size_t n = keys.size();
  values->assign(n, std::string());
  if (closed_.load(std::memory_order_acquire)) {
    return std::vector<Status>(n, Status::InvalidArgument(dbname_, "database is closed"));
  }
  if (families.size() != n) {
    return std::vector<Status>(
        n, Status::InvalidArgument("MultiGet", std::to_string(families.size()) +
                                                   " column family handles for " +
                                                   std::to_string(n) + " keys"));
  }
  std::vector<Status> statuses(n);
  // The keys to look up, by family then key (ties in call order: the first of equal keys
  // looks).
  std::vector<ColumnFamilyData*> cfds(n, nullptr);
  std::vector<size_t> order;
  order.reserve(n);
  for (size_t i = 0; i < n; i++) {
    Status s = FamilyOf(families[i], "MultiGet", &cfds[i]);
    if (!s.ok()) {
      statuses[i] = Status::InvalidArgument(s.message() + " for key " + std::to_string(i));
    } else {
      order.push_back(i);
    }
  }
  if (order.empty()) return statuses;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (cfds[a]->id != cfds[b]->id) return cfds[a]->id < cfds[b]->id;
    const int c = keys[a].compare(keys[b]);
    return c < 0 || (c == 0 && a < b);
  });
  auto repeat = [&](size_t k) {
    return k > 0 && cfds[order[k - 1]] == cfds[order[k]] && keys[order[k - 1]] == keys[order[k]];
  };
  DBStats::Add(&stats_.gets, order.size());
  DBStats::Add(&stats_.multi_gets, 1);

  const Snapshot* registration = nullptr;
  {
    epoch::Guard guard;
    // Every family's SuperVersion is pinned before the read point is chosen.
    struct Group {
      SuperVersion* sv;
      size_t begin, end;  // its keys: order[begin, end)
    };
    std::vector<Group> groups;
    SequenceNumber seq;
    for (;;) {
      groups.clear();
      bool in_place = false;
      for (size_t k = 0; k < order.size(); k++) {
        if (k == 0 || cfds[order[k]] != cfds[order[k - 1]]) {
          SuperVersion* sv = cfds[order[k]]->super_version.load(std::memory_order_acquire);
          in_place = in_place || sv->mem->component->ReplacesInPlace();
          groups.push_back({sv, k, k});
        }
        groups.back().end = k + 1;
      }
      if (options.snapshot != nullptr) {
        seq = options.snapshot->sequence();  // its writes completed before the loads above
        break;
      }
      if (in_place) {
        // As GetSnapshot: registered before the sequence number is chosen (SnapshotList).
        registration =
            snapshots_.CreateProtected([this] { return oracle_.SnapshotSequence(true); });
        seq = registration->sequence();
      } else {
        // Chosen after the SuperVersions are pinned (as NewIterator).
        seq = oracle_.SnapshotSequence(options_.linearizable_snapshots);
      }
      const bool covered = std::all_of(groups.begin(), groups.end(), [&](const Group& g) {
        return ReadPointCovered(cfds[order[g.begin]], g.sv);
      });
      if (covered) break;
      if (registration != nullptr) snapshots_.Release(registration);
      registration = nullptr;
    }

    for (const Group& g : groups) {
      SuperVersion* sv = g.sv;
      // The memory components first; the keys they do not answer go to the SST files. Their
      // first cache misses are started for the whole batch before the lookups.
      for (size_t k = g.begin; k < g.end; k++) {
        sv->mem->component->PrefetchForGet(keys[order[k]]);
        for (const auto& imm : sv->imms) imm->component->PrefetchForGet(keys[order[k]]);
      }
      std::deque<LookupKey> lookup_keys;  // stable addresses for the items' Slices
      std::vector<TableMultiLookup> items;
      std::vector<size_t> item_key;               // items[j] is for keys[item_key[j]]
      std::vector<SequenceNumber> item_covering;  // the memory components' tombstones for it
      for (size_t k = g.begin; k < g.end; k++) {
        const size_t i = order[k];
        if (repeat(k)) continue;  // copied below
        SequenceNumber read_seq = seq;
        SequenceNumber covering = 0;
        bool done = false;
        Status s = GetFromMemory(sv, keys[i], /*latest=*/false, &read_seq, &(*values)[i], nullptr,
                                 &done, &covering);
        if (done) {
          statuses[i] = std::move(s);
          continue;
        }
        lookup_keys.emplace_back(keys[i], seq);
        items.emplace_back();
        items.back().internal_key = lookup_keys.back().internal_key();
        item_key.push_back(i);
        item_covering.push_back(covering);
      }
      sv->version->MultiGet(options, table_cache_.get(), items.data(), items.size());
      for (size_t j = 0; j < items.size(); j++) {
        TableMultiLookup& item = items[j];
        const size_t i = item_key[j];
        if (item.status.ok() && item.found && item.result.type != kTypeDeletion) {
          item.status = sv->version->MaxCoveringTombstone(keys[i], seq, table_cache_.get(),
                                                          &item_covering[j]);
        }
        if (!item.status.ok()) {
          statuses[i] = std::move(item.status);
        } else if (!item.found || item.result.type == kTypeDeletion ||
                   item.result.sequence < item_covering[j]) {
          statuses[i] = Status::NotFound(Slice());
        } else {
          (*values)[i] = std::move(item.result.value);
        }
      }
    }
  }
  if (registration != nullptr) snapshots_.Release(registration);

  uint64_t hits = 0;
  for (size_t k = 0; k < order.size(); k++) {
    const size_t i = order[k];
    if (repeat(k)) {
      const size_t first = order[k - 1];  // already settled (order is sorted, ties ascending)
      statuses[i] = statuses[first];
      (*values)[i] = (*values)[first];
    }
    if (statuses[i].ok()) hits++;
  }
  DBStats::Add(&stats_.get_hits, hits);
  return statuses;
}

}  // namespace sluice
