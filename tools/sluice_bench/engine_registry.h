// sluice_bench/engine_registry.h — creates the engine adapter named by --engine.
//
// The adapters themselves live in engine_<name>.cc; the sluice adapter is left out of builds
// configured with -DSLUICE_BENCH_WITHOUT_SLUICE=ON.

#ifndef SLUICE_BENCH_ENGINE_REGISTRY_H_
#define SLUICE_BENCH_ENGINE_REGISTRY_H_

#include <memory>
#include <string_view>

#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

std::unique_ptr<KVEngine> NewSluiceEngine();
std::unique_ptr<KVEngine> NewRocksDBEngine();
std::unique_ptr<KVEngine> NewLevelDBEngine();

// nullptr if this binary has no adapter of that name.
std::unique_ptr<KVEngine> CreateEngine(std::string_view name);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_ENGINE_REGISTRY_H_
