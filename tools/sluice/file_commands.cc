// tools/sluice/file_commands.cc — sst, wal and manifest: one file of a database printed as
// text. They read the file directly (the database need not be openable, and may be open in
// another process), and exit with kExitCorruption after printing what could be read when the
// file is damaged.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "base/filename.h"
#include "commands.h"
#include "db/write_batch_internal.h"
#include "file_inspect.h"
#include "table/compression.h"
#include "text_codec.h"

namespace sluice::cli {

namespace {

struct SstArgs {
  std::string file;
  bool properties_only = false, no_index = false, verify = false;
  uint64_t limit = 0;
};

int RunSst(const GlobalOptions& g, const SstArgs& a) {
  std::unique_ptr<Table> table;
  Status s = OpenTableFile(a.file, &table);
  if (!s.ok()) return Fail(s);
  Output out;
  const TableProperties& p = table->properties();
  out.Write(fmt::format(
      "Properties:\n  entries: {} ({} deletions)\n  range deletions: {}\n  raw key bytes: {}\n"
      "  raw value bytes: {}\n"
      "  data blocks: {} ({} bytes)\n  index: {} bytes\n  filter: {} bytes\n"
      "  sequence numbers: {}..{}\n  compression: {}\n  created: {} (Unix time)\n",
      p.num_entries, p.num_deletions, p.num_range_deletions, p.raw_key_size, p.raw_value_size,
      p.num_data_blocks, p.data_size, p.index_size, p.filter_size, p.smallest_seqno,
      p.largest_seqno, CompressionTypeName(static_cast<CompressionType>(p.compression)),
      p.creation_time));
  if (!a.properties_only && !a.no_index) {
    out.Write("Index (separator key -> block offset, size):\n");
    s = table->ForEachIndexEntry([&](const Slice& separator, const BlockHandle& h) {
      out.Write(
          fmt::format("  {} -> {}, {}\n", ShowInternalKey(separator, g.hex), h.offset, h.size));
    });
  }
  if (s.ok() && !a.properties_only) {
    out.Write("Entries (key @ sequence type => value):\n");
    std::unique_ptr<InternalIterator> it = table->NewIterator(ReadOptions());
    uint64_t n = 0;
    for (it->SeekToFirst(); it->Valid() && (a.limit == 0 || n < a.limit); it->Next(), n++) {
      const Slice v = it->value();
      if (!out.Write(fmt::format("  {} => {}\n", ShowInternalKey(it->key(), g.hex),
                                 Show({v.data(), v.size()}, g.hex)))) {
        break;
      }
    }
    s = it->status();
    if (s.ok() && table->range_tombstones() != nullptr) {
      out.Write("Range deletions (fragments: [begin, end) @ sequences):\n");
      for (const auto& f : table->range_tombstones()->fragments()) {
        out.Write(fmt::format("  [{}, {}) @ {}\n", Show(f.begin, g.hex), Show(f.end, g.hex),
                              fmt::join(f.seqs, ", ")));
      }
    }
  }
  if (s.ok() && a.verify) {
    s = table->VerifyChecksums();
    if (s.ok()) out.Write("Checksums: all blocks verified\n");
  }
  out.Flush();
  if (!s.ok()) return Fail(s);
  return out.status().ok() ? kExitOk : Fail(out.status());
}

// Prints a write batch's updates, one per line; those of a column family other than the
// default one name it ("CF 3 PUT ...").
class BatchPrinter : public WriteBatch::Handler {
 public:
  BatchPrinter(Output* out, bool hex) : out_(out), hex_(hex) {}
  void Put(const Slice& key, const Slice& value) override { PutCF(0, key, value); }
  void Delete(const Slice& key) override { DeleteCF(0, key); }
  void DeleteRange(const Slice& begin, const Slice& end) override { DeleteRangeCF(0, begin, end); }
  void PutCF(uint32_t family, const Slice& key, const Slice& value) override {
    out_->Write(fmt::format("  {}PUT {} => {}\n", Family(family),
                            Show({key.data(), key.size()}, hex_),
                            Show({value.data(), value.size()}, hex_)));
  }
  void DeleteCF(uint32_t family, const Slice& key) override {
    out_->Write(fmt::format("  {}DEL {}\n", Family(family), Show({key.data(), key.size()}, hex_)));
  }
  void DeleteRangeCF(uint32_t family, const Slice& begin, const Slice& end) override {
    out_->Write(fmt::format("  {}DELRANGE {} .. {}\n", Family(family),
                            Show({begin.data(), begin.size()}, hex_),
                            Show({end.data(), end.size()}, hex_)));
  }

 private:
  static std::string Family(uint32_t family) {
    return family == 0 ? std::string() : fmt::format("CF {} ", family);
  }
  Output* out_;
  const bool hex_;
};

// Prints the problems ReadLogFile found; returns whether any is damage (not a torn tail).
bool PrintProblems(Output* out, const std::vector<LogProblem>& problems) {
  bool damaged = false;
  for (const LogProblem& p : problems) {
    out->Write(fmt::format("# {} at offset {}: {} bytes skipped ({}){}\n",
                           log::ProblemName(p.problem), p.offset, p.bytes, p.message,
                           p.IsCorruption() ? "" : " - a crash cut the last write"));
    damaged |= p.IsCorruption();
  }
  return damaged;
}

int RunWal(const GlobalOptions& g, const std::string& file) {
  Output out;
  std::vector<LogProblem> problems;
  uint64_t records = 0;
  Status s = ReadLogFile(
      file,
      [&](const Slice& record, uint64_t offset) {
        WriteBatch batch;
        Status b = WriteBatchInternal::SetContents(&batch, record);
        if (!b.ok()) {
          out.Write(fmt::format("# record at offset {}: {}\n", offset, b.ToString()));
          return Status::Corruption(fmt::format("{}: record at offset {}", file, offset),
                                    b.message());
        }
        records++;
        out.Write(
            fmt::format("batch seq={} count={} offset={}{}\n", WriteBatchInternal::Sequence(&batch),
                        WriteBatchInternal::Count(&batch), offset,
                        WriteBatchInternal::IsAborted(&batch) ? " (aborted: not applied)" : ""));
        BatchPrinter printer(&out, g.hex);
        return batch.Iterate(&printer);
      },
      &problems);
  const bool damaged = PrintProblems(&out, problems);
  out.Write(fmt::format("{} batches\n", records));
  out.Flush();
  if (!s.ok()) return Fail(s);
  if (damaged) return Fail(fmt::format("{}: damaged records skipped", file), kExitCorruption);
  return out.status().ok() ? kExitOk : Fail(out.status());
}

int RunManifest(const GlobalOptions& g, std::string file) {
  if (file.empty()) {
    if (g.db.empty()) return Fail("manifest needs --db or a MANIFEST file", kExitUsage);
    Status s = ReadCurrentFile(Env::Default(), g.db, &file);
    if (s.IsNotFound()) {
      return Fail(fmt::format("{}: no sluice database (no CURRENT file)", g.db), kExitNoDatabase);
    }
    if (!s.ok()) return Fail(s);
  }
  Output out;
  std::vector<LogProblem> problems;
  LiveFiles live;
  uint64_t edits = 0;
  Status s = ReplayManifest(
      file,
      [&](const VersionEdit& edit, uint64_t offset) {
        out.Write(fmt::format("--- edit {} at offset {}\n{}", ++edits, offset, edit.DebugString()));
      },
      &live, &problems);
  const bool damaged = PrintProblems(&out, problems);
  out.Write(fmt::format("=== the last version ({} edits): {} files\n", edits, live.size()));
  for (const auto& [number, level_and_file] : live) {
    const auto& [level, f] = level_and_file;
    out.Write(fmt::format("  L{} {:06}.sst {} bytes, {} entries [{} .. {}]\n", level, number,
                          f.file_size, f.num_entries, ShowInternalKey(f.smallest.Encode(), g.hex),
                          ShowInternalKey(f.largest.Encode(), g.hex)));
  }
  out.Flush();
  if (!s.ok()) return Fail(s);
  if (damaged) return Fail(fmt::format("{}: damaged records skipped", file), kExitCorruption);
  return out.status().ok() ? kExitOk : Fail(out.status());
}

}  // namespace

void AddFileCommands(CLI::App* app, const GlobalOptions* g, int* exit_code) {
  auto sst_args = std::make_shared<SstArgs>();
  auto* sst = app->add_subcommand("sst", "Print an SST file: its properties, index and entries");
  sst->add_option("FILE", sst_args->file, "The .sst file")->required();
  sst->add_flag("--properties-only", sst_args->properties_only, "Print only the properties");
  sst->add_flag("--no-index", sst_args->no_index, "Leave out the index");
  sst->add_option("--limit", sst_args->limit, "Print at most this many entries (0: all)");
  sst->add_flag("--verify", sst_args->verify, "Also verify every block's checksum");
  sst->callback([g, exit_code, a = sst_args] { *exit_code = RunSst(*g, *a); });

  auto wal_file = std::make_shared<std::string>();
  auto* wal = app->add_subcommand("wal", "Print a write-ahead log: every batch and its updates");
  wal->add_option("FILE", *wal_file, "The .log file")->required();
  wal->callback([g, exit_code, wal_file] { *exit_code = RunWal(*g, *wal_file); });

  auto manifest_file = std::make_shared<std::string>();
  auto* manifest = app->add_subcommand(
      "manifest", "Print the history of versions: every edit of the MANIFEST, then the live files");
  manifest->add_option("FILE", *manifest_file,
                       "A MANIFEST file (default: the one CURRENT names in --db)");
  manifest->callback(
      [g, exit_code, manifest_file] { *exit_code = RunManifest(*g, *manifest_file); });
}

}  // namespace sluice::cli
