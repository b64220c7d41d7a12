// tools/sluice_server/resp_parser.cc — the incremental RESP2 request parser (resp_parser.h).

#include "resp_parser.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace sluice::server {
namespace {

constexpr size_t kMaxPrealloc = 1 << 20;

// Parses a decimal integer filling [p, end) exactly; false on anything else or overflow.
bool ParseInt64(const char* p, const char* end, int64_t* out) {
  if (p == end) return false;
  bool negative = false;
  if (*p == '-') {
    negative = true;
    if (++p == end) return false;
  }
  uint64_t v = 0;
  for (; p < end; ++p) {
    if (*p < '0' || *p > '9') return false;
    const uint64_t d = static_cast<uint64_t>(*p - '0');
    if (v > (static_cast<uint64_t>(INT64_MAX) - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Splits an inline request into words like Redis's sdssplitargs: blanks separate words;
// "double quotes" take \n \r \t \b \a \\ \" and \xHH escapes, 'single quotes' take \'.
// false on unbalanced quotes (or a closing quote not followed by a blank).
bool SplitInline(const char* p, const char* end, std::vector<std::string>* words) {
  words->clear();
  while (true) {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (p == end) return true;
    std::string word;
    bool in_dq = false, in_sq = false, done = false;
    while (!done) {
      if (in_dq) {
        if (p == end) return false;
        if (*p == '\\' && end - p >= 4 && p[1] == 'x' && HexDigit(p[2]) >= 0 &&
            HexDigit(p[3]) >= 0) {
          word.push_back(static_cast<char>(HexDigit(p[2]) * 16 + HexDigit(p[3])));
          p += 3;
        } else if (*p == '\\' && end - p >= 2) {
          ++p;
          switch (*p) {
            case 'n': word.push_back('\n'); break;
            case 'r': word.push_back('\r'); break;
            case 't': word.push_back('\t'); break;
            case 'b': word.push_back('\b'); break;
            case 'a': word.push_back('\a'); break;
            default: word.push_back(*p); break;
          }
        } else if (*p == '"') {
          if (p + 1 < end && !std::isspace(static_cast<unsigned char>(p[1]))) return false;
          done = true;
        } else {
          word.push_back(*p);
        }
        ++p;
      } else if (in_sq) {
        if (p == end) return false;
        if (*p == '\\' && end - p >= 2 && p[1] == '\'') {
          ++p;
          word.push_back('\'');
        } else if (*p == '\'') {
          if (p + 1 < end && !std::isspace(static_cast<unsigned char>(p[1]))) return false;
          done = true;
        } else {
          word.push_back(*p);
        }
        ++p;
      } else if (p == end || std::isspace(static_cast<unsigned char>(*p))) {
        done = true;
      } else if (*p == '"') {
        in_dq = true;
        ++p;
      } else if (*p == '\'') {
        in_sq = true;
        ++p;
      } else {
        word.push_back(*p++);
      }
    }
    words->push_back(std::move(word));
  }
}

}  // namespace

RespParser::Result RespParser::Fail(std::string message) {
  error_ = "Protocol error: " + std::move(message);
  return Result::kError;
}

size_t RespParser::FindLineEnd() const { return buffer_.find('\n', pos_); }

void RespParser::Compact() {
  // Drop consumed bytes once they are at least half the buffer: amortized O(1) per byte.
  if (pos_ > 0 && pos_ * 2 >= buffer_.size()) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
}

RespParser::Result RespParser::Next(std::vector<std::string>* args) {
  if (!error_.empty()) return Result::kError;
  while (true) {
    Result r;
    if (in_multibulk_) {
      r = ParseMultibulk(args);
    } else {
      if (pos_ == buffer_.size()) {
        Compact();
        return Result::kNeedMore;
      }
      if (buffer_[pos_] == '*') {
        r = ParseMultibulk(args);
      } else {
        r = ParseInline(args);
      }
    }
    Compact();
    if (r != Result::kRequest || !args->empty()) return r;
    // An empty inline line or a "*0" request: nothing to run, read on.
  }
}

RespParser::Result RespParser::ParseInline(std::vector<std::string>* args) {
  const size_t nl = FindLineEnd();
  if (nl == std::string::npos) {
    if (buffer_.size() - pos_ > limits_.max_inline_bytes) return Fail("too big inline request");
    return Result::kNeedMore;
  }
  if (nl - pos_ > limits_.max_inline_bytes) return Fail("too big inline request");
  size_t end = nl;
  if (end > pos_ && buffer_[end - 1] == '\r') --end;
  const char* base = buffer_.data();
  if (!SplitInline(base + pos_, base + end, args)) return Fail("unbalanced quotes in request");
  pos_ = nl + 1;
  return Result::kRequest;
}

RespParser::Result RespParser::ParseMultibulk(std::vector<std::string>* args) {
  const char* base = buffer_.data();
  if (!in_multibulk_) {
    // The "*<count>\r\n" header.
    const size_t nl = FindLineEnd();
    if (nl == std::string::npos) {
      if (buffer_.size() - pos_ > limits_.max_inline_bytes) {
        return Fail("too big mbulk count string");
      }
      return Result::kNeedMore;
    }
    int64_t count;
    if (nl == pos_ || buffer_[nl - 1] != '\r' ||
        !ParseInt64(base + pos_ + 1, base + nl - 1, &count) ||
        count > static_cast<int64_t>(limits_.max_arguments)) {
      return Fail("invalid multibulk length");
    }
    pos_ = nl + 1;
    args->clear();
    if (count <= 0) return Result::kRequest;  // "*0" and "*-1": an empty request, skipped
    in_multibulk_ = true;
    args_left_ = count;
    bulk_len_ = -1;
    request_bytes_ = 0;
    pending_.clear();
    pending_.reserve(static_cast<size_t>(count < 16 ? count : 16));
  }
  while (args_left_ > 0) {
    base = buffer_.data();
    if (bulk_len_ < 0) {
      // The "$<len>\r\n" header of the next bulk.
      if (pos_ == buffer_.size()) return Result::kNeedMore;
      if (buffer_[pos_] != '$') {
        return Fail(std::string("expected '$', got '") + buffer_[pos_] + "'");
      }
      const size_t nl = FindLineEnd();
      if (nl == std::string::npos) {
        if (buffer_.size() - pos_ > limits_.max_inline_bytes) {
          return Fail("too big bulk count string");
        }
        return Result::kNeedMore;
      }
      int64_t len;
      if (buffer_[nl - 1] != '\r' || !ParseInt64(base + pos_ + 1, base + nl - 1, &len) || len < 0 ||
          static_cast<uint64_t>(len) > limits_.max_request_bytes) {
        return Fail("invalid bulk length");
      }
      request_bytes_ += static_cast<uint64_t>(len);
      if (request_bytes_ > limits_.max_request_bytes) return Fail("request too large");
      pos_ = nl + 1;
      bulk_len_ = len;
    }
    const size_t need = static_cast<size_t>(bulk_len_) + 2;
    if (buffer_.size() - pos_ < need) {
      // The bulk is declared and within limits: make room for it up front, but only up to
      // kMaxPrealloc -- a declared length is a claim, not data, and many clients each
      // claiming the limit must not make the server allocate it. Beyond that the buffer grows
      // as bytes arrive.
      const size_t prealloc = std::min(need, kMaxPrealloc);
      if (buffer_.capacity() < pos_ + prealloc) {
        buffer_.erase(0, pos_);
        pos_ = 0;
        buffer_.reserve(prealloc);
      }
      return Result::kNeedMore;
    }
    base = buffer_.data();
    if (base[pos_ + need - 2] != '\r' || base[pos_ + need - 1] != '\n') {
      return Fail("expected CRLF after bulk string");
    }
    pending_.emplace_back(base + pos_, static_cast<size_t>(bulk_len_));
    pos_ += need;
    bulk_len_ = -1;
    --args_left_;
  }
  in_multibulk_ = false;
  args->swap(pending_);
  pending_.clear();
  return Result::kRequest;
}

}  // namespace sluice::server
