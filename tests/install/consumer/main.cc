// Uses an installed sluice: open, write, read back, iterate. Exit code 0 on success.
#include <sluice/db.h>

#include <cstdio>
#include <memory>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  sluice::Options options;
  options.create_if_missing = true;
  std::unique_ptr<sluice::DB> db;
  sluice::Status s = sluice::DB::Open(options, argv[1], &db);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  s = db->Put(sluice::WriteOptions(), "hello", "world");
  std::string value;
  if (s.ok()) s = db->Get(sluice::ReadOptions(), "hello", &value);
  if (!s.ok() || value != "world") {
    std::fprintf(stderr, "read back failed: %s\n", s.ToString().c_str());
    return 1;
  }
  std::unique_ptr<sluice::Iterator> it = db->NewIterator(sluice::ReadOptions());
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  it.reset();
  std::printf("ok: %d key(s)\n", n);
  return db->Close().ok() && n == 1 ? 0 : 1;
}
