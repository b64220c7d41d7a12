// tools/sluice_server/resp_parser.h — the incremental RESP2 request parser of sluice-server.
//
// Bytes arrive in reads of any size: Feed() appends them, Next() returns one complete request
// at a time. A request split across reads at any byte is returned once its last byte arrives;
// many pipelined requests in one read come out one Next() call each. Both request forms of
// RESP2 are accepted: multibulk ("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", what client libraries send)
// and inline ("GET k\r\n", what telnet sends; words split on blanks, "..." and '...' quoting).
//
// Invariants: memory held is bounded by the bytes received plus one request's declared size,
// and a declared size is checked against the limits before anything is allocated for it, so a
// bulk length of 10 GB is an error, never an allocation. After an error the parser stays in
// the error state (the server replies with the error and closes the connection).

#ifndef SLUICE_TOOLS_SLUICE_SERVER_RESP_PARSER_H_
#define SLUICE_TOOLS_SLUICE_SERVER_RESP_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sluice::server {

struct ParserLimits {
  // Longest bulk string, and longest request (every bulk together), in bytes.
  uint64_t max_request_bytes = 512ull << 20;
  // Most arguments in one multibulk request.
  uint64_t max_arguments = 1ull << 20;
  // Longest inline request or multibulk/bulk header line.
  size_t max_inline_bytes = 64 << 10;
};

class RespParser {
 public:
  enum class Result { kNeedMore, kRequest, kError };

  explicit RespParser(const ParserLimits& limits = ParserLimits()) : limits_(limits) {}

  void Feed(const char* data, size_t n) { buffer_.append(data, n); }

  // kRequest: *args holds the next request's arguments (an empty inline line is skipped, never
  // returned). kNeedMore: every complete request has been returned. kError: error() says why
  // ("Protocol error: ..."); every later call returns kError too.
  Result Next(std::vector<std::string>* args);

  const std::string& error() const { return error_; }
  // Bytes received and not yet returned as requests.
  size_t buffered_bytes() const { return buffer_.size() - pos_; }

 private:
  Result ParseInline(std::vector<std::string>* args);
  Result ParseMultibulk(std::vector<std::string>* args);
  Result Fail(std::string message);
  // Finds "\r\n" (or a bare '\n' for inline) from pos_; npos if the line is not complete yet.
  size_t FindLineEnd() const;
  void Compact();

  ParserLimits limits_;
  std::string buffer_;
  size_t pos_ = 0;  // bytes of buffer_ already consumed
  std::string error_;
  // Multibulk state, kept across reads so that no byte is parsed twice.
  bool in_multibulk_ = false;
  int64_t args_left_ = 0;
  int64_t bulk_len_ = -1;  // length of the bulk being waited for; -1: expecting a "$" line
  uint64_t request_bytes_ = 0;
  std::vector<std::string> pending_;
};

}  // namespace sluice::server

#endif  // SLUICE_TOOLS_SLUICE_SERVER_RESP_PARSER_H_
