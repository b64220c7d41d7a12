// Tests of the sluice tool's text encodings (tools/sluice/text_codec.h): every byte string
// round-trips through escaped fields, hex and JSON lines; bad input is an error, never a crash.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "support/test_util.h"
#include "text_codec.h"

namespace sluice::cli {
namespace {

std::string RandomBytes(std::mt19937* rng, size_t max_len) {
  std::string s(std::uniform_int_distribution<size_t>(0, max_len)(*rng), '\0');
  for (char& c : s) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(*rng));
  return s;
}

TEST(CliTextCodec, EveryByteStringRoundTripsThroughEveryEncoding) {
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; i++) {
    const std::string k = RandomBytes(&rng, 20), v = RandomBytes(&rng, 50);
    std::string k2, v2;
    ASSERT_OK(Unescape(Escape(k), &k2));
    ASSERT_EQ(k, k2);
    ASSERT_OK(HexDecode(HexEncode(k), &k2));
    ASSERT_EQ(k, k2);
    for (bool hex : {false, true}) {
      for (bool json : {false, true}) {
        std::string line = FormatEntry(k, v, hex, json);
        ASSERT_EQ('\n', line.back());
        line.pop_back();
        ASSERT_EQ(std::string::npos, line.find('\n'));  // one entry, one line
        ASSERT_OK(ParseEntry(line, hex, json, &k2, &v2)) << line;
        ASSERT_EQ(k, k2);
        ASSERT_EQ(v, v2);
      }
    }
  }
}

TEST(CliTextCodec, EscapingKeepsTextReadable) {
  EXPECT_EQ("user:42", Escape("user:42"));
  EXPECT_EQ("a\\tb\\nc\\\\d\\x00\\x7f", Escape(std::string("a\tb\nc\\d\0\x7f", 9)));
  EXPECT_EQ("ключ", Escape("ключ"));
  EXPECT_EQ(R"({"key":"ключ","value":"v"})", JsonLine("ключ", "v"));
  EXPECT_EQ(R"({"key_hex":"ff","value":"v"})", JsonLine("\xff", "v"));
  EXPECT_EQ(R"({"key":"k"})", JsonLine("k", "v", /*with_value=*/false));
}

TEST(CliTextCodec, BadInputIsInvalidArgument) {
  std::string k, v;
  for (const char* bad : {"a\\", "\\q", "\\x4", "\\xzz"}) {
    EXPECT_TRUE(Unescape(bad, &k).IsInvalidArgument()) << bad;
  }
  EXPECT_TRUE(HexDecode("abc", &k).IsInvalidArgument());
  EXPECT_TRUE(HexDecode("zz", &k).IsInvalidArgument());
  EXPECT_TRUE(ParseEntry("no tab", false, false, &k, &v).IsInvalidArgument());
  EXPECT_TRUE(ParseEntry("a\tb\tc", false, false, &k, &v).IsInvalidArgument());
  for (const char* bad :
       {"", "{", "[1]", R"({"key":"a"})", R"({"key":1,"value":"v"})",
        R"({"key":"a","key_hex":"61","value":""})", R"({"key_hex":"6","value":""})"}) {
    EXPECT_TRUE(ParseJsonLine(bad, &k, &v).IsInvalidArgument()) << bad;
  }
  ASSERT_OK(ParseJsonLine(R"({"value_hex":"00ff","key":"k"})", &k, &v));
  EXPECT_EQ(std::string("\0\xff", 2), v);
}

TEST(CliTextCodec, Utf8ValidationFollowsTheStandard) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80"));  // é ✓ 😀
  EXPECT_FALSE(IsValidUtf8("\xc3"));                                 // cut off
  EXPECT_FALSE(IsValidUtf8("\xe2\x9c"));                             // cut off
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));                             // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));                         // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));                     // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\x80"));                                 // lone continuation
  EXPECT_FALSE(IsValidUtf8("\xff"));
}

}  // namespace
}  // namespace sluice::cli
