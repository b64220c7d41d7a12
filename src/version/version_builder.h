// version/version_builder.h — applies a sequence of edits to a base version and produces the
// resulting version, checking the level invariants (see version.h) on the way: a file added to
// a level >= 1 that overlaps another file of that level, or the removal of a file that is not
// there, is Corruption (a MANIFEST inconsistent with itself). Within one edit, the objects of
// removed files are released only after the added ones exist, so a file the edit moves to
// another level never has its count drop to zero (see FileRegistry).

#ifndef SLUICE_VERSION_VERSION_BUILDER_H_
#define SLUICE_VERSION_VERSION_BUILDER_H_

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "version/file_metadata.h"
#include "version/version.h"
#include "version/version_edit.h"

namespace sluice {

class VersionBuilder {
 public:
  VersionBuilder(const Version& base, FileRegistry* registry);

  Status Apply(const VersionEdit& edit);
  // The version with every applied edit; Corruption if a level invariant is broken.
  Status Build(std::shared_ptr<Version>* result) const;

 private:
  FileRegistry* const registry_;
  // Per level: the files by number. Starts as the base's files.
  std::vector<std::map<uint64_t, std::shared_ptr<FileMetaData>>> levels_;
};

}  // namespace sluice

#endif  // SLUICE_VERSION_VERSION_BUILDER_H_
