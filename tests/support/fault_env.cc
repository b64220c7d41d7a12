// tests/support/fault_env.cc — see fault_env.h.

#include "support/fault_env.h"

namespace sluice::test {

namespace {

class FaultFile final : public WritableFile {
 public:
  FaultFile(FaultEnv* env, std::string fname, std::unique_ptr<WritableFile> target,
            uint64_t initial)
      : env_(env), fname_(std::move(fname)), target_(std::move(target)), size_(initial) {}

  Status Append(const Slice& data) override {
    Status s = env_->MaybeFail(FaultEnv::Op::kAppend, fname_);
    if (!s.ok()) return s;
    s = target_->Append(data);
    if (s.ok()) s = target_->Flush();  // unbuffered: see Freeze()
    if (s.ok()) size_ += data.size();
    return s;
  }
  Status Flush() override {
    if (env_->frozen()) return Status::IOError(fname_, "frozen (simulated crash)");
    return target_->Flush();
  }
  Status Sync() override {
    Status s = env_->MaybeFail(FaultEnv::Op::kSync, fname_);
    if (!s.ok()) return s;
    s = target_->Sync();
    if (s.ok()) env_->RecordSynced(fname_, size_);
    return s;
  }
  Status Close() override { return target_->Close(); }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<WritableFile> target_;
  uint64_t size_;
};

}  // namespace

void FaultEnv::Arm(Op op, const std::string& filter, int after) {
  std::lock_guard<std::mutex> l(mu_);
  rules_[op] = Rule{true, filter, after};
}

void FaultEnv::Disarm() {
  std::lock_guard<std::mutex> l(mu_);
  rules_.clear();
}

Status FaultEnv::MaybeFail(Op op, const std::string& fname) {
  if (frozen_.load()) return Status::IOError(fname, "frozen (simulated crash)");
  std::lock_guard<std::mutex> l(mu_);
  auto it = rules_.find(op);
  if (it == rules_.end() || !it->second.armed) return Status::OK();
  if (fname.find(it->second.filter) == std::string::npos) return Status::OK();
  if (it->second.after > 0) {
    it->second.after--;
    return Status::OK();
  }
  failures_.fetch_add(1);
  switch (op) {
    case Op::kAppend: return Status::IOError(fname, "No space left on device (injected)");
    case Op::kSync: return Status::IOError(fname, "Input/output error (injected fsync failure)");
    case Op::kRename: return Status::IOError(fname, "Input/output error (injected rename failure)");
    case Op::kCreate: return Status::IOError(fname, "No space left on device (injected)");
  }
  return Status::IOError(fname, "injected");
}

void FaultEnv::RecordSynced(const std::string& fname, uint64_t size) {
  std::lock_guard<std::mutex> l(mu_);
  synced_[fname] = size;
}

Status FaultEnv::NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r) {
  Status s = MaybeFail(Op::kCreate, f);
  if (!s.ok()) return s;
  std::unique_ptr<WritableFile> file;
  s = target()->NewWritableFile(f, &file);
  if (!s.ok()) return s;
  {
    std::lock_guard<std::mutex> l(mu_);
    synced_[f] = 0;
  }
  *r = std::make_unique<FaultFile>(this, f, std::move(file), 0);
  return s;
}

Status FaultEnv::NewAppendableFile(const std::string& f, std::unique_ptr<WritableFile>* r) {
  Status s = MaybeFail(Op::kCreate, f);
  if (!s.ok()) return s;
  uint64_t size = 0;
  target()->GetFileSize(f, &size);
  std::unique_ptr<WritableFile> file;
  s = target()->NewAppendableFile(f, &file);
  if (!s.ok()) return s;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (synced_.count(f) == 0) synced_[f] = size;
  }
  *r = std::make_unique<FaultFile>(this, f, std::move(file), size);
  return s;
}

Status FaultEnv::RenameFile(const std::string& s, const std::string& t) {
  Status st = MaybeFail(Op::kRename, s);
  if (!st.ok()) return st;
  st = target()->RenameFile(s, t);
  if (st.ok()) {
    std::lock_guard<std::mutex> l(mu_);
    auto it = synced_.find(s);
    if (it != synced_.end()) {
      synced_[t] = it->second;
      synced_.erase(it);
    }
  }
  return st;
}

Status FaultEnv::RemoveFile(const std::string& f) {
  if (frozen_.load()) return Status::IOError(f, "frozen (simulated crash)");
  {
    std::lock_guard<std::mutex> l(mu_);
    synced_.erase(f);
  }
  return target()->RemoveFile(f);
}

Status FaultEnv::TruncateFile(const std::string& f, uint64_t size) {
  if (frozen_.load()) return Status::IOError(f, "frozen (simulated crash)");
  return target()->TruncateFile(f, size);
}

Status FaultEnv::SyncDir(const std::string& d) {
  if (frozen_.load()) return Status::IOError(d, "frozen (simulated crash)");
  return target()->SyncDir(d);
}

void FaultEnv::DropUnsyncedData() {
  std::lock_guard<std::mutex> l(mu_);
  for (const auto& [fname, size] : synced_) {
    uint64_t actual = 0;
    if (target()->GetFileSize(fname, &actual).ok() && actual > size) {
      target()->TruncateFile(fname, size);
    }
  }
}

}  // namespace sluice::test
