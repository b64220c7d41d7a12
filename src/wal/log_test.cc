// Tests of the WAL/MANIFEST log format: round trips across block boundaries, many concurrent
// writers (order of records == order of reservation), torn tails, mid-file damage, zero-filled
// files, and I/O errors.

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "sluice/env.h"
#include "support/test_util.h"
#include "util/coding.h"
#include "util/random.h"
#include "wal/log_format.h"
#include "wal/log_reader.h"
#include "wal/log_writer.h"

namespace sluice::log {

namespace {

struct Problems : public Reader::Reporter {
  struct Entry {
    Problem problem;
    uint64_t offset;
    size_t bytes;
    std::string message;
  };
  std::vector<Entry> list;
  void Report(Problem p, uint64_t offset, size_t bytes, const Status& s) override {
    list.push_back({p, offset, bytes, s.ToString()});
  }
};

std::string Payload(int i, size_t n) {
  std::string s = "record-" + std::to_string(i) + ":";
  while (s.size() < n) s.push_back(static_cast<char>('a' + (s.size() * 7 + i) % 26));
  s.resize(n);
  return s;
}

class LogTest : public ::testing::Test {
 protected:
  test::TempDir dir_;
  std::string fname_ = dir_.File("000001.log");

  std::unique_ptr<Writer> NewWriter() {
    std::unique_ptr<WritableFile> file;
    EXPECT_OK(Env::Default()->NewWritableFile(fname_, &file));
    return std::make_unique<Writer>(std::move(file), fname_);
  }

  std::vector<std::string> ReadAll(Problems* problems) {
    std::unique_ptr<SequentialFile> file;
    EXPECT_OK(Env::Default()->NewSequentialFile(fname_, &file));
    Reader reader(std::move(file), fname_, problems);
    std::vector<std::string> records;
    Slice record;
    std::string scratch;
    while (reader.ReadRecord(&record, &scratch)) records.push_back(record.ToString());
    return records;
  }
};

}  // namespace

TEST(LogFormat, PhysicalEndMatchesEncoding) {
  Random rnd(1);
  for (int i = 0; i < 2000; i++) {
    const uint64_t start = rnd.Uniform(5 * kBlockSize);
    const size_t n = rnd.OneIn(10) ? rnd.Uniform(3 * kBlockSize) : rnd.Uniform(300);
    std::string payload(n, 'x');
    std::string out;
    EncodePhysical(start, payload, &out);
    ASSERT_EQ(PhysicalEnd(start, n), start + out.size()) << start << " " << n;
  }
}

TEST_F(LogTest, RoundTripAcrossBlockBoundaries) {
  std::vector<std::string> written;
  {
    auto w = NewWriter();
    Random rnd(2);
    for (int i = 0; i < 500; i++) {
      size_t n = rnd.OneIn(20) ? rnd.Uniform(100000) : rnd.Uniform(200);
      if (i == 3) n = kBlockSize - kHeaderSize;  // exactly fills a block
      if (i == 4) n = 0;
      written.push_back(Payload(i, n));
      ASSERT_OK(w->AddRecord(written.back(), i % 50 == 0));
    }
    ASSERT_OK(w->Close());
  }
  Problems problems;
  EXPECT_EQ(written, ReadAll(&problems));
  EXPECT_TRUE(problems.list.empty());
}

TEST_F(LogTest, ConcurrentWritersKeepReservationOrderWithoutHoles) {
  constexpr int kThreads = 4, kPerThread = 2000;
  {
    auto w = NewWriter();
    std::atomic<uint64_t> next_seq{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
      threads.emplace_back([&, t] {
        Random rnd(t + 10);
        for (int i = 0; i < kPerThread; i++) {
          const size_t n = 8 + rnd.Uniform(t == 0 ? 40000 : 300);
          std::string payload = Payload(i, n);
          Writer::Reservation r;
          uint64_t seq = 0;
          ASSERT_OK(w->Reserve(
              n, [&] { seq = next_seq.fetch_add(1); }, &r));
          EncodeFixed64(payload.data(), seq);
          ASSERT_OK(w->Commit(r, payload, /*sync=*/rnd.OneIn(100)));
        }
      });
    }
    for (auto& th : threads) th.join();
    ASSERT_OK(w->Close());
  }
  Problems problems;
  std::vector<std::string> records = ReadAll(&problems);
  EXPECT_TRUE(problems.list.empty());
  ASSERT_EQ(static_cast<size_t>(kThreads * kPerThread), records.size());
  for (size_t i = 0; i < records.size(); i++) {
    ASSERT_EQ(i, DecodeFixed64(records[i].data())) << "records out of sequence order";
  }
}

TEST_F(LogTest, TruncationAnywhereYieldsAPrefixAndReportsATornTail) {
  std::vector<std::string> written;
  std::vector<uint64_t> ends;
  {
    auto w = NewWriter();
    for (int i = 0; i < 60; i++) {
      written.push_back(Payload(i, i % 7 == 0 ? 40000 : 100 + i));
      ASSERT_OK(w->AddRecord(written.back(), false));
      ends.push_back(w->ReservedSize());
    }
    ASSERT_OK(w->Close());
  }
  const std::string full = test::ReadFileOrDie(fname_);
  Random rnd(3);
  for (int trial = 0; trial < 200; trial++) {
    const uint64_t cut = rnd.Uniform(full.size() + 1);
    test::WriteFileOrDie(fname_, full.substr(0, cut));
    Problems problems;
    std::vector<std::string> got = ReadAll(&problems);
    size_t complete = 0;
    while (complete < ends.size() && ends[complete] <= cut) complete++;
    ASSERT_EQ(complete, got.size()) << "cut at " << cut;
    for (size_t i = 0; i < got.size(); i++) ASSERT_EQ(written[i], got[i]);
    const bool at_boundary = cut == 0 || (complete > 0 && ends[complete - 1] == cut);
    if (at_boundary) {
      EXPECT_TRUE(problems.list.empty()) << "cut at " << cut;
    } else {
      for (const auto& p : problems.list) {
        EXPECT_EQ(Problem::kTruncatedTail, p.problem) << p.message;
      }
    }
  }
}

// Found by tests/fuzz/wal_reader_fuzzer: when the file ended inside the second fragment of a
// record, the cut fragment was reported before the record it belongs to, which starts earlier:
// problems were not in file order, as the reader promises.
TEST_F(LogTest, TornRecordAtTheEndIsReportedInFileOrder) {
  {
    auto w = NewWriter();
    ASSERT_OK(w->AddRecord(Payload(1, 100), false));
    ASSERT_OK(w->AddRecord(Payload(2, 40000), false));  // FIRST + LAST fragments
    ASSERT_OK(w->Close());
  }
  const std::string full = test::ReadFileOrDie(fname_);
  // Cut inside the LAST fragment's payload, then inside its header.
  for (const uint64_t cut : {kBlockSize + 100, kBlockSize + 3}) {
    test::WriteFileOrDie(fname_, full.substr(0, cut));
    Problems problems;
    std::vector<std::string> got = ReadAll(&problems);
    ASSERT_EQ(1u, got.size()) << "cut at " << cut;
    ASSERT_EQ(2u, problems.list.size()) << "cut at " << cut;
    const uint64_t record_start = kHeaderSize + 100;
    EXPECT_EQ(Problem::kTruncatedTail, problems.list[0].problem);
    EXPECT_EQ(record_start, problems.list[0].offset) << problems.list[0].message;
    EXPECT_EQ(Problem::kTruncatedTail, problems.list[1].problem);
    EXPECT_EQ(kBlockSize, problems.list[1].offset) << problems.list[1].message;
    EXPECT_EQ(cut - kBlockSize, problems.list[1].bytes);
  }
}

TEST_F(LogTest, DamageInTheMiddleIsReportedAndLaterRecordsStillRead) {
  {
    auto w = NewWriter();
    for (int i = 0; i < 3000; i++) ASSERT_OK(w->AddRecord(Payload(i, 100), false));
    ASSERT_OK(w->Close());
  }
  test::FlipByte(fname_, kBlockSize + 500);  // somewhere in the second block
  Problems problems;
  std::vector<std::string> got = ReadAll(&problems);
  // The checksum failure, possibly followed by the tail of a record that began in the dropped
  // part of the block.
  ASSERT_GE(problems.list.size(), 1u);
  ASSERT_LE(problems.list.size(), 2u);
  EXPECT_EQ(Problem::kChecksum, problems.list[0].problem);
  if (problems.list.size() == 2) {
    EXPECT_EQ(Problem::kFragmentOrder, problems.list[1].problem);
  }
  EXPECT_NE(std::string::npos, problems.list[0].message.find(fname_));
  EXPECT_NE(std::string::npos, problems.list[0].message.find("Corruption"));
  // The rest of the damaged block is lost, every record after it is read.
  EXPECT_LT(got.size(), 3000u);
  EXPECT_GT(got.size(), 2500u);
  EXPECT_EQ(Payload(2999, 100), got.back());
}

TEST_F(LogTest, ZeroFilledFileIsReported) {
  test::WriteFileOrDie(fname_, std::string(3 * kBlockSize + 100, '\0'));
  Problems problems;
  EXPECT_TRUE(ReadAll(&problems).empty());
  ASSERT_FALSE(problems.list.empty());
  for (const auto& p : problems.list) EXPECT_EQ(Problem::kZeroFilled, p.problem);
}

namespace {

// A file whose appends start failing after `ok_appends`.
class FailingFile : public WritableFile {
 public:
  explicit FailingFile(int ok_appends) : ok_appends_(ok_appends) {}
  Status Append(const Slice& data) override {
    if (ok_appends_-- <= 0) return Status::IOError("test.log", "No space left on device");
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }

 private:
  int ok_appends_;
};

}  // namespace

TEST(LogWriter, AppendErrorFailsTheWriterAndEveryLaterWrite) {
  Writer w(std::make_unique<FailingFile>(3), "test.log");
  for (int i = 0; i < 3; i++) ASSERT_OK(w.AddRecord("ok", false));
  Status s = w.AddRecord("fails", false);
  EXPECT_TRUE(s.IsIOError());
  EXPECT_NE(std::string::npos, s.ToString().find("No space left"));
  Writer::Reservation r;
  EXPECT_TRUE(w.Reserve(10, nullptr, &r).IsIOError());
}

TEST(LogWriter, SealRefusesNewReservations) {
  Writer w(std::make_unique<FailingFile>(100), "test.log");
  Writer::Reservation r;
  ASSERT_OK(w.Reserve(5, nullptr, &r));
  w.Seal();
  Writer::Reservation r2;
  EXPECT_TRUE(w.Reserve(5, nullptr, &r2).IsBusy());
  EXPECT_OK(w.Commit(r, "hello", false));  // reserved before the seal: completes
}

}  // namespace sluice::log
