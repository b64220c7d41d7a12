// tools/sluice/text_codec.h — how the sluice tool turns keys and values (arbitrary bytes) into
// text and back: escaped tab-separated fields, hex, and JSON lines.
//
// Every encoding round-trips every byte string: Unescape(Escape(b)) == b, HexDecode(HexEncode(b))
// == b, and ParseJsonLine(JsonLine(k, v)) == (k, v). Decoders never crash on bad input: they
// return InvalidArgument saying what is wrong (the caller adds the file and line).

#ifndef SLUICE_TOOLS_SLUICE_TEXT_CODEC_H_
#define SLUICE_TOOLS_SLUICE_TEXT_CODEC_H_

#include <string>
#include <string_view>

#include "sluice/status.h"

namespace sluice::cli {

// One field of a tab-separated line: backslash, tab, newline, carriage return and the other
// control bytes (< 0x20, 0x7f) become \\ \t \n \r \xNN; every other byte (UTF-8 included) is
// kept as it is, so text keys stay readable.
std::string Escape(std::string_view bytes);
Status Unescape(std::string_view text, std::string* bytes);

std::string HexEncode(std::string_view bytes);
// Accepts upper and lower case digits; an odd length or a non-hex digit is InvalidArgument.
Status HexDecode(std::string_view hex, std::string* bytes);

bool IsValidUtf8(std::string_view bytes);

// One JSON object per line: {"key":"...","value":"..."} when the bytes are valid UTF-8, with
// "key_hex"/"value_hex" (hex of the bytes) in place of a field that is not. with_value = false
// leaves the value out.
std::string JsonLine(std::string_view key, std::string_view value, bool with_value = true);
// Reads a line written by JsonLine: exactly one of key/key_hex and one of value/value_hex.
Status ParseJsonLine(std::string_view line, std::string* key, std::string* value);

// One line of `scan` / `dump` output, newline included: KEY<TAB>VALUE with both escaped (hex
// with `hex`), or a JsonLine with `json` (where `hex` does not apply: JSON lines carry any bytes).
std::string FormatEntry(std::string_view key, std::string_view value, bool hex, bool json,
                        bool with_value = true);
// Reads a line written by FormatEntry (without its newline). A tab-separated line must hold
// exactly one unescaped tab.
Status ParseEntry(std::string_view line, bool hex, bool json, std::string* key, std::string* value);

// Keys and values as the tool's human-facing output shows them: hex or escaped text.
inline std::string Show(std::string_view bytes, bool hex) {
  return hex ? HexEncode(bytes) : Escape(bytes);
}

}  // namespace sluice::cli

#endif  // SLUICE_TOOLS_SLUICE_TEXT_CODEC_H_
