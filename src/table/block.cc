// table/block.cc — block parsing and iteration (see block.h).
//
// The iterator keeps `current_`, the offset of the current entry (== restarts_ when not valid),
// `restart_index_`, the last restart point at or before current_, and the fully reassembled
// current key. Next decodes the following entry; Seek binary-searches the restart points (whose
// keys are stored whole) and then scans forward. Prev must decode forward from the nearest
// restart point before the current entry (prefix compression runs only forward), so it keeps
// the entries it decoded on the way, keys reassembled, in `reverse_`: the following Prevs inside
// the same restart interval step back through them without decoding again. `reverse_` holds a
// run of consecutive entries starting at a restart point, all inside one restart interval; since
// the block is immutable it stays true, and it is used only while current_ is one of them.

#include "table/block.h"

#include <fmt/format.h>

#include <cassert>
#include <limits>
#include <vector>

#include "base/internal_key.h"
#include "util/coding.h"

namespace sluice {

Block::Block(BlockContents contents) : contents_(std::move(contents)) {
  const char* const data = contents_.data.data();
  const size_t n = contents_.data.size();
  if (n < sizeof(uint32_t)) {
    error_ = fmt::format("block too short ({} bytes)", n);
    return;
  }
  if (n > std::numeric_limits<uint32_t>::max()) {
    error_ = fmt::format("block too large ({} bytes)", n);
    return;
  }
  const uint32_t num = DecodeFixed32(data + n - sizeof(uint32_t));
  const size_t max_restarts = (n - sizeof(uint32_t)) / sizeof(uint32_t);
  if (num == 0 || num > max_restarts) {
    error_ = fmt::format("bad restart count {} (block of {} bytes)", num, n);
    return;
  }
  const auto restart_offset = static_cast<uint32_t>(n - (size_t{num} + 1) * sizeof(uint32_t));
  uint32_t prev = 0;
  for (uint32_t i = 0; i < num; i++) {
    const uint32_t r = DecodeFixed32(data + restart_offset + i * sizeof(uint32_t));
    const bool in_range = r < restart_offset || (restart_offset == 0 && num == 1 && r == 0);
    const bool in_order = i == 0 ? r == 0 : r > prev;
    if (!in_range || !in_order) {
      error_ =
          fmt::format("bad restart point {} (offset {}, entries end at {})", i, r, restart_offset);
      return;
    }
    prev = r;
  }
  restart_offset_ = restart_offset;
  num_restarts_ = num;
}

namespace {

// Decodes the three varint32 header fields of the entry at p (entries end at limit) and
// checks that its key delta and value fit before limit. Returns the start of the key delta, or
// nullptr if the entry is malformed.
const char* DecodeEntry(const char* p, const char* limit, uint32_t* shared, uint32_t* non_shared,
                        uint32_t* value_len) {
  if (limit - p < 3) return nullptr;
  *shared = static_cast<unsigned char>(p[0]);
  *non_shared = static_cast<unsigned char>(p[1]);
  *value_len = static_cast<unsigned char>(p[2]);
  if ((*shared | *non_shared | *value_len) < 128) {
    p += 3;  // the common case: three one-byte varints
  } else {
    if ((p = GetVarint32Ptr(p, limit, shared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, non_shared)) == nullptr) return nullptr;
    if ((p = GetVarint32Ptr(p, limit, value_len)) == nullptr) return nullptr;
  }
  if (static_cast<uint64_t>(limit - p) < uint64_t{*non_shared} + *value_len) return nullptr;
  return p;
}

class BlockIter final : public InternalIterator {
 public:
  BlockIter(const Comparator* comparator, const char* data, uint32_t restarts,
            uint32_t num_restarts, const std::string& fname, uint64_t block_offset,
            size_t min_key_size, const RestartPrefixes* prefixes)
      : comparator_(comparator),
        icmp_(dynamic_cast<const InternalKeyComparator*>(comparator)),
        // The prefixes order keys as bytewise user keys: only that order may use them.
        prefixes_(icmp_ != nullptr && icmp_->user_comparator() == BytewiseComparator() ? prefixes
                                                                                       : nullptr),
        data_(data),
        restarts_(restarts),
        num_restarts_(num_restarts),
        current_(restarts),
        restart_index_(num_restarts),
        fname_(&fname),
        block_offset_(block_offset),
        min_key_size_(min_key_size) {}

  bool Valid() const override { return current_ < restarts_; }
  Status status() const override { return status_; }
  Slice key() const override {
    assert(Valid());
    return key_;
  }
  Slice value() const override {
    assert(Valid());
    return value_;
  }

  void Next() override {
    assert(Valid());
    ParseNextKey();
  }

  void Prev() override {
    assert(Valid());
    const uint32_t original = current_;
    if (reverse_pos_ > 0 && reverse_pos_ < reverse_.size() &&
        reverse_[reverse_pos_].offset == original) {
      // The entry before the current one was decoded by the Prev that filled reverse_.
      const ReverseEntry& e = reverse_[--reverse_pos_];
      current_ = e.offset;
      key_.assign(reverse_keys_, e.key_start, e.key_size);
      value_ = e.value;
      return;
    }
    while (RestartPoint(restart_index_) >= original) {
      if (restart_index_ == 0) {
        MarkInvalid();  // original was the first entry
        return;
      }
      restart_index_--;
    }
    SeekToRestartPoint(restart_index_);
    reverse_.clear();
    reverse_keys_.clear();
    do {
      if (!ParseNextKey()) return;
      reverse_.push_back(ReverseEntry{current_, static_cast<uint32_t>(reverse_keys_.size()),
                                      static_cast<uint32_t>(key_.size()), value_});
      reverse_keys_.append(key_);
    } while (NextEntryOffset() < original);
    if (NextEntryOffset() != original) {
      reverse_.clear();
      Corrupt(fmt::format("entry at offset {} does not end where the next begins", current_));
      return;
    }
    reverse_pos_ = reverse_.size() - 1;  // the current entry
  }

  void Seek(const Slice& target) override {
    if (!status_.ok()) return;
    // Last restart point whose key is < target (or the first one).
    uint32_t left = 0;
    uint32_t right = num_restarts_ - 1;
    if (prefixes_ != nullptr && target.size() >= kMinInternalKeySize) {
      // Restart keys before lo are below target and those from hi on above it, so the last
      // one below target is lo - 1 or one of [lo, hi - 1]: usually lo == hi, and no key is read.
      uint32_t lo, hi;
      prefixes_->Bounds(ExtractUserKey(target), &lo, &hi);
      left = lo == 0 ? 0 : lo - 1;
      right = hi == 0 ? 0 : hi - 1;
    }
    while (left < right) {
      const uint32_t mid = left + (right - left + 1) / 2;
      Slice mid_key;
      if (!RestartKey(mid, &mid_key)) return;
      if (Compare(mid_key, target) < 0) {
        left = mid;
      } else {
        right = mid - 1;
      }
    }
    SeekToRestartPoint(left);
    while (ParseNextKey()) {
      if (Compare(key_, target) >= 0) return;
    }
  }

  void SeekToFirst() override {
    if (!status_.ok()) return;
    SeekToRestartPoint(0);
    ParseNextKey();
  }

  void SeekToLast() override {
    if (!status_.ok()) return;
    SeekToRestartPoint(num_restarts_ - 1);
    while (ParseNextKey() && NextEntryOffset() < restarts_) {
    }
  }

 private:
  // With an internal-key comparator (data and index blocks), a direct call.
  int Compare(const Slice& a, const Slice& b) const {
    return icmp_ != nullptr ? icmp_->Compare(a, b) : comparator_->Compare(a, b);
  }

  uint32_t RestartPoint(uint32_t index) const {
    assert(index < num_restarts_);
    return DecodeFixed32(data_ + restarts_ + index * sizeof(uint32_t));
  }

  // Offset just past the current entry (after SeekToRestartPoint: the restart point).
  uint32_t NextEntryOffset() const {
    return static_cast<uint32_t>(value_.data() + value_.size() - data_);
  }

  void SeekToRestartPoint(uint32_t index) {
    key_.clear();
    restart_index_ = index;
    value_ = Slice(data_ + RestartPoint(index), 0);
  }

  // The key stored whole at restart point `index`; false (with status_ set) if malformed.
  bool RestartKey(uint32_t index, Slice* key) {
    const uint32_t offset = RestartPoint(index);
    uint32_t shared, non_shared, value_len;
    const char* p =
        DecodeEntry(data_ + offset, data_ + restarts_, &shared, &non_shared, &value_len);
    if (p == nullptr || shared != 0 || non_shared < min_key_size_) {
      Corrupt(fmt::format("malformed entry at restart point {} (offset {})", index, offset));
      return false;
    }
    *key = Slice(p, non_shared);
    return true;
  }

  // Moves to the entry after the current one. Returns false at the end of the block or on
  // corruption (status_ then set); the iterator is then not valid. Checks the restart points it
  // passes: each must be the start of an entry, and that entry must share nothing with the one
  // before. So forward iteration accepts exactly what Prev and Seek, which start decoding at
  // restart points, accept.
  bool ParseNextKey() {
    current_ = NextEntryOffset();
    if (current_ >= restarts_) {
      if (restart_index_ + 1 < num_restarts_) {
        // Restart points left after the last entry lie inside it.
        Corrupt(fmt::format("restart point {} (offset {}) is inside an entry", restart_index_ + 1,
                            RestartPoint(restart_index_ + 1)));
        return false;
      }
      MarkInvalid();
      return false;
    }
    // (Right after SeekToRestartPoint the key is empty, so shared > 0 fails below anyway.)
    bool at_restart = false;
    if (restart_index_ + 1 < num_restarts_) {
      const uint32_t next_restart = RestartPoint(restart_index_ + 1);
      if (next_restart < current_) {
        Corrupt(fmt::format("restart point {} (offset {}) is inside an entry", restart_index_ + 1,
                            next_restart));
        return false;
      }
      if (next_restart == current_) {
        restart_index_++;
        at_restart = true;
      }
    }
    uint32_t shared, non_shared, value_len;
    const char* p =
        DecodeEntry(data_ + current_, data_ + restarts_, &shared, &non_shared, &value_len);
    if (p == nullptr || shared > key_.size() || (at_restart && shared != 0) ||
        size_t{shared} + non_shared < min_key_size_) {
      Corrupt(fmt::format("malformed entry at offset {}", current_));
      return false;
    }
    key_.resize(shared);
    key_.append(p, non_shared);
    value_ = Slice(p + non_shared, value_len);
    return true;
  }

  void MarkInvalid() {
    current_ = restarts_;
    restart_index_ = num_restarts_;
    key_.clear();
    value_ = Slice();
  }

  void Corrupt(const std::string& what) {
    status_ =
        Status::Corruption(fmt::format("{} in block at offset {}", what, block_offset_), *fname_);
    MarkInvalid();
  }

  const Comparator* const comparator_;
  const InternalKeyComparator* const icmp_;  // comparator_ if it is one, else null
  const RestartPrefixes* const prefixes_;    // the block's, if comparator_'s order is theirs
  const char* const data_;                   // the block's contents
  const uint32_t restarts_;                  // offset of the restart array = end of the entries
  const uint32_t num_restarts_;              // >= 1
  uint32_t current_;                         // offset of the current entry; restarts_ if not valid
  uint32_t restart_index_;                   // last restart point at or before current_
  std::string key_;
  Slice value_;
  // An entry Prev decoded: where it starts, its key (in reverse_keys_) and its value.
  struct ReverseEntry {
    uint32_t offset;
    uint32_t key_start;
    uint32_t key_size;
    Slice value;
  };
  std::vector<ReverseEntry> reverse_;  // consecutive entries from a restart point (see top)
  std::string reverse_keys_;           // their keys, back to back
  size_t reverse_pos_ = 0;             // the one Prev last returned; used if it is current_
  Status status_;
  const std::string* const fname_;
  const uint64_t block_offset_;
  const size_t min_key_size_;
};

}  // namespace

std::unique_ptr<InternalIterator> Block::NewIterator(const Comparator* comparator,
                                                     const std::string& fname,
                                                     uint64_t block_offset,
                                                     size_t min_key_size) const {
  if (!ok()) {
    return NewErrorIterator(
        Status::Corruption(fmt::format("{} in block at offset {}", error_, block_offset), fname));
  }
  return std::make_unique<BlockIter>(comparator, contents_.data.data(), restart_offset_,
                                     num_restarts_, fname, block_offset, min_key_size,
                                     prefixes_.get());
}

Block::Block(BlockContents contents, bool restart_prefixes) : Block(std::move(contents)) {
  if (!restart_prefixes || !ok()) return;
  const char* const data = contents_.data.data();
  std::vector<Slice> user_keys;
  user_keys.reserve(num_restarts_);
  for (uint32_t i = 0; i < num_restarts_; i++) {
    const uint32_t offset = DecodeFixed32(data + restart_offset_ + i * sizeof(uint32_t));
    uint32_t shared, non_shared, value_len;
    const char* p =
        DecodeEntry(data + offset, data + restart_offset_, &shared, &non_shared, &value_len);
    // A malformed restart entry: no prefixes (iterators report it when they reach it).
    if (p == nullptr || shared != 0 || non_shared < kMinInternalKeySize) return;
    user_keys.push_back(ExtractUserKey(Slice(p, non_shared)));
  }
  prefixes_ = std::make_unique<const RestartPrefixes>(user_keys);
}

size_t Block::PrefixMemoryUsage() const {
  return prefixes_ != nullptr ? prefixes_->MemoryUsage() : 0;
}

}  // namespace sluice
