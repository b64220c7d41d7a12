// sluice/slice.h — a non-owning view of a byte string (pointer + length).
//
// A Slice never owns its bytes: the caller keeps the storage alive for as long as the Slice is
// used. Keys and values are arbitrary bytes (embedded zeros allowed); ordering is bytewise.

#ifndef SLUICE_SLICE_H_
#define SLUICE_SLICE_H_

#include <cassert>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class Slice {
 public:
  Slice() : data_(""), size_(0) {}
  Slice(const char* d, size_t n) : data_(d), size_(n) {}
  Slice(const std::string& s) : data_(s.data()), size_(s.size()) {}  // NOLINT: implicit by design
  Slice(std::string_view s) : data_(s.data()), size_(s.size()) {}    // NOLINT: implicit by design
  Slice(const char* s) : data_(s), size_(std::strlen(s)) {}          // NOLINT: implicit by design

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  char operator[](size_t n) const {
    assert(n < size_);
    return data_[n];
  }

  void clear() {
    data_ = "";
    size_ = 0;
  }
  void remove_prefix(size_t n) {
    assert(n <= size_);
    data_ += n;
    size_ -= n;
  }

  std::string ToString() const { return std::string(data_, size_); }
  std::string_view ToStringView() const { return std::string_view(data_, size_); }
  // Printable form: bytes outside [0x20, 0x7e] are shown as \xNN.
  std::string ToEscapedString() const;

  // <0, 0, >0 as *this is less than, equal to or greater than b (bytewise, shorter first).
  int compare(const Slice& b) const {
    const size_t min_len = size_ < b.size_ ? size_ : b.size_;
    int r = min_len == 0 ? 0 : std::memcmp(data_, b.data_, min_len);
    if (r == 0) {
      if (size_ < b.size_) {
        r = -1;
      } else if (size_ > b.size_) {
        r = +1;
      }
    }
    return r;
  }

  bool starts_with(const Slice& x) const {
    return size_ >= x.size_ && (x.size_ == 0 || std::memcmp(data_, x.data_, x.size_) == 0);
  }

 private:
  const char* data_;
  size_t size_;
};

inline bool operator==(const Slice& x, const Slice& y) {
  return x.size() == y.size() && (x.size() == 0 || std::memcmp(x.data(), y.data(), x.size()) == 0);
}
inline bool operator!=(const Slice& x, const Slice& y) { return !(x == y); }
inline bool operator<(const Slice& x, const Slice& y) { return x.compare(y) < 0; }

inline std::string Slice::ToEscapedString() const {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(size_);
  for (size_t i = 0; i < size_; ++i) {
    const unsigned char c = static_cast<unsigned char>(data_[i]);
    if (c >= 0x20 && c <= 0x7e && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  return out;
}

// The smallest key greater than every key that starts with `prefix` -- the exclusive end of
// the range of keys with that prefix -- or nullopt when there is none (an empty prefix, or one
// made only of 0xff bytes).
inline std::optional<std::string> PrefixSuccessor(const Slice& prefix) {
  std::string end = prefix.ToString();
  while (!end.empty() && static_cast<unsigned char>(end.back()) == 0xff) end.pop_back();
  if (end.empty()) return std::nullopt;
  end.back() = static_cast<char>(static_cast<unsigned char>(end.back()) + 1);
  return end;
}

// Narrows the key range [*lower, *upper) (nullopt: unbounded on that side) to the keys that also
// start with `prefix`; an empty prefix changes nothing. For ReadOptions' iterate bounds.
inline void NarrowToPrefix(const Slice& prefix, std::optional<std::string>* lower,
                           std::optional<std::string>* upper) {
  if (prefix.empty()) return;
  if (!*lower || Slice(**lower).compare(prefix) < 0) *lower = prefix.ToString();
  std::optional<std::string> end = PrefixSuccessor(prefix);
  if (end && (!*upper || Slice(*end).compare(Slice(**upper)) < 0)) *upper = std::move(end);
}

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_SLICE_H_
