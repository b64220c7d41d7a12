// sluice_stress/power_loss_env.h — an Env whose unsynced writes die with the process.
//
// With --simulate_power_loss the driver runs the database on this Env: every byte appended to
// a file stays in the process's memory until the file is synced (or closed normally), so a
// `kill -9` loses exactly what a power loss would lose if the OS had written nothing back
// since the last fsync: all unsynced data, file by file. (File creations, renames and
// deletions go to the OS at once: the model loses data, not directory entries.) This is how
// the crash test checks the sync=false promise — after a power loss the database holds a
// prefix of its acknowledged writes — with nothing but kill -9.

#ifndef SLUICE_TOOLS_SLUICE_STRESS_POWER_LOSS_ENV_H_
#define SLUICE_TOOLS_SLUICE_STRESS_POWER_LOSS_ENV_H_

#include <memory>
#include <string>

#include "sluice/env.h"

namespace sluice::stress {

class PowerLossEnv : public EnvWrapper {
 public:
  explicit PowerLossEnv(Env* target) : EnvWrapper(target) {}
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override;
  Status NewAppendableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override;
};

}  // namespace sluice::stress

#endif  // SLUICE_TOOLS_SLUICE_STRESS_POWER_LOSS_ENV_H_
