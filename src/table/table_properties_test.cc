// Tests of table/table_properties: round trip of every field, tolerance of unknown and missing
// properties, and Corruption on malformed values.

#include "table/table_properties.h"

#include <gtest/gtest.h>

#include "support/test_util.h"
#include "table/block_builder.h"
#include "util/coding.h"
#include "util/comparator.h"

namespace sluice {

namespace {

const std::string kFname = "/db/000003.sst";

Status Decode(std::string contents, TableProperties* props) {
  Block block(BlockContents{std::move(contents)});
  return DecodeTableProperties(block, kFname, 777, props);
}

}  // namespace

TEST(TableProperties, EveryFieldRoundTrips) {
  TableProperties p;
  p.num_entries = 1;
  p.num_deletions = 2;
  p.raw_key_size = 3;
  p.raw_value_size = 4;
  p.data_size = 5;
  p.index_size = 6;
  p.filter_size = 7;
  p.num_data_blocks = 8;
  p.smallest_seqno = 9;
  p.largest_seqno = (uint64_t{1} << 56) - 1;
  p.compression = 3;
  p.creation_time = 1700000000;
  p.num_range_deletions = 10;
  TableProperties back;
  ASSERT_OK(Decode(EncodeTableProperties(p), &back));
  EXPECT_EQ(p.ToString(), back.ToString());
  EXPECT_EQ(p.largest_seqno, back.largest_seqno);
  EXPECT_EQ(3, back.compression);
  EXPECT_EQ(10u, back.num_range_deletions);
}

TEST(TableProperties, NamesAreStoredInBytewiseOrder) {
  Block block(BlockContents{EncodeTableProperties(TableProperties())});
  auto it = block.NewIterator(BytewiseComparator(), kFname, 0);
  std::string prev;
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    EXPECT_LT(prev, it->key().ToString());
    prev = it->key().ToString();
  }
  EXPECT_EQ(13, n);
  it->Seek("sluice.num.entries");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("sluice.num.entries", it->key().ToString());
}

TEST(TableProperties, ToStringNamesEveryField) {
  TableProperties p;
  p.num_entries = 42;
  p.compression = 2;
  const std::string s = p.ToString();
  for (const char* field :
       {"num_entries=42", "num_deletions=0", "raw_key_size=", "raw_value_size=", "data_size=",
        "index_size=", "filter_size=", "num_data_blocks=", "smallest_seqno=", "largest_seqno=",
        "compression=zstd", "creation_time="}) {
    EXPECT_NE(std::string::npos, s.find(field)) << field << " in " << s;
  }
}

TEST(TableProperties, UnknownPropertiesAreIgnoredAndMissingOnesAreZero) {
  BlockBuilder b(1);
  std::string v;
  PutVarint64(&v, 99);
  b.Add("sluice.num.entries", v);
  b.Add("zzz.future.property", v);
  TableProperties back;
  back.num_deletions = 5;
  ASSERT_OK(Decode(b.Finish().ToString(), &back));
  EXPECT_EQ(99u, back.num_entries);
  EXPECT_EQ(0u, back.num_deletions);
}

TEST(TableProperties, MalformedValueIsCorruption) {
  BlockBuilder b(1);
  b.Add("sluice.num.entries", "\xff\xff");
  TableProperties back;
  Status s = Decode(b.Finish().ToString(), &back);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("bad value of property sluice.num.entries"));
  EXPECT_NE(std::string::npos, s.ToString().find(kFname));

  BlockBuilder trailing(1);
  trailing.Add("sluice.num.entries", std::string("\x01junk", 5));
  EXPECT_TRUE(Decode(trailing.Finish().ToString(), &back).IsCorruption());

  BlockBuilder big(1);
  std::string v;
  PutVarint64(&v, 256);
  big.Add("sluice.compression", v);
  EXPECT_TRUE(Decode(big.Finish().ToString(), &back).IsCorruption());
}

TEST(TableProperties, CorruptBlockIsCorruption) {
  TableProperties back;
  Status s = Decode("xy", &back);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(std::string::npos, s.ToString().find("in block at offset 777"));
}

}  // namespace sluice
