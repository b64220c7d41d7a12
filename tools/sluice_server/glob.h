// tools/sluice_server/glob.h — Redis's glob-style pattern matching (SCAN MATCH, KEYS).
//
// `*` matches any run of bytes, `?` any one byte, `[abc]`, `[a-z]` and `[^a]` a set of bytes,
// and `\x` the byte x literally. Matching is on bytes (no character sets, no case folding), and
// a malformed pattern (an unclosed `[`) matches as Redis's does: the `[` set ends at the
// pattern's end.

#ifndef SLUICE_TOOLS_SLUICE_SERVER_GLOB_H_
#define SLUICE_TOOLS_SLUICE_SERVER_GLOB_H_

#include <string_view>

namespace sluice::server {

bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace sluice::server

#endif  // SLUICE_TOOLS_SLUICE_SERVER_GLOB_H_
