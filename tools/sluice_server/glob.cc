// tools/sluice_server/glob.cc — glob-style matching (glob.h), after Redis's stringmatchlen:
// iterative, with backtracking only to the last `*`, so a pattern cannot take exponential time.

#include "glob.h"

#include <utility>

namespace sluice::server {
namespace {

// Matches one byte c against the set starting just after '[' at pattern[*i]; leaves *i on the
// closing ']' (or at the pattern's end).
bool MatchSet(std::string_view pattern, size_t* i, unsigned char c) {
  bool negate = false, matched = false;
  if (*i < pattern.size() && pattern[*i] == '^') {
    negate = true;
    ++*i;
  }
  while (*i < pattern.size() && pattern[*i] != ']') {
    if (pattern[*i] == '\\' && *i + 1 < pattern.size()) {
      ++*i;
      if (static_cast<unsigned char>(pattern[*i]) == c) matched = true;
    } else if (*i + 2 < pattern.size() && pattern[*i + 1] == '-' && pattern[*i + 2] != ']') {
      unsigned char lo = static_cast<unsigned char>(pattern[*i]);
      unsigned char hi = static_cast<unsigned char>(pattern[*i + 2]);
      if (lo > hi) std::swap(lo, hi);
      if (c >= lo && c <= hi) matched = true;
      *i += 2;
    } else if (static_cast<unsigned char>(pattern[*i]) == c) {
      matched = true;
    }
    ++*i;
  }
  return negate ? !matched : matched;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0;
  size_t star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    bool advance = false;
    if (p < pattern.size()) {
      const char pc = pattern[p];
      if (pc == '*') {
        while (p < pattern.size() && pattern[p] == '*') ++p;
        if (p == pattern.size()) return true;
        star_p = p;
        star_t = t;
        continue;
      }
      if (pc == '?') {
        advance = true;
        ++p;
      } else if (pc == '[') {
        size_t i = p + 1;
        if (MatchSet(pattern, &i, static_cast<unsigned char>(text[t]))) {
          advance = true;
          p = i < pattern.size() ? i + 1 : i;
        }
      } else if (pc == '\\' && p + 1 < pattern.size()) {
        if (pattern[p + 1] == text[t]) {
          advance = true;
          p += 2;
        }
      } else if (pc == text[t]) {
        advance = true;
        ++p;
      }
    }
    if (advance) {
      ++t;
      continue;
    }
    if (star_p == std::string_view::npos) return false;
    // Let the last `*` swallow one more byte and retry from there.
    p = star_p;
    t = ++star_t;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace sluice::server
