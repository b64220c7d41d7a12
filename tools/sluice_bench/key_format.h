// sluice_bench/key_format.h — fixed-width keys in one of two encodings (--key_format).
//
// decimal (db_bench's, the default): key n is its decimal digits left-padded with '0' to
// exactly key_size bytes ("0000000000012345" for n = 12345, key_size = 16).
// binary: key n is the big-endian 64-bit number n * floor(2^64 / num), padded with zero bytes
// to key_size (key_size >= 8). The keys spread over the whole 64-bit space, so their most
// significant bits vary (FloDB partitions its Membuffer by them; decimal keys all start with
// the same '0' bytes).
// Both are order-preserving: bytewise order equals numeric order. A "missing" key is the key
// followed by '.', which sorts between existing keys and is never written.

#ifndef SLUICE_BENCH_KEY_FORMAT_H_
#define SLUICE_BENCH_KEY_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice_bench {

enum class KeyFormat { kDecimal, kBinary };

// "decimal" or "binary".
std::string_view KeyFormatName(KeyFormat format);
// Inverse of KeyFormatName; false if unknown.
bool ParseKeyFormat(std::string_view name, KeyFormat* format);

// Bytes of a binary key's number.
inline constexpr int kBinaryKeyBytes = 8;

// Number of decimal digits of n (1 for 0).
int DecimalDigits(uint64_t n);

// The smallest key_size that gives every key in [0, num) its own decimal key.
// REQUIRES: num >= 1.
int MinKeySizeFor(uint64_t num);
// The same for either format (binary keys need kBinaryKeyBytes).
int MinKeySizeFor(KeyFormat format, uint64_t num);

// Writes n zero-padded to key_size characters at buf (no terminator).
// REQUIRES: key_size >= DecimalDigits(n).
void FormatKey(uint64_t n, int key_size, char* buf);

// floor(2^64 / num): the distance between neighbouring binary keys (0 when num == 1, whose
// only key is 0). REQUIRES: num >= 1.
uint64_t BinaryKeyStep(uint64_t num);

// Writes the binary key of n (BE64(n * step), then zero bytes) at buf.
// REQUIRES: key_size >= kBinaryKeyBytes.
void FormatBinaryKey(uint64_t n, uint64_t step, int key_size, char* buf);

// FormatKey into a fresh string.
std::string MakeKey(uint64_t n, int key_size);
// Key n of a key space of num keys in the given format.
std::string MakeKey(uint64_t n, int key_size, KeyFormat format, uint64_t num);

// A reusable buffer for one thread's keys.
class KeyBuffer {
 public:
  // Decimal keys.
  explicit KeyBuffer(int key_size);
  // Keys of a key space of num keys in the given format.
  KeyBuffer(int key_size, KeyFormat format, uint64_t num);

  // The key of n; valid until the next call.
  std::string_view Set(uint64_t n);
  // The key of n followed by '.', a key no benchmark writes; valid until the next call.
  std::string_view SetMissing(uint64_t n);

 private:
  void Format(uint64_t n);

  int key_size_;
  KeyFormat format_;
  uint64_t step_;
  std::string buf_;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_KEY_FORMAT_H_
