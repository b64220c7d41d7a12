/* bench/instances/budget_fill.c — one memory budget shared by many databases under a sustained
 * fill: opens N databases with the engine's default Options and one write buffer manager of
 * --budget_mb MiB (RocksDB's and sluice's WriteBufferManager through their C APIs; 0: no
 * budget), writes --num random keys spread evenly over the databases from --threads threads,
 * and samples the manager's memory usage (the bytes of all memory components together) every
 * millisecond. Prints one JSON line: the write rate, the peak and mean of the samples, the cap,
 * and the process's peak RSS (VmHWM).
 *
 * One source, one engine per build: -DUSE_SLUICE (built by CMake as sluice_budget_fill) or
 * -DUSE_ROCKSDB (built by bench/instance_experiments.sh with cc, against the RocksDB release
 * library). Keys are 16 bytes ("%016llu" of a random number below --num), values --value_size
 * bytes; the WAL is on and not synced (both engines' default write options).
 *
 *   budget_fill --dir=/tmp/x [--dbs=10] [--budget_mb=64] [--allow_stall=1] [--num=2000000]
 *               [--threads=2] [--value_size=100] [--memtable=NAME] (sluice only)
 * With --budget_mb=0 sluice's manager only counts (its figures are still reported); RocksDB's
 * then reports nothing valid, so its samples are left out (-1). */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "c_bench_util.h"

#if defined(USE_SLUICE)
#include <sluice/c.h>
#define ENGINE "sluice"
typedef sluice_t db_t;
typedef sluice_write_buffer_manager_t manager_t;
#elif defined(USE_ROCKSDB)
#include <rocksdb/c.h>
#define ENGINE "rocksdb"
typedef rocksdb_t db_t;
/* The release library exports the write buffer manager's C API (RocksDB 8.x and later); the
 * header installed beside it may be older, so the calls used are declared here. */
typedef struct rocksdb_write_buffer_manager_t manager_t;
extern manager_t* rocksdb_write_buffer_manager_create(size_t buffer_size, bool allow_stall);
extern void rocksdb_write_buffer_manager_destroy(manager_t* manager);
extern size_t rocksdb_write_buffer_manager_memory_usage(manager_t* manager);
extern void rocksdb_options_set_write_buffer_manager(rocksdb_options_t* options,
                                                     manager_t* manager);
#else
#error "define USE_SLUICE or USE_ROCKSDB"
#endif

static void Die(const char* what, char* err) {
  fprintf(stderr, "budget_fill (%s): %s: %s\n", ENGINE, what, err != NULL ? err : "failed");
  exit(1);
}

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct Shared {
  db_t** dbs;
  long num_dbs;
  long num;
  long threads;
  long value_size;
  manager_t* manager;
  bool sample;               /* the manager's figures are valid */
  volatile int writers_left; /* guarded by mu */
  pthread_mutex_t mu;
};

struct Writer {
  struct Shared* shared;
  long index;
};

static void* WriterMain(void* arg) {
  struct Writer* w = arg;
  struct Shared* s = w->shared;
  char key[32];
  char* value = malloc((size_t)s->value_size);
  char* err = NULL;
  memset(value, 'v', (size_t)s->value_size);
  uint64_t rng = 0x9E3779B97F4A7C15ull * (uint64_t)(w->index + 1);
  const long count = s->num / s->threads;
#if defined(USE_SLUICE)
  sluice_writeoptions_t* wo = sluice_writeoptions_create();
#else
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();
#endif
  for (long i = 0; i < count; i++) {
    rng ^= rng << 13; /* xorshift64 */
    rng ^= rng >> 7;
    rng ^= rng << 17;
    const int n =
        snprintf(key, sizeof key, "%016llu", (unsigned long long)(rng % (uint64_t)s->num));
    /* Values differ between writes, so no engine can compress them away. */
    memcpy(value, &rng, sizeof rng < (size_t)s->value_size ? sizeof rng : (size_t)s->value_size);
    db_t* db = s->dbs[(i * s->threads + w->index) % s->num_dbs];
#if defined(USE_SLUICE)
    sluice_put(db, wo, key, (size_t)n, value, (size_t)s->value_size, &err);
#else
    rocksdb_put(db, wo, key, (size_t)n, value, (size_t)s->value_size, &err);
#endif
    if (err != NULL) Die("put", err);
  }
#if defined(USE_SLUICE)
  sluice_writeoptions_destroy(wo);
#else
  rocksdb_writeoptions_destroy(wo);
#endif
  free(value);
  pthread_mutex_lock(&s->mu);
  s->writers_left--;
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

static size_t MemoryUsage(manager_t* m) {
#if defined(USE_SLUICE)
  return sluice_write_buffer_manager_memory_usage(m);
#else
  return rocksdb_write_buffer_manager_memory_usage(m);
#endif
}

int main(int argc, char** argv) {
  const char* dir = Arg(argc, argv, "--dir", NULL);
  const char* memtable = Arg(argc, argv, "--memtable", "");
  const long dbs = NumberArg("budget_fill", argc, argv, "--dbs", "10", 1, 10000);
  const long budget_mb = NumberArg("budget_fill", argc, argv, "--budget_mb", "64", 0, 1 << 20);
  const long allow_stall = NumberArg("budget_fill", argc, argv, "--allow_stall", "1", 0, 1);
  const long num = NumberArg("budget_fill", argc, argv, "--num", "2000000", 1, 1000000000);
  const long threads = NumberArg("budget_fill", argc, argv, "--threads", "2", 1, 256);
  const long value_size = NumberArg("budget_fill", argc, argv, "--value_size", "100", 1, 1 << 20);
  if (dir == NULL) {
    fprintf(stderr, "budget_fill: give --dir=<an empty or missing directory>\n");
    return 2;
  }
  (void)memtable;
  mkdir(dir, 0755);
  const size_t cap = (size_t)budget_mb << 20;
  char path[4096];
  char* err = NULL;
  struct Shared s = {.num_dbs = dbs,
                     .num = num,
                     .threads = threads,
                     .value_size = value_size,
                     .writers_left = (int)threads};
  pthread_mutex_init(&s.mu, NULL);
  s.dbs = calloc((size_t)dbs, sizeof *s.dbs);

#if defined(USE_SLUICE)
  s.manager = sluice_write_buffer_manager_create(cap, (unsigned char)allow_stall);
  s.sample = true;
  sluice_options_t* options = sluice_options_create();
  sluice_options_set_create_if_missing(options, 1);
  if (memtable[0] != '\0') sluice_options_set_memtable(options, memtable);
  sluice_options_set_write_buffer_manager(options, s.manager);
  for (long d = 0; d < dbs; d++) {
    snprintf(path, sizeof path, "%s/db%ld", dir, d);
    s.dbs[d] = sluice_open(options, path, &err);
    if (err != NULL) Die(path, err);
  }
#else
  s.manager = rocksdb_write_buffer_manager_create(cap, allow_stall != 0);
  s.sample = cap > 0;
  rocksdb_options_t* options = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(options, 1);
  rocksdb_options_set_write_buffer_manager(options, s.manager);
  for (long d = 0; d < dbs; d++) {
    snprintf(path, sizeof path, "%s/db%ld", dir, d);
    s.dbs[d] = rocksdb_open(options, path, &err);
    if (err != NULL) Die(path, err);
  }
#endif

  pthread_t* ids = calloc((size_t)threads, sizeof *ids);
  struct Writer* writers = calloc((size_t)threads, sizeof *writers);
  const double start = Now();
  for (long t = 0; t < threads; t++) {
    writers[t].shared = &s;
    writers[t].index = t;
    pthread_create(&ids[t], NULL, WriterMain, &writers[t]);
  }
  /* The main thread samples until the writers are done. */
  size_t peak = 0;
  double sum = 0;
  long samples = 0, over_cap = 0;
  for (;;) {
    pthread_mutex_lock(&s.mu);
    const int left = s.writers_left;
    pthread_mutex_unlock(&s.mu);
    if (left == 0) break;
    if (s.sample) {
      const size_t bytes = MemoryUsage(s.manager);
      if (bytes > peak) peak = bytes;
      if (cap > 0 && bytes > cap) over_cap++;
      sum += (double)bytes;
      samples++;
    }
    usleep(1000);
  }
  const double elapsed = Now() - start;
  for (long t = 0; t < threads; t++) pthread_join(ids[t], NULL);
  const long written = (num / threads) * threads;
  printf(
      "{\"engine\": \"%s\", \"dbs\": %ld, \"budget_bytes\": %zu, \"allow_stall\": %ld, "
      "\"memtable\": \"%s\", \"threads\": %ld, \"num\": %ld, \"value_size\": %ld, "
      "\"seconds\": %.3f, \"ops_per_sec\": %.0f, \"samples\": %ld, \"peak_bytes\": %lld, "
      "\"mean_bytes\": %lld, \"samples_over_cap\": %ld, \"vm_hwm_kib\": %ld}\n",
      ENGINE, dbs, cap, allow_stall, memtable, threads, written, value_size, elapsed,
      (double)written / elapsed, samples, s.sample ? (long long)peak : -1LL,
      s.sample && samples > 0 ? (long long)(sum / (double)samples) : -1LL, over_cap,
      StatusField("VmHWM"));
  fflush(stdout);
  /* Closing (flushes, WAL) is not what is measured: the script deletes the directory. */
  _exit(0);
}
