// db/merge_job.cc — see merge_job.h.

#include "db/merge_job.h"

#include <cassert>

#include "base/filename.h"
#include "table/table_cache.h"
#include "util/kill_point.h"

namespace sluice {

namespace {

class OutputFile {
 public:
  OutputFile(const MergeJobOptions& options, uint64_t number) : options_(options), meta_() {
    meta_.number = number;
  }

  Status Open() {
    Status s = options_.env->NewWritableFile(TableFileName(options_.dbname, meta_.number), &file_);
    if (s.ok()) builder_ = std::make_unique<TableBuilder>(options_.table_options, file_.get());
    return s;
  }

  void Add(const ParsedInternalKey& ikey, const Slice& key, const Slice& value) {
    assert(builder_ != nullptr);  // opened, not finished
    // Keys arrive in internal-key order: an SST's entries are sorted.
    // (Tombstones are added to a file only when it is complete: see RunMergeJob.)
    assert(meta_.num_entries == 0 ||
           DefaultInternalKeyComparator()->Compare(meta_.largest.Encode(), key) < 0);
    assert(meta_.num_range_deletions == 0);
    if (meta_.num_entries == 0) meta_.smallest.DecodeFrom(key);
    meta_.largest.DecodeFrom(key);
    if (ikey.sequence < meta_.smallest_seqno) meta_.smallest_seqno = ikey.sequence;
    if (ikey.sequence > meta_.largest_seqno) meta_.largest_seqno = ikey.sequence;
    meta_.num_entries++;
    if (ikey.type == kTypeDeletion) meta_.num_deletions++;
    builder_->Add(key, value);
  }

  void AddRangeTombstone(const RangeTombstone& t) {
    assert(builder_ != nullptr);
    const InternalKey lo = RangeBeginBound(t.begin);
    const InternalKey hi = RangeEndBound(t.end);
    const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
    if (empty() || icmp->Compare(lo.Encode(), meta_.smallest.Encode()) < 0) meta_.smallest = lo;
    if (empty() || icmp->Compare(hi.Encode(), meta_.largest.Encode()) > 0) meta_.largest = hi;
    if (t.seq < meta_.smallest_seqno) meta_.smallest_seqno = t.seq;
    if (t.seq > meta_.largest_seqno) meta_.largest_seqno = t.seq;
    meta_.num_range_deletions++;
    builder_->AddRangeTombstone(t);
  }

  uint64_t EstimatedSize() const { return builder_->FileSize(); }
  Status BuilderStatus() const { return builder_->status(); }

  // Finishes, syncs, closes and (paranoid) verifies the file.
  Status Finish() {
    assert(builder_ != nullptr && !empty());  // empty outputs are abandoned, not written
    Status s = builder_->Finish();
    if (s.ok()) {
      meta_.file_size = builder_->FileSize();
      SLUICE_KILL_POINT("table.before_sync");
      s = file_->Sync();
    }
    if (s.ok()) s = file_->Close();
    builder_.reset();
    file_.reset();
    if (s.ok() && options_.paranoid_checks && options_.table_cache != nullptr) {
      // Reopen it: footer, index, filter and properties must read back (every block was
      // checksummed as it was written).
      s = options_.table_cache->OpenFile(meta_.number, meta_.file_size);
    }
    return s;
  }

  void Abandon() {
    if (builder_ != nullptr) builder_->Abandon();
    builder_.reset();
    file_.reset();
  }

  const FileMetaData& meta() const { return meta_; }
  bool empty() const { return meta_.num_entries == 0 && meta_.num_range_deletions == 0; }

 private:
  const MergeJobOptions& options_;
  FileMetaData meta_;
  std::unique_ptr<WritableFile> file_;
  std::unique_ptr<TableBuilder> builder_;
};

}  // namespace

Status RunMergeJob(const MergeJobOptions& options, InternalIterator* input, VersionPruner* pruner,
                   MergeJobResult* result) {
  std::unique_ptr<OutputFile> out;
  Status s;
  std::string last_user_key;
  bool has_last_user_key = false;

  // The tombstones to write, ascending and disjoint by fragment, clipped to the job's range;
  // those before next_tombstone are written.
  std::vector<RangeTombstone> tombstones;
  size_t next_tombstone = 0;
  if (options.range_tombstones != nullptr && !options.range_tombstones->empty()) {
    pruner->SetRangeTombstones(options.range_tombstones.get());
    tombstones =
        pruner->PruneRangeTombstones(*options.range_tombstones, options.range_at_base_level);
    const std::string lo = options.keys_after ? KeySuccessor(*options.keys_after) : "";
    const std::string hi = options.keys_upto ? KeySuccessor(*options.keys_upto) : "";
    std::vector<RangeTombstone> clipped;
    for (RangeTombstone& t : tombstones) {
      if (options.keys_after && t.begin < lo) t.begin = lo;
      if (options.keys_upto && t.end > hi) t.end = hi;
      if (t.begin < t.end) clipped.push_back(std::move(t));
    }
    tombstones = std::move(clipped);
  }
  // Writes into `out` the tombstones (parts) below `limit` (all of them if null); a tombstone
  // reaching past limit keeps its part from limit on for the next file.
  auto add_tombstones_below = [&](const Slice* limit) {
    for (; next_tombstone < tombstones.size(); next_tombstone++) {
      RangeTombstone& t = tombstones[next_tombstone];
      if (limit != nullptr && Slice(t.begin).compare(*limit) >= 0) break;
      if (limit != nullptr && Slice(t.end).compare(*limit) > 0) {
        // Its fragment (the tombstones sharing its begin) reaches past limit: the parts below
        // go here, the rest waits. Fragments are disjoint, so no later one starts below limit.
        const std::string begin = t.begin;
        for (size_t j = next_tombstone; j < tombstones.size() && tombstones[j].begin == begin;
             j++) {
          out->AddRangeTombstone(RangeTombstone{begin, limit->ToString(), tombstones[j].seq});
          tombstones[j].begin = limit->ToString();
        }
        break;
      }
      out->AddRangeTombstone(t);
    }
  };

  auto finish_output = [&]() -> Status {
    Status fs = out->Finish();
    if (fs.ok()) {
      result->outputs.push_back(out->meta());
      result->bytes_written += out->meta().file_size;
    }
    out.reset();
    return fs;
  };

  if (options.keys_after == nullptr) {
    input->SeekToFirst();
  } else {
    // The first version of keys_after, then past all of them (they belong to the range below).
    const InternalKey target(*options.keys_after, kMaxSequenceNumber, kValueTypeForSeek);
    input->Seek(target.Encode());
    // (A key too short to parse stops the skip: the loop below reports it.)
    while (input->Valid() && input->key().size() >= 8 &&
           ExtractUserKey(input->key()).compare(*options.keys_after) <= 0) {
      input->Next();
    }
  }
  for (; input->Valid() && s.ok(); input->Next()) {
    const Slice key = input->key();
    ParsedInternalKey ikey;
    if (!ParseInternalKey(key, &ikey)) {
      s = Status::Corruption("bad internal key in flush or compaction input");
      break;
    }
    if (options.keys_upto != nullptr && ikey.user_key.compare(*options.keys_upto) > 0) {
      break;  // the next range's
    }
    result->entries_read++;
    if (options.cancel != nullptr && (result->entries_read & 4095) == 0 &&
        options.cancel->load(std::memory_order_relaxed)) {
      s = Status::IOError("merge job cancelled: the database is closing");
      break;
    }
    if (!pruner->Keep(ikey)) continue;

    const bool new_user_key = !has_last_user_key || ikey.user_key != Slice(last_user_key);
    if (new_user_key) {
      // Asked for every new key, so the compaction's overlap accounting stays in step.
      const bool stop = options.should_stop_before && options.should_stop_before(key);
      if (out != nullptr &&
          (stop || (options.max_file_size > 0 && out->EstimatedSize() >= options.max_file_size))) {
        add_tombstones_below(&ikey.user_key);
        s = finish_output();
        if (!s.ok()) break;
      }
      last_user_key.assign(ikey.user_key.data(), ikey.user_key.size());
      has_last_user_key = true;
    }
    if (out == nullptr) {
      out = std::make_unique<OutputFile>(options, options.new_file_number());
      s = out->Open();
      if (!s.ok()) break;
    }
    out->Add(ikey, key, input->value());
    result->entries_written++;
  }
  if (s.ok()) s = input->status();
  if (s.ok() && out == nullptr && next_tombstone < tombstones.size()) {
    // Tombstones and no versions: a file of tombstones only.
    out = std::make_unique<OutputFile>(options, options.new_file_number());
    s = out->Open();
  }
  if (s.ok() && out != nullptr) add_tombstones_below(nullptr);
  if (s.ok() && out != nullptr) s = out->BuilderStatus();
  if (s.ok() && out != nullptr) s = finish_output();
  result->entries_dropped = pruner->dropped();

  if (!s.ok()) {
    if (out != nullptr) {
      const uint64_t number = out->meta().number;
      out->Abandon();
      options.env->RemoveFile(TableFileName(options.dbname, number));
    }
    for (const FileMetaData& f : result->outputs) {
      options.table_cache->Evict(f.number);
      options.env->RemoveFile(TableFileName(options.dbname, f.number));
    }
    result->outputs.clear();
  }
  return s;
}

}  // namespace sluice
