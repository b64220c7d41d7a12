/* tests/c_api_check.c — compiled as C (not C++), to prove that sluice/c.h is valid C and usable
 * from C: a full round trip through the C API. Called by c_api_test.cc. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sluice/c.h"

/* Returns NULL on success, else a static description of what failed. */
const char* sluice_c_api_round_trip(const char* path) {
  char* err = NULL;
  sluice_options_t* options = sluice_options_create();
  sluice_options_set_create_if_missing(options, 1);
  sluice_options_set_write_buffer_size(options, 1 << 20);
  sluice_options_set_level0_compression(options, sluice_snappy_compression);
  sluice_options_set_level0_backlog_flush_merge(options, 2);
  sluice_options_set_max_subcompactions(options, 2);
  sluice_options_set_compaction_pri(options, sluice_compaction_pri_min_overlapping_ratio);
  sluice_t* db = sluice_open(options, path, &err);
  if (db == NULL || err != NULL) return "open failed";

  sluice_writeoptions_t* wo = sluice_writeoptions_create();
  sluice_readoptions_t* ro = sluice_readoptions_create();
  sluice_put(db, wo, "key", 3, "value", 5, &err);
  if (err != NULL) return "put failed";

  size_t len = 0;
  char* value = sluice_get(db, ro, "key", 3, &len, &err);
  if (value == NULL || len != 5 || memcmp(value, "value", 5) != 0) return "get failed";
  sluice_free(value);
  value = sluice_get(db, ro, "missing", 7, &len, &err);
  if (value != NULL || err != NULL) return "get of a missing key failed";

  sluice_writebatch_t* batch = sluice_writebatch_create();
  sluice_writebatch_put(batch, "a", 1, "1", 1);
  sluice_writebatch_put(batch, "b", 1, "2", 1);
  sluice_writebatch_delete(batch, "key", 3);
  if (sluice_writebatch_count(batch) != 3) return "batch count";
  sluice_write(db, wo, batch, &err);
  if (err != NULL) return "write failed";
  sluice_writebatch_destroy(batch);

  /* MultiGet: "a" and "b" from the batch, "key" deleted by it, "a" again. */
  {
    const char* keys[4] = {"b", "key", "a", "a"};
    const size_t key_sizes[4] = {1, 3, 1, 1};
    char* values[4];
    size_t value_sizes[4];
    char* errs[4];
    sluice_multi_get(db, ro, 4, keys, key_sizes, values, value_sizes, errs);
    if (errs[0] != NULL || errs[1] != NULL || errs[2] != NULL || errs[3] != NULL) {
      return "multi_get error";
    }
    if (values[0] == NULL || value_sizes[0] != 1 || values[0][0] != '2') return "multi_get b";
    if (values[1] != NULL || value_sizes[1] != 0) return "multi_get of a deleted key";
    if (values[2] == NULL || values[2][0] != '1' || values[3] == NULL || values[3][0] != '1') {
      return "multi_get a";
    }
    sluice_free(values[0]);
    sluice_free(values[2]);
    sluice_free(values[3]);
  }

  /* DeleteRange: ["r1", "r3") takes r1 and r2, not r3; begin > end is an error. */
  {
    sluice_put(db, wo, "r1", 2, "x", 1, &err);
    sluice_put(db, wo, "r2", 2, "x", 1, &err);
    sluice_put(db, wo, "r3", 2, "x", 1, &err);
    sluice_delete_range(db, wo, "r1", 2, "r3", 2, &err);
    if (err != NULL) return "delete_range failed";
    value = sluice_get(db, ro, "r2", 2, &len, &err);
    if (value != NULL || err != NULL) return "delete_range left r2";
    value = sluice_get(db, ro, "r3", 2, &len, &err);
    if (value == NULL) return "delete_range took r3";
    sluice_free(value);
    sluice_delete_range(db, wo, "r9", 2, "r1", 2, &err);
    if (err == NULL) return "delete_range with begin > end succeeded";
    sluice_free(err);
    err = NULL;
    sluice_writebatch_t* b2 = sluice_writebatch_create();
    sluice_writebatch_delete_range(b2, "r3", 2, "r4", 2);
    sluice_write(db, wo, b2, &err);
    sluice_writebatch_destroy(b2);
    if (err != NULL) return "batch delete_range failed";
    value = sluice_get(db, ro, "r3", 2, &len, &err);
    if (value != NULL) return "batch delete_range left r3";
  }

  const sluice_snapshot_t* snap = sluice_create_snapshot(db);
  sluice_put(db, wo, "c", 1, "3", 1, &err);
  sluice_readoptions_set_snapshot(ro, snap);
  sluice_iterator_t* it = sluice_create_iterator(db, ro);
  int n = 0;
  for (sluice_iter_seek_to_first(it); sluice_iter_valid(it); sluice_iter_next(it)) n++;
  sluice_iter_get_error(it, &err);
  sluice_iter_destroy(it);
  if (n != 2 || err != NULL) return "snapshot iteration";
  sluice_readoptions_set_snapshot(ro, NULL);
  sluice_release_snapshot(db, snap);

  sluice_flush(db, &err);
  if (err != NULL) return "flush failed";
  char* prop = sluice_property_value(db, "sluice.num-files-at-level0");
  if (prop == NULL || strcmp(prop, "1") != 0) return "property";
  sluice_free(prop);
  if (sluice_property_value(db, "no.such.property") != NULL) return "unknown property";

  /* Read-modify-writes. */
  if (sluice_put_if_absent(db, wo, "r", 1, "x", 1, &err) != 1 || err != NULL) return "pia 1";
  if (sluice_put_if_absent(db, wo, "r", 1, "y", 1, &err) != 0 || err != NULL) return "pia 2";
  if (sluice_compare_and_swap(db, wo, "r", 1, "y", 1, "z", 1, &err) != 0 || err != NULL) {
    return "cas mismatch";
  }
  if (sluice_compare_and_swap(db, wo, "r", 1, "x", 1, "z", 1, &err) != 1 || err != NULL) {
    return "cas match";
  }
  if (sluice_compare_and_swap(db, wo, "s", 1, NULL, 0, "new", 3, &err) != 1 || err != NULL) {
    return "cas absent";
  }
  if (sluice_increment(db, wo, "n", 1, 5, &err) != 5 || err != NULL) return "increment 1";
  if (sluice_increment(db, wo, "n", 1, -7, &err) != -2 || err != NULL) return "increment 2";
  sluice_increment(db, wo, "r", 1, 1, &err); /* "z" is not an 8-byte counter */
  if (err == NULL) return "increment of a non-counter must fail";
  sluice_free(err);
  err = NULL;

  sluice_close(db);
  sluice_options_set_error_if_exists(options, 1);
  db = sluice_open(options, path, &err);
  if (db != NULL || err == NULL || strstr(err, "Invalid argument") == NULL)
    return "error_if_exists";
  sluice_free(err);
  err = NULL;

  sluice_readoptions_destroy(ro);
  sluice_writeoptions_destroy(wo);
  sluice_destroy_db(options, path, &err);
  sluice_options_destroy(options);
  if (err != NULL) return "destroy failed";
  return NULL;
}

/* Column families through the C API: create, write (plain and batched across families), read,
 * iterate, MultiGet across families, reopen naming them, list, drop. NULL on success. */
const char* sluice_c_api_column_families(const char* path) {
  char* err = NULL;
  sluice_options_t* options = sluice_options_create();
  sluice_options_set_create_if_missing(options, 1);
  sluice_t* db = sluice_open(options, path, &err);
  if (db == NULL || err != NULL) return "open failed";
  sluice_options_t* family_options = sluice_options_create();
  sluice_options_set_memtable(family_options, "hash-linklist");
  sluice_column_family_handle_t* users =
      sluice_create_column_family(db, family_options, "users", &err);
  if (users == NULL || err != NULL) return "create_column_family failed";
  size_t len = 0;
  char* name = sluice_column_family_handle_get_name(users, &len);
  if (name == NULL || len != 5 || memcmp(name, "users", 5) != 0) return "handle name";
  sluice_free(name);
  if (sluice_column_family_handle_get_id(users) == 0) return "handle id";
  sluice_create_column_family(db, family_options, "users", &err);
  if (err == NULL || strstr(err, "already exists") == NULL) return "duplicate name accepted";
  sluice_free(err);
  err = NULL;

  sluice_writeoptions_t* wo = sluice_writeoptions_create();
  sluice_readoptions_t* ro = sluice_readoptions_create();
  sluice_column_family_handle_t* def = sluice_get_default_column_family_handle(db);
  sluice_put_cf(db, wo, users, "k", 1, "u", 1, &err);
  sluice_put_cf(db, wo, def, "k", 1, "d", 1, &err);
  if (err != NULL) return "put_cf failed";
  sluice_writebatch_t* batch = sluice_writebatch_create();
  sluice_writebatch_put_cf(batch, users, "b", 1, "1", 1);
  sluice_writebatch_put_cf(batch, def, "b", 1, "2", 1);
  sluice_writebatch_delete_range_cf(batch, users, "x", 1, "z", 1);
  sluice_write(db, wo, batch, &err);
  sluice_writebatch_destroy(batch);
  if (err != NULL) return "cross-family batch failed";
  char* value = sluice_get_cf(db, ro, users, "k", 1, &len, &err);
  if (value == NULL || len != 1 || value[0] != 'u') return "get_cf users";
  sluice_free(value);
  if (sluice_increment_cf(db, wo, users, "n", 1, 3, &err) != 3 || err != NULL) return "incr_cf";
  const sluice_column_family_handle_t* families[3] = {users, def, users};
  const char* keys[3] = {"b", "b", "missing"};
  size_t key_sizes[3] = {1, 1, 7};
  char* values[3];
  size_t value_sizes[3];
  char* errs[3];
  sluice_multi_get_cf(db, ro, families, 3, keys, key_sizes, values, value_sizes, errs);
  if (values[0] == NULL || values[0][0] != '1' || values[1] == NULL || values[1][0] != '2' ||
      values[2] != NULL || errs[0] != NULL || errs[2] != NULL) {
    return "multi_get_cf";
  }
  sluice_free(values[0]);
  sluice_free(values[1]);
  sluice_iterator_t* it = sluice_create_iterator_cf(db, ro, users);
  int n = 0;
  for (sluice_iter_seek_to_first(it); sluice_iter_valid(it); sluice_iter_next(it)) n++;
  sluice_iter_destroy(it);
  if (n != 3) return "iterator_cf"; /* b, k, n */
  sluice_flush_cf(db, users, &err);
  if (err != NULL) return "flush_cf";
  char* prop = sluice_property_value_cf(db, users, "sluice.num-files-at-level0");
  if (prop == NULL || strcmp(prop, "1") != 0) return "property_cf";
  sluice_free(prop);
  sluice_column_family_handle_destroy(users);
  sluice_column_family_handle_destroy(def);
  sluice_close(db);

  /* Open without naming "users": refused, naming it. Then with both. */
  db = sluice_open(options, path, &err);
  if (db != NULL || err == NULL || strstr(err, "users") == NULL) return "open missing a family";
  sluice_free(err);
  err = NULL;
  size_t count = 0;
  char** list = sluice_list_column_families(options, path, &count, &err);
  if (list == NULL || count != 2 || strcmp(list[0], "default") != 0 ||
      strcmp(list[1], "users") != 0) {
    return "list_column_families";
  }
  sluice_list_column_families_destroy(list, count);
  const char* names[2] = {"default", "users"};
  const sluice_options_t* family_opts[2] = {options, family_options};
  sluice_column_family_handle_t* handles[2];
  db = sluice_open_column_families(options, path, 2, names, family_opts, handles, &err);
  if (db == NULL || err != NULL) return "open_column_families";
  value = sluice_get_cf(db, ro, handles[1], "b", 1, &len, &err);
  if (value == NULL || value[0] != '1') return "reopened get_cf";
  sluice_free(value);
  sluice_drop_column_family(db, handles[1], &err);
  if (err != NULL) return "drop_column_family";
  value = sluice_get_cf(db, ro, handles[1], "b", 1, &len, &err);
  if (value != NULL || err == NULL || strstr(err, "dropped") == NULL) return "get of dropped";
  sluice_free(err);
  err = NULL;
  sluice_column_family_handle_destroy(handles[0]);
  sluice_column_family_handle_destroy(handles[1]);
  sluice_close(db);
  sluice_readoptions_destroy(ro);
  sluice_writeoptions_destroy(wo);
  sluice_options_destroy(family_options);
  sluice_destroy_db(options, path, &err);
  sluice_options_destroy(options);
  return err != NULL ? "destroy failed" : NULL;
}

/* Two databases sharing one block cache and one memory budget, both destroyed by the caller
 * right after setting them: the options and the databases hold their own references. */
const char* sluice_c_api_shared_cache_and_budget(const char* path_a, const char* path_b) {
  char* err = NULL;
  sluice_cache_t* cache = sluice_cache_create_lru(1 << 20);
  sluice_write_buffer_manager_t* manager = sluice_write_buffer_manager_create(4 << 20, 1);
  if (sluice_cache_get_capacity(cache) != (1 << 20)) return "cache capacity";
  if (sluice_write_buffer_manager_buffer_size(manager) != (4 << 20)) return "budget size";
  sluice_options_t* options = sluice_options_create();
  sluice_options_set_create_if_missing(options, 1);
  sluice_options_set_block_cache(options, cache);
  sluice_options_set_write_buffer_manager(options, manager);
  sluice_t* a = sluice_open(options, path_a, &err);
  if (a == NULL || err != NULL) return "open a";
  sluice_t* b = sluice_open(options, path_b, &err);
  if (b == NULL || err != NULL) return "open b";
  sluice_writeoptions_t* wo = sluice_writeoptions_create();
  sluice_readoptions_t* ro = sluice_readoptions_create();
  char key[16];
  char val[100];
  memset(val, 'v', sizeof val);
  for (int i = 0; i < 2000; i++) {
    size_t klen = (size_t)(snprintf(key, sizeof key, "k%06d", i));
    sluice_put(a, wo, key, klen, val, sizeof val, &err);
    if (err != NULL) return "put a";
    sluice_put(b, wo, key, klen, val, sizeof val, &err);
    if (err != NULL) return "put b";
  }
  if (sluice_write_buffer_manager_memory_usage(manager) == 0) return "no bytes charged";
  sluice_flush(a, &err);
  if (err != NULL) return "flush a";
  size_t len = 0;
  char* value = sluice_get(a, ro, "k000007", 7, &len, &err);
  if (value == NULL || len != sizeof val) return "get a";
  sluice_free(value);
  if (sluice_cache_get_usage(cache) == 0) return "the shared cache holds nothing";
  sluice_cache_destroy(cache);
  sluice_write_buffer_manager_destroy(manager);
  sluice_close(a);
  sluice_close(b);
  sluice_readoptions_destroy(ro);
  sluice_writeoptions_destroy(wo);
  sluice_options_destroy(options);
  return NULL;
}
