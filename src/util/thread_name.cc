// util/thread_name.cc — see thread_name.h.

#include "util/thread_name.h"

#include <pthread.h>

#include <cstring>

namespace sluice {

void SetCurrentThreadName(const char* name) {
  char cut[kMaxThreadName + 1] = {};
  std::strncpy(cut, name, kMaxThreadName);
  pthread_setname_np(pthread_self(), cut);  // best effort: the name is only a label
}

}  // namespace sluice
