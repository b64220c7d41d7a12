// sluice_stress/expected_state.cc — see expected_state.h.

#include "expected_state.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "value_format.h"

namespace sluice::stress {

namespace {

constexpr char kMagic[8] = {'S', 'L', 'U', 'I', 'C', 'E', 'X', 'P'};
constexpr uint32_t kFormatVersion = 1;

std::string BaselineName(const std::string& dir) { return dir + "/baseline"; }

Status PosixError(const std::string& context, int err) {
  return Status::IOError(context, std::strerror(err));
}

Status ReadWholeFile(const std::string& fname, std::string* out) {
  out->clear();
  int fd = ::open(fname.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? Status::NotFound(fname) : PosixError(fname, errno);
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return PosixError(fname, err);
    }
    if (n == 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return Status::OK();
}

Status WriteAll(int fd, const std::string& fname, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return PosixError(fname, errno);
    data += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

template <typename T>
void PutRaw(std::string* s, T v) {
  s->append(reinterpret_cast<const char*>(&v), sizeof(v));
}
template <typename T>
T GetRaw(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// One write of one key, assembled from its intent and ack records.
struct Write {
  uint32_t base = 0;
  OpKind kind = OpKind::kPut;
  bool acknowledged = false;
  uint64_t seq = 0;
};

bool Holds(const Recovered& r, bool exists, uint32_t base) {
  return r.has_value() ? exists && *r == base : !exists;
}
bool Holds(const Recovered& r, const Write& w) { return Holds(r, w.kind == OpKind::kPut, w.base); }

std::string Describe(bool exists, uint32_t base) {
  return exists ? fmt::format("value #{}", base) : std::string("no value");
}
std::string Describe(const Recovered& r) { return Describe(r.has_value(), r.value_or(0)); }
std::string Describe(const Write& w) { return Describe(w.kind == OpKind::kPut, w.base); }

// Per key, its writes in base order (the order the driver issued them in).
std::map<uint32_t, std::vector<Write>> GroupByKey(const std::vector<HistoryRecord>& history) {
  std::map<uint32_t, std::map<uint32_t, Write>> by_key;
  for (const HistoryRecord& r : history) {
    Write& w = by_key[r.key][r.base];
    w.base = r.base;
    w.kind = r.kind;
    if (r.phase == Phase::kAck) {
      w.acknowledged = true;
      w.seq = r.seq;
    }
  }
  std::map<uint32_t, std::vector<Write>> out;
  for (auto& [key, writes] : by_key) {
    for (auto& [base, w] : writes) out[key].push_back(w);
  }
  return out;
}

constexpr size_t kMaxFailures = 20;

void AddFailure(VerifyReport* report, std::string message) {
  if (report->failures.size() < kMaxFailures) report->failures.push_back(std::move(message));
}

// The durable check of one key: its last acknowledged write, or a later in-flight one.
void CheckDurable(uint32_t key, const KeyState& before, const std::vector<Write>& writes,
                  const Recovered& got, VerifyReport* report) {
  int last_acked = -1;
  for (size_t i = 0; i < writes.size(); i++) {
    if (writes[i].acknowledged) last_acked = static_cast<int>(i);
  }
  const bool matches_acked = last_acked < 0 ? Holds(got, before.exists, before.base)
                                            : Holds(got, writes[static_cast<size_t>(last_acked)]);
  if (matches_acked) return;
  for (size_t i = static_cast<size_t>(last_acked + 1); i < writes.size(); i++) {
    if (Holds(got, writes[i])) return;  // an in-flight write that made it
  }
  const std::string expected = last_acked < 0 ? Describe(before.exists, before.base) + " (baseline)"
                                              : Describe(writes[static_cast<size_t>(last_acked)]) +
                                                    " (last acknowledged write)";
  AddFailure(report,
             fmt::format("{}: holds {}, expected {}{}", KeyString(key), Describe(got), expected,
                         static_cast<size_t>(last_acked + 1) < writes.size()
                             ? " or a write that was in flight"
                             : ""));
}

// An interval [first, last] of prefix positions (see CheckPrefix).
struct Interval {
  size_t first, last;
};

// The prefix check. Position p (0..M) stands for "the acknowledged write groups with the p
// smallest sequence numbers happened, no others". For each key, the positions at which its
// recovered state is what those writes leave form a few intervals; a position covered by
// every key is a prefix explaining the whole database. An acknowledged write without a
// sequence number (a read-modify-write) floats: between the key's neighbouring numbered
// writes, the state before it and the state after it are both accepted.
void CheckPrefix(const std::vector<KeyState>& baseline,
                 const std::map<uint32_t, std::vector<Write>>& writes_by_key,
                 const std::vector<Recovered>& recovered, VerifyReport* report) {
  std::vector<uint64_t> seqs;
  for (const auto& [key, writes] : writes_by_key) {
    for (const Write& w : writes) {
      if (w.acknowledged && w.seq != 0) seqs.push_back(w.seq);
    }
  }
  std::sort(seqs.begin(), seqs.end());
  seqs.erase(std::unique(seqs.begin(), seqs.end()), seqs.end());
  const size_t m = seqs.size();
  auto rank = [&](uint64_t seq) {
    return static_cast<size_t>(std::lower_bound(seqs.begin(), seqs.end(), seq) - seqs.begin());
  };

  std::vector<int64_t> cover(m + 2, 0);  // difference array over positions 0..m
  std::map<uint32_t, std::vector<Interval>> intervals_by_key;
  for (const auto& [key, writes] : writes_by_key) {
    const Recovered& got = recovered[key];
    std::vector<Interval> iv;
    size_t from = 0;  // the first position of the current segment
    bool matches = Holds(got, baseline[key].exists, baseline[key].base);
    uint32_t last_base = baseline[key].base;  // of the last acknowledged write
    for (const Write& w : writes) {
      if (!w.acknowledged) continue;
      last_base = w.base;
      if (w.seq == 0) {  // floating: its state joins the segment's accepted states
        matches = matches || Holds(got, w);
        continue;
      }
      const size_t r = rank(w.seq);
      if (r < from) {
        AddFailure(report, fmt::format("{}: write #{} got sequence number {}, not after the "
                                       "key's previous write",
                                       KeyString(key), w.base, w.seq));
        return;
      }
      if (matches) iv.push_back({from, r});
      from = r + 1;
      matches = Holds(got, w);
    }
    // An in-flight write after the last acknowledged one may have happened at any later point.
    for (const Write& w : writes) {
      if (!w.acknowledged && w.base > last_base && Holds(got, w)) matches = true;
    }
    if (matches) iv.push_back({from, m});
    std::sort(iv.begin(), iv.end(),
              [](const Interval& a, const Interval& b) { return a.first < b.first; });
    std::vector<Interval> merged;
    for (const Interval& i : iv) {
      if (!merged.empty() && i.first <= merged.back().last + 1) {
        merged.back().last = std::max(merged.back().last, i.last);
      } else {
        merged.push_back(i);
      }
    }
    for (const Interval& i : merged) {
      cover[i.first]++;
      cover[i.last + 1]--;
    }
    intervals_by_key[key] = std::move(merged);
  }

  const int64_t need = static_cast<int64_t>(writes_by_key.size());
  int64_t running = 0, best_cover = -1;
  size_t best = 0;
  std::optional<size_t> valid;
  for (size_t p = 0; p <= m; p++) {
    running += cover[p];
    if (running == need) valid = p;  // keep the largest
    if (running > best_cover) best_cover = running, best = p;
  }
  if (valid.has_value()) {
    report->lost_acknowledged = m - *valid;
    return;
  }
  AddFailure(report,
             fmt::format("no prefix of the {} acknowledged write groups explains the database; "
                         "the closest (the first {}) leaves {} of {} written keys wrong:",
                         m, best, need - best_cover, need));
  for (const auto& [key, iv] : intervals_by_key) {
    const bool ok = std::any_of(
        iv.begin(), iv.end(), [&](const Interval& i) { return i.first <= best && best <= i.last; });
    if (!ok)
      AddFailure(report, fmt::format("  {}: holds {}", KeyString(key), Describe(recovered[key])));
  }
}

}  // namespace

Status LoadBaseline(const std::string& dir, uint32_t max_key, std::vector<KeyState>* state) {
  state->assign(max_key, KeyState{});
  const std::string fname = BaselineName(dir);
  std::string data;
  Status s = ReadWholeFile(fname, &data);
  if (s.IsNotFound()) return Status::OK();
  if (!s.ok()) return s;
  if (data.size() < 16 || std::memcmp(data.data(), kMagic, 8) != 0 ||
      GetRaw<uint32_t>(data.data() + 8) != kFormatVersion) {
    return Status::Corruption(fname, "not an expected-state baseline of this version");
  }
  const uint32_t keys = GetRaw<uint32_t>(data.data() + 12);
  if (keys != max_key) {
    return Status::InvalidArgument(
        fname, fmt::format("written for --max_key={}, not {}; use a fresh --expected_state "
                           "directory (or --destroy)",
                           keys, max_key));
  }
  if (data.size() != 16 + size_t{keys} * 12) return Status::Corruption(fname, "wrong size");
  for (uint32_t k = 0; k < keys; k++) {
    const char* p = data.data() + 16 + size_t{k} * 12;
    (*state)[k].base = GetRaw<uint32_t>(p);
    (*state)[k].next_base = GetRaw<uint32_t>(p + 4);
    (*state)[k].exists = GetRaw<uint32_t>(p + 8) != 0;
  }
  return Status::OK();
}

Status SaveBaseline(const std::string& dir, const std::vector<KeyState>& state) {
  std::string data(kMagic, 8);
  PutRaw<uint32_t>(&data, kFormatVersion);
  PutRaw<uint32_t>(&data, static_cast<uint32_t>(state.size()));
  for (const KeyState& k : state) {
    PutRaw<uint32_t>(&data, k.base);
    PutRaw<uint32_t>(&data, k.next_base);
    PutRaw<uint32_t>(&data, k.exists ? 1 : 0);
  }
  const std::string fname = BaselineName(dir);
  const std::string tmp = fname + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return PosixError(tmp, errno);
  Status s = WriteAll(fd, tmp, data.data(), data.size());
  if (s.ok() && ::fsync(fd) != 0) s = PosixError(tmp, errno);
  ::close(fd);
  if (s.ok() && ::rename(tmp.c_str(), fname.c_str()) != 0) s = PosixError(fname, errno);
  return s;
}

HistoryWriter::~HistoryWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status HistoryWriter::Open(const std::string& dir, int thread) {
  fname_ = fmt::format("{}/history-{}", dir, thread);
  fd_ = ::open(fname_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  return fd_ < 0 ? PosixError(fname_, errno) : Status::OK();
}

Status HistoryWriter::Append(const HistoryRecord* records, size_t n) {
  return WriteAll(fd_, fname_, reinterpret_cast<const char*>(records), n * sizeof(HistoryRecord));
}

namespace {

template <typename Fn>
Status ForEachHistoryFile(const std::string& dir, Fn fn) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return PosixError(dir, errno);
  Status s;
  while (dirent* e = ::readdir(d)) {
    if (std::strncmp(e->d_name, "history-", 8) == 0) {
      s = fn(dir + "/" + e->d_name);
      if (!s.ok()) break;
    }
  }
  ::closedir(d);
  return s;
}

}  // namespace

Status LoadHistory(const std::string& dir, uint32_t max_key, std::vector<HistoryRecord>* out) {
  out->clear();
  return ForEachHistoryFile(dir, [&](const std::string& fname) {
    std::string data;
    Status s = ReadWholeFile(fname, &data);
    if (!s.ok()) return s;
    const size_t n = data.size() / sizeof(HistoryRecord);
    for (size_t i = 0; i < n; i++) {
      HistoryRecord r;
      std::memcpy(&r, data.data() + i * sizeof(r), sizeof(r));
      const bool kind_ok = r.kind == OpKind::kPut || r.kind == OpKind::kDelete;
      const bool phase_ok = r.phase == Phase::kIntent || r.phase == Phase::kAck;
      if (r.key >= max_key || !kind_ok || !phase_ok) {
        return Status::Corruption(fname, fmt::format("record {} is invalid", i));
      }
      out->push_back(r);
    }
    return Status::OK();
  });
}

Status ClearHistory(const std::string& dir) {
  return ForEachHistoryFile(dir, [](const std::string& fname) {
    return ::unlink(fname.c_str()) == 0 ? Status::OK() : PosixError(fname, errno);
  });
}

VerifyReport Verify(const std::vector<KeyState>& baseline,
                    const std::vector<HistoryRecord>& history,
                    const std::vector<Recovered>& recovered, const VerifyOptions& options) {
  VerifyReport report;
  report.keys = recovered.size();
  const std::map<uint32_t, std::vector<Write>> writes_by_key = GroupByKey(history);
  for (const auto& [key, writes] : writes_by_key) {
    report.writes += writes.size();
    for (const Write& w : writes) (w.acknowledged ? report.acknowledged : report.in_flight)++;
  }
  // Keys nobody wrote hold their baseline state, whatever the mode.
  for (uint32_t k = 0; k < recovered.size(); k++) {
    if (writes_by_key.count(k) == 0 && !Holds(recovered[k], baseline[k].exists, baseline[k].base)) {
      AddFailure(&report, fmt::format("{}: holds {}, but it was not written since the baseline, "
                                      "which has {}",
                                      KeyString(k), Describe(recovered[k]),
                                      Describe(baseline[k].exists, baseline[k].base)));
    }
  }
  if (options.require_acknowledged) {
    for (const auto& [key, writes] : writes_by_key) {
      CheckDurable(key, baseline[key], writes, recovered[key], &report);
    }
  }
  CheckPrefix(baseline, writes_by_key, recovered, &report);
  return report;
}

std::vector<KeyState> Rebase(const std::vector<KeyState>& baseline,
                             const std::vector<HistoryRecord>& history,
                             const std::vector<Recovered>& recovered) {
  std::vector<KeyState> next = baseline;
  for (const HistoryRecord& r : history) {
    next[r.key].next_base = std::max(next[r.key].next_base, r.base + 1);
  }
  for (size_t k = 0; k < next.size(); k++) {
    next[k].exists = recovered[k].has_value();
    if (next[k].exists) next[k].base = *recovered[k];
  }
  return next;
}

}  // namespace sluice::stress
