// sluice_stress/value_format.h — the keys and values the stress driver writes.
//
// Keys are numbered 0..max_key-1 and spelled "key0000001234" (fixed width, so their byte
// order is their numeric order). Every value names its key and its "base", a per-key version
// number that grows with each write of the key:
//   "<key number, 10 digits>.<base, 10 digits>:" followed by 0-47 filler bytes derived from both.
// So a value read back proves which write produced it, and a value that was damaged, or that
// belongs to another key, is detected (ParseValue returns Corruption).

#ifndef SLUICE_TOOLS_SLUICE_STRESS_VALUE_FORMAT_H_
#define SLUICE_TOOLS_SLUICE_STRESS_VALUE_FORMAT_H_

#include <cstdint>
#include <string>

#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice::stress {

std::string KeyString(uint32_t key);
// False if s is not a key of this format.
bool ParseKey(const Slice& s, uint32_t* key);

std::string ValueString(uint32_t key, uint32_t base);
// The base of a value of `key`; Corruption (naming the key) if the value is not exactly
// ValueString(key, base) for some base.
Status ParseValue(uint32_t key, const Slice& value, uint32_t* base);

}  // namespace sluice::stress

#endif  // SLUICE_TOOLS_SLUICE_STRESS_VALUE_FORMAT_H_
