// util/env_posix_test.cc — the POSIX Env's memory-mapped table reads
// (NewMappedRandomAccessFile): copies of the file as it was at open, short reads past its end,
// the pread fallback for an empty file or past the guarded mappings' limit, pages lost under
// the mapping reported as Corruption (not SIGBUS), and errors naming the file. And the writable
// files' disk reservation: space reserved ahead of the writes, the size only what was written, the
// rest given back at Close; a file opened to append to is not truncated.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sluice/env.h"
#include "support/test_util.h"
#include "util/guarded_mapping.h"

namespace sluice {
namespace {

std::string WriteFile(const std::string& fname, const std::string& contents) {
  std::unique_ptr<WritableFile> f;
  EXPECT_OK(Env::Default()->NewWritableFile(fname, &f));
  EXPECT_OK(f->Append(contents));
  EXPECT_OK(f->Close());
  return fname;
}

// Bytes of disk the file holds.
uint64_t DiskBytes(const std::string& fname) {
  struct stat st {};
  EXPECT_EQ(0, ::stat(fname.c_str(), &st));
  return static_cast<uint64_t>(st.st_blocks) * 512;
}

TEST(PosixWritableFile, ReservesAheadAndGivesTheRestBackAtClose) {
  test::TempDir dir;
  const std::string fname = dir.path() + "/000004.log";
  // Whether this file system reserves at all (ext4, xfs, tmpfs do).
  const std::string probe = dir.path() + "/probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  const bool reserves = ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 1 << 20) == 0;
  ::close(fd);

  std::unique_ptr<WritableFile> f;
  ASSERT_OK(Env::Default()->NewWritableFile(fname, &f));
  const std::string record(1000, 'r');
  for (int i = 0; i < 2100; i++) ASSERT_OK(f->Append(record));  // 2.1 MB
  ASSERT_OK(f->Flush());
  std::error_code ec;
  EXPECT_EQ(2100000u, std::filesystem::file_size(fname, ec));
  if (reserves) {
    EXPECT_GE(DiskBytes(fname), uint64_t{3} << 20);  // three whole chunks
  }
  ASSERT_OK(f->Close());
  EXPECT_EQ(2100000u, std::filesystem::file_size(fname, ec));
  EXPECT_LT(DiskBytes(fname), 2100000u + (64u << 10));  // the reservation past the end is gone

  // A file cut shorter while open (a simulated power loss) is not extended again at Close.
  const std::string cut = dir.path() + "/000005.log";
  ASSERT_OK(Env::Default()->NewWritableFile(cut, &f));
  for (int i = 0; i < 100; i++) ASSERT_OK(f->Append(record));
  ASSERT_OK(f->Flush());
  ASSERT_EQ(0, ::truncate(cut.c_str(), 1000));
  ASSERT_OK(f->Close());
  EXPECT_EQ(1000u, std::filesystem::file_size(cut, ec));

  // Appending to an existing file keeps what it holds.
  ASSERT_OK(Env::Default()->NewAppendableFile(fname, &f));
  ASSERT_OK(f->Append("tail"));
  ASSERT_OK(f->Close());
  EXPECT_EQ(2100004u, std::filesystem::file_size(fname, ec));
}

// Keeps a copy of the bytes ReadWith lends it.
class CopyingConsumer final : public ReadConsumer {
 public:
  Status Use(const Slice& bytes) override {
    uses++;
    copy = bytes.ToString();
    return Status::OK();
  }
  int uses = 0;
  std::string copy;
};

TEST(PosixMappedFile, ReadsCopyTheFileAsItWasAtOpen) {
  test::TempDir dir;
  std::string contents;
  for (int i = 0; i < 10000; i++) contents += std::to_string(i) + ",";
  const std::string fname = WriteFile(dir.path() + "/t.sst", contents);
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(fname, &file));
  EXPECT_FALSE(file->ReturnsViews());  // copies: a view could fault long after the read
  char scratch[50];
  Slice got;
  ASSERT_OK(file->Read(100, 50, &got, scratch));
  EXPECT_EQ(contents.substr(100, 50), got.ToString());
  EXPECT_EQ(scratch, got.data());
  ASSERT_OK(file->ReadOnce(100, 50, &got, scratch));  // pread
  EXPECT_EQ(contents.substr(100, 50), got.ToString());
  CopyingConsumer consumer;  // lent a view of the mapping
  ASSERT_OK(file->ReadWith(100, 50, nullptr, &consumer));
  EXPECT_EQ(contents.substr(100, 50), consumer.copy);
  ASSERT_OK(file->ReadWith(contents.size() - 10, 50, nullptr, &consumer));
  EXPECT_EQ(contents.substr(contents.size() - 10), consumer.copy);
  EXPECT_EQ(2, consumer.uses);
  // Past the end: fewer bytes, then none, as pread gives at end of file.
  ASSERT_OK(file->Read(contents.size() - 10, 50, &got, scratch));
  EXPECT_EQ(contents.substr(contents.size() - 10), got.ToString());
  ASSERT_OK(file->Read(contents.size() + 4096, 50, &got, scratch));
  EXPECT_EQ(0u, got.size());
  ASSERT_OK(file->ReadOnce(contents.size() + 4096, 50, &got, scratch));
  EXPECT_EQ(0u, got.size());

  // The pread file reads the same bytes into scratch.
  std::unique_ptr<RandomAccessFile> plain;
  ASSERT_OK(Env::Default()->NewRandomAccessFile(fname, &plain));
  EXPECT_FALSE(plain->ReturnsViews());
  ASSERT_OK(plain->Read(100, 50, &got, scratch));
  EXPECT_EQ(contents.substr(100, 50), got.ToString());
}

TEST(PosixMappedFile, GrowthAfterOpenIsNotReadAndEmptyFilesAreRead) {
  test::TempDir dir;
  const std::string fname = WriteFile(dir.path() + "/t.sst", "abcdef");
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(fname, &file));
  // Bytes appended after the open lie past the mapping: reads stop at the length at open.
  std::unique_ptr<WritableFile> more;
  ASSERT_OK(Env::Default()->NewAppendableFile(fname, &more));
  ASSERT_OK(more->Append(std::string(8192, 'x')));
  ASSERT_OK(more->Close());
  char scratch[100];
  Slice got;
  ASSERT_OK(file->Read(2, 100, &got, scratch));
  EXPECT_EQ("cdef", got.ToString());

  // An empty file cannot be mapped: it is read with pread, and reads nothing.
  const std::string empty = WriteFile(dir.path() + "/empty.sst", "");
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(empty, &file));
  ASSERT_OK(file->Read(0, 8, &got, scratch));
  EXPECT_EQ(0u, got.size());
}

// A file truncated under its mapping: a read of a lost page is Corruption naming the file (the
// process survives its SIGBUS), and so is every later read of the mapping (Read or ReadWith),
// even of pages that survived (the lost ones now read as zeros). ReadOnce (pread) sees the file as
// it now is.
TEST(PosixMappedFile, PagesLostUnderTheMappingAreCorruptionNotACrash) {
  test::TempDir dir;
  std::string contents;
  for (int i = 0; i < 20000; i++) contents += std::to_string(i) + ",";
  ASSERT_GT(contents.size(), 64u << 10);
  const std::string fname = WriteFile(dir.path() + "/t.sst", contents);
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(fname, &file));
  std::string scratch(4096, '\0');
  Slice got;
  ASSERT_OK(file->Read(50000, 4096, &got, scratch.data()));  // mapped in before the cut
  EXPECT_EQ(contents.substr(50000, 4096), got.ToString());
  std::unique_ptr<RandomAccessFile> second;  // faults first inside a consumer
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(fname, &second));
  ASSERT_EQ(0, ::truncate(fname.c_str(), 8192));

  CopyingConsumer lent;
  Status lost = second->ReadWith(50000, 4096, nullptr, &lent);
  EXPECT_EQ(1, lent.uses);  // it ran, read zeros, and its OK was overruled
  EXPECT_TRUE(lost.IsCorruption()) << lost.ToString();
  EXPECT_NE(std::string::npos, lost.ToString().find(fname)) << lost.ToString();

  ASSERT_OK(file->Read(100, 1000, &got, scratch.data()));  // a page that survived
  EXPECT_EQ(contents.substr(100, 1000), got.ToString());
  Status s = file->Read(50000, 4096, &got, scratch.data());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(fname)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("truncated")) << s.ToString();
  EXPECT_EQ(0u, got.size());
  s = file->Read(100, 1000, &got, scratch.data());
  EXPECT_TRUE(s.IsCorruption()) << "a faulted mapping stays failed: " << s.ToString();
  CopyingConsumer consumer;
  s = file->ReadWith(100, 1000, scratch.data(), &consumer);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  ASSERT_OK(file->ReadOnce(100, 1000, &got, scratch.data()));
  EXPECT_EQ(contents.substr(100, 1000), got.ToString());
  ASSERT_OK(file->ReadOnce(50000, 4096, &got, scratch.data()));
  EXPECT_EQ(0u, got.size());

  // Another mapping of the same path, opened now, maps its new length and reads well.
  std::unique_ptr<RandomAccessFile> reopened;
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(fname, &reopened));
  ASSERT_OK(reopened->Read(100, 1000, &got, scratch.data()));
  EXPECT_EQ(contents.substr(100, 1000), got.ToString());
}

// Under ThreadSanitizer or AddressSanitizer the handler installed before ours is the
// sanitizer's, which reports the SIGBUS and exits with an error status instead.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizerTakesSigbus = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
constexpr bool kSanitizerTakesSigbus = true;
#else
constexpr bool kSanitizerTakesSigbus = false;
#endif
#else
constexpr bool kSanitizerTakesSigbus = false;
#endif

// How a process ends that the handler before ours (the default action, or a sanitizer's) got
// a SIGBUS in.
bool EndedByThePreviousBusHandler(int status) {
  if (WIFSIGNALED(status)) return WTERMSIG(status) == SIGBUS;
  return kSanitizerTakesSigbus && WIFEXITED(status) && WEXITSTATUS(status) != 0;
}

// The handler absorbs only faults in its own mappings: any other SIGBUS ends the process as it
// would have without it (here a lost page of a mapping made with mmap directly, and a SIGBUS
// sent with kill).
TEST(PosixMappedFileDeathTest, OtherBusErrorsStillKillTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  test::TempDir dir;
  const std::string fname = WriteFile(dir.path() + "/t.sst", std::string(3 * 4096, 'x'));
  const std::string other = WriteFile(dir.path() + "/other", std::string(3 * 4096, 'y'));
  auto fault_outside_the_guard = [&] {
    std::unique_ptr<RandomAccessFile> guarded;  // installs the handler
    if (!Env::Default()->NewMappedRandomAccessFile(fname, &guarded).ok()) std::abort();
    const int fd = ::open(other.c_str(), O_RDONLY);
    auto* base =
        static_cast<volatile char*>(::mmap(nullptr, 3 * 4096, PROT_READ, MAP_SHARED, fd, 0));
    if (::truncate(other.c_str(), 0) != 0) std::abort();
    (void)base[2 * 4096];
  };
  EXPECT_EXIT(fault_outside_the_guard(), EndedByThePreviousBusHandler, "");
  auto sent = [&] {
    std::unique_ptr<RandomAccessFile> guarded;
    if (!Env::Default()->NewMappedRandomAccessFile(fname, &guarded).ok()) std::abort();
    ::kill(::getpid(), SIGBUS);
    std::exit(0);
  };
  EXPECT_EXIT(sent(), EndedByThePreviousBusHandler, "");
}

// Past kMaxGuardedMappings at once, Map declines (the Env then reads with pread) until one is
// released.
TEST(GuardedMapping, DeclinesPastItsSlotsUntilOneIsFreed) {
  test::TempDir dir;
  const std::string fname = WriteFile(dir.path() + "/t.sst", "guarded");
  const int fd = ::open(fname.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::vector<std::unique_ptr<GuardedMapping>> held;
  for (size_t i = 0; i < kMaxGuardedMappings; i++) {
    std::unique_ptr<GuardedMapping> m;
    ASSERT_OK(GuardedMapping::Map(fd, 7, fname, &m));
    ASSERT_NE(nullptr, m) << i;
    held.push_back(std::move(m));
  }
  std::unique_ptr<GuardedMapping> extra;
  ASSERT_OK(GuardedMapping::Map(fd, 7, fname, &extra));
  EXPECT_EQ(nullptr, extra);
  std::unique_ptr<RandomAccessFile> file;  // the Env falls back to pread
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(fname, &file));
  char scratch[7];
  Slice got;
  ASSERT_OK(file->Read(0, 7, &got, scratch));
  EXPECT_EQ("guarded", got.ToString());
  held.pop_back();
  ASSERT_OK(GuardedMapping::Map(fd, 7, fname, &extra));
  ASSERT_NE(nullptr, extra);
  ASSERT_OK(extra->CopyOut(0, 7, scratch, fname));
  EXPECT_EQ("guarded", std::string(scratch, 7));
  EXPECT_EQ(0u, extra->faults());
  ::close(fd);
}

TEST(PosixMappedFile, MissingFileIsNotFoundNamingIt) {
  test::TempDir dir;
  std::unique_ptr<RandomAccessFile> file;
  const std::string fname = dir.path() + "/missing.sst";
  Status s = Env::Default()->NewMappedRandomAccessFile(fname, &file);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(fname)) << s.ToString();
}

// EnvWrapper keeps the default: a wrapper that intercepts NewRandomAccessFile sees mapped opens.
TEST(PosixMappedFile, EnvWrapperOpensThroughNewRandomAccessFile) {
  class CountingEnv final : public EnvWrapper {
   public:
    CountingEnv() : EnvWrapper(Env::Default()) {}
    Status NewRandomAccessFile(const std::string& f,
                               std::unique_ptr<RandomAccessFile>* r) override {
      opens++;
      return EnvWrapper::NewRandomAccessFile(f, r);
    }
    int opens = 0;
  };
  test::TempDir dir;
  const std::string fname = WriteFile(dir.path() + "/t.sst", "abc");
  CountingEnv env;
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(env.NewMappedRandomAccessFile(fname, &file));
  EXPECT_EQ(1, env.opens);
  EXPECT_FALSE(file->ReturnsViews());
}

}  // namespace
}  // namespace sluice
