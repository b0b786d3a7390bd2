#include "profiles/mapreduce/mapreduce_ingest.h"

#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "profiles/mapreduce/mapreduce_store.h"

namespace perfplan::profiles::mapreduce {
namespace fs = std::filesystem;
namespace {

struct Candidate {
  std::string path;
  bool named = false;  // given on the command line (not found in a folder)
};

SourceStamp Stamp(const std::string& path) {
  SourceStamp s;
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  if (!ec) s.size_bytes = static_cast<std::int64_t>(size);
  auto t = fs::last_write_time(path, ec);
  if (!ec) {
    s.mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::file_clock::to_sys(t).time_since_epoch())
                     .count();
  }
  XXH64_hash_t h = 0;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    // Not zero-filled: fread writes the n bytes hashed (a zeroed 64 KiB per file was 2% of a
    // folder's ingest).
    constexpr std::size_t kFingerprintBytes = 64 * 1024;
    static thread_local const std::unique_ptr<char[]> buf =
        std::make_unique_for_overwrite<char[]>(kFingerprintBytes);
    const std::size_t n = std::fread(buf.get(), 1, kFingerprintBytes, f);
    h = XXH64(buf.get(), n, 0);
    std::fclose(f);
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  s.fingerprint = hex;
  return s;
}

std::vector<Candidate> FindFiles(const std::vector<std::string>& paths,
                                 std::vector<Problem>* missing) {
  std::vector<Candidate> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      out.push_back({p, true});
    } else if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec)) found.push_back(it->path().string());
      }
      std::sort(found.begin(), found.end());
      for (auto& f : found) out.push_back({std::move(f), false});
    } else {
      missing->push_back({p, 0, "", "no such file or folder"});
    }
  }
  return out;
}

// The open write transaction: how many files and bytes it holds.
struct Batch {
  bool open = false;
  std::int64_t files = 0, bytes = 0;
};

Status CommitBatch(Store& store, Batch* batch, const std::string& last_path) {
  if (!batch->open) return Status::Ok();
  batch->open = false;
  if (Status st = store.Commit(); !st.ok()) {
    store.Rollback();
    return Status::Failed(last_path + ": writing to the store failed: " + st.message());
  }
  return Status::Ok();
}

}  // namespace

Status IngestOptions::Validate() const {
  if (batch_files < 1) {
    return Status::InvalidField("batch_files",
                                "must be at least 1 (got " + std::to_string(batch_files) + ")");
  }
  if (batch_bytes < 1) {
    return Status::InvalidField("batch_bytes",
                                "must be at least 1 (got " + std::to_string(batch_bytes) + ")");
  }
  return Status::Ok();
}

Result<IngestSummary> IngestMapReduce(Store& store, const std::vector<std::string>& paths,
                                      const IngestProgress& progress,
                                      const IngestOptions& options) {
  if (Status st = options.Validate(); !st.ok()) return st;
  // Two ingesters on one store take turns (each reads the sources' stamps once per file).
  auto lock = store.LockExclusively("ingest mapreduce");
  if (!lock.ok()) return lock.status();
  IngestSummary summary;
  HistoryWriter writer(store);
  Batch batch;
  SkipTally<Problem> skips;  // the first 10 of each reason kept, all counted
  std::vector<Problem> missing;
  const std::vector<Candidate> files = FindFiles(paths, &missing);
  for (Problem& p : missing) skips.Add(std::move(p));
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string& path = files[i].path;
    const SourceStamp stamp = Stamp(path);
    auto unchanged = SourceUnchanged(store, path, stamp);
    if (!unchanged.ok()) {
      if (batch.open) store.Rollback();
      return unchanged.status();
    }
    if (unchanged.value()) {
      IngestedFile f;
      f.path = path;
      f.unchanged = true;
      summary.files.push_back(std::move(f));
      if (progress) progress(i + 1, files.size(), summary.bytes_read);
      continue;
    }
    auto read = ReadHistoryFile(path);
    if (!read.ok()) {
      if (files[i].named) {
        skips.Add({path, 0, "", read.status().message().substr(path.size() + 2)});
      } else {
        summary.ignored.push_back(read.status().message());
      }
      if (progress) progress(i + 1, files.size(), summary.bytes_read);
      continue;
    }
    const HistoryFile& h = read.value();
    summary.lines += h.lines;
    summary.bytes_read += h.bytes_read;
    if (h.format == Format::kSlsTopology) {
      summary.ignored.push_back(path + ": an SLS node topology (racks and nodes), no job");
      if (progress) progress(i + 1, files.size(), summary.bytes_read);
      continue;
    }
    // Files are written in batches, one transaction each: a crash loses at most the open batch,
    // whose files are not recorded in mr_sources yet and so are read again by the next ingest
    // (the store then equals a clean run's). One commit per file was a tenth of the CPU time of a
    // folder of small histories (docs/performance.md, "MapReduce ingest").
    if (!batch.open) {
      if (Status st = store.Begin(); !st.ok()) return st;
      batch = {true, 0, 0};
    }
    if (Status st = writer.Save(h, stamp); !st.ok()) {
      store.Rollback();
      return Status::Failed(path + ": writing to the store failed: " + st.message());
    }
    batch.files += 1;
    batch.bytes += h.bytes_read;
    if (batch.files >= options.batch_files || batch.bytes >= options.batch_bytes) {
      if (Status st = CommitBatch(store, &batch, path); !st.ok()) return st;
    }
    IngestedFile f;
    f.path = path;
    f.format = h.format;
    for (const Job& j : h.jobs) f.job_ids.push_back(j.job_id);
    if (h.format == Format::kConfXml && !h.conf_job_id.empty()) f.job_ids = {h.conf_job_id};
    if (h.format == Format::kConfXml && h.conf_job_id.empty()) {
      skips.Add({path, 0, "",
                 "a job configuration whose name holds no job id (expected job_<id>_conf.xml); not "
                 "attached to any job"});
    }
    f.events = h.events;
    f.problems = static_cast<std::int64_t>(h.problems.size());
    summary.events += h.events;
    summary.jobs += static_cast<std::int64_t>(h.jobs.size());
    for (const Problem& p : h.problems) skips.Add(p);
    summary.files.push_back(std::move(f));
    if (progress) progress(i + 1, files.size(), summary.bytes_read);
  }
  if (Status st = CommitBatch(store, &batch, files.empty() ? "" : files.back().path); !st.ok()) {
    return st;
  }
  summary.skipped = std::move(skips.mutable_examples());
  summary.skipped_total = skips.total();
  summary.skipped_reasons = skips.Reasons();
  return summary;
}

}  // namespace perfplan::profiles::mapreduce
