// table/table.cc — the SST reader (see table.h).

#include "table/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "base/internal_key.h"
#include "table/bloom.h"
#include "table/two_level_iterator.h"
#include "util/coding.h"
#include "util/comparator.h"

namespace sluice {

namespace {

// Cache key: fixed64 cache id + varint64 block offset.
constexpr size_t kMaxCacheKeySize = 8 + 10;

// The block cache owns Blocks through this type-erased deleter.
void DeleteCachedBlock(const Slice& /*key*/, void* value) { delete static_cast<Block*>(value); }

}  // namespace

Table::Table(const TableOptions& options, std::unique_ptr<RandomAccessFile> file,
             uint64_t file_size, const std::string& fname)
    : options_(options), file_(std::move(file)), file_size_(file_size), fname_(fname) {}

Table::~Table() = default;

Status Table::Open(const TableOptions& options, std::unique_ptr<RandomAccessFile> file,
                   uint64_t file_size, const std::string& fname, std::unique_ptr<Table>* table) {
  table->reset();
  if (file_size < Footer::kEncodedLength) {
    return Status::Corruption(fmt::format("file too short to be an SST file ({} bytes)", file_size),
                              fname);
  }
  char footer_buf[Footer::kEncodedLength];
  Slice footer_input;
  Status s = file->Read(file_size - Footer::kEncodedLength, Footer::kEncodedLength, &footer_input,
                        footer_buf);
  if (!s.ok()) return s;
  if (footer_input.size() != Footer::kEncodedLength) {
    return Status::Corruption(fmt::format("truncated footer read ({} of {} bytes)",
                                          footer_input.size(), Footer::kEncodedLength),
                              fname);
  }
  Footer footer;
  s = footer.DecodeFrom(footer_input, fname);
  if (!s.ok()) return s;

  std::unique_ptr<Table> t(new Table(options, std::move(file), file_size, fname));
  t->index_handle_ = footer.index_handle;
  t->metaindex_handle_ = footer.metaindex_handle;
  BlockContents contents;
  s = ReadBlock(t->file_.get(), fname, file_size, BlockReadOptions(), footer.index_handle,
                &contents);
  if (!s.ok()) return s;
  // Internal keys over bytewise user keys (the default): a Get's index seek reads the restart
  // prefixes instead of ~log2(blocks) cold restart keys.
  const auto* icmp = dynamic_cast<const InternalKeyComparator*>(options.comparator);
  const bool prefixes = icmp != nullptr && icmp->user_comparator() == BytewiseComparator();
  t->index_block_ = std::make_unique<Block>(std::move(contents), prefixes);
  if (!t->index_block_->ok()) return t->NewIndexIterator()->status();
  s = t->ReadMetaBlocks(footer.metaindex_handle);
  if (!s.ok()) return s;
  if (options.block_cache != nullptr) t->cache_id_ = options.block_cache->NewId();
  *table = std::move(t);
  return Status::OK();
}

Status Table::ReadMetaBlocks(const BlockHandle& metaindex_handle) {
  BlockContents contents;
  Status s =
      ReadBlock(file_.get(), fname_, file_size_, BlockReadOptions(), metaindex_handle, &contents);
  if (!s.ok()) return s;
  const Block metaindex(std::move(contents));
  auto it = metaindex.NewIterator(BytewiseComparator(), fname_, metaindex_handle.offset);
  // Finds the handle stored under name; *present tells whether there is one.
  auto find = [&](const char* name, BlockHandle* handle, bool* present) {
    *present = false;
    it->Seek(name);
    if (!it->Valid() || it->key() != Slice(name)) return it->status();
    Slice value = it->value();
    if (!handle->DecodeFrom(&value).ok() || !value.empty()) {
      return Status::Corruption(fmt::format("bad {} handle in metaindex block at offset {}", name,
                                            metaindex_handle.offset),
                                fname_);
    }
    *present = true;
    return Status::OK();
  };
  s = find(kFilterBlockName, &filter_handle_, &has_filter_);
  if (!s.ok()) return s;
  bool has_properties = false;
  s = find(kPropertiesBlockName, &properties_handle_, &has_properties);
  if (!s.ok()) return s;
  if (!has_properties) {
    return Status::Corruption(
        fmt::format("no properties block in metaindex block at offset {}", metaindex_handle.offset),
        fname_);
  }

  if (has_filter_) {
    s = ReadBlock(file_.get(), fname_, file_size_, BlockReadOptions(), filter_handle_, &contents);
    if (!s.ok()) return s;
    filter_ = contents.data.ToString();
  }
  s = ReadBlock(file_.get(), fname_, file_size_, BlockReadOptions(), properties_handle_, &contents);
  if (!s.ok()) return s;
  const Block properties(std::move(contents));
  s = DecodeTableProperties(properties, fname_, properties_handle_.offset, &props_);
  if (!s.ok()) return s;

  BlockHandle rangedel_handle;
  bool has_rangedel = false;
  s = find(kRangeDelBlockName, &rangedel_handle, &has_rangedel);
  if (!s.ok() || !has_rangedel) return s;
  s = ReadBlock(file_.get(), fname_, file_size_, BlockReadOptions(), rangedel_handle, &contents);
  if (!s.ok()) return s;
  std::vector<RangeTombstone> tombstones;
  s = DecodeRangeTombstones(contents.data, fname_, &tombstones);
  if (!s.ok()) return s;
  if (tombstones.size() != props_.num_range_deletions) {
    return Status::Corruption(
        fmt::format("rangedel block at offset {} holds {} tombstones, properties say {}",
                    rangedel_handle.offset, tombstones.size(), props_.num_range_deletions),
        fname_);
  }
  range_tombstones_ = std::make_shared<const FragmentedRangeTombstones>(tombstones);
  return Status::OK();
}

std::unique_ptr<InternalIterator> Table::NewIndexIterator() const {
  return index_block_->NewIterator(options_.comparator, fname_, index_handle_.offset,
                                   kMinInternalKeySize);
}

Status Table::DecodeIndexValue(const Slice& index_value, BlockHandle* handle) const {
  Slice input = index_value;
  if (!handle->DecodeFrom(&input).ok() || !input.empty()) {
    return Status::Corruption(
        fmt::format("bad block handle in index block at offset {}", index_handle_.offset), fname_);
  }
  return Status::OK();
}

Status Table::ForEachIndexEntry(
    const std::function<void(const Slice& separator, const BlockHandle& handle)>& fn) const {
  std::unique_ptr<InternalIterator> it = NewIndexIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    BlockHandle handle;
    Status s = DecodeIndexValue(it->value(), &handle);
    if (!s.ok()) return s;
    fn(it->key(), handle);
  }
  return it->status();
}

std::unique_ptr<InternalIterator> Table::NewDataBlockIterator(const ReadOptions& options,
                                                              const Slice& index_value) const {
  BlockHandle handle;
  Status s = DecodeIndexValue(index_value, &handle);
  if (!s.ok()) return NewErrorIterator(s);

  Cache* const cache = options_.block_cache;
  char cache_key_buf[kMaxCacheKeySize];
  Slice cache_key;
  Cache::Handle* cache_handle = nullptr;
  if (cache != nullptr) {
    EncodeFixed64(cache_key_buf, cache_id_);
    const char* end = EncodeVarint64(cache_key_buf + 8, handle.offset);
    cache_key = Slice(cache_key_buf, static_cast<size_t>(end - cache_key_buf));
    cache_handle = cache->Lookup(cache_key);
  }
  if (cache_handle == nullptr) {
    const bool fill_cache = cache != nullptr && options.fill_cache;
    BlockReadOptions read_options;
    read_options.verify_checksums =
        fill_cache || options.verify_checksums || options_.paranoid_checks;
    // A read that fills no cache (a compaction's) is a bulk one: not through the mapping.
    read_options.read_once = !options.fill_cache;
    BlockContents contents;
    s = ReadBlock(file_.get(), fname_, file_size_, read_options, handle, &contents);
    if (!s.ok()) return NewErrorIterator(s);
    // A view (of a file that ReturnsViews) stays out of the cache, which may outlive this
    // table (reading it again is as cheap as a cache hit); the iterator, within the table's
    // life, owns it.
    const bool view = contents.is_view();
    auto block = std::make_unique<Block>(std::move(contents));
    if (!fill_cache || view || !block->ok()) {
      // The iterator owns the block.
      std::shared_ptr<const Block> owned(std::move(block));
      auto it = owned->NewIterator(options_.comparator, fname_, handle.offset, kMinInternalKeySize);
      it->RegisterCleanup([owned] {});
      return it;
    }
    const size_t charge = block->size() + sizeof(Block);
    cache_handle = cache->Insert(cache_key, block.release(), charge, &DeleteCachedBlock);
  }
  // The iterator pins the cached block until it is destroyed.
  const auto* block = static_cast<const Block*>(cache->Value(cache_handle));
  auto it = block->NewIterator(options_.comparator, fname_, handle.offset, kMinInternalKeySize);
  it->RegisterCleanup([cache, cache_handle] { cache->Release(cache_handle); });
  return it;
}

std::unique_ptr<InternalIterator> Table::NewIterator(const ReadOptions& options) const {
  return NewTwoLevelIterator(NewIndexIterator(), [this, options](const Slice& index_value) {
    return NewDataBlockIterator(options, index_value);
  });
}

bool Table::KeyMayMatch(const Slice& user_key) const {
  return !has_filter_ || BloomFilterMayMatch(filter_, user_key);
}

Status Table::InternalGet(
    const ReadOptions& options, const Slice& internal_key,
    const std::function<void(const Slice& key, const Slice& value)>& found) const {
  // Get's path: one key, no batch to share (InternalMultiGet's loop, without its indirection).
  if (!KeyMayMatch(ExtractUserKey(internal_key))) return Status::OK();
  auto index_iter = NewIndexIterator();
  index_iter->Seek(internal_key);
  if (!index_iter->Valid()) return index_iter->status();
  auto block_iter = NewDataBlockIterator(options, index_iter->value());
  block_iter->Seek(internal_key);
  if (block_iter->Valid()) found(block_iter->key(), block_iter->value());
  return block_iter->status();
}

Status Table::InternalMultiGet(const ReadOptions& options, const Slice* internal_keys, size_t n,
                               const MultiFoundFn& found) const {
  const Comparator* icmp = options_.comparator;
  // The filter probes of a batch are cache misses (k spread over the filter per key): started
  // together, they overlap.
  if (n > 1 && has_filter_) {
    for (size_t i = 0; i < n; i++) BloomFilterPrefetch(filter_, ExtractUserKey(internal_keys[i]));
  }
  std::unique_ptr<InternalIterator> index_iter;
  // The data block index_iter points at, read for an earlier key.
  std::unique_ptr<InternalIterator> block_iter;
  for (size_t i = 0; i < n; i++) {
    const Slice& ikey = internal_keys[i];
    assert(i == 0 || icmp->Compare(internal_keys[i - 1], ikey) < 0);
    if (!KeyMayMatch(ExtractUserKey(ikey))) continue;
    // The block read last holds every key up to its separator (index_iter's key), and the keys
    // ascend: a key not past the separator is in that block.
    if (block_iter == nullptr || icmp->Compare(ikey, index_iter->key()) > 0) {
      if (index_iter == nullptr) index_iter = NewIndexIterator();
      index_iter->Seek(ikey);
      // Past the last block: so is every later key.
      if (!index_iter->Valid()) return index_iter->status();
      block_iter = NewDataBlockIterator(options, index_iter->value());
    }
    block_iter->Seek(ikey);
    if (block_iter->Valid()) found(i, block_iter->key(), block_iter->value());
    if (!block_iter->status().ok()) return block_iter->status();
  }
  return Status::OK();
}

uint64_t Table::ApproximateOffsetOf(const Slice& internal_key) const {
  const uint64_t data_end = std::min(props_.data_size, file_size_);
  auto index_iter = NewIndexIterator();
  index_iter->Seek(internal_key);
  BlockHandle handle;
  if (index_iter->Valid() && DecodeIndexValue(index_iter->value(), &handle).ok()) {
    return std::min(handle.offset, data_end);
  }
  return data_end;
}

Status Table::VerifyChecksums() const {
  const BlockReadOptions verify;  // checksums on
  BlockContents contents;
  for (const BlockHandle* h : {&metaindex_handle_, &index_handle_, &properties_handle_}) {
    Status s = ReadBlock(file_.get(), fname_, file_size_, verify, *h, &contents);
    if (!s.ok()) return s;
  }
  if (has_filter_) {
    Status s = ReadBlock(file_.get(), fname_, file_size_, verify, filter_handle_, &contents);
    if (!s.ok()) return s;
  }

  const Comparator* cmp = options_.comparator;
  std::string prev_key;
  bool have_prev = false;
  uint64_t entries = 0, blocks = 0, data_bytes = 0;
  auto index_iter = NewIndexIterator();
  for (index_iter->SeekToFirst(); index_iter->Valid(); index_iter->Next()) {
    BlockHandle handle;
    Status s = DecodeIndexValue(index_iter->value(), &handle);
    if (!s.ok()) return s;
    s = ReadBlock(file_.get(), fname_, file_size_, verify, handle, &contents);
    if (!s.ok()) return s;
    const Block block(std::move(contents));
    auto it = block.NewIterator(cmp, fname_, handle.offset, kMinInternalKeySize);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (have_prev && cmp->Compare(prev_key, it->key()) >= 0) {
        return Status::Corruption(
            fmt::format("keys out of order in block at offset {}", handle.offset), fname_);
      }
      prev_key.assign(it->key().data(), it->key().size());
      have_prev = true;
      entries++;
    }
    if (!it->status().ok()) return it->status();
    if (have_prev && cmp->Compare(prev_key, index_iter->key()) > 0) {
      return Status::Corruption(
          fmt::format("index key below the last key of block at offset {}", handle.offset), fname_);
    }
    blocks++;
    data_bytes += handle.size + kBlockTrailerSize;
  }
  if (!index_iter->status().ok()) return index_iter->status();
  if (entries != props_.num_entries || blocks != props_.num_data_blocks ||
      data_bytes != props_.data_size) {
    return Status::Corruption(
        fmt::format("properties ({} entries, {} data blocks, {} data bytes) disagree with the "
                    "data blocks ({}, {}, {})",
                    props_.num_entries, props_.num_data_blocks, props_.data_size, entries, blocks,
                    data_bytes),
        fname_);
  }
  return Status::OK();
}

}  // namespace sluice
