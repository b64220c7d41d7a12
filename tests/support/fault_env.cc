// tests/support/fault_env.cc — see fault_env.h.

#include "support/fault_env.h"

#include <fmt/format.h>

#include "support/test_util.h"

namespace sluice::test {

namespace {

class FaultFile final : public WritableFile {
 public:
  FaultFile(FaultEnv* env, std::string fname, std::unique_ptr<WritableFile> target,
            uint64_t initial)
      : env_(env), fname_(std::move(fname)), target_(std::move(target)), size_(initial) {}

  Status Append(const Slice& data) override {
    Status s = env_->MaybeFail(FaultEnv::Op::kAppend, fname_);
    if (!s.ok()) {
      if (env_->torn_appends() && !env_->frozen() && data.size() > 1) {
        // A torn write: part of the data reaches the file before the error.
        const Slice half(data.data(), data.size() / 2);
        if (target_->Append(half).ok() && target_->Flush().ok()) size_ += half.size();
      }
      return s;
    }
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

class FaultRandomAccessFile final : public RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultEnv* env, std::string fname, std::unique_ptr<RandomAccessFile> target)
      : env_(env), fname_(std::move(fname)), target_(std::move(target)) {}

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    Status s = env_->MaybeFail(FaultEnv::Op::kRead, fname_);
    if (!s.ok()) {
      *result = Slice();
      return s;
    }
    return target_->Read(offset, n, result, scratch);
  }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<RandomAccessFile> target_;
};

class FaultSequentialFile final : public SequentialFile {
 public:
  FaultSequentialFile(FaultEnv* env, std::string fname, std::unique_ptr<SequentialFile> target)
      : env_(env), fname_(std::move(fname)), target_(std::move(target)) {}

  Status Read(size_t n, Slice* result, char* scratch) override {
    Status s = env_->MaybeFail(FaultEnv::Op::kRead, fname_);
    if (!s.ok()) {
      *result = Slice();
      return s;
    }
    return target_->Read(n, result, scratch);
  }
  Status Skip(uint64_t n) override { return target_->Skip(n); }

 private:
  FaultEnv* const env_;
  const std::string fname_;
  std::unique_ptr<SequentialFile> target_;
};

// Operations that change the disk; they all fail once the Env is frozen.
bool Mutates(FaultEnv::Op op) { return op != FaultEnv::Op::kRead && op != FaultEnv::Op::kOpenRead; }

}  // namespace

const char* FaultEnv::OpName(Op op) {
  switch (op) {
    case Op::kAppend: return "append";
    case Op::kSync: return "sync";
    case Op::kRename: return "rename";
    case Op::kCreate: return "create";
    case Op::kRead: return "read";
    case Op::kOpenRead: return "open-read";
    case Op::kRemove: return "remove";
    case Op::kSyncDir: return "sync-dir";
  }
  return "?";
}

void FaultEnv::Arm(Op op, const std::string& filter, int after, int times) {
  std::lock_guard<std::mutex> l(mu_);
  rules_[op] = Rule{true, filter, after, times};
  any_armed_.store(true);
}

void FaultEnv::Disarm() {
  std::lock_guard<std::mutex> l(mu_);
  rules_.clear();
  any_armed_.store(false);
}

int FaultEnv::failures() const {
  int total = 0;
  for (const auto& f : failures_) total += f.load();
  return total;
}

std::string FaultEnv::FaultSummary() const {
  std::string r;
  for (int i = 0; i < kNumOps; i++) {
    const int n = failures_[static_cast<size_t>(i)].load();
    if (n > 0) r += fmt::format("{}{}={}", r.empty() ? "" : " ", OpName(static_cast<Op>(i)), n);
  }
  if (crashes_.load() > 0) r += fmt::format("{}crash={}", r.empty() ? "" : " ", crashes_.load());
  if (damage_.load() > 0) r += fmt::format("{}damage={}", r.empty() ? "" : " ", damage_.load());
  return r.empty() ? "none" : r;
}

Status FaultEnv::MaybeFail(Op op, const std::string& fname) {
  if (Mutates(op) && frozen_.load()) return Status::IOError(fname, "frozen (simulated crash)");
  if (!any_armed_.load(std::memory_order_acquire)) return Status::OK();
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = rules_.find(op);
    if (it == rules_.end() || !it->second.armed) return Status::OK();
    Rule& rule = it->second;
    if (fname.find(rule.filter) == std::string::npos) return Status::OK();
    if (rule.after > 0) {
      rule.after--;
      return Status::OK();
    }
    if (rule.times == 0) return Status::OK();
    if (rule.times > 0) rule.times--;
  }
  failures_[static_cast<size_t>(op)].fetch_add(1);
  switch (op) {
    case Op::kAppend: return Status::IOError(fname, "No space left on device (injected)");
    case Op::kSync: return Status::IOError(fname, "Input/output error (injected fsync failure)");
    case Op::kRename: return Status::IOError(fname, "Input/output error (injected rename failure)");
    case Op::kCreate: return Status::IOError(fname, "No space left on device (injected)");
    case Op::kRead: return Status::IOError(fname, "Input/output error (injected read failure)");
    case Op::kOpenRead: return Status::IOError(fname, "Input/output error (injected open failure)");
    case Op::kRemove: return Status::IOError(fname, "Input/output error (injected unlink failure)");
    case Op::kSyncDir:
      return Status::IOError(fname, "Input/output error (injected directory fsync failure)");
  }
  return Status::IOError(fname, "injected");
}

void FaultEnv::RecordSynced(const std::string& fname, uint64_t size) {
  std::lock_guard<std::mutex> l(mu_);
  synced_[fname] = size;
}

Status FaultEnv::NewSequentialFile(const std::string& f, std::unique_ptr<SequentialFile>* r) {
  Status s = MaybeFail(Op::kOpenRead, f);
  if (!s.ok()) return s;
  std::unique_ptr<SequentialFile> file;
  s = target()->NewSequentialFile(f, &file);
  if (!s.ok()) return s;
  *r = std::make_unique<FaultSequentialFile>(this, f, std::move(file));
  return s;
}

Status FaultEnv::NewRandomAccessFile(const std::string& f, std::unique_ptr<RandomAccessFile>* r) {
  Status s = MaybeFail(Op::kOpenRead, f);
  if (!s.ok()) return s;
  std::unique_ptr<RandomAccessFile> file;
  s = target()->NewRandomAccessFile(f, &file);
  if (!s.ok()) return s;
  *r = std::make_unique<FaultRandomAccessFile>(this, f, std::move(file));
  return s;
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
  Status s = MaybeFail(Op::kRemove, f);
  if (!s.ok()) return s;
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
  Status s = MaybeFail(Op::kSyncDir, d);
  if (!s.ok()) return s;
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

void FaultEnv::TruncateTo(const std::string& fname, uint64_t size) {
  TruncateFileOrDie(fname, size);
  damage_.fetch_add(1);
}

void FaultEnv::FlipBit(const std::string& fname, uint64_t offset, int bit) {
  FlipByte(fname, offset, static_cast<uint8_t>(1u << (bit & 7)));
  damage_.fetch_add(1);
}

}  // namespace sluice::test
