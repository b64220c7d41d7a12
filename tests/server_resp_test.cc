// Unit tests of sluice-server's RESP2 request parser (tools/sluice_server/resp_parser.h) and its
// glob matcher (glob.h): requests split at every byte, pipelined requests, inline requests with
// quoting, every protocol error, and limits that refuse a huge declared length before any
// allocation.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "glob.h"
#include "resp_parser.h"

namespace sluice::server {
namespace {

using Args = std::vector<std::string>;
using Result = RespParser::Result;

// Feeds `input` in pieces of `step` bytes and collects every request until an error.
std::vector<Args> ParseAll(const std::string& input, size_t step, std::string* error = nullptr,
                           const ParserLimits& limits = ParserLimits()) {
  RespParser p(limits);
  std::vector<Args> out;
  Args args;
  for (size_t i = 0; i < input.size(); i += step) {
    p.Feed(input.data() + i, std::min(step, input.size() - i));
    while (true) {
      const Result r = p.Next(&args);
      if (r == Result::kRequest) {
        out.push_back(args);
        continue;
      }
      if (r == Result::kError) {
        if (error) *error = p.error();
        return out;
      }
      break;
    }
  }
  return out;
}

TEST(ServerRespParser, MultibulkSplitAtEveryByte) {
  const std::string req = "*3\r\n$3\r\nSET\r\n$3\r\nk\r\n\r\n$0\r\n\r\n";
  for (size_t step = 1; step <= req.size(); ++step) {
    const auto got = ParseAll(req + req, step);
    ASSERT_EQ(got.size(), 2u) << step;
    EXPECT_EQ(got[0], (Args{"SET", "k\r\n", ""}));
    EXPECT_EQ(got[1], got[0]);
  }
}

TEST(ServerRespParser, ManyPipelinedRequestsInOneRead) {
  std::string input;
  for (int i = 0; i < 1000; ++i) {
    const std::string k = std::to_string(i);
    input += "*2\r\n$3\r\nGET\r\n$" + std::to_string(k.size()) + "\r\n" + k + "\r\n";
  }
  const auto got = ParseAll(input, input.size());
  ASSERT_EQ(got.size(), 1000u);
  EXPECT_EQ(got[999], (Args{"GET", "999"}));
}

TEST(ServerRespParser, InlineRequests) {
  const auto got = ParseAll("PING\r\n\r\nset  a \"b c\\n\\x41\"\nECHO 'it\\'s'\r\n*0\r\nX\n", 3);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], (Args{"PING"}));
  EXPECT_EQ(got[1], (Args{"set", "a", "b c\nA"}));
  EXPECT_EQ(got[2], (Args{"ECHO", "it's"}));
  EXPECT_EQ(got[3], (Args{"X"}));
}

TEST(ServerRespParser, ProtocolErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"*x\r\n", "invalid multibulk length"},
      {"*1\r\n+PING\r\n", "expected '$', got '+'"},
      {"*1\r\n$-1\r\n", "invalid bulk length"},
      {"*1\r\n$abc\r\n", "invalid bulk length"},
      {"*1\r\n$2\r\nabXY", "expected CRLF after bulk string"},
      {"GET \"a\r\n", "unbalanced quotes"},
      {"GET \"a\"b\r\n", "unbalanced quotes"},
  };
  for (const auto& [input, want] : cases) {
    std::string error;
    ParseAll(input, 1, &error);
    EXPECT_NE(error.find(want), std::string::npos) << input << " -> " << error;
    EXPECT_EQ(error.rfind("Protocol error: ", 0), 0u);
  }
}

TEST(ServerRespParser, HugeDeclaredLengthsAreRefusedBeforeAllocation) {
  std::string error;
  ParseAll("*2\r\n$3\r\nGET\r\n$10000000000\r\n", 64, &error);
  EXPECT_NE(error.find("invalid bulk length"), std::string::npos);
  ParseAll("*99999999999999\r\n", 64, &error);
  EXPECT_NE(error.find("invalid multibulk length"), std::string::npos);
  ParseAll("*1\r\n$99999999999999999999999\r\n", 64, &error);
  EXPECT_NE(error.find("invalid bulk length"), std::string::npos);

  ParserLimits small;
  small.max_request_bytes = 10;
  error.clear();
  auto got = ParseAll("*1\r\n$10\r\n0123456789\r\n", 5, &error, small);
  EXPECT_EQ(got.size(), 1u);
  EXPECT_TRUE(error.empty());
  ParseAll("*1\r\n$11\r\n", 5, &error, small);
  EXPECT_NE(error.find("invalid bulk length"), std::string::npos);
  error.clear();
  ParseAll("*2\r\n$6\r\n012345\r\n$6\r\n", 5, &error, small);  // 12 bytes in all
  EXPECT_NE(error.find("request too large"), std::string::npos);
  error.clear();
  ParseAll(std::string(70000, 'A'), 4096, &error);
  EXPECT_NE(error.find("too big inline request"), std::string::npos);
}

TEST(ServerRespParser, ErrorIsSticky) {
  RespParser p;
  Args args;
  p.Feed("*z\r\n", 4);
  EXPECT_EQ(p.Next(&args), Result::kError);
  p.Feed("PING\r\n", 6);
  EXPECT_EQ(p.Next(&args), Result::kError);
}

TEST(ServerGlob, RedisPatterns) {
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("user:*", "user:42"));
  EXPECT_FALSE(GlobMatch("user:*", "use"));
  EXPECT_TRUE(GlobMatch("h?llo", "hello"));
  EXPECT_FALSE(GlobMatch("h?llo", "hllo"));
  EXPECT_TRUE(GlobMatch("h[ae]llo", "hallo"));
  EXPECT_FALSE(GlobMatch("h[ae]llo", "hillo"));
  EXPECT_TRUE(GlobMatch("h[^e]llo", "hallo"));
  EXPECT_FALSE(GlobMatch("h[^e]llo", "hello"));
  EXPECT_TRUE(GlobMatch("h[a-c]llo", "hbllo"));
  EXPECT_TRUE(GlobMatch("a\\*b", "a*b"));
  EXPECT_FALSE(GlobMatch("a\\*b", "axb"));
  EXPECT_TRUE(GlobMatch("*a*b*c*", "xxaxxbxxcxx"));
  EXPECT_FALSE(GlobMatch("*a*b*c*d", "xxaxxbxxcxx"));
  EXPECT_TRUE(GlobMatch(std::string_view("a\0b", 3), std::string_view("a\0b", 3)));
  // No exponential backtracking.
  EXPECT_FALSE(GlobMatch("*a*a*a*a*a*a*a*a*a*b", std::string(5000, 'a')));
}

}  // namespace
}  // namespace sluice::server
