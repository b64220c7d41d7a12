// table/table_options.h — the options shared by TableBuilder and Table.
//
// A table must be read with the same comparator it was written with; the other build options
// (block size, restart interval, compression, bloom bits) are recorded in the file itself and
// need not match when reading.

#ifndef SLUICE_TABLE_TABLE_OPTIONS_H_
#define SLUICE_TABLE_TABLE_OPTIONS_H_

#include <cstddef>

#include "base/internal_key.h"
#include "sluice/options.h"
#include "util/cache.h"
#include "util/comparator.h"

namespace sluice {

struct TableOptions {
  // Order of the keys, which are internal keys (user key + 8-byte trailer).
  const Comparator* comparator = DefaultInternalKeyComparator();
  // Uncompressed bytes at which a data block is cut.
  size_t block_size = 4096;
  // Entries between restart points in data blocks.
  int block_restart_interval = 16;
  // Bits per key of the file's bloom filter over user keys; 0 = no filter.
  int bloom_bits_per_key = 10;
  CompressionType compression = CompressionType::kSnappy;
  // Cache of uncompressed data blocks; not owned; nullptr = no caching.
  Cache* block_cache = nullptr;
  // Verify the checksum of every data block read (blocks loaded into the block cache and the
  // blocks read by Table::Open are always verified).
  bool paranoid_checks = true;
  // Open table files through a memory mapping (Env::NewMappedRandomAccessFile; read by the
  // TableCache): uncompressed blocks are then read in place.
  bool mmap_reads = false;
};

// The table options of a database opened with `options`: its block size, restart interval,
// bloom bits, compression, checksum policy and mmap reads, reading through block_cache (may be
// null).
inline TableOptions TableOptionsFor(const Options& options, Cache* block_cache) {
  TableOptions t;
  t.block_size = options.block_size;
  t.block_restart_interval = options.block_restart_interval;
  t.bloom_bits_per_key = options.bloom_bits_per_key;
  t.compression = options.compression;
  t.paranoid_checks = options.paranoid_checks;
  t.mmap_reads = options.allow_mmap_reads;
  t.block_cache = block_cache;
  return t;
}

}  // namespace sluice

#endif  // SLUICE_TABLE_TABLE_OPTIONS_H_
