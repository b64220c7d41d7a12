// tools/sluice/file_inspect.cc — reading SST, log and MANIFEST files directly (file_inspect.h).

#include "file_inspect.h"

#include <fmt/format.h>

#include "base/filename.h"
#include "base/internal_key.h"
#include "sluice/env.h"
#include "table/table_options.h"
#include "text_codec.h"

namespace sluice::cli {

namespace {

class ProblemCollector : public log::Reader::Reporter {
 public:
  explicit ProblemCollector(std::vector<LogProblem>* problems) : problems_(problems) {}
  void Report(log::Problem problem, uint64_t offset, size_t bytes, const Status& s) override {
    problems_->push_back(LogProblem{problem, offset, bytes, s.ToString()});
  }

 private:
  std::vector<LogProblem>* problems_;
};

}  // namespace

Status OpenTableFile(const std::string& path, std::unique_ptr<Table>* table) {
  Env* env = Env::Default();
  uint64_t size = 0;
  Status s = env->GetFileSize(path, &size);
  std::unique_ptr<RandomAccessFile> file;
  if (s.ok()) s = env->NewRandomAccessFile(path, &file);
  if (!s.ok()) return s;
  return Table::Open(TableOptions(), std::move(file), size, path, table);
}

std::string ShowInternalKey(const Slice& internal_key, bool hex) {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(internal_key, &parsed)) {
    return fmt::format("(bad internal key {})",
                       HexEncode({internal_key.data(), internal_key.size()}));
  }
  return fmt::format("{} @ {} {}", Show({parsed.user_key.data(), parsed.user_key.size()}, hex),
                     parsed.sequence, parsed.type == kTypeValue ? "PUT" : "DEL");
}

Status ReadLogFile(const std::string& path,
                   const std::function<Status(const Slice& record, uint64_t offset)>& fn,
                   std::vector<LogProblem>* problems) {
  std::unique_ptr<SequentialFile> file;
  Status s = Env::Default()->NewSequentialFile(path, &file);
  if (!s.ok()) return s;
  ProblemCollector collector(problems);
  log::Reader reader(std::move(file), path, &collector);
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch)) {
    s = fn(record, reader.LastRecordOffset());
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status ReplayManifest(const std::string& path,
                      const std::function<void(const VersionEdit& edit, uint64_t offset)>& fn,
                      LiveFiles* live, std::vector<LogProblem>* problems) {
  live->clear();
  return ReadLogFile(
      path,
      [&](const Slice& record, uint64_t offset) {
        VersionEdit edit;
        Status s = edit.DecodeFrom(record);
        if (!s.ok()) {
          return Status::Corruption(fmt::format("{}: record at offset {}", path, offset),
                                    s.message());
        }
        if (fn) fn(edit, offset);
        for (const auto& [level, number] : edit.deleted_files()) live->erase(number);
        for (const auto& [level, f] : edit.new_files()) (*live)[f.number] = {level, f};
        return Status::OK();
      },
      problems);
}

}  // namespace sluice::cli
