// tools/sluice_server/reply.h — encoding RESP2 and RESP3 replies into a connection's output
// buffer.
//
// Every function appends one complete reply (or, for ArrayHeader, the header that the caller
// follows with exactly n replies; for MapHeader, exactly n key/value pairs) to *out. The two
// protocols differ here only in null, map and set: every other reply is written the same way.
// Simple strings and errors must not contain CR or LF; ReplyError replaces them with blanks so that
// a message can never break the framing.

#ifndef SLUICE_TOOLS_SLUICE_SERVER_REPLY_H_
#define SLUICE_TOOLS_SLUICE_SERVER_REPLY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice::server {

inline void ReplySimple(std::string* out, std::string_view s) {
  out->push_back('+');
  out->append(s);
  out->append("\r\n");
}

inline void ReplyOk(std::string* out) { out->append("+OK\r\n"); }

// `message` is the whole error line, code included ("ERR ...", "NOAUTH ...").
inline void ReplyError(std::string* out, std::string_view message) {
  out->push_back('-');
  for (char c : message) out->push_back(c == '\r' || c == '\n' ? ' ' : c);
  out->append("\r\n");
}

inline void ReplyInteger(std::string* out, int64_t v) {
  out->push_back(':');
  out->append(std::to_string(v));
  out->append("\r\n");
}

inline void ReplyBulk(std::string* out, std::string_view s) {
  out->push_back('$');
  out->append(std::to_string(s.size()));
  out->append("\r\n");
  out->append(s);
  out->append("\r\n");
}

// The protocol a connection speaks: RESP2 until the client sends HELLO 3.
enum class Protocol : uint8_t { kResp2 = 2, kResp3 = 3 };

// RESP2's null bulk string, or RESP3's null.
inline void ReplyNull(std::string* out, Protocol protocol) {
  out->append(protocol == Protocol::kResp3 ? "_\r\n" : "$-1\r\n");
}

inline void ReplyArrayHeader(std::string* out, size_t n) {
  out->push_back('*');
  out->append(std::to_string(n));
  out->append("\r\n");
}

// A map of n key/value pairs: RESP3's map type, or in RESP2 a flat array of 2n elements (what
// Redis sends for HELLO and CONFIG GET to RESP2 clients).
inline void ReplyMapHeader(std::string* out, size_t pairs, Protocol protocol) {
  if (protocol == Protocol::kResp2) return ReplyArrayHeader(out, 2 * pairs);
  out->push_back('%');
  out->append(std::to_string(pairs));
  out->append("\r\n");
}

// A set of n elements: RESP3's set type, or an array in RESP2.
inline void ReplySetHeader(std::string* out, size_t n, Protocol protocol) {
  if (protocol == Protocol::kResp2) return ReplyArrayHeader(out, n);
  out->push_back('~');
  out->append(std::to_string(n));
  out->append("\r\n");
}

}  // namespace sluice::server

#endif  // SLUICE_TOOLS_SLUICE_SERVER_REPLY_H_
