// Ingesting Hadoop MapReduce evidence into the profile store: `perfplan ingest mapreduce`.
//
// Each file (formats in mapreduce_history.h: .jhist, 0.20/1.x JobHistory, Rumen, SLS, conf.xml;
// gzip'd or not) is read once and written inside one transaction (a batch of up to 256 files or
// 32 MiB by default, IngestOptions), replacing what the store held for the same job ids (and, for a
// configuration, the same job's configuration). So ingesting the same files twice adds nothing, and
// a crash part-way (SIGKILL included) leaves the state of the batches already committed: the open
// batch's files are not recorded as ingested, so re-running the ingest gives a store identical to a
// clean run. An unchanged file (same path, size, modification time and leading bytes) is not read
// again.
//
// Bad lines are reported with file:line and never stop the rest of the file. A file named on the
// command line that is none of the formats is reported as skipped; inside a folder, files that are
// none of them (READMEs, SLS node topologies) are listed as ignored, not as problems.
// Thread-safety: one call per Store at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/mapreduce/mapreduce_history.h"
#include "profiles/problem.h"
#include "profiles/skip_tally.h"
#include "profiles/store.h"

namespace perfplan::profiles::mapreduce {

struct IngestedFile {
  std::string path;
  Format format = Format::kJhist;
  std::vector<std::string> job_ids;  // jobs the file holds; conf-xml: the job it configures
  std::int64_t events = 0;           // events / records / JSON objects / properties read
  std::int64_t problems = 0;         // bad lines in this file
  bool unchanged = false;            // skipped: the file had not changed since last ingested
};

struct IngestSummary {
  std::vector<IngestedFile> files;
  // Bad lines and unreadable or unrecognised files: the first 10 of each reason (SkipTally);
  // skipped_total counts all of them, skipped_reasons by reason, most frequent first.
  std::vector<Problem> skipped;
  std::int64_t skipped_total = 0;
  std::vector<SkipReason> skipped_reasons;
  std::vector<std::string> ignored;  // "PATH: reason" for folder entries that hold no job
  std::int64_t jobs = 0, events = 0, lines = 0, bytes_read = 0;
};

// Called after each file with (files done, files total, bytes read so far).
using IngestProgress = std::function<void(std::size_t, std::size_t, std::int64_t)>;

// How the files are grouped into transactions. The defaults suit every real ingest; a smaller
// batch only makes the ingest slower (one commit per batch), which a crash test wants: with
// batch_files = 1 every file commits alone, so a SIGKILL lands between commits.
struct IngestOptions {
  std::int64_t batch_files = 256;       // files per transaction, at least 1
  std::int64_t batch_bytes = 32 << 20;  // or fewer once the batch has read this many bytes
  // InvalidField naming batch_files or batch_bytes when one is below 1.
  Status Validate() const;
};

// Ingests every file under `paths` (files, folders searched recursively in name order) into
// `store`, which must have been opened with StoreMigrations(). Fails with options.Validate()'s
// error before touching the store, and (Failed "PATH: writing to the store failed: …") when the
// store fails; the open batch's transaction is rolled back.
Result<IngestSummary> IngestMapReduce(Store& store, const std::vector<std::string>& paths,
                                      const IngestProgress& progress = {},
                                      const IngestOptions& options = {});

}  // namespace perfplan::profiles::mapreduce
