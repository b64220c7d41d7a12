// db/write_stamps_test.cc — a key's count is the sum over every thread's table: bumps made by
// threads with a table of their own, by threads beyond them (the shared table) and by threads
// that inherited a slot from an exited one all show in Read, and the count never goes back.

#include "db/write_stamps.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "db/sequence_oracle.h"

namespace sluice {
namespace {

TEST(WriteStamps, ABumpMovesItsKeysCountOnly) {
  WriteStamps stamps;
  const uint64_t a = SequenceOracle::KeyTag("a");
  uint64_t b = SequenceOracle::KeyTag("b");
  for (int i = 0; (a >> (64 - WriteStamps::kBits)) == (b >> (64 - WriteStamps::kBits)); i++) {
    b = SequenceOracle::KeyTag("b" + std::to_string(i));  // another counter than a's
  }
  const uint64_t a0 = stamps.Read(a), b0 = stamps.Read(b);
  stamps.Bump(a);
  EXPECT_EQ(stamps.Read(a), a0 + 1);
  EXPECT_EQ(stamps.Read(b), b0);
}

TEST(WriteStamps, CountsBumpsOfMoreThreadsThanOwnedTables) {
  // More threads than owned tables, all live at once: the last ones share a table.
  WriteStamps stamps;
  const uint64_t key = SequenceOracle::KeyTag("k");
  const uint64_t before = stamps.Read(key);
  constexpr int kThreads = WriteStamps::kOwnedTables + 4;
  constexpr int kBumps = 1000;
  std::atomic<int> arrived{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&] {
      stamps.Bump(key);  // takes the thread's slot, which it keeps while others take theirs
      arrived.fetch_add(1);
      while (arrived.load() < kThreads) std::this_thread::yield();
      for (int i = 1; i < kBumps; i++) stamps.Bump(key);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(stamps.Read(key), before + uint64_t{kThreads} * kBumps);
}

TEST(WriteStamps, ASlotsNextOwnerContinuesItsCount) {
  // One thread after another: each inherits the slot of the one before and bumps once.
  WriteStamps stamps;
  const uint64_t key = SequenceOracle::KeyTag("k");
  for (uint64_t n = 1; n <= 20; n++) {
    std::thread([&] { stamps.Bump(key); }).join();
    EXPECT_EQ(stamps.Read(key), n);
  }
}

}  // namespace
}  // namespace sluice
