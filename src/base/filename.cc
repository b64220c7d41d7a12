// base/filename.cc — see filename.h.

#include "base/filename.h"

#include <fmt/format.h>

#include <cctype>

#include "util/kill_point.h"

namespace sluice {

namespace {

std::string Numbered(const std::string& dbname, uint64_t number, const char* suffix) {
  return fmt::format("{}/{:06d}.{}", dbname, number, suffix);
}

bool ParseNumber(const std::string& s, uint64_t* out) {
  if (s.empty() || s.size() > 19) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

}  // namespace

std::string NormalizeDbPath(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string LogFileName(const std::string& dbname, uint64_t number) {
  return Numbered(dbname, number, "log");
}
std::string TableFileName(const std::string& dbname, uint64_t number) {
  return Numbered(dbname, number, "sst");
}
std::string TempFileName(const std::string& dbname, uint64_t number) {
  return Numbered(dbname, number, "dbtmp");
}
std::string ManifestFileName(const std::string& dbname, uint64_t number) {
  return fmt::format("{}/MANIFEST-{:06d}", dbname, number);
}
std::string CurrentFileName(const std::string& dbname) { return dbname + "/CURRENT"; }
std::string LockFileName(const std::string& dbname) { return dbname + "/LOCK"; }
std::string InfoLogFileName(const std::string& dbname) { return dbname + "/LOG"; }
std::string OldInfoLogFileName(const std::string& dbname) { return dbname + "/LOG.old"; }

bool ParseFileName(const std::string& name, uint64_t* number, FileType* type) {
  if (name == "CURRENT") {
    *number = 0;
    *type = FileType::kCurrent;
    return true;
  }
  if (name == "LOCK") {
    *number = 0;
    *type = FileType::kLock;
    return true;
  }
  if (name == "LOG" || name == "LOG.old") {
    *number = 0;
    *type = FileType::kInfoLog;
    return true;
  }
  if (name.rfind("MANIFEST-", 0) == 0) {
    *type = FileType::kManifest;
    return ParseNumber(name.substr(9), number);
  }
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return false;
  if (!ParseNumber(name.substr(0, dot), number)) return false;
  const std::string suffix = name.substr(dot + 1);
  if (suffix == "log") {
    *type = FileType::kLog;
  } else if (suffix == "sst") {
    *type = FileType::kTable;
  } else if (suffix == "dbtmp") {
    *type = FileType::kTemp;
  } else {
    return false;
  }
  return true;
}

Status SetCurrentFile(Env* env, const std::string& dbname, uint64_t manifest_number) {
  const std::string manifest = ManifestFileName(dbname, manifest_number);
  const std::string contents = manifest.substr(dbname.size() + 1) + "\n";
  const std::string tmp = TempFileName(dbname, manifest_number);
  std::unique_ptr<WritableFile> file;
  Status s = env->NewWritableFile(tmp, &file);
  if (s.ok()) s = file->Append(contents);
  if (s.ok()) s = file->Sync();
  if (s.ok()) s = file->Close();
  if (s.ok()) SLUICE_KILL_POINT("current.before_rename");
  if (s.ok()) s = env->RenameFile(tmp, CurrentFileName(dbname));
  if (s.ok()) SLUICE_KILL_POINT("current.after_rename");
  if (s.ok()) s = env->SyncDir(dbname);
  if (!s.ok()) env->RemoveFile(tmp);
  return s;
}

Status ReadCurrentFile(Env* env, const std::string& dbname, std::string* manifest,
                       uint64_t* number_out) {
  std::unique_ptr<SequentialFile> current_file;
  Status s = env->NewSequentialFile(CurrentFileName(dbname), &current_file);
  if (!s.ok()) return s;
  char buf[256];
  Slice contents;
  s = current_file->Read(sizeof(buf), &contents, buf);
  if (!s.ok()) return s;
  std::string name = contents.ToString();
  uint64_t number = 0;
  FileType type;
  if (name.empty() || name.back() != '\n' ||
      !ParseFileName(name.substr(0, name.size() - 1), &number, &type) ||
      type != FileType::kManifest) {
    return Status::Corruption("CURRENT does not name a MANIFEST file", CurrentFileName(dbname));
  }
  name.pop_back();
  *manifest = dbname + "/" + name;
  if (number_out != nullptr) *number_out = number;
  return Status::OK();
}

}  // namespace sluice
