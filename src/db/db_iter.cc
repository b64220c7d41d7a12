// db/db_iter.cc — see db_iter.h.
//
// Forward direction: iter_ is positioned at the entry that is the current key's visible
// version; key()/value() read it directly.
// Reverse direction: iter_ is positioned just before every entry of the current key (at the
// last entry of a smaller key, or invalid); the current key and value are saved copies.
// Bounds: the iterator is never Valid() on a key outside [lower_, upper_), and the walk stops at
// the first entry outside them, so hidden entries beyond a bound (deletions, old versions) are
// never read.
// Range tombstones: a version hidden by one (range_dels_) is treated as a deletion marker.

#include "db/db_iter.h"

#include <cassert>
#include <optional>
#include <string>

namespace sluice {

namespace {

class DBIter final : public Iterator {
 public:
  DBIter(std::unique_ptr<InternalIterator> iter, SequenceNumber sequence,
         std::optional<std::string> lower, std::optional<std::string> upper,
         std::unique_ptr<RangeDelCheck> range_dels)
      : iter_(std::move(iter)),
        sequence_(sequence),
        lower_(std::move(lower)),
        upper_(std::move(upper)),
        range_dels_(std::move(range_dels)) {}

  bool Valid() const override { return valid_; }

  Slice key() const override {
    assert(valid_);
    return direction_ == kForward ? ExtractUserKey(iter_->key()) : Slice(saved_key_);
  }
  Slice value() const override {
    assert(valid_);
    return direction_ == kForward ? iter_->value() : Slice(saved_value_);
  }
  Status status() const override {
    if (!status_.ok()) return status_;
    return iter_->status();
  }

  void SeekToFirst() override {
    if (lower_) return Seek(*lower_);
    direction_ = kForward;
    ClearSaved();
    iter_->SeekToFirst();
    if (iter_->Valid()) {
      FindNextUserEntry(false);
    } else {
      valid_ = false;
    }
  }

  void SeekToLast() override {
    direction_ = kReverse;
    ClearSaved();
    if (upper_) {
      // Just before the first entry of the first key >= upper_ (or at the very last entry).
      SetSeekKey(*upper_);
      iter_->Seek(seek_key_);
      if (iter_->Valid()) {
        iter_->Prev();
      } else if (iter_->status().ok()) {
        iter_->SeekToLast();
      }
    } else {
      iter_->SeekToLast();
    }
    FindPrevUserEntry();
  }

  void Seek(const Slice& raw_target) override {
    const Slice target =
        lower_ && raw_target.compare(Slice(*lower_)) < 0 ? Slice(*lower_) : raw_target;
    // Position on the target's newest version, not on the newest one at or below sequence_:
    // the versions in between are skipped by FindNextUserEntry, but the children see them,
    // which a FloDB scan relies on to notice versions replaced in place (see DBImpl::Scan).
    // The seek key is built before saved_key_ or saved_value_ change: the target may be this
    // iterator's own key() or value(), which in reverse are those strings.
    SetSeekKey(target);
    direction_ = kForward;
    ClearSaved();
    saved_key_.clear();
    iter_->Seek(seek_key_);
    if (iter_->Valid()) {
      FindNextUserEntry(false);
    } else {
      valid_ = false;
    }
  }

  void SeekForPrev(const Slice& target) override {
    prev_target_.assign(target.data(), target.size());  // it may be key(): Seek changes that
    Seek(prev_target_);
    if (!Valid()) {
      if (status().ok()) SeekToLast();
      return;
    }
    if (key().compare(Slice(prev_target_)) > 0) Prev();
  }

  void Next() override {
    assert(valid_);
    if (direction_ == kReverse) {
      direction_ = kForward;
      // iter_ is just before the current key's entries: step onto them.
      if (!iter_->Valid()) {
        iter_->SeekToFirst();
      } else {
        iter_->Next();
      }
      if (!iter_->Valid()) {
        valid_ = false;
        saved_key_.clear();
        return;
      }
      // saved_key_ holds the current user key: skip all its entries.
    } else {
      saved_key_.assign(ExtractUserKey(iter_->key()).data(), ExtractUserKey(iter_->key()).size());
      iter_->Next();
      if (!iter_->Valid()) {
        valid_ = false;
        saved_key_.clear();
        return;
      }
    }
    FindNextUserEntry(true);
  }

  void Prev() override {
    assert(valid_);
    if (direction_ == kForward) {
      // iter_ is at the current entry: walk back past every entry of the current key.
      saved_key_.assign(ExtractUserKey(iter_->key()).data(), ExtractUserKey(iter_->key()).size());
      for (;;) {
        iter_->Prev();
        if (!iter_->Valid()) {
          valid_ = false;
          saved_key_.clear();
          ClearSaved();
          return;
        }
        if (ExtractUserKey(iter_->key()).compare(saved_key_) < 0) break;
      }
      direction_ = kReverse;
    }
    FindPrevUserEntry();
  }

 private:
  enum Direction { kForward, kReverse };

  // seek_key_ = the internal key that sorts before every entry of user key `target`. Never
  // called with seek_key_ itself (key() and value() are never it).
  void SetSeekKey(const Slice& target) {
    seek_key_.clear();
    AppendInternalKey(&seek_key_, ParsedInternalKey(target, kMaxSequenceNumber, kValueTypeForSeek));
  }

  // True if key is inside [lower_, upper_) (the iterator is never Valid() outside).
  bool InBounds(const Slice& key) const {
    return (!lower_ || key.compare(Slice(*lower_)) >= 0) &&
           (!upper_ || key.compare(Slice(*upper_)) < 0);
  }

  void ClearSaved() {
    saved_value_.clear();
    if (saved_value_.capacity() > (1 << 20)) std::string().swap(saved_value_);
  }

  bool Parse(ParsedInternalKey* ikey) {
    if (!ParseInternalKey(iter_->key(), ikey)) {
      status_ = Status::Corruption("corrupted internal key in iterator");
      return false;
    }
    return true;
  }

  // Forward: from iter_, find the first entry that is the visible version of a user key. If
  // skipping, entries of user key saved_key_ are hidden (already yielded or deleted).
  void FindNextUserEntry(bool skipping) {
    do {
      ParsedInternalKey ikey;
      if (!Parse(&ikey)) {
        valid_ = false;
        return;
      }
      if (upper_ && ikey.user_key.compare(Slice(*upper_)) >= 0) break;
      if (ikey.sequence <= sequence_) {
        if (skipping && ikey.user_key.compare(saved_key_) <= 0) {
          // an older version of a key already handled
        } else if (ikey.type == kTypeDeletion || Hidden(ikey)) {
          saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
          skipping = true;
        } else {
          assert(InBounds(ikey.user_key));
          valid_ = true;
          saved_key_.clear();
          return;
        }
      }
      iter_->Next();
    } while (iter_->Valid());
    saved_key_.clear();
    valid_ = false;
  }

  // Reverse: walk back from iter_ to find the previous user key with a visible, live version;
  // leaves iter_ just before that key's entries.
  void FindPrevUserEntry() {
    ValueType value_type = kTypeDeletion;
    if (iter_->Valid()) {
      do {
        ParsedInternalKey ikey;
        if (!Parse(&ikey)) {
          valid_ = false;
          return;
        }
        // Below the lower bound: iter_ stays on this entry, just before saved_key_'s.
        if (lower_ && ikey.user_key.compare(Slice(*lower_)) < 0) break;
        if (ikey.sequence <= sequence_) {
          if (value_type != kTypeDeletion && ikey.user_key.compare(saved_key_) < 0) {
            break;  // we have the newest visible version of saved_key_, and it is live
          }
          value_type = Hidden(ikey) ? kTypeDeletion : ikey.type;
          if (value_type == kTypeDeletion) {
            saved_key_.clear();
            ClearSaved();
          } else {
            saved_key_.assign(ikey.user_key.data(), ikey.user_key.size());
            const Slice v = iter_->value();
            saved_value_.assign(v.data(), v.size());
          }
        }
        iter_->Prev();
      } while (iter_->Valid());
    }
    // The entries not read (a child failed) may hold newer versions of saved_key_.
    if (value_type == kTypeDeletion || !iter_->status().ok()) {
      valid_ = false;
      saved_key_.clear();
      ClearSaved();
      direction_ = kForward;
    } else {
      assert(InBounds(saved_key_));
      valid_ = true;
    }
  }

  // True if a range tombstone hides the version.
  bool Hidden(const ParsedInternalKey& ikey) const {
    return range_dels_ != nullptr && range_dels_->Covers(ikey.user_key, ikey.sequence);
  }

  std::unique_ptr<InternalIterator> iter_;
  const SequenceNumber sequence_;
  const std::optional<std::string> lower_;  // ReadOptions::iterate_lower_bound (inclusive)
  const std::optional<std::string> upper_;  // ReadOptions::iterate_upper_bound (exclusive)
  Direction direction_ = kForward;
  bool valid_ = false;
  std::string saved_key_;    // reverse: current key; forward: key being skipped
  std::string saved_value_;  // reverse: current value
  std::string seek_key_;     // Seek's and SeekToLast's internal key (reused buffer)
  std::string prev_target_;  // SeekForPrev's copy of its target (reused buffer)
  Status status_;
  const std::unique_ptr<RangeDelCheck> range_dels_;  // null: no tombstone to honour
};

}  // namespace

std::unique_ptr<Iterator> NewDBIterator(std::unique_ptr<InternalIterator> internal,
                                        SequenceNumber sequence, const ReadOptions& options,
                                        std::unique_ptr<RangeDelCheck> range_dels) {
  auto copy = [](const Slice* bound) {
    return bound != nullptr ? std::optional<std::string>(bound->ToString()) : std::nullopt;
  };
  return std::make_unique<DBIter>(
      std::move(internal), sequence, copy(options.iterate_lower_bound),
      copy(options.iterate_upper_bound),
      range_dels != nullptr && range_dels->empty() ? nullptr : std::move(range_dels));
}

}  // namespace sluice
