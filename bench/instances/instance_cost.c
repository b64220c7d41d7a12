/* bench/instances/instance_cost.c — what open databases cost a process: opens N databases
 * (or one database with N column families) with the engine's default Options through its C
 * API, writes K keys of V bytes into each, and prints the process's RSS and thread count
 * (from /proc/self/status) before and after, as one JSON line.
 *
 * One source, one engine per build: -DUSE_SLUICE (built by CMake as sluice_instance_cost),
 * -DUSE_ROCKSDB or -DUSE_LEVELDB (built by bench/instance_experiments.sh with cc, against the
 * RocksDB release library and Debian's LevelDB). Each measurement is a fresh process, so no
 * engine's freed memory is counted for another.
 *
 *   instance_cost --dir=/tmp/x --dbs=100 [--families=1] [--keys=1000] [--value_size=100]
 *                 [--memtable=NAME]   (sluice only; default Options otherwise)
 * --families=F > 1: one database (--dbs must be 1) with F column families, K keys in each. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c_bench_util.h"

#if defined(USE_SLUICE)
#include <sluice/c.h>
#define ENGINE "sluice"
#elif defined(USE_ROCKSDB)
#include <rocksdb/c.h>
#define ENGINE "rocksdb"
#elif defined(USE_LEVELDB)
#include <leveldb/c.h>
#define ENGINE "leveldb"
#else
#error "define USE_SLUICE, USE_ROCKSDB or USE_LEVELDB"
#endif

static void Die(const char* what, char* err) {
  fprintf(stderr, "instance_cost (%s): %s: %s\n", ENGINE, what, err != NULL ? err : "failed");
  exit(1);
}

int main(int argc, char** argv) {
  const char* dir = Arg(argc, argv, "--dir", NULL);
  const char* memtable = Arg(argc, argv, "--memtable", "");
  const long dbs = NumberArg("instance_cost", argc, argv, "--dbs", "100", 1, 100000);
  const long families = NumberArg("instance_cost", argc, argv, "--families", "1", 1, 100000);
  const long keys = NumberArg("instance_cost", argc, argv, "--keys", "1000", 1, 100000);
  const long value_size = NumberArg("instance_cost", argc, argv, "--value_size", "100", 1, 100000);
  if (dir == NULL) {
    fprintf(stderr, "instance_cost: give --dir=<an empty or missing directory>\n");
    return 2;
  }
  if (families > 1 && dbs != 1) {
    fprintf(stderr, "instance_cost: --families=%ld needs --dbs=1\n", families);
    return 2;
  }
  mkdir(dir, 0755);
  char* value = malloc((size_t)value_size);
  memset(value, 'v', (size_t)value_size);
  char path[4096];
  char key[32];
  char* err = NULL;
  const long rss_before = StatusField("VmRSS");
  const long threads_before = StatusField("Threads");

#if defined(USE_SLUICE)
  sluice_options_t* options = sluice_options_create();
  sluice_options_set_create_if_missing(options, 1);
  if (memtable[0] != '\0') sluice_options_set_memtable(options, memtable);
  sluice_writeoptions_t* wo = sluice_writeoptions_create();
  sluice_t** handles = calloc((size_t)dbs, sizeof *handles);
  for (long d = 0; d < dbs; d++) {
    snprintf(path, sizeof path, "%s/db%ld", dir, d);
    if (families == 1) {
      handles[d] = sluice_open(options, path, &err);
      if (err != NULL) Die(path, err);
      for (long k = 0; k < keys; k++) {
        int n = snprintf(key, sizeof key, "key%012ld", k);
        sluice_put(handles[d], wo, key, (size_t)n, value, (size_t)value_size, &err);
        if (err != NULL) Die("put", err);
      }
      continue;
    }
    handles[d] = sluice_open(options, path, &err);
    if (err != NULL) Die(path, err);
    for (long f = 0; f < families; f++) {
      sluice_column_family_handle_t* cf = NULL;
      if (f == 0) {
        cf = sluice_get_default_column_family_handle(handles[d]);
      } else {
        char name[32];
        snprintf(name, sizeof name, "cf%ld", f);
        cf = sluice_create_column_family(handles[d], options, name, &err);
        if (err != NULL) Die(name, err);
      }
      for (long k = 0; k < keys; k++) {
        int n = snprintf(key, sizeof key, "key%012ld", k);
        sluice_put_cf(handles[d], wo, cf, key, (size_t)n, value, (size_t)value_size, &err);
        if (err != NULL) Die("put", err);
      }
    }
  }
#elif defined(USE_ROCKSDB)
  (void)memtable;
  rocksdb_options_t* options = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(options, 1);
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();
  rocksdb_t** handles = calloc((size_t)dbs, sizeof *handles);
  for (long d = 0; d < dbs; d++) {
    snprintf(path, sizeof path, "%s/db%ld", dir, d);
    handles[d] = rocksdb_open(options, path, &err);
    if (err != NULL) Die(path, err);
    for (long f = 0; f < families; f++) {
      rocksdb_column_family_handle_t* cf = NULL;
      if (f > 0) {
        char name[32];
        snprintf(name, sizeof name, "cf%ld", f);
        cf = rocksdb_create_column_family(handles[d], options, name, &err);
        if (err != NULL) Die(name, err);
      }
      for (long k = 0; k < keys; k++) {
        int n = snprintf(key, sizeof key, "key%012ld", k);
        if (cf == NULL) {
          rocksdb_put(handles[d], wo, key, (size_t)n, value, (size_t)value_size, &err);
        } else {
          rocksdb_put_cf(handles[d], wo, cf, key, (size_t)n, value, (size_t)value_size, &err);
        }
        if (err != NULL) Die("put", err);
      }
    }
  }
#else
  (void)memtable;
  if (families > 1) {
    fprintf(stderr, "instance_cost: LevelDB has no column families\n");
    return 2;
  }
  leveldb_options_t* options = leveldb_options_create();
  leveldb_options_set_create_if_missing(options, 1);
  leveldb_writeoptions_t* wo = leveldb_writeoptions_create();
  leveldb_t** handles = calloc((size_t)dbs, sizeof *handles);
  for (long d = 0; d < dbs; d++) {
    snprintf(path, sizeof path, "%s/db%ld", dir, d);
    handles[d] = leveldb_open(options, path, &err);
    if (err != NULL) Die(path, err);
    for (long k = 0; k < keys; k++) {
      int n = snprintf(key, sizeof key, "key%012ld", k);
      leveldb_put(handles[d], wo, key, (size_t)n, value, (size_t)value_size, &err);
      if (err != NULL) Die("put", err);
    }
  }
#endif

  /* Let background work settle (a drain, a flush started by the writes). */
  sleep(1);
  const long rss_after = StatusField("VmRSS");
  const long threads_after = StatusField("Threads");
  printf(
      "{\"engine\": \"%s\", \"dbs\": %ld, \"families\": %ld, "
      "\"keys\": %ld, \"value_size\": %ld, \"memtable\": \"%s\", \"rss_before_kib\": %ld, "
      "\"rss_after_kib\": %ld, \"rss_added_kib\": %ld, \"threads_before\": %ld, "
      "\"threads_after\": %ld}\n",
      ENGINE, dbs, families, keys, value_size, memtable, rss_before, rss_after,
      rss_after - rss_before, threads_before, threads_after);
  fflush(stdout);
  /* The process exits without closing: closing is not what is measured, and each engine
   * recovers its WAL on the next open (the script deletes the directory). */
  _exit(0);
}
