// sluice_bench/engine_registry.cc — engine name -> adapter (see engine_registry.h).

#include "sluice_bench/engine_registry.h"

namespace sluice_bench {

std::unique_ptr<KVEngine> CreateEngine(std::string_view name) {
#ifndef SLUICE_BENCH_WITHOUT_SLUICE
  if (name == "sluice") return NewSluiceEngine();
#endif
  if (name == "rocksdb") return NewRocksDBEngine();
  if (name == "leveldb") return NewLevelDBEngine();
  return nullptr;
}

}  // namespace sluice_bench
