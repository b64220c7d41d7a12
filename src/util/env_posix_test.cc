// util/env_posix_test.cc — the POSIX Env's memory-mapped table reads
// (NewMappedRandomAccessFile): views of the file as it was at open, short reads past its end,
// the pread fallback for an empty file, and errors naming the file. And the writable files'
// disk reservation: space reserved ahead of the writes, the size only what was written, the
// rest given back at Close; a file opened to append to is not truncated.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "sluice/env.h"
#include "support/test_util.h"

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

TEST(PosixMappedFile, ReadsAreViewsOfTheFile) {
  test::TempDir dir;
  std::string contents;
  for (int i = 0; i < 10000; i++) contents += std::to_string(i) + ",";
  const std::string fname = WriteFile(dir.path() + "/t.sst", contents);
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(fname, &file));
  EXPECT_TRUE(file->ReturnsViews());
  Slice got;
  ASSERT_OK(file->Read(100, 50, &got, nullptr));
  EXPECT_EQ(contents.substr(100, 50), got.ToString());
  const Slice again = got;
  ASSERT_OK(file->Read(100, 50, &got, nullptr));
  EXPECT_EQ(again.data(), got.data());  // the same memory: no copy
  // Past the end: fewer bytes, then none, as pread gives at end of file.
  ASSERT_OK(file->Read(contents.size() - 10, 50, &got, nullptr));
  EXPECT_EQ(contents.substr(contents.size() - 10), got.ToString());
  ASSERT_OK(file->Read(contents.size() + 4096, 50, &got, nullptr));
  EXPECT_EQ(0u, got.size());

  // The pread file reads the same bytes into scratch.
  std::unique_ptr<RandomAccessFile> plain;
  ASSERT_OK(Env::Default()->NewRandomAccessFile(fname, &plain));
  EXPECT_FALSE(plain->ReturnsViews());
  char scratch[50];
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
  Slice got;
  ASSERT_OK(file->Read(2, 100, &got, nullptr));
  EXPECT_EQ("cdef", got.ToString());

  // An empty file cannot be mapped: it is read with pread, and reads nothing.
  const std::string empty = WriteFile(dir.path() + "/empty.sst", "");
  ASSERT_OK(Env::Default()->NewMappedRandomAccessFile(empty, &file));
  EXPECT_FALSE(file->ReturnsViews());
  char scratch[8];
  ASSERT_OK(file->Read(0, 8, &got, scratch));
  EXPECT_EQ(0u, got.size());
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
