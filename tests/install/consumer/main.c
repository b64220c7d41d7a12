/* A C program that uses an installed sluice through its C API: open, write, read back,
 * iterate. Exit code 0 on success. */
#include <sluice/c.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  char* err = NULL;
  sluice_options_t* options = sluice_options_create();
  sluice_options_set_create_if_missing(options, 1);
  sluice_t* db = sluice_open(options, argv[1], &err);
  sluice_options_destroy(options);
  if (err != NULL) {
    fprintf(stderr, "open: %s\n", err);
    sluice_free(err);
    return 1;
  }
  sluice_writeoptions_t* wo = sluice_writeoptions_create();
  sluice_readoptions_t* ro = sluice_readoptions_create();
  sluice_put(db, wo, "hello", 5, "world", 5, &err);
  size_t len = 0;
  char* value = err == NULL ? sluice_get(db, ro, "hello", 5, &len, &err) : NULL;
  int ok = err == NULL && value != NULL && len == 5 && memcmp(value, "world", 5) == 0;
  sluice_free(value);
  int n = 0;
  sluice_iterator_t* it = sluice_create_iterator(db, ro);
  for (sluice_iter_seek_to_first(it); sluice_iter_valid(it); sluice_iter_next(it)) n++;
  sluice_iter_destroy(it);
  sluice_readoptions_destroy(ro);
  sluice_writeoptions_destroy(wo);
  sluice_close(db);
  if (err != NULL) {
    fprintf(stderr, "%s\n", err);
    sluice_free(err);
    return 1;
  }
  printf("ok: %d key(s), version %d.%d\n", n, sluice_major_version(), sluice_minor_version());
  return ok && n == 1 ? 0 : 1;
}
