// sluice_bench/key_format.h — db_bench-style keys: fixed-width, zero-padded decimal numbers.
//
// Key n is its decimal digits left-padded with '0' to exactly key_size bytes
// ("0000000000012345" for n = 12345, key_size = 16), so bytewise order equals numeric order.
// A "missing" key is the key followed by '.', which sorts between existing keys and is never
// written.

#ifndef SLUICE_BENCH_KEY_FORMAT_H_
#define SLUICE_BENCH_KEY_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice_bench {

// Number of decimal digits of n (1 for 0).
int DecimalDigits(uint64_t n);

// The smallest key_size that gives every key in [0, num) its own key. REQUIRES: num >= 1.
int MinKeySizeFor(uint64_t num);

// Writes n zero-padded to key_size characters at buf (no terminator).
// REQUIRES: key_size >= DecimalDigits(n).
void FormatKey(uint64_t n, int key_size, char* buf);

// FormatKey into a fresh string.
std::string MakeKey(uint64_t n, int key_size);

// A reusable buffer for one thread's keys.
class KeyBuffer {
 public:
  explicit KeyBuffer(int key_size);

  // The key of n; valid until the next call.
  std::string_view Set(uint64_t n);
  // The key of n followed by '.', a key no benchmark writes; valid until the next call.
  std::string_view SetMissing(uint64_t n);

 private:
  int key_size_;
  std::string buf_;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_KEY_FORMAT_H_
