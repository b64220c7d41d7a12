// Tests of thread naming: the name is what the kernel reports, cut to its limit.

#include "util/thread_name.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace sluice {

namespace {

std::string NameOf(std::thread* t) {
  char name[64] = {};
  EXPECT_EQ(0, pthread_getname_np(t->native_handle(), name, sizeof(name)));
  return name;
}

}  // namespace

TEST(ThreadName, NamesTheCallingThreadAndCutsLongNames) {
  for (const std::string given : {"sluice-drain", "a-name-much-longer-than-fifteen"}) {
    bool named = false;
    bool release = false;
    std::mutex mu;
    std::condition_variable cv;
    std::thread t([&] {
      SetCurrentThreadName(given.c_str());
      std::unique_lock<std::mutex> l(mu);
      named = true;
      cv.notify_all();
      cv.wait(l, [&] { return release; });
    });
    {
      std::unique_lock<std::mutex> l(mu);
      cv.wait(l, [&] { return named; });
    }
    EXPECT_EQ(given.substr(0, kMaxThreadName), NameOf(&t));
    {
      std::lock_guard<std::mutex> l(mu);
      release = true;
    }
    cv.notify_all();
    t.join();
  }
}

}  // namespace sluice
