// sluice_stress/family_layout.h — how the stress driver spreads its keys over column families:
// key k lives in family k % N (N = --column_families), so multi-key batches and range deletions
// span families, and recovery must bring back every family's part of a batch or none.
//
// Reads that cover a key range (iterators) go through NewIterator, which merges one iterator
// per family, all at the caller's snapshot, into one key-ordered view of the whole key space
// (the families' keys are disjoint, so the merge never sees a key twice).

#ifndef SLUICE_TOOLS_SLUICE_STRESS_FAMILY_LAYOUT_H_
#define SLUICE_TOOLS_SLUICE_STRESS_FAMILY_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/db.h"

namespace sluice::stress {

class FamilyLayout {
 public:
  // Opens path with `families` column families (1: the default one only): the default family
  // on db_options.memtable, the others alternating between other memory components. Missing
  // families are created.
  static Status Open(const Options& db_options, const std::string& path, int families,
                     std::unique_ptr<DB>* db, FamilyLayout* layout);

  ColumnFamilyHandle* For(uint32_t key) const { return handles_[key % handles_.size()]; }
  const std::vector<ColumnFamilyHandle*>& handles() const { return handles_; }
  // An iterator over every family at once (a plain one when there is one family).
  std::unique_ptr<Iterator> NewIterator(DB* db, const ReadOptions& ro) const;

 private:
  std::vector<ColumnFamilyHandle*> handles_;
};

}  // namespace sluice::stress

#endif  // SLUICE_TOOLS_SLUICE_STRESS_FAMILY_LAYOUT_H_
