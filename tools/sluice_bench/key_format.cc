// sluice_bench/key_format.cc — fixed-width decimal and binary keys (see key_format.h).

#include "sluice_bench/key_format.h"

#include <cassert>
#include <cstring>

namespace sluice_bench {

std::string_view KeyFormatName(KeyFormat format) {
  return format == KeyFormat::kBinary ? "binary" : "decimal";
}

bool ParseKeyFormat(std::string_view name, KeyFormat* format) {
  for (KeyFormat f : {KeyFormat::kDecimal, KeyFormat::kBinary}) {
    if (name == KeyFormatName(f)) {
      *format = f;
      return true;
    }
  }
  return false;
}

int DecimalDigits(uint64_t n) {
  int digits = 1;
  while (n >= 10) {
    n /= 10;
    ++digits;
  }
  return digits;
}

int MinKeySizeFor(uint64_t num) {
  assert(num >= 1);
  return DecimalDigits(num - 1);
}

int MinKeySizeFor(KeyFormat format, uint64_t num) {
  return format == KeyFormat::kBinary ? kBinaryKeyBytes : MinKeySizeFor(num);
}

void FormatKey(uint64_t n, int key_size, char* buf) {
  assert(key_size >= DecimalDigits(n));
  for (int i = key_size - 1; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + n % 10);
    n /= 10;
  }
}

uint64_t BinaryKeyStep(uint64_t num) {
  assert(num >= 1);
  if (num == 1) return 0;
  return static_cast<uint64_t>((static_cast<unsigned __int128>(1) << 64) / num);
}

void FormatBinaryKey(uint64_t n, uint64_t step, int key_size, char* buf) {
  assert(key_size >= kBinaryKeyBytes);
  const uint64_t v = n * step;  // < 2^64 for n < num
  for (int i = 0; i < kBinaryKeyBytes; ++i) {
    buf[i] = static_cast<char>((v >> (56 - 8 * i)) & 0xff);
  }
  std::memset(buf + kBinaryKeyBytes, 0, static_cast<size_t>(key_size - kBinaryKeyBytes));
}

std::string MakeKey(uint64_t n, int key_size) {
  std::string key(static_cast<size_t>(key_size), '0');
  FormatKey(n, key_size, key.data());
  return key;
}

std::string MakeKey(uint64_t n, int key_size, KeyFormat format, uint64_t num) {
  KeyBuffer buf(key_size, format, num);
  return std::string(buf.Set(n));
}

KeyBuffer::KeyBuffer(int key_size) : KeyBuffer(key_size, KeyFormat::kDecimal, 1) {}

KeyBuffer::KeyBuffer(int key_size, KeyFormat format, uint64_t num)
    : key_size_(key_size),
      format_(format),
      step_(format == KeyFormat::kBinary ? BinaryKeyStep(num) : 0),
      buf_(static_cast<size_t>(key_size) + 1, '.') {}

void KeyBuffer::Format(uint64_t n) {
  if (format_ == KeyFormat::kBinary) {
    FormatBinaryKey(n, step_, key_size_, buf_.data());
  } else {
    FormatKey(n, key_size_, buf_.data());
  }
}

std::string_view KeyBuffer::Set(uint64_t n) {
  Format(n);
  return std::string_view(buf_.data(), static_cast<size_t>(key_size_));
}

std::string_view KeyBuffer::SetMissing(uint64_t n) {
  Format(n);
  buf_[static_cast<size_t>(key_size_)] = '.';
  return std::string_view(buf_.data(), static_cast<size_t>(key_size_) + 1);
}

}  // namespace sluice_bench
