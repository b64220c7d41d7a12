/* bench/instances/c_bench_util.h — what the C benchmark programs of bench/instances/ share:
 * reading a field of /proc/self/status and finding a --name=value argument. Header-only
 * (static functions): each program is one source file built by CMake or by a script's cc. */

#ifndef SLUICE_BENCH_INSTANCES_C_BENCH_UTIL_H_
#define SLUICE_BENCH_INSTANCES_C_BENCH_UTIL_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A field of /proc/self/status in its unit (kB for VmRSS and VmHWM), or -1. */
static long StatusField(const char* field) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long value = -1;
  size_t n = strlen(field);
  if (f == NULL) return -1;
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, field, n) == 0 && line[n] == ':') {
      value = strtol(line + n + 1, NULL, 10);
      break;
    }
  }
  fclose(f);
  return value;
}

/* The value of the argument --name=value, or fallback. */
static const char* Arg(int argc, char** argv, const char* name, const char* fallback) {
  size_t n = strlen(name);
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') return argv[i] + n + 1;
  }
  return fallback;
}

/* The argument --name=N (or fallback) as a number from least to most; exits 2 naming the
 * argument otherwise. */
static long NumberArg(const char* program, int argc, char** argv, const char* name,
                      const char* fallback, long least, long most) {
  const char* text = Arg(argc, argv, name, fallback);
  char* end = NULL;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < least || v > most) {
    fprintf(stderr, "%s: %s=%s: give a number from %ld to %ld\n", program, name, text, least, most);
    exit(2);
  }
  return v;
}

#endif /* SLUICE_BENCH_INSTANCES_C_BENCH_UTIL_H_ */
