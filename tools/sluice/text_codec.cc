// tools/sluice/text_codec.cc — escaping, hex and JSON lines for the sluice tool (text_codec.h).

#include "text_codec.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace sluice::cli {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string Escape(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += "\\x";
          out += kHexDigits[u >> 4];
          out += kHexDigits[u & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out;
}

Status Unescape(std::string_view text, std::string* bytes) {
  bytes->clear();
  bytes->reserve(text.size());
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] != '\\') {
      *bytes += text[i];
      continue;
    }
    if (i + 1 == text.size()) return Status::InvalidArgument("a lone backslash ends the field");
    const char e = text[++i];
    switch (e) {
      case '\\': *bytes += '\\'; break;
      case 't': *bytes += '\t'; break;
      case 'n': *bytes += '\n'; break;
      case 'r': *bytes += '\r'; break;
      case 'x': {
        const int hi = i + 1 < text.size() ? HexValue(text[i + 1]) : -1;
        const int lo = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
        if (hi < 0 || lo < 0)
          return Status::InvalidArgument("\\x must be followed by 2 hex digits");
        *bytes += static_cast<char>(hi * 16 + lo);
        i += 2;
        break;
      }
      default: return Status::InvalidArgument(fmt::format("unknown escape \\{}", Escape({&e, 1})));
    }
  }
  return Status::OK();
}

std::string HexEncode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    out += kHexDigits[u >> 4];
    out += kHexDigits[u & 0xf];
  }
  return out;
}

Status HexDecode(std::string_view hex, std::string* bytes) {
  bytes->clear();
  if (hex.size() % 2 != 0) {
    return Status::InvalidArgument(fmt::format("hex string of odd length {}", hex.size()));
  }
  bytes->reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexValue(hex[i]), lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) {
      return Status::InvalidArgument(
          fmt::format("not a hex digit at position {}", hi < 0 ? i : i + 1));
    }
    *bytes += static_cast<char>(hi * 16 + lo);
  }
  return Status::OK();
}

bool IsValidUtf8(std::string_view bytes) {
  size_t i = 0;
  while (i < bytes.size()) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    size_t n;  // continuation bytes
    uint32_t cp;
    if (c < 0x80) {
      i++;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      n = 1, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= bytes.size()) return false;  // the sequence is cut off
    for (size_t k = 1; k <= n; k++) {
      const auto cc = static_cast<unsigned char>(bytes[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

std::string JsonLine(std::string_view key, std::string_view value, bool with_value) {
  nlohmann::ordered_json j;
  auto put = [&j](const char* name, std::string_view bytes) {
    if (IsValidUtf8(bytes)) {
      j[name] = std::string(bytes);
    } else {
      j[std::string(name) + "_hex"] = HexEncode(bytes);
    }
  };
  put("key", key);
  if (with_value) put("value", value);
  return j.dump(-1, ' ', /*ensure_ascii=*/false);
}

namespace {

// Reads field `name` (text) or `name`_hex (hex) of j into *bytes.
Status ReadJsonField(const nlohmann::json& j, const std::string& name, std::string* bytes) {
  const std::string hex_name = name + "_hex";
  const bool has_text = j.contains(name), has_hex = j.contains(hex_name);
  if (has_text == has_hex) {
    return Status::InvalidArgument(
        fmt::format("needs exactly one of \"{}\" and \"{}\"", name, hex_name));
  }
  const nlohmann::json& field = j[has_text ? name : hex_name];
  if (!field.is_string()) {
    return Status::InvalidArgument(
        fmt::format("\"{}\" is not a string", has_text ? name : hex_name));
  }
  if (has_text) {
    *bytes = field.get<std::string>();
    return Status::OK();
  }
  Status s = HexDecode(field.get<std::string>(), bytes);
  return s.ok() ? s : Status::InvalidArgument(fmt::format("\"{}\"", hex_name), s.message());
}

}  // namespace

Status ParseJsonLine(std::string_view line, std::string* key, std::string* value) {
  // The tool keeps exceptions out of its interfaces: the parser's are turned into a Status here.
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("not valid JSON");
  if (!j.is_object()) return Status::InvalidArgument("not a JSON object");
  Status s = ReadJsonField(j, "key", key);
  if (s.ok()) s = ReadJsonField(j, "value", value);
  return s;
}

std::string FormatEntry(std::string_view key, std::string_view value, bool hex, bool json,
                        bool with_value) {
  if (json) return JsonLine(key, value, with_value) + "\n";
  std::string line = Show(key, hex);
  if (with_value) {
    line += '\t';
    line += Show(value, hex);
  }
  line += '\n';
  return line;
}

Status ParseEntry(std::string_view line, bool hex, bool json, std::string* key,
                  std::string* value) {
  if (json) return ParseJsonLine(line, key, value);
  const size_t tab = line.find('\t');
  if (tab == std::string_view::npos) return Status::InvalidArgument("no tab between key and value");
  if (line.find('\t', tab + 1) != std::string_view::npos) {
    return Status::InvalidArgument("more than one tab (tabs inside a field are written \\t)");
  }
  const std::string_view k = line.substr(0, tab), v = line.substr(tab + 1);
  Status s = hex ? HexDecode(k, key) : Unescape(k, key);
  if (!s.ok()) return Status::InvalidArgument("key", s.message());
  s = hex ? HexDecode(v, value) : Unescape(v, value);
  if (!s.ok()) return Status::InvalidArgument("value", s.message());
  return Status::OK();
}

}  // namespace sluice::cli
