// sluice_stress/value_format.cc — see value_format.h.

#include "value_format.h"

#include <fmt/format.h>

#include <charconv>

namespace sluice::stress {

namespace {

constexpr size_t kHeaderSize = 22;  // 10 digits, '.', 10 digits, ':'

bool ParseDigits(const char* begin, const char* end, uint32_t* out) {
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

std::string KeyString(uint32_t key) { return fmt::format("key{:010d}", key); }

bool ParseKey(const Slice& s, uint32_t* key) {
  if (s.size() != 13 || s.data()[0] != 'k' || s.data()[1] != 'e' || s.data()[2] != 'y') {
    return false;
  }
  return ParseDigits(s.data() + 3, s.data() + s.size(), key);
}

std::string ValueString(uint32_t key, uint32_t base) {
  std::string v = fmt::format("{:010d}.{:010d}:", key, base);
  uint64_t x = (uint64_t{key} << 32 | base) * 0x9e3779b97f4a7c15ull;
  const size_t filler = (x >> 58) % 48;
  for (size_t i = 0; i < filler; i++) {
    v.push_back(static_cast<char>('a' + (x >> (i % 8) * 8) % 26));
    if (i % 8 == 7) x = x * 6364136223846793005ull + 1442695040888963407ull;
  }
  return v;
}

Status ParseValue(uint32_t key, const Slice& value, uint32_t* base) {
  uint32_t k = 0;
  if (value.size() < kHeaderSize || value.data()[10] != '.' || value.data()[21] != ':' ||
      !ParseDigits(value.data(), value.data() + 10, &k) ||
      !ParseDigits(value.data() + 11, value.data() + 21, base) || k != key ||
      ValueString(key, *base) != value.ToString()) {
    std::string shown;
    for (char c : value.ToString().substr(0, 64)) {
      shown += (c >= 32 && c < 127) ? std::string(1, c) : fmt::format("\\x{:02x}", uint8_t(c));
    }
    return Status::Corruption(KeyString(key), fmt::format("malformed value '{}'", shown));
  }
  return Status::OK();
}

}  // namespace sluice::stress
