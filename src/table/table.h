// table/table.h — reads an SST file written by TableBuilder.
//
// Open reads and verifies (checksums always on) the footer, index, metaindex, filter and
// properties blocks and keeps them in memory; data blocks are read on demand, through the block
// cache when TableOptions::block_cache is set. Cache keys are fixed64(cache id) +
// varint64(block offset), the id coming from Cache::NewId() at Open, so a reopened (or
// replaced) file never sees blocks cached for an earlier Table.
//
// Invariants: every problem with the file is reported as Corruption naming the file (and the
// block offset where one is involved); nothing a file contains can make the reader crash, read
// out of bounds, or return entries from a block whose checksum failed. A Table is immutable
// after Open: all its methods are const and safe to call from many threads at once. Iterators
// must not outlive their Table; each iterator is for one thread at a time.

#ifndef SLUICE_TABLE_TABLE_H_
#define SLUICE_TABLE_TABLE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/internal_iterator.h"
#include "base/range_tombstone.h"
#include "sluice/env.h"
#include "sluice/options.h"
#include "sluice/status.h"
#include "table/block.h"
#include "table/format.h"
#include "table/table_options.h"
#include "table/table_properties.h"

namespace sluice {

class Table {
 public:
  // Opens the SST file `file` of file_size bytes. fname is used only in error messages.
  static Status Open(const TableOptions& options, std::unique_ptr<RandomAccessFile> file,
                     uint64_t file_size, const std::string& fname, std::unique_ptr<Table>* table);

  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table();

  // Iterator over all entries (internal keys). Data blocks are read lazily; a block in the block
  // cache stays pinned while the iterator points into it. Honours options.verify_checksums and
  // options.fill_cache.
  std::unique_ptr<InternalIterator> NewIterator(const ReadOptions& options) const;

  // Point lookup. If the bloom filter excludes ExtractUserKey(internal_key), returns OK without
  // reading any data block. Otherwise reads the one data block the index designates and, if it
  // holds an entry >= internal_key, calls found(key, value) once with the first such entry. (If
  // that block has none, the first entry >= internal_key, in the next block, has a different
  // user key — index separators guarantee it — and found is not called.) Returns I/O errors and
  // Corruption. REQUIRES: internal_key is at least 8 bytes.
  Status InternalGet(const ReadOptions& options, const Slice& internal_key,
                     const std::function<void(const Slice& key, const Slice& value)>& found) const;
  // InternalGet for each of internal_keys[0..n), which must ascend: found(i, key, value) as
  // InternalGet's found for key i. The batch's filter probes are started together (their cache
  // misses overlap), and keys that fall in one data block read it (and seek the index) once.
  // Stops at the first error.
  using MultiFoundFn = std::function<void(size_t i, const Slice& key, const Slice& value)>;
  Status InternalMultiGet(const ReadOptions& options, const Slice* internal_keys, size_t n,
                          const MultiFoundFn& found) const;

  // False only if the bloom filter proves user_key is absent (true when there is no filter).
  bool KeyMayMatch(const Slice& user_key) const;

  // Approximate file offset where the data for internal_key begins (or would begin); keys past
  // the last one map to the end of the data blocks.
  uint64_t ApproximateOffsetOf(const Slice& internal_key) const;

  // Calls fn(separator, handle) for every index entry in order: the separator is an internal
  // key >= every key of the data block at handle and < every key of the next one. Returns
  // Corruption (naming the file) if an entry does not decode; fn is not called for it.
  Status ForEachIndexEntry(
      const std::function<void(const Slice& separator, const BlockHandle& handle)>& fn) const;

  const TableProperties& properties() const { return props_; }
  // The file's range tombstones, fragmented (null if it has none). Shared, so a reader may
  // keep them beyond the Table's life.
  const std::shared_ptr<const FragmentedRangeTombstones>& range_tombstones() const {
    return range_tombstones_;
  }
  const std::string& file_name() const { return fname_; }

  // Reads every block of the file (bypassing the cache), checks every checksum, parses every
  // data block and checks that keys are in order and agree with the index and properties.
  // Corruption names the file and the block offset.
  Status VerifyChecksums() const;

 private:
  Table(const TableOptions& options, std::unique_ptr<RandomAccessFile> file, uint64_t file_size,
        const std::string& fname);

  std::unique_ptr<InternalIterator> NewIndexIterator() const;
  // Iterator over the data block whose encoded handle is index_value.
  std::unique_ptr<InternalIterator> NewDataBlockIterator(const ReadOptions& options,
                                                         const Slice& index_value) const;
  Status DecodeIndexValue(const Slice& index_value, BlockHandle* handle) const;
  Status ReadMetaBlocks(const BlockHandle& metaindex_handle);

  const TableOptions options_;
  const std::unique_ptr<RandomAccessFile> file_;
  const uint64_t file_size_;
  const std::string fname_;
  uint64_t cache_id_ = 0;  // key prefix in options_.block_cache (0 when there is none)
  BlockHandle index_handle_;
  BlockHandle metaindex_handle_;
  std::unique_ptr<Block> index_block_;
  BlockHandle filter_handle_;
  BlockHandle properties_handle_;
  bool has_filter_ = false;
  std::string filter_;
  TableProperties props_;
  std::shared_ptr<const FragmentedRangeTombstones> range_tombstones_;
};

}  // namespace sluice

#endif  // SLUICE_TABLE_TABLE_H_
