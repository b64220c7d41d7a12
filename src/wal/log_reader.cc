// wal/log_reader.cc — see log_reader.h.

#include "wal/log_reader.h"

#include <fmt/format.h>

#include "util/coding.h"
#include "util/crc32c.h"
#include "wal/log_format.h"

namespace sluice::log {

const char* ProblemName(Problem p) {
  switch (p) {
    case Problem::kTruncatedTail: return "truncated record at end of file";
    case Problem::kChecksum: return "checksum mismatch";
    case Problem::kBadLength: return "bad fragment length";
    case Problem::kBadType: return "unknown fragment type";
    case Problem::kZeroFilled: return "zero-filled region";
    case Problem::kFragmentOrder: return "fragments out of order";
    case Problem::kReadError: return "read error";
  }
  return "unknown problem";
}

Reader::Reader(std::unique_ptr<SequentialFile> file, std::string fname, Reporter* reporter)
    : file_(std::move(file)),
      fname_(std::move(fname)),
      reporter_(reporter),
      block_(new char[kBlockSize]) {}

void Reader::Report(Problem p, uint64_t offset, size_t bytes, const std::string& what) {
  if (reporter_ == nullptr) return;
  reporter_->Report(p, offset, bytes,
                    Status::Corruption(
                        fmt::format("{} at offset {} ({})", ProblemName(p), offset, what), fname_));
}

void Reader::SetTailProblem(Problem p, uint64_t offset, size_t bytes, std::string what) {
  tail_problem_ = TailProblem{p, offset, bytes, std::move(what)};
}

bool Reader::ReadRecord(Slice* record, std::string* scratch) {
  scratch->clear();
  record->clear();
  bool in_record = false;
  uint64_t record_start = 0;
  Slice fragment;
  uint64_t fragment_offset = 0;
  for (;;) {
    const int type = ReadFragment(&fragment, &fragment_offset);
    switch (type) {
      case kFullType:
        if (in_record) {
          Report(Problem::kFragmentOrder, record_start, scratch->size(),
                 "full record inside a fragmented one");
          scratch->clear();
        }
        *record = fragment;
        last_record_offset_ = fragment_offset;
        end_of_last_record_ = fragment_offset + kHeaderSize + fragment.size();
        return true;
      case kFirstType:
        if (in_record) {
          Report(Problem::kFragmentOrder, record_start, scratch->size(),
                 "first fragment inside a fragmented record");
        }
        scratch->assign(fragment.data(), fragment.size());
        in_record = true;
        record_start = fragment_offset;
        break;
      case kMiddleType:
        if (!in_record) {
          Report(Problem::kFragmentOrder, fragment_offset, fragment.size(),
                 "middle fragment without a first one");
        } else {
          scratch->append(fragment.data(), fragment.size());
        }
        break;
      case kLastType:
        if (!in_record) {
          Report(Problem::kFragmentOrder, fragment_offset, fragment.size(),
                 "last fragment without a first one");
        } else {
          scratch->append(fragment.data(), fragment.size());
          *record = Slice(*scratch);
          last_record_offset_ = record_start;
          end_of_last_record_ = fragment_offset + kHeaderSize + fragment.size();
          return true;
        }
        break;
      case kEof:
        if (in_record) {
          Report(Problem::kTruncatedTail, record_start, scratch->size(),
                 "record's last fragment is missing");
          scratch->clear();
        }
        if (tail_problem_.has_value()) {
          const TailProblem t = std::move(*tail_problem_);
          tail_problem_.reset();
          Report(t.problem, t.offset, t.bytes, t.what);
        }
        return false;
      case kBad:
        if (in_record) {
          // The damaged fragment belonged to (or followed) this record: drop what we have.
          in_record = false;
          scratch->clear();
        }
        break;
      default:
        Report(Problem::kBadType, fragment_offset, fragment.size(), fmt::format("type {}", type));
        in_record = false;
        scratch->clear();
        break;
    }
  }
}

int Reader::ReadFragment(Slice* fragment, uint64_t* fragment_offset) {
  for (;;) {
    if (buffer_.size() < kHeaderSize) {
      if (!eof_) {
        // The remainder of a block shorter than a header is trailer padding: skip it.
        buffer_.clear();
        Slice got;
        Status s = file_->Read(kBlockSize, &got, block_.get());
        if (!s.ok()) {
          SetTailProblem(Problem::kReadError, buffer_end_offset_, 0, s.ToString());
          eof_ = true;
          return kEof;
        }
        if (got.data() != block_.get()) std::memcpy(block_.get(), got.data(), got.size());
        buffer_ = Slice(block_.get(), got.size());
        buffer_end_offset_ += got.size();
        if (got.size() < kBlockSize) eof_ = true;
        continue;
      }
      if (!buffer_.empty()) {
        // A header cut short by the end of the file.
        bool zeros = true;
        for (size_t i = 0; i < buffer_.size(); i++) zeros = zeros && buffer_[i] == 0;
        if (!zeros) {
          SetTailProblem(Problem::kTruncatedTail, buffer_end_offset_ - buffer_.size(),
                         buffer_.size(), "partial fragment header");
        }
        buffer_.clear();
      }
      return kEof;
    }
    const uint64_t offset = buffer_end_offset_ - buffer_.size();
    const char* header = buffer_.data();
    const uint32_t length = DecodeFixed16(header + 4);
    const uint8_t type = static_cast<uint8_t>(header[6]);
    if (type == kZeroType && length == 0 && DecodeFixed32(header) == 0) {
      // Never-written bytes: report the whole zero run in this block, then skip the block.
      size_t run = 0;
      while (run < buffer_.size() && buffer_[run] == 0) run++;
      Report(Problem::kZeroFilled, offset, run, fmt::format("{} zero bytes", run));
      buffer_.clear();
      return kBad;
    }
    if (kHeaderSize + length > buffer_.size()) {
      const size_t drop = buffer_.size();
      buffer_.clear();
      if (eof_) {
        SetTailProblem(
            Problem::kTruncatedTail, offset, drop,
            fmt::format("fragment of {} bytes cut at {} bytes", length, drop - kHeaderSize));
        return kEof;
      }
      Report(Problem::kBadLength, offset, drop, fmt::format("length {}", length));
      return kBad;
    }
    const uint32_t expected = crc32c::Unmask(DecodeFixed32(header));
    const uint32_t actual = crc32c::Value(header + 6, 1 + length);
    if (expected != actual) {
      // The length may be what is damaged: skip the rest of the block.
      const size_t drop = buffer_.size();
      buffer_.clear();
      Report(Problem::kChecksum, offset, drop, fmt::format("fragment of {} bytes", length));
      return kBad;
    }
    *fragment = Slice(header + kHeaderSize, length);
    *fragment_offset = offset;
    buffer_.remove_prefix(kHeaderSize + length);
    if (type > kMaxRecordType || type == kZeroType) {
      Report(Problem::kBadType, offset, kHeaderSize + length, fmt::format("type {}", type));
      return kBad;
    }
    return type;
  }
}

}  // namespace sluice::log
