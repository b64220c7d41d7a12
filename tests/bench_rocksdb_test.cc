// Tests of sluice_bench's RocksDB adapter (tools/sluice_bench/engine_rocksdb.cc) and its loader
// (rocksdb_c_api.h), against the real libraries: the release build scripts/install-deps.sh
// fetches and Debian's. Each test that needs a library runs on both.
//
// They check that each library loads and says what it is (version, build kind), that a missing
// or wrong library is refused with a message naming it, that every shared option reaches
// RocksDB (read back from the OPTIONS file RocksDB writes, its statistics and its table
// properties), and that the data calls work end to end.

#include <dlfcn.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sluice_bench/bench_flags.h"
#include "sluice_bench/engine_registry.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/rocksdb_c_api.h"
#include "support/test_util.h"

namespace sluice_bench {
namespace {

using sluice::test::TempDir;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "key=value" lines of the newest OPTIONS-* file RocksDB wrote in dir (every section merged:
// the names the tests read are unique across sections).
std::map<std::string, std::string> ReadOptionsFile(const std::string& dir) {
  std::string newest;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("OPTIONS-", 0) == 0 && name > newest) newest = name;
  }
  std::map<std::string, std::string> options;
  std::istringstream in(ReadText(dir + "/" + newest));
  std::string line;
  while (std::getline(in, line)) {
    const size_t start = line.find_first_not_of(' ');
    const size_t eq = line.find('=');
    if (start == std::string::npos || eq == std::string::npos || line[start] == '#') continue;
    options[line.substr(start, eq - start)] = line.substr(eq + 1);
  }
  return options;
}

// The installed release library's Maven version (scripts/fetch-rocksdb-release.sh's VERSION
// file beside it), e.g. "11.8.1" or "10.10.1.1".
std::string ReleaseMavenVersion() {
  std::string v = ReadText(
      (std::filesystem::path(ReleaseRocksDBLibraryPath()).parent_path() / "VERSION").string());
  while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
  return v;
}

struct Library {
  const char* label;
  std::string (*path)();
};

class RocksDBLibraryTest : public ::testing::TestWithParam<Library> {
 protected:
  std::string LibraryPath() const { return GetParam().path(); }
};

TEST_P(RocksDBLibraryTest, LoadsAndSaysWhatItIs) {
  std::shared_ptr<const RocksDBLibrary> lib;
  const EngineStatus s = LoadRocksDBLibrary(LibraryPath(), &lib);
  ASSERT_TRUE(s.ok()) << s.message() << " (the release build comes from scripts/install-deps.sh)";
  EXPECT_FALSE(lib->version.empty());
  if (std::string(GetParam().label) == "release") {
    // The Maven version is RocksDB's, with a fourth number for a re-release of the jar.
    EXPECT_EQ(ReleaseMavenVersion().rfind(lib->version, 0), 0u)
        << ReleaseMavenVersion() << " vs " << lib->version;
    EXPECT_FALSE(lib->assertions);
    EXPECT_EQ(lib->Describe(), "RocksDB " + lib->version + ", release build");
  } else {
    // Debian builds RocksDB without NDEBUG.
    EXPECT_EQ(lib->version, "7.8.3");
    EXPECT_TRUE(lib->assertions);
    EXPECT_EQ(lib->Describe(), "RocksDB 7.8.3, assertions enabled");
  }
  // Loaded once per path: the same object again.
  std::shared_ptr<const RocksDBLibrary> again;
  ASSERT_TRUE(LoadRocksDBLibrary(LibraryPath(), &again).ok());
  EXPECT_EQ(again.get(), lib.get());
}

// Distinct values for every shared option, so a dropped one shows.
EngineOptions DistinctOptions() {
  EngineOptions o = DefaultBenchFlags().engine;
  o.write_buffer_size = 5 << 20;
  o.max_write_buffer_number = 5;
  o.block_size = 8192;
  o.block_restart_interval = 8;
  o.cache_size = 3 << 20;
  o.bloom_bits = 7;
  o.compression = CompressionKind::kSnappy;
  o.level0_compression = CompressionKind::kNone;
  o.max_background_jobs = 3;
  o.subcompactions = 3;
  o.compaction_pri = CompactionPriKind::kRoundRobin;
  o.max_open_files = 777;
  o.mmap_read = 1;
  o.num_levels = 5;
  o.level0_file_num_compaction_trigger = 3;
  o.level0_slowdown_writes_trigger = 17;
  o.level0_stop_writes_trigger = 29;
  o.soft_pending_compaction_bytes_limit = 11ull << 30;
  o.hard_pending_compaction_bytes_limit = 13ull << 30;
  o.delayed_write_rate = 9 << 20;
  o.target_file_size_base = 3 << 20;
  o.max_bytes_for_level_base = 17 << 20;
  o.max_bytes_for_level_multiplier = 7;
  return o;
}

TEST_P(RocksDBLibraryTest, AppliesEverySharedOption) {
  TempDir dir;
  const std::string db = dir.File("db");
  std::unique_ptr<KVEngine> engine = NewRocksDBEngine();
  EngineOptions o = DistinctOptions();
  o.rocksdb_library = LibraryPath();
  ASSERT_TRUE(engine->Configure(o).ok());
  ASSERT_TRUE(engine->Open(db).ok());
  std::string value(100, 'v');
  for (int i = 0; i < 20000; i++) {
    ASSERT_TRUE(engine->Put(fmt::format("key{:08}", i), value, WriteMode{}).ok());
  }
  ASSERT_TRUE(engine->Flush().ok());
  std::string stats;
  ASSERT_TRUE(engine->GetStats(&stats).ok());
  // The block cache, of the asked capacity.
  EXPECT_NE(stats.find("rocksdb.block-cache-capacity: 3145728\n"), std::string::npos) << stats;
  ASSERT_TRUE(engine->Close().ok());

  std::map<std::string, std::string> f = ReadOptionsFile(db);
  EXPECT_EQ(f["write_buffer_size"], "5242880");
  EXPECT_EQ(f["max_write_buffer_number"], "5");
  EXPECT_EQ(f["block_size"], "8192");
  EXPECT_EQ(f["block_restart_interval"], "8");
  EXPECT_EQ(f["no_block_cache"], "false");
  EXPECT_EQ(f["filter_policy"].rfind("bloomfilter", 0), 0u) << f["filter_policy"];
  EXPECT_EQ(f["compression"], "kSnappyCompression");
  EXPECT_EQ(f["compression_per_level"],
            "kNoCompression:kSnappyCompression:kSnappyCompression:kSnappyCompression:"
            "kSnappyCompression");
  EXPECT_EQ(f["max_background_jobs"], "3");
  EXPECT_EQ(f["max_subcompactions"], "3");
  EXPECT_EQ(f["compaction_pri"], "kRoundRobin");
  EXPECT_EQ(f["max_open_files"], "777");
  EXPECT_EQ(f["allow_mmap_reads"], "true");
  EXPECT_EQ(f["num_levels"], "5");
  EXPECT_EQ(f["level0_file_num_compaction_trigger"], "3");
  EXPECT_EQ(f["level0_slowdown_writes_trigger"], "17");
  EXPECT_EQ(f["level0_stop_writes_trigger"], "29");
  EXPECT_EQ(f["soft_pending_compaction_bytes_limit"], std::to_string(11ull << 30));
  EXPECT_EQ(f["hard_pending_compaction_bytes_limit"], std::to_string(13ull << 30));
  EXPECT_EQ(f["delayed_write_rate"], std::to_string(9 << 20));
  EXPECT_EQ(f["target_file_size_base"], std::to_string(3 << 20));
  EXPECT_EQ(f["max_bytes_for_level_base"], std::to_string(17 << 20));
  EXPECT_EQ(f["max_bytes_for_level_multiplier"].rfind("7.0", 0), 0u);

  // The bloom filter's bits per key, from the table properties (the OPTIONS file does not
  // record them): the filter block's bits over the entries.
  std::shared_ptr<const RocksDBLibrary> lib;
  ASSERT_TRUE(LoadRocksDBLibrary(LibraryPath(), &lib).ok());
  rocksdb_options_t* options = lib->options_create();
  const char* names[] = {"default"};
  const rocksdb_options_t* family_options[] = {options};
  rocksdb_column_family_handle_t* handle = nullptr;
  char* err = nullptr;
  rocksdb_t* reopened =
      lib->open_column_families(options, db.c_str(), 1, names, family_options, &handle, &err);
  ASSERT_EQ(err, nullptr) << err;
  char* props = lib->property_value_cf(reopened, handle, "rocksdb.aggregated-table-properties");
  ASSERT_NE(props, nullptr);
  const std::string text(props);
  lib->free(props);
  lib->column_family_handle_destroy(handle);
  lib->close(reopened);
  lib->options_destroy(options);
  auto number_after = [&](const std::string& label) {
    const size_t at = text.find(label);
    EXPECT_NE(at, std::string::npos) << label << " in " << text;
    return at == std::string::npos ? 0.0 : std::stod(text.substr(at + label.size()));
  };
  const double entries = number_after("# entries=");
  const double filter_bytes = number_after("filter block size=");
  ASSERT_EQ(entries, 20000);
  EXPECT_NEAR(filter_bytes * 8 / entries, 7.0, 1.0) << text;
}

TEST_P(RocksDBLibraryTest, DataCallsWorkEndToEnd) {
  for (int families : {1, 3}) {
    SCOPED_TRACE(families);
    TempDir dir;
    std::unique_ptr<KVEngine> engine = NewRocksDBEngine();
    EngineOptions o = DefaultBenchFlags().engine;
    o.rocksdb_library = LibraryPath();
    o.num_column_families = families;
    o.write_buffer_size = 1 << 20;
    ASSERT_TRUE(engine->Configure(o).ok());
    ASSERT_TRUE(engine->Open(dir.File("db")).ok());
    const WriteMode mode;
    ASSERT_TRUE(engine->Put("a", "1", mode).ok());
    ASSERT_TRUE(engine->Put("b", "2", mode).ok());
    std::unique_ptr<KVWriteBatch> batch = engine->NewWriteBatch();
    batch->Put("c", "3");
    batch->Put("d", "4");
    batch->Delete("a");
    ASSERT_TRUE(engine->Write(batch.get(), mode).ok());
    std::string v;
    EXPECT_TRUE(engine->Get("a", &v).IsNotFound());
    ASSERT_TRUE(engine->Get("c", &v).ok());
    EXPECT_EQ(v, "3");
    std::vector<std::string> values;
    std::vector<EngineStatus> statuses;
    engine->MultiGet({"d", "a", "b"}, &values, &statuses);
    ASSERT_EQ(statuses.size(), 3u);
    EXPECT_TRUE(statuses[0].ok());
    EXPECT_EQ(values[0], "4");
    EXPECT_TRUE(statuses[1].IsNotFound());
    EXPECT_EQ(values[2], "2");
    ASSERT_TRUE(engine->Delete("d", mode).ok());
    EXPECT_TRUE(engine->Get("d", &v).IsNotFound());
    if (families == 1) {
      ASSERT_TRUE(engine->DeleteRange("b", "c", mode).ok());  // removes b
      std::unique_ptr<KVIterator> it = engine->NewIterator();
      std::vector<std::string> keys;
      for (it->SeekToFirst(); it->Valid(); it->Next()) keys.emplace_back(it->key());
      EXPECT_TRUE(it->status().ok());
      EXPECT_EQ(keys, std::vector<std::string>{"c"});
      it->SeekToLast();
      ASSERT_TRUE(it->Valid());
      EXPECT_EQ(it->value(), "3");
    } else {
      EXPECT_TRUE(engine->DeleteRange("b", "c", mode).IsNotSupported());
      EXPECT_TRUE(engine->NewIterator()->status().IsNotSupported());
    }
    // Background work: written table bytes counted once the files exist.
    std::string value(1000, 'x');
    for (int i = 0; i < 3000; i++) {
      ASSERT_TRUE(engine->Put(fmt::format("k{:06}", i), value, mode).ok());
    }
    ASSERT_TRUE(engine->Flush().ok());
    ASSERT_TRUE(engine->CompactAll().ok());
    std::string how;
    ASSERT_TRUE(engine->WaitForCompaction(&how).ok());
    ASSERT_TRUE(engine->Close().ok());
    const std::optional<uint64_t> written = engine->BackgroundBytesWritten();
    ASSERT_TRUE(written.has_value());
    EXPECT_GT(*written, 3000u * 1000u / 2);  // at least the flushed values, compressed
    ASSERT_TRUE(engine->Open(dir.File("db")).ok());
    ASSERT_TRUE(engine->Get("k002999", &v).ok());
    EXPECT_EQ(v, value);
    ASSERT_TRUE(engine->Close().ok());
    ASSERT_TRUE(engine->Destroy(dir.File("db")).ok());
  }
}

INSTANTIATE_TEST_SUITE_P(Libraries, RocksDBLibraryTest,
                         ::testing::Values(Library{"release", ReleaseRocksDBLibraryPath},
                                           Library{"debian", FallbackRocksDBLibraryPath}),
                         [](const auto& info) { return std::string(info.param.label); });

TEST(RocksDBLibraryRefusalTest, AMissingLibraryIsNamed) {
  std::shared_ptr<const RocksDBLibrary> lib;
  const EngineStatus s = LoadRocksDBLibrary("/nonexistent/librocksdb.so", &lib);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent/librocksdb.so: no such file"), std::string::npos)
      << s.message();
  // Through the engine, as --rocksdb_library reaches it.
  std::unique_ptr<KVEngine> engine = NewRocksDBEngine();
  EngineOptions o = DefaultBenchFlags().engine;
  o.rocksdb_library = "/nonexistent/librocksdb.so";
  EXPECT_NE(engine->Configure(o).message().find("--rocksdb_library: /nonexistent"),
            std::string::npos);
}

TEST(RocksDBLibraryRefusalTest, AFileThatIsNoLibraryIsRefused) {
  TempDir dir;
  std::ofstream(dir.File("librocksdb.so")) << "not an ELF file\n";
  std::shared_ptr<const RocksDBLibrary> lib;
  const EngineStatus s = LoadRocksDBLibrary(dir.File("librocksdb.so"), &lib);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot load it"), std::string::npos) << s.message();
}

TEST(RocksDBLibraryRefusalTest, ALibraryWithoutTheCApiIsRefused) {
  // libc: loadable, but no rocksdb_* functions.
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&::fopen), &info), 0);
  std::shared_ptr<const RocksDBLibrary> lib;
  const EngineStatus s = LoadRocksDBLibrary(info.dli_fname, &lib);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("not a RocksDB library with the C API (no rocksdb_"),
            std::string::npos)
      << s.message();
}

TEST(RocksDBLibraryRefusalTest, TheFallbackIsTakenOnlyWithoutTheReleaseBuildAndSaysSo) {
  TempDir dir;
  std::ofstream(dir.File("release.so")) << "x";
  RocksDBLibraryChoice c = ChooseRocksDBLibrary(dir.File("release.so"), "/usr/lib/debian.so");
  EXPECT_EQ(c.path, dir.File("release.so"));
  EXPECT_EQ(c.note, "");
  c = ChooseRocksDBLibrary(dir.File("missing.so"), "/usr/lib/debian.so");
  EXPECT_EQ(c.path, "/usr/lib/debian.so");
  EXPECT_NE(c.note.find("missing.so is missing"), std::string::npos) << c.note;
  EXPECT_NE(c.note.find("fell back to /usr/lib/debian.so"), std::string::npos) << c.note;
}

TEST(RocksDBLibraryRefusalTest, TheHeaderNamesADebugBuildAndAFallback) {
  std::unique_ptr<KVEngine> engine = NewRocksDBEngine();
  EngineOptions o = DefaultBenchFlags().engine;
  o.rocksdb_library = FallbackRocksDBLibraryPath();
  ASSERT_TRUE(engine->Configure(o).ok());
  EXPECT_EQ(engine->version(), "RocksDB 7.8.3, assertions enabled");
  EXPECT_NE(engine->build_note().find("built with assertions"), std::string::npos);
  const std::vector<OptionRow> rows = engine->DescribeOptions();
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].name, "library");
  EXPECT_NE(rows[0].value.find("librocksdb.so.7.8"), std::string::npos) << rows[0].value;
}

}  // namespace
}  // namespace sluice_bench
