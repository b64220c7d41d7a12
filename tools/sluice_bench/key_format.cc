// sluice_bench/key_format.cc — fixed-width decimal keys (see key_format.h).

#include "sluice_bench/key_format.h"

#include <cassert>

namespace sluice_bench {

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

void FormatKey(uint64_t n, int key_size, char* buf) {
  assert(key_size >= DecimalDigits(n));
  for (int i = key_size - 1; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + n % 10);
    n /= 10;
  }
}

std::string MakeKey(uint64_t n, int key_size) {
  std::string key(static_cast<size_t>(key_size), '0');
  FormatKey(n, key_size, key.data());
  return key;
}

KeyBuffer::KeyBuffer(int key_size)
    : key_size_(key_size), buf_(static_cast<size_t>(key_size) + 1, '.') {}

std::string_view KeyBuffer::Set(uint64_t n) {
  FormatKey(n, key_size_, buf_.data());
  return std::string_view(buf_.data(), static_cast<size_t>(key_size_));
}

std::string_view KeyBuffer::SetMissing(uint64_t n) {
  FormatKey(n, key_size_, buf_.data());
  buf_[static_cast<size_t>(key_size_)] = '.';
  return std::string_view(buf_.data(), static_cast<size_t>(key_size_) + 1);
}

}  // namespace sluice_bench
