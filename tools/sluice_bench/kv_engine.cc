// sluice_bench/kv_engine.cc — names of the compression codecs shared by the engines.

#include "sluice_bench/kv_engine.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace sluice_bench {

std::string_view CompressionName(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone: return "none";
    case CompressionKind::kSnappy: return "snappy";
    case CompressionKind::kZstd: return "zstd";
    case CompressionKind::kLz4: return "lz4";
  }
  return "none";
}

bool ParseCompression(std::string_view name, CompressionKind* kind) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (CompressionKind k : {CompressionKind::kNone, CompressionKind::kSnappy,
                            CompressionKind::kZstd, CompressionKind::kLz4}) {
    if (lower == CompressionName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

}  // namespace sluice_bench
