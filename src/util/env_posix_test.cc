// util/env_posix_test.cc — the POSIX Env's memory-mapped table reads
// (NewMappedRandomAccessFile): views of the file as it was at open, short reads past its end,
// the pread fallback for an empty file, and errors naming the file.

#include <gtest/gtest.h>

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
