// db/repair.cc — RepairDB: rebuild a usable database from whatever files are readable.
//
//   1. Every WAL file is replayed (damaged records skipped) into new L0 SST files; the WAL is
//      then moved to lost/.
//   2. Every SST file is scanned completely. A file that reads cleanly is kept as is; one that
//      does not is salvaged: the entries read before the damage are copied into a new file,
//      and the original is moved to lost/.
//   3. A new MANIFEST lists every kept file at level 0 (lookups there allow overlapping
//      sequence ranges, and the first compaction sorts them into levels); CURRENT points at it.
// Data in unreadable parts of files is lost; everything readable is kept.

#include <fmt/format.h>

#include <algorithm>

#include "base/filename.h"
#include "db/db_impl.h"
#include "db/merge_job.h"
#include "db/write_batch_internal.h"
#include "memory/memory_component.h"
#include "memory/memory_component_factory.h"
#include "table/table.h"
#include "util/epoch.h"
#include "util/logging.h"
#include "version/version_edit.h"
#include "version/version_set.h"
#include "wal/log_reader.h"

namespace sluice {

namespace {

class Repairer {
 public:
  Repairer(std::string dbname, const Options& options)
      : dbname_(std::move(dbname)), options_(options), env_(options.env) {
    table_options_.block_size = options_.block_size;
    table_options_.block_restart_interval = options_.block_restart_interval;
    table_options_.bloom_bits_per_key = options_.bloom_bits_per_key;
    table_options_.compression = options_.compression;
    table_options_.paranoid_checks = true;
    table_cache_ = std::make_unique<TableCache>(dbname_, env_, table_options_, 16);
  }

  Status Run() {
    Status s = FindFiles();  // before creating LOCK and LOG: refuse a directory of no DB
    if (!s.ok()) return s;
    std::unique_ptr<FileLock> lock;
    s = env_->LockFile(LockFileName(dbname_), &lock);
    if (!s.ok()) return s;
    s = env_->NewLogger(InfoLogFileName(dbname_), &log_);
    if (s.ok()) s = ConvertLogs();
    if (s.ok()) s = ScanTables();
    if (s.ok()) s = WriteManifest();
    if (s.ok()) {
      Log(log_.get(), "repair: kept {} SST files, {} entries; moved {} files to lost/",
          kept_.size(), total_entries_, lost_);
    }
    env_->UnlockFile(std::move(lock));
    return s;
  }

 private:
  Status FindFiles() {
    std::vector<std::string> children;
    Status s = env_->GetChildren(dbname_, &children);
    if (!s.ok()) return s;
    bool any = false;
    for (const std::string& name : children) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type)) continue;
      any = any || type == FileType::kLog || type == FileType::kTable ||
            type == FileType::kManifest || type == FileType::kCurrent;
      next_file_ = std::max(next_file_, number + 1);
      if (type == FileType::kLog) logs_.push_back(number);
      if (type == FileType::kTable) tables_.push_back(number);
      if (type == FileType::kManifest) manifests_.push_back(name);
    }
    if (!any) return Status::InvalidArgument(dbname_, "holds no sluice files to repair");
    std::sort(logs_.begin(), logs_.end());
    std::sort(tables_.begin(), tables_.end());
    return Status::OK();
  }

  void MoveToLost(const std::string& name) {
    const std::string lost = dbname_ + "/lost";
    env_->CreateDirIfMissing(lost);
    Status s = env_->RenameFile(dbname_ + "/" + name, lost + "/" + name);
    Log(log_.get(), "repair: moved {} to lost/: {}", name, s.ToString());
    lost_++;
  }

  struct Problems : log::Reader::Reporter {
    Logger* log = nullptr;
    void Report(log::Problem, uint64_t, size_t bytes, const Status& s) override {
      Log(log, "repair: WAL: dropped {} bytes: {}", bytes, s.ToString());
    }
  };

  Status ConvertLogs() {
    if (logs_.empty()) return Status::OK();
    std::unique_ptr<MemoryComponentFactory> factory;
    Status s = NewMemoryComponentFactory(options_, &factory);
    if (!s.ok()) return s;
    for (uint64_t number : logs_) {
      const std::string fname = LogFileName(dbname_, number);
      std::unique_ptr<SequentialFile> file;
      s = env_->NewSequentialFile(fname, &file);
      if (!s.ok()) return s;
      Problems problems;
      problems.log = log_.get();
      log::Reader reader(std::move(file), fname, &problems);
      std::unique_ptr<MemoryComponent> mem;
      s = factory->NewUnobservedComponent(MemoryComponentContext(), &mem);
      if (!s.ok()) return s;
      Slice record;
      std::string scratch;
      WriteBatch batch;
      while (reader.ReadRecord(&record, &scratch)) {
        if (!WriteBatchInternal::SetContents(&batch, record).ok()) continue;
        max_sequence_ = std::max(max_sequence_, WriteBatchInternal::Sequence(&batch));
        WriteBatchInternal::InsertInto(&batch, mem.get());
      }
      mem->MarkImmutable();  // gathers everything where the iterator reads
      std::unique_ptr<InternalIterator> iter = mem->NewIterator();
      std::shared_ptr<const FragmentedRangeTombstones> tombstones;
      {
        epoch::Guard section;
        tombstones = mem->range_tombstones().All();
      }
      std::vector<FileMetaData> outputs;
      s = WriteTables(iter.get(), tombstones, &outputs);
      if (!s.ok()) return s;
      for (const FileMetaData& f : outputs) tables_.push_back(f.number);
      MoveToLost(fname.substr(dbname_.size() + 1));
    }
    return Status::OK();
  }

  // tombstones: range tombstones to write with the entries (may be null).
  Status WriteTables(InternalIterator* iter,
                     const std::shared_ptr<const FragmentedRangeTombstones>& tombstones,
                     std::vector<FileMetaData>* outputs) {
    MergeJobOptions job;
    job.dbname = dbname_;
    job.env = env_;
    job.table_options = table_options_;
    job.table_cache = table_cache_.get();
    job.paranoid_checks = true;
    job.new_file_number = [this] { return next_file_++; };
    job.range_tombstones = tombstones;
    // Keep every version: the database's snapshots are unknown here.
    std::vector<SequenceNumber> all;
    VersionPruner keep_all(all, nullptr);
    MergeJobResult result;
    Status s = RunMergeJob(job, iter, &keep_all, &result);
    if (s.ok()) *outputs = std::move(result.outputs);
    return s;
  }

  // Scans one table; fills *meta (its range tombstones included, also returned in *tombstones if
  // not null). Returns the first error met (entries before it are counted).
  Status ScanTable(uint64_t number, FileMetaData* meta,
                   std::vector<std::pair<std::string, std::string>>* salvage,
                   std::shared_ptr<const FragmentedRangeTombstones>* tombstones = nullptr) {
    const std::string fname = TableFileName(dbname_, number);
    meta->number = number;
    Status s = env_->GetFileSize(fname, &meta->file_size);
    if (!s.ok()) return s;
    ReadOptions ro;
    ro.verify_checksums = true;
    ro.fill_cache = false;
    std::unique_ptr<InternalIterator> it = table_cache_->NewIterator(ro, number, meta->file_size);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ParsedInternalKey ikey;
      if (!ParseInternalKey(it->key(), &ikey)) {
        return Status::Corruption("bad internal key", fname);
      }
      if (meta->num_entries == 0) meta->smallest.DecodeFrom(it->key());
      meta->largest.DecodeFrom(it->key());
      meta->smallest_seqno = std::min(meta->smallest_seqno, ikey.sequence);
      meta->largest_seqno = std::max(meta->largest_seqno, ikey.sequence);
      meta->num_entries++;
      if (ikey.type == kTypeDeletion) meta->num_deletions++;
      if (salvage != nullptr) salvage->emplace_back(it->key().ToString(), it->value().ToString());
    }
    // The tombstones, even of a damaged table (a salvage keeps them if they read back).
    std::shared_ptr<const FragmentedRangeTombstones> t;
    Status ts = table_cache_->GetRangeTombstones(number, meta->file_size, &t);
    if (tombstones != nullptr && ts.ok()) *tombstones = t;
    if (!it->status().ok()) return it->status();
    if (!ts.ok() || t == nullptr) return ts;
    const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
    for (const RangeTombstone& r : t->ToTombstones()) {
      const InternalKey lo = RangeBeginBound(r.begin), hi = RangeEndBound(r.end);
      const bool first = meta->num_entries == 0 && meta->num_range_deletions == 0;
      if (first || icmp->Compare(lo.Encode(), meta->smallest.Encode()) < 0) meta->smallest = lo;
      if (first || icmp->Compare(hi.Encode(), meta->largest.Encode()) > 0) meta->largest = hi;
      meta->smallest_seqno = std::min(meta->smallest_seqno, r.seq);
      meta->largest_seqno = std::max(meta->largest_seqno, r.seq);
      meta->num_range_deletions++;
    }
    return Status::OK();
  }

  Status ScanTables() {
    for (uint64_t number : tables_) {
      FileMetaData meta;
      Status s = ScanTable(number, &meta, nullptr);
      if (s.ok()) {
        if (meta.num_entries > 0 || meta.num_range_deletions > 0) {
          Keep(meta);
        } else {
          MoveToLost(TableFileName(dbname_, number).substr(dbname_.size() + 1));
        }
        continue;
      }
      Log(log_.get(), "repair: {} is damaged: {}", TableFileName(dbname_, number), s.ToString());
      // Salvage the entries readable before the damage.
      table_cache_->Evict(number);
      std::vector<std::pair<std::string, std::string>> entries;
      FileMetaData partial;
      std::shared_ptr<const FragmentedRangeTombstones> tombstones;
      ScanTable(number, &partial, &entries, &tombstones);
      if (!entries.empty() || tombstones != nullptr) {
        struct VectorIterator final : public InternalIterator {
          explicit VectorIterator(const std::vector<std::pair<std::string, std::string>>* e)
              : entries(e) {}
          bool Valid() const override { return pos < entries->size(); }
          void SeekToFirst() override { pos = 0; }
          void SeekToLast() override { pos = entries->empty() ? 0 : entries->size() - 1; }
          void Seek(const Slice& target) override {
            const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
            pos = 0;
            while (pos < entries->size() && icmp->Compare((*entries)[pos].first, target) < 0) {
              pos++;
            }
          }
          void Next() override { pos++; }
          void Prev() override { pos = pos == 0 ? entries->size() : pos - 1; }
          Slice key() const override { return (*entries)[pos].first; }
          Slice value() const override { return (*entries)[pos].second; }
          Status status() const override { return Status::OK(); }
          const std::vector<std::pair<std::string, std::string>>* entries;
          size_t pos = 0;
        } iter(&entries);
        std::vector<FileMetaData> outputs;
        s = WriteTables(&iter, tombstones, &outputs);
        if (!s.ok()) return s;
        for (FileMetaData& f : outputs) {
          FileMetaData rescanned;
          if (ScanTable(f.number, &rescanned, nullptr).ok()) Keep(rescanned);
        }
        Log(log_.get(), "repair: salvaged {} entries of {}", entries.size(),
            TableFileName(dbname_, number));
      }
      MoveToLost(TableFileName(dbname_, number).substr(dbname_.size() + 1));
    }
    return Status::OK();
  }

  void Keep(const FileMetaData& meta) {
    kept_.push_back(meta);
    total_entries_ += meta.num_entries;
    max_sequence_ = std::max(max_sequence_, meta.largest_seqno);
  }

  Status WriteManifest() {
    const uint64_t manifest_number = next_file_++;
    VersionEdit edit;
    edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
    edit.SetLogNumber(0);
    edit.SetLastSequence(max_sequence_);
    for (const FileMetaData& f : kept_) edit.AddFile(0, f);
    edit.SetNextFile(next_file_);
    Status s = WriteSingleEditManifest(env_, dbname_, manifest_number, edit);
    if (!s.ok()) return s;
    for (const std::string& old : manifests_) env_->RemoveFile(dbname_ + "/" + old);
    return Status::OK();
  }

  const std::string dbname_;
  const Options options_;
  Env* const env_;
  TableOptions table_options_;
  std::unique_ptr<TableCache> table_cache_;
  std::shared_ptr<Logger> log_;
  uint64_t next_file_ = 1;
  SequenceNumber max_sequence_ = 0;
  std::vector<uint64_t> logs_;
  std::vector<uint64_t> tables_;
  std::vector<std::string> manifests_;
  std::vector<FileMetaData> kept_;
  uint64_t total_entries_ = 0;
  int lost_ = 0;
};

}  // namespace

Status RepairDB(const std::string& path, const Options& options) {
  Options sanitized;
  Status s = DBImpl::SanitizeOptions(options, &sanitized);
  if (!s.ok()) return s;
  const std::string dbname = NormalizeDbPath(path);
  if (!sanitized.env->FileExists(dbname)) {
    return Status::InvalidArgument(dbname, "does not exist");
  }
  return Repairer(dbname, sanitized).Run();
}

}  // namespace sluice
