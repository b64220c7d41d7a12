// wal/log_reader.h — reads the records of a log file (see log_format.h), checking every
// fragment's checksum and reporting damage instead of failing.
//
// The reader never returns a record it could not fully verify. Each problem is reported to the
// Reporter with its kind and file offset, then the reader resynchronises at the next block and
// goes on, so the caller sees every valid record and every problem in file order. Classifying
// them is the caller's policy (db/recovery): a truncated fragment at the end of the file is a
// torn write; damage followed by valid records is corruption in the middle of the log.

#ifndef SLUICE_WAL_LOG_READER_H_
#define SLUICE_WAL_LOG_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sluice/env.h"
#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice::log {

enum class Problem {
  kTruncatedTail,  // the file ends inside a fragment or inside a multi-fragment record
  kChecksum,       // a fragment's checksum does not match
  kBadLength,      // a fragment claims more bytes than its block holds
  kBadType,        // unknown fragment type
  kZeroFilled,     // a region of zeros where a fragment header should be
  kFragmentOrder,  // kMiddle/kLast without kFirst, or kFirst inside a record
  kReadError,      // the file could not be read
};

const char* ProblemName(Problem p);

class Reader {
 public:
  class Reporter {
   public:
    virtual ~Reporter() = default;
    // `bytes` were skipped because of `problem` at file offset `offset`.
    virtual void Report(Problem problem, uint64_t offset, size_t bytes, const Status& status) = 0;
  };

  Reader(std::unique_ptr<SequentialFile> file, std::string fname, Reporter* reporter);
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the next complete, verified record into *record (backed by *scratch or the reader's
  // buffer, valid until the next call). Returns false at the end of the file.
  bool ReadRecord(Slice* record, std::string* scratch);

  // File offset of the first byte of the record last returned.
  uint64_t LastRecordOffset() const { return last_record_offset_; }
  // File offset just past the last record returned (where a clean log would continue).
  uint64_t EndOfLastRecord() const { return end_of_last_record_; }
  const std::string& file_name() const { return fname_; }

 private:
  enum : int { kEof = 256, kBad = 257 };

  // Returns a fragment type, kEof or kBad (already reported). A problem found at the end of the
  // file (a cut fragment, a read error) is left in tail_problem_ when kEof is returned.
  int ReadFragment(Slice* fragment, uint64_t* fragment_offset);
  void Report(Problem p, uint64_t offset, size_t bytes, const std::string& what);

  // Reported by ReadRecord after the torn record it may belong to (which starts earlier), so
  // that problems are reported in file order.
  struct TailProblem {
    Problem problem;
    uint64_t offset;
    size_t bytes;
    std::string what;
  };
  void SetTailProblem(Problem p, uint64_t offset, size_t bytes, std::string what);
  std::optional<TailProblem> tail_problem_;

  const std::unique_ptr<SequentialFile> file_;
  const std::string fname_;
  Reporter* const reporter_;
  std::unique_ptr<char[]> block_;
  Slice buffer_;                    // unread part of the current block
  uint64_t buffer_end_offset_ = 0;  // file offset just past the current block
  bool eof_ = false;
  uint64_t last_record_offset_ = 0;
  uint64_t end_of_last_record_ = 0;
};

}  // namespace sluice::log

#endif  // SLUICE_WAL_LOG_READER_H_
