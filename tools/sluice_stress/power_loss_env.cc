// sluice_stress/power_loss_env.cc — see power_loss_env.h.

#include "power_loss_env.h"

namespace sluice::stress {

namespace {

// Holds appended bytes until Sync() or Close(). Flush() does not reach the OS: that is the
// point (bytes "handed to the OS" but not synced are what a power loss takes).
class UnsyncedFile : public WritableFile {
 public:
  explicit UnsyncedFile(std::unique_ptr<WritableFile> target) : target_(std::move(target)) {}
  ~UnsyncedFile() override = default;  // never reached by a kill; a normal exit closed it

  Status Append(const Slice& data) override {
    pending_.append(data.data(), data.size());
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override {
    Status s = WritePending();
    if (s.ok()) s = target_->Sync();
    return s;
  }
  Status Close() override {
    Status s = WritePending();
    Status c = target_->Close();
    return s.ok() ? c : s;
  }

 private:
  Status WritePending() {
    if (pending_.empty()) return Status::OK();
    Status s = target_->Append(pending_);
    if (s.ok()) s = target_->Flush();
    if (s.ok()) pending_.clear();
    return s;
  }

  std::unique_ptr<WritableFile> target_;
  std::string pending_;
};

Status Wrap(Status s, std::unique_ptr<WritableFile>* r) {
  if (s.ok()) *r = std::make_unique<UnsyncedFile>(std::move(*r));
  return s;
}

}  // namespace

Status PowerLossEnv::NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r) {
  return Wrap(target()->NewWritableFile(f, r), r);
}

Status PowerLossEnv::NewAppendableFile(const std::string& f, std::unique_ptr<WritableFile>* r) {
  return Wrap(target()->NewAppendableFile(f, r), r);
}

}  // namespace sluice::stress
