// Tests of thread naming: the name is what the kernel reports, cut to its limit.

#include "util/thread_name.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <string>
#include <thread>

namespace sluice {

TEST(ThreadName, NamesTheCallingThreadAndCutsLongNames) {
  for (const std::string given : {"sluice-drain", "a-name-much-longer-than-fifteen"}) {
    char name[64] = {};
    int rc = -1;
    std::thread t([&] {
      SetCurrentThreadName(given.c_str());
      rc = pthread_getname_np(pthread_self(), name, sizeof(name));
    });
    t.join();
    ASSERT_EQ(0, rc);
    EXPECT_EQ(given.substr(0, kMaxThreadName), std::string(name));
  }
}

}  // namespace sluice
