// util/logging.h — formatted lines to a database's info LOG (fmt-style format strings), and
// helpers that print numbers and keys for humans.

#ifndef SLUICE_UTIL_LOGGING_H_
#define SLUICE_UTIL_LOGGING_H_

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "sluice/env.h"

namespace sluice {

template <typename... Args>
void Log(Logger* logger, fmt::format_string<Args...> format, Args&&... args) {
  if (logger == nullptr) return;
  logger->Log(fmt::format(format, std::forward<Args>(args)...));
}

// "1.5 MiB", "312 B", ...
std::string HumanBytes(uint64_t bytes);

}  // namespace sluice

#endif  // SLUICE_UTIL_LOGGING_H_
