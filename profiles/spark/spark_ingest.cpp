#include "profiles/spark/spark_ingest.h"

#include <simdjson.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "models/bounded_queue.h"
#include "models/json_text.h"
#include "profiles/detail/spark_attempt_tables.h"
#include "profiles/detail/spark_metrics.h"
#include "profiles/json_depth.h"
#include "profiles/scratch_file.h"
#include "profiles/skip_tally.h"
#include "profiles/spark/spark_ingest_floor.h"
#include "profiles/spark/spark_ingest_parallel.h"
#include "profiles/spark/spark_sql_listener.h"
#include "profiles/spark/spark_store.h"
#include "profiles/spark/spark_task_metrics.h"

namespace perfplan::profiles::spark {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A set of small non-negative integers (task indices) as a bitmap: 1 bit per index instead of a
// hash node, so 10^6 tasks cost 125 KB, not tens of MB.
class IndexSet {
 public:
  void Insert(std::int64_t i) {
    if (i < 0) return;
    const auto u = static_cast<std::size_t>(i);
    const std::size_t word = u / 64;
    if (word >= words_.size()) words_.resize(std::max(word + 1, words_.size() * 2));
    const std::uint64_t bit = std::uint64_t{1} << (u % 64);
    if (!(words_[word] & bit)) {
      words_[word] |= bit;
      ++size_;
    }
  }
  std::size_t size() const { return size_; }
  const std::vector<std::uint64_t>& words() const { return words_; }
  // The set whose bitmap is `words` (as words() gave it).
  static IndexSet FromWords(std::vector<std::uint64_t> words) {
    IndexSet set;
    for (const std::uint64_t w : words)
      set.size_ += static_cast<std::size_t>(__builtin_popcountll(w));
    set.words_ = std::move(words);
    return set;
  }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t size_ = 0;
};

constexpr std::string_view kTaskEndPrefix = "{\"Event\":\"SparkListenerTaskEnd\",";
constexpr std::string_view kTaskStartPrefix = "{\"Event\":\"SparkListenerTaskStart\",";

// ---- JSON field access that never throws ----
const json* Find(const json& j, std::string_view key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}
std::int64_t Int(const json& j, std::string_view key, std::int64_t fallback = 0) {
  const json* v = Find(j, key);
  if (!v) return fallback;
  if (v->is_number_integer() || v->is_number_unsigned()) return v->get<std::int64_t>();
  if (v->is_number_float()) return static_cast<std::int64_t>(v->get<double>());
  if (v->is_string()) {
    try {
      return std::stoll(v->get<std::string>());
    } catch (...) {
      return fallback;
    }
  }
  return fallback;
}
std::optional<std::int64_t> OptInt(const json& j, std::string_view key) {
  const json* v = Find(j, key);
  if (!v || !(v->is_number() || v->is_string())) return std::nullopt;
  return Int(j, key);
}
std::string Str(const json& j, std::string_view key, const std::string& fallback = "") {
  const json* v = Find(j, key);
  if (!v) return fallback;
  if (v->is_string()) return v->get<std::string>();
  return v->dump();
}
bool Bool(const json& j, std::string_view key) {
  const json* v = Find(j, key);
  return v && v->is_boolean() && v->get<bool>();
}
std::optional<std::string> Property(const json& event, const char* name) {
  const json* props = Find(event, "Properties");
  if (!props) return std::nullopt;
  const json* v = Find(*props, name);
  if (!v || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

// Accumulables without Spark's internal task metrics, as the REST API lists them.
json PublicAccumulables(const json& info, bool with_update) {
  json out = json::array();
  const json* acc = Find(info, "Accumulables");
  if (!acc || !acc->is_array()) return out;
  for (const json& a : *acc) {
    std::string name = Str(a, "Name");
    if (Bool(a, "Internal") || name.rfind("internal.", 0) == 0) continue;
    json o = {{"id", Int(a, "ID")}, {"name", name}};
    if (with_update) o["update"] = Str(a, "Update");
    o["value"] = Str(a, "Value");
    out.push_back(std::move(o));
  }
  return out;
}

// An application's finished stages and jobs, with what they hold per executor, put aside in a
// scratch file (profiles/scratch_file.h) until the application is written, so that the memory
// of an ingest grows neither with stages x executors (10^4 stages on 200 executors: 10^6
// entries, ~330 MB in maps) nor with stages (~2 KB a stage and job: 224 MB at 10^5 stages). A
// stage is put aside when it completed and has no task running, a job when it ended; a later
// event for one takes it back first, so what is written is what keeping them would have
// written. When no scratch file can be had (no writable $TMPDIR) or written, Put answers nullopt
// and the caller keeps the entries in memory, as before.
class StageSpill {
 public:
  struct Extent {
    std::uint64_t at = 0;
    std::size_t size = 0;
  };
  std::optional<Extent> Put(std::string_view bytes) {
    if (!file_) {
      if (unavailable_) return std::nullopt;
      auto opened = OpenScratchFile();
      if (!opened.ok()) {
        unavailable_ = true;
        return std::nullopt;
      }
      file_ = std::move(opened.value());
    }
    if (unavailable_) return std::nullopt;
    if (pending_.size() + bytes.size() > kWriteBlock && !Flush()) return std::nullopt;
    if (bytes.size() > kWriteBlock) {  // nothing pending now
      if (!file_->Append(bytes.data(), bytes.size()).ok()) {
        unavailable_ = true;
        return std::nullopt;
      }
      flushed_ += bytes.size();
    } else {
      pending_.append(bytes);
    }
    const Extent e{end_, bytes.size()};
    end_ += bytes.size();
    return e;
  }
  Result<std::string> Get(const Extent& e) {
    std::string out(e.size, '\0');
    if (Status st = Read(e.at, out.data(), e.size); !st.ok()) return st;
    return out;
  }
  // A record whose length goes in front of it (RecordWriter::Framed), so that what finds it
  // needs only its offset (SpillIndex).
  std::optional<std::uint64_t> PutRecord(std::string_view framed) {
    const auto e = Put(framed);
    if (!e) return std::nullopt;
    return e->at;
  }
  // The record PutRecord put at `at` (without its length), or its first `at_most` bytes.
  Result<std::string> GetRecord(std::uint64_t at,
                                std::size_t at_most = std::numeric_limits<std::size_t>::max()) {
    std::uint32_t size = 0;
    if (Status st = Read(at, &size, sizeof size); !st.ok()) return st;
    return Get({at + sizeof size, std::min<std::size_t>(size, at_most)});
  }

 private:
  // What is put goes to the file in blocks (one write for ~100 stages, not one each), and is read
  // back a block at a time (Finish reads the records in about the order they were put).
  static constexpr std::size_t kWriteBlock = 64 << 10, kReadBlock = 16 << 10;
  // Writes what Put gathered; false, and nothing put from then on, when the file refuses it (the
  // bytes stay in pending_, readable).
  bool Flush() {
    if (pending_.empty()) return true;
    if (!file_->Append(pending_.data(), pending_.size()).ok()) {
      unavailable_ = true;
      return false;
    }
    flushed_ += pending_.size();
    pending_.clear();
    return true;
  }
  // Bytes [at, at + size) of what was put: each Put's bytes are all in the file or all pending.
  Status Read(std::uint64_t at, void* into, std::size_t size) {
    auto* out = static_cast<char*>(into);
    if (at >= flushed_) {
      std::memcpy(out, pending_.data() + (at - flushed_), size);
      return Status::Ok();
    }
    if (at < read_at_ || at + size > read_at_ + read_.size()) {
      if (size > kReadBlock) return file_->Read(at, out, size);
      read_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kReadBlock, flushed_ - at)));
      read_at_ = at;
      if (Status st = file_->Read(at, read_.data(), read_.size()); !st.ok()) {
        read_.clear();
        return st;
      }
    }
    std::memcpy(out, read_.data() + (at - read_at_), size);
    return Status::Ok();
  }
  std::unique_ptr<models::ScratchFile> file_;
  bool unavailable_ = false;
  std::uint64_t end_ = 0;      // of what was put
  std::uint64_t flushed_ = 0;  // of what is in the file; the rest is in pending_
  std::string pending_;
  std::uint64_t read_at_ = 0;  // read_ holds the file's bytes from there
  std::string read_;
};

using StageKey = std::pair<int, int>;

// The bytes of a record put aside in a StageSpill: plain values as they are in memory, strings
// with their length, JSON values as their text. Framed() puts the record's length in front.
class RecordWriter {
 public:
  RecordWriter() : out_(sizeof(std::uint32_t), '\0') {}
  template <typename T>
  void Raw(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void Str(std::string_view v) {
    Raw(static_cast<std::uint32_t>(v.size()));
    out_.append(v);
  }
  template <typename T>
  void Opt(const std::optional<T>& v) {  // without the optional's padding bytes
    Raw(v.has_value());
    if (v) Raw(*v);
  }
  void Json(const json& v) { Str(JsonText(v)); }
  template <typename T>
  void Ints(const T& ints) {  // a set or vector of int
    Raw(static_cast<std::uint32_t>(ints.size()));
    for (const int i : ints) Raw(i);
  }
  void Strings(const std::set<std::string>& v) {
    Raw(static_cast<std::uint32_t>(v.size()));
    for (const std::string& e : v) Str(e);
  }
  void Counts(const std::map<std::string, int>& v) {
    Raw(static_cast<std::uint32_t>(v.size()));
    for (const auto& [k, n] : v) Str(k), Raw(n);
  }
  void Bits(const IndexSet& v) {
    Raw(static_cast<std::uint32_t>(v.words().size()));
    out_.append(reinterpret_cast<const char*>(v.words().data()), v.words().size() * 8);
  }
  std::string_view Framed() {
    const auto size = static_cast<std::uint32_t>(out_.size() - sizeof(std::uint32_t));
    std::memcpy(out_.data(), &size, sizeof size);
    return out_;
  }

 private:
  std::string out_;
};

// Reads what RecordWriter wrote, in the same order. Reading past the end gives zeros.
class RecordReader {
 public:
  explicit RecordReader(std::string_view bytes) : in_(bytes) {}
  bool AtEnd() const { return at_ >= in_.size(); }
  template <typename T>
  T Raw() {
    T v{};
    if (at_ + sizeof v <= in_.size()) std::memcpy(&v, in_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  template <typename T>
  void Raw(T* v) {
    *v = Raw<T>();
  }
  template <typename T>
  void Opt(std::optional<T>* v) {
    if (Raw<bool>()) {
      *v = Raw<T>();
    } else {
      v->reset();
    }
  }
  std::string Str() {
    const auto size = Raw<std::uint32_t>();
    std::string v(at_ < in_.size() ? in_.substr(at_, size) : std::string_view());
    at_ += size;
    return v;
  }
  json Json() {
    const std::string text = Str();
    if (text == "[]") return json::array();
    if (text == "{}") return json::object();
    return json::parse(text, nullptr, /*allow_exceptions=*/false);
  }
  template <typename T>
  void Ints(T* ints) {
    for (std::uint32_t n = Raw<std::uint32_t>(); n > 0; --n) ints->insert(ints->end(), Raw<int>());
  }
  void Strings(std::set<std::string>* v) {
    for (std::uint32_t n = Raw<std::uint32_t>(); n > 0; --n) v->insert(v->end(), Str());
  }
  void Counts(std::map<std::string, int>* v) {
    for (std::uint32_t n = Raw<std::uint32_t>(); n > 0; --n) {
      std::string k = Str();
      (*v)[std::move(k)] = Raw<int>();
    }
  }
  IndexSet Bits() {
    std::vector<std::uint64_t> words(Raw<std::uint32_t>());
    if (!words.empty() && at_ + words.size() * 8 <= in_.size()) {  // memcpy takes no null
      std::memcpy(words.data(), in_.data() + at_, words.size() * 8);
    }
    at_ += words.size() * 8;
    return IndexSet::FromWords(std::move(words));
  }

 private:
  std::string_view in_;
  std::size_t at_ = 0;
};

// Where the records put aside in a StageSpill are, by key (a stage attempt, a job): a vector
// kept sorted by key, 16 bytes an entry, and a short unsorted tail for the keys put aside out of
// order, merged in when it fills up. A key taken back from the sorted part is marked gone (not
// erased: that would move the rest of a long vector each time) and dropped at the next merge.
template <typename Key>
class SpillIndex {
 public:
  struct Entry {
    Key key;
    std::uint64_t at;
  };
  // `key` is not in the index.
  void Add(const Key& key, std::uint64_t at) {
    if (tail_.empty() && (sorted_.empty() || sorted_.back().key < key)) {
      sorted_.push_back({key, at});
      return;
    }
    tail_.push_back({key, at});
    if (tail_.size() >= kTail) Merge();
  }
  // Removes `key` and answers where its record is; nullopt when the key is not put aside.
  std::optional<std::uint64_t> Take(const Key& key) {
    for (Entry& e : tail_) {
      if (e.key == key) {
        const std::uint64_t at = e.at;
        e = tail_.back();
        tail_.pop_back();
        return at;
      }
    }
    auto it = std::lower_bound(sorted_.begin(), sorted_.end(), key,
                               [](const Entry& e, const Key& k) { return e.key < k; });
    if (it == sorted_.end() || it->key != key || it->at == kGone) return std::nullopt;
    const std::uint64_t at = it->at;
    it->at = kGone;
    return at;
  }
  // The entries in key order.
  const std::vector<Entry>& Sorted() {
    Merge();
    return sorted_;
  }

 private:
  static constexpr std::size_t kTail = 256;
  static constexpr std::uint64_t kGone = std::numeric_limits<std::uint64_t>::max();
  static bool Less(const Entry& a, const Entry& b) { return a.key < b.key; }
  void Merge() {
    std::sort(tail_.begin(), tail_.end(), Less);
    const auto middle = static_cast<std::ptrdiff_t>(sorted_.size());
    sorted_.insert(sorted_.end(), tail_.begin(), tail_.end());
    std::inplace_merge(sorted_.begin(), sorted_.begin() + middle, sorted_.end(), Less);
    std::erase_if(sorted_, [](const Entry& e) { return e.at == kGone; });
    tail_.clear();
  }
  std::vector<Entry> sorted_, tail_;
};

// Calls in_memory(key, value) for each entry of `live` (a map) and aside(key, at) for each entry
// of `index`, in key order, until one fails; a key is in one of the two.
template <typename Map, typename Key, typename InMemory, typename Aside>
Status InKeyOrder(Map& live, SpillIndex<Key>& index, InMemory in_memory, Aside aside) {
  const auto& put_aside = index.Sorted();
  auto a = put_aside.begin();
  for (auto& [key, value] : live) {
    for (; a != put_aside.end() && a->key < key; ++a) {
      if (Status st = aside(a->key, a->at); !st.ok()) return st;
    }
    if (Status st = in_memory(key, value); !st.ok()) return st;
  }
  for (; a != put_aside.end(); ++a) {
    if (Status st = aside(a->key, a->at); !st.ok()) return st;
  }
  return Status::Ok();
}

struct LiveStage {
  int stage_id = 0, attempt_id = 0;
  std::string name, details, description, failure_reason, pool = "default";
  int num_tasks = 0;
  std::string status = "PENDING";
  std::optional<std::int64_t> submission_ms, first_launch_ms, completion_ms;
  json rdd_ids = json::array(), parent_ids = json::array(), accumulables = json::array();
  std::set<int> job_ids;
  int resource_profile_id = 0;
  int active = 0, complete = 0, failed = 0, killed = 0;
  IndexSet completed_indices;
  std::map<std::string, int> killed_summary;
  json peak_executor_metrics = json::object();
  std::set<std::string> excluded_executors;
  // Per-executor peaks for the stage (ExecutorStageSummary.peakMemoryMetrics), from task ends and
  // SparkListenerStageExecutorMetrics; an executor listed here has a stage summary.
  std::map<std::string, json> executor_peaks;
  // Set while executor_peaks is put aside (as the text Finish writes; the map is then empty).
  std::optional<StageSpill::Extent> peaks_spilled;
  // SpeculationStageSummary, kept once a speculative task started or ended in the stage.
  bool speculated = false;
  bool shuffle_push_enabled = false;
  std::int64_t shuffle_mergers_count = 0;
  int spec_tasks = 0, spec_active = 0, spec_completed = 0, spec_failed = 0, spec_killed = 0;
};

// StorageLevel as JsonProtocol writes it, with StorageLevel.description and isValid.
struct StorageLevel {
  bool use_disk = false, use_memory = false, use_off_heap = false, deserialized = false;
  std::int64_t replication = 1;
  bool Valid() const { return (use_memory || use_disk) && replication > 0; }
  std::string Description() const {
    std::string out = use_disk ? "Disk " : "";
    if (use_memory) out += use_off_heap ? "Memory (off heap) " : "Memory ";
    out += deserialized ? "Deserialized " : "Serialized ";
    return out + std::to_string(replication) + "x Replicated";
  }
};

struct LiveRddPartition {
  std::string block_name;
  std::vector<std::string> executors;
  std::int64_t memory_used = 0, disk_used = 0;
};

struct LiveRddDistribution {
  std::string executor_id;
  std::int64_t memory_used = 0, disk_used = 0, on_heap_used = 0, off_heap_used = 0;
};

// An RDD with a valid storage level (AppStatusListener's LiveRDD), for storage/rdd.
struct LiveRdd {
  std::int64_t id = 0, num_partitions = 0, memory_used = 0, disk_used = 0;
  std::string name, storage_level;
  std::vector<LiveRddPartition> partitions;        // in the order blocks were first stored
  std::vector<LiveRddDistribution> distributions;  // in the order executors first stored one
};

struct LiveJob {
  int job_id = 0;
  std::string name;
  std::optional<std::string> description, job_group;
  std::optional<std::int64_t> submission_ms, completion_ms, sql_execution_id;
  std::string status = "RUNNING";
  std::vector<int> stage_ids;
  json tags = json::array();
  int num_tasks = 0, active_tasks = 0, completed_tasks = 0, skipped_tasks = 0, failed_tasks = 0,
      killed_tasks = 0, active_stages = 0, failed_stages = 0;
  std::map<int, IndexSet> completed_indices;  // by stage id: distinct (stage, index) pairs
  std::set<int> completed_stages, skipped_stages;
  std::map<std::string, int> killed_summary;
};

// A finished stage attempt or job, whole, as a record of the scratch file (AppBuilder puts
// them aside) and back. The sizes asserted are the fields' (x86-64): a new field is to be
// packed here too.
static_assert(sizeof(LiveStage) == 632, "a new LiveStage field: pack it in PackStage");
static_assert(sizeof(LiveJob) == 464, "a new LiveJob field: pack it in PackJob");

// `s.executor_peaks` is empty (they are put aside on their own: peaks_spilled).
void PackStage(const LiveStage& s, RecordWriter& w) {
  w.Raw(s.stage_id), w.Raw(s.attempt_id);
  for (const std::string* v :
       {&s.name, &s.details, &s.description, &s.failure_reason, &s.pool, &s.status}) {
    w.Str(*v);
  }
  w.Raw(s.num_tasks), w.Opt(s.submission_ms), w.Opt(s.first_launch_ms), w.Opt(s.completion_ms);
  w.Json(s.rdd_ids), w.Json(s.parent_ids), w.Json(s.accumulables);
  w.Ints(s.job_ids);
  w.Raw(s.resource_profile_id), w.Raw(s.active), w.Raw(s.complete), w.Raw(s.failed);
  w.Raw(s.killed);
  w.Bits(s.completed_indices);
  w.Counts(s.killed_summary);
  w.Json(s.peak_executor_metrics);
  w.Strings(s.excluded_executors);
  w.Opt(s.peaks_spilled);
  w.Raw(s.speculated), w.Raw(s.shuffle_push_enabled), w.Raw(s.shuffle_mergers_count);
  w.Raw(s.spec_tasks), w.Raw(s.spec_active), w.Raw(s.spec_completed), w.Raw(s.spec_failed);
  w.Raw(s.spec_killed);
}
void Unpack(RecordReader& r, LiveStage* s) {
  r.Raw(&s->stage_id), r.Raw(&s->attempt_id);
  for (std::string* v :
       {&s->name, &s->details, &s->description, &s->failure_reason, &s->pool, &s->status}) {
    *v = r.Str();
  }
  r.Raw(&s->num_tasks), r.Opt(&s->submission_ms), r.Opt(&s->first_launch_ms);
  r.Opt(&s->completion_ms);
  s->rdd_ids = r.Json(), s->parent_ids = r.Json(), s->accumulables = r.Json();
  r.Ints(&s->job_ids);
  r.Raw(&s->resource_profile_id), r.Raw(&s->active), r.Raw(&s->complete), r.Raw(&s->failed);
  r.Raw(&s->killed);
  s->completed_indices = r.Bits();
  r.Counts(&s->killed_summary);
  s->peak_executor_metrics = r.Json();
  r.Strings(&s->excluded_executors);
  r.Opt(&s->peaks_spilled);
  r.Raw(&s->speculated), r.Raw(&s->shuffle_push_enabled), r.Raw(&s->shuffle_mergers_count);
  r.Raw(&s->spec_tasks), r.Raw(&s->spec_active), r.Raw(&s->spec_completed);
  r.Raw(&s->spec_failed), r.Raw(&s->spec_killed);
}

void PackJob(const LiveJob& j, RecordWriter& w) {
  w.Raw(j.job_id);
  w.Str(j.name);
  for (const std::optional<std::string>* v : {&j.description, &j.job_group}) {
    w.Raw(v->has_value());
    w.Str(v->value_or(""));
  }
  w.Opt(j.submission_ms), w.Opt(j.completion_ms), w.Opt(j.sql_execution_id);
  w.Str(j.status);
  w.Ints(j.stage_ids);
  w.Json(j.tags);
  for (const int v : {j.num_tasks, j.active_tasks, j.completed_tasks, j.skipped_tasks,
                      j.failed_tasks, j.killed_tasks, j.active_stages, j.failed_stages}) {
    w.Raw(v);
  }
  w.Raw(static_cast<std::uint32_t>(j.completed_indices.size()));
  for (const auto& [stage, set] : j.completed_indices) w.Raw(stage), w.Bits(set);
  w.Ints(j.completed_stages), w.Ints(j.skipped_stages);
  w.Counts(j.killed_summary);
}
void Unpack(RecordReader& r, LiveJob* j) {
  r.Raw(&j->job_id);
  j->name = r.Str();
  for (std::optional<std::string>* v : {&j->description, &j->job_group}) {
    const bool has = r.Raw<bool>();
    std::string text = r.Str();
    if (has) *v = std::move(text);
  }
  r.Opt(&j->submission_ms), r.Opt(&j->completion_ms), r.Opt(&j->sql_execution_id);
  j->status = r.Str();
  r.Ints(&j->stage_ids);
  j->tags = r.Json();
  for (int* v : {&j->num_tasks, &j->active_tasks, &j->completed_tasks, &j->skipped_tasks,
                 &j->failed_tasks, &j->killed_tasks, &j->active_stages, &j->failed_stages}) {
    r.Raw(v);
  }
  for (std::uint32_t n = r.Raw<std::uint32_t>(); n > 0; --n) {
    const int stage = r.Raw<int>();
    j->completed_indices.emplace_hint(j->completed_indices.end(), stage, r.Bits());
  }
  r.Ints(&j->completed_stages), r.Ints(&j->skipped_stages);
  r.Counts(&j->killed_summary);
}

struct LiveExecutor {
  std::string id, host_port, host, remove_reason;
  std::optional<std::int64_t> total_cores, add_ms, remove_ms, max_memory, max_onheap, max_offheap;
  json log_urls = json::object(), attributes = json::object(), resources = json::object();
  int resource_profile_id = 0;
  bool excluded = false;
  std::set<int> excluded_stages;
  // null until the executor finished a task or reported metrics (the History Server then shows
  // peakMemoryMetrics, all zeros when the log carries no values).
  json peak_metrics = nullptr;
  int ord = 0;
  // Storage accounting from block updates (AppStatusListener.updateExecutorMemoryDiskInfo).
  std::int64_t memory_used = 0, disk_used = 0, rdd_blocks = 0, used_on_heap = 0, used_off_heap = 0;
};

// A SparkListenerMiscellaneousProcessAdded process (ProcessSummary of allmiscellaneousprocess).
struct MiscProcess {
  std::string id, host_port;
  std::int64_t add_ms = 0, cores = 0;
  json logs = json::object();
};

// ---- Task events: most of a log's bytes, read with simdjson into plain records ----
namespace sj = simdjson::dom;
using SjResult = simdjson::simdjson_result<sj::element>;

struct TaskInfoRecord {
  std::int64_t task_id = 0, index = 0, attempt = 0, partition = -1, launch_ms = 0, finish_ms = 0,
               getting_result_ms = 0;
  std::string executor, host, locality;
  bool speculative = false, failed = false, killed = false;
  std::string accumulables_json = "[]";  // public accumulables, as the REST API lists them
};

struct TaskEvent {
  bool end = false;
  int stage_id = 0, stage_attempt = 0;
  TaskInfoRecord info;
  std::string kind = "Success";  // Task End Reason
  std::string killed_key, error;
  bool has_metrics = false;
  std::array<std::int64_t, detail::kTaskMetrics.size()> metrics{};
  std::vector<std::pair<std::string, std::int64_t>> executor_metrics;
  std::vector<SqlListener::Accum> accums;  // accumulators with a whole-number "Update" (SQL)

  // Back to a new record's values, keeping the strings' and vectors' buffers.
  void Reset() {
    end = false;
    stage_id = stage_attempt = 0;
    info.task_id = info.index = info.attempt = info.launch_ms = info.finish_ms =
        info.getting_result_ms = 0;
    info.partition = -1;
    info.executor.clear();
    info.host.clear();
    info.locality.clear();
    info.speculative = info.failed = info.killed = false;
    info.accumulables_json = "[]";
    kind = "Success";
    killed_key.clear();
    error.clear();
    has_metrics = false;
    metrics.fill(0);
    executor_metrics.clear();
    accums.clear();
  }
};

std::int64_t SInt(SjResult v, std::int64_t fallback = 0) {
  if (v.error()) return fallback;
  std::int64_t i;
  if (v.get_int64().get(i) == simdjson::SUCCESS) return i;
  std::uint64_t u;
  if (v.get_uint64().get(u) == simdjson::SUCCESS) return static_cast<std::int64_t>(u);
  double d;
  if (v.get_double().get(d) == simdjson::SUCCESS) return static_cast<std::int64_t>(d);
  std::string_view sv;
  if (v.get_string().get(sv) == simdjson::SUCCESS) {
    try {
      return std::stoll(std::string(sv));
    } catch (...) {
    }
  }
  return fallback;
}
// The value of an INT64 element, simdjson's accessor inlined: compiled as a call, it was 4.6% of
// `ingest spark`'s profile on the 1 GB log (a task end has ~40 integers).
[[gnu::flatten]] inline std::int64_t Int64Of(sj::element e) { return e.get_int64().value_unsafe(); }
// SInt of a value that is there (no lookup error): the same conversions, without the result
// wrapper, for the metrics (most of a task end's fields).
std::int64_t ElementInt(sj::element e, std::int64_t fallback = 0) {
  switch (e.type()) {
    case sj::element_type::INT64:
      return Int64Of(e);
    case sj::element_type::UINT64:
      return static_cast<std::int64_t>(e.get_uint64().value_unsafe());
    case sj::element_type::DOUBLE:
      return static_cast<std::int64_t>(e.get_double().value_unsafe());
    case sj::element_type::STRING:
      return SInt(SjResult(std::move(e)), fallback);
    default:
      return fallback;
  }
}
std::string SStr(SjResult v, const std::string& fallback = "") {
  if (v.error() || v.is_null()) return fallback;
  std::string_view sv;
  if (v.get_string().get(sv) == simdjson::SUCCESS) return std::string(sv);
  return simdjson::minify(v.value_unsafe());
}
// *out = SStr(v), reusing *out's buffer for a string value: the task fields read for every task
// event (executor, host, locality, end reason) then cost no allocation once *out is big enough.
void AssignStr(SjResult v, std::string* out) {
  std::string_view sv;
  if (!v.error() && v.get_string().get(sv) == simdjson::SUCCESS) {
    out->assign(sv);
  } else {
    *out = SStr(v);
  }
}

// One accumulable of a Task Info's "Accumulables", as read by the DOM or On-Demand.
struct Accumulable {
  std::int64_t id = 0;                       // SInt of "ID"
  std::optional<std::int64_t> int_id;        // "ID" if an integer
  std::string name, update, value;           // SStr of "Name", "Update", "Value"
  bool internal = false;                     // "Internal" if a boolean, else false
  std::optional<std::int64_t> whole_update;  // "Update" if an integer or a whole number's text
};

// The whole number `text` spells, if it spells one.
std::optional<std::int64_t> WholeNumber(std::string_view text) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return v;
}

// Adds `a` to `public_ones` if the REST API lists it, and its whole-number update to `updates`
// (SQL metrics are logged as internal accumulators, SQLMetric.toInfo; task metrics are the
// "internal.metrics." ones).
void FoldAccumulable(const Accumulable& a, json* public_ones,
                     std::vector<SqlListener::Accum>* updates) {
  const bool internal_name = a.name.rfind("internal.", 0) == 0;
  if (!internal_name && a.whole_update && a.int_id) {
    updates->push_back({*a.int_id, *a.whole_update});
  }
  if (a.internal || internal_name) return;
  public_ones->push_back(
      {{"id", a.id}, {"name", a.name}, {"update", a.update}, {"value", a.value}});
}

// The public accumulables of a Task Info as the REST API lists them; also collects the
// whole-number updates of those accumulators into `updates`. `accumulables` is the
// "Accumulables" field of a Task Info.
std::string SPublicAccumulables(SjResult accumulables, std::vector<SqlListener::Accum>* updates) {
  sj::array acc;
  if (accumulables.get_array().get(acc) != simdjson::SUCCESS || acc.size() == 0) {
    return "[]";
  }
  json out = json::array();
  for (sj::element e : acc) {
    Accumulable a;
    a.name = SStr(e["Name"]);
    if (e["Internal"].get_bool().get(a.internal) != simdjson::SUCCESS) a.internal = false;
    SjResult update = e["Update"];
    std::int64_t v = 0;
    std::string_view text;
    if (update.get_int64().get(v) == simdjson::SUCCESS) {
      a.whole_update = v;
    } else if (update.get_string().get(text) == simdjson::SUCCESS) {
      a.whole_update = WholeNumber(text);
    }
    if (e["ID"].get_int64().get(v) == simdjson::SUCCESS) a.int_id = v;
    a.id = SInt(e["ID"]);
    a.update = SStr(update);
    a.value = SStr(e["Value"]);
    FoldAccumulable(a, &out, updates);
  }
  return JsonText(out);
}

// Java's StackTraceElement.toString for an element read back from JSON (no module or loader).
std::string StackFrame(sj::element f) {
  std::string out = SStr(f["Declaring Class"]) + "." + SStr(f["Method Name"]) + "(";
  const std::string file = SStr(f["File Name"]);
  const std::int64_t line = SInt(f["Line Number"], -1);
  if (line == -2) {
    out += "Native Method";
  } else if (file.empty()) {
    out += "Unknown Source";
  } else if (line >= 0) {
    out += file + ":" + std::to_string(line);
  } else {
    out += file;
  }
  return out + ")";
}

// Spark's TaskFailedReason.toErrorString for a "Task End Reason" object (TaskEndReason.scala,
// read back as JsonProtocol.taskEndReasonFromJson does: absent fields get its defaults).
std::string TaskEndErrorString(SjResult reason, const std::string& kind) {
  if (kind == "Resubmitted") return "Resubmitted (resubmitted due to lost executor)";
  if (kind == "TaskResultLost") return "TaskResultLost (result lost from block manager)";
  if (kind == "TaskKilled") {
    return "TaskKilled (" + SStr(reason["Kill Reason"], "unknown reason") + ")";
  }
  if (kind == "TaskCommitDenied") {
    return "TaskCommitDenied (Driver denied task commit) for job: " +
           std::to_string(SInt(reason["Job ID"], -1)) +
           ", partition: " + std::to_string(SInt(reason["Partition ID"], -1)) +
           ", attemptNumber: " + std::to_string(SInt(reason["Attempt Number"], -1));
  }
  if (kind == "ExecutorLostFailure") {
    bool by_app = true;
    if (reason["Exit Caused By App"].get_bool().get(by_app) != simdjson::SUCCESS) by_app = true;
    std::string out =
        "ExecutorLostFailure (executor " + SStr(reason["Executor ID"], "Unknown") + " exited " +
        (by_app ? "caused by one of the running tasks" : "unrelated to the running tasks") + ")";
    SjResult loss = reason["Loss Reason"];
    if (!loss.error() && !loss.is_null()) out += " Reason: " + SStr(loss);
    return out;
  }
  if (kind == "FetchFailed") {
    SjResult bm = reason["Block Manager Address"];
    const std::string address = bm.error() || bm.is_null()
                                    ? "null"
                                    : "BlockManagerId(" + SStr(bm["Executor ID"]) + ", " +
                                          SStr(bm["Host"]) + ", " +
                                          std::to_string(SInt(bm["Port"])) + ", None)";
    SjResult map_index = reason["Map Index"];
    const std::string index =
        map_index.error() || map_index.is_null() ? "Unknown" : std::to_string(SInt(map_index));
    SjResult message = reason["Message"];
    return "FetchFailed(" + address + ", shuffleId=" + std::to_string(SInt(reason["Shuffle ID"])) +
           ", mapIndex=" + index + ", mapId=" + std::to_string(SInt(reason["Map ID"])) +
           ", reduceId=" + std::to_string(SInt(reason["Reduce ID"])) + ", message=\n" +
           (message.error() || message.is_null() ? "Unknown reason" : SStr(message)) + "\n)";
  }
  if (kind == "ExceptionFailure") {
    SjResult full = reason["Full Stack Trace"];
    if (!full.error() && !full.is_null()) return SStr(full);
    // Logs before Spark 1.2: "class: description" and the frames, each indented 8 spaces.
    std::string out = SStr(reason["Class Name"]) + ": " + SStr(reason["Description"]) + "\n";
    sj::array frames;
    if (reason["Stack Trace"].get_array().get(frames) == simdjson::SUCCESS) {
      bool first = true;
      for (sj::element f : frames) {
        out += (first ? "        " : "\n        ") + StackFrame(f);
        first = false;
      }
    }
    return out;
  }
  return "UnknownReason";
}

// The keys of one JSON object that a reader wants, found by one pass over the object's fields
// instead of a lookup (a scan of the fields) per key. The first field with a key wins, as
// simdjson's operator[] finds it. Up to 32 keys, looked up in an open-addressing table.
class KeyTable {
 public:
  explicit KeyTable(std::vector<std::string_view> keys) : keys_(std::move(keys)) {
    slots_.fill(-1);
    for (auto& g : guess_) g.store(-1, std::memory_order_relaxed);
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      std::size_t h = Hash(keys_[i]);
      while (slots_[h] >= 0) h = (h + 1) % kSlots;
      slots_[h] = static_cast<std::int8_t>(i);
    }
  }
  // The index of `key` in the table's keys, or -1.
  int Find(std::string_view key) const {
    for (std::size_t h = Hash(key);; h = (h + 1) % kSlots) {
      const int i = slots_[h];
      if (i < 0) return -1;
      if (Same(keys_[static_cast<std::size_t>(i)], key)) return i;
    }
  }
  std::size_t size() const { return keys_.size(); }

  // Fills found[i] with the value of the first field named keys_[i] of `obj`; `present` gets bit
  // i set for each found key.
  //
  // A writer puts an object's fields in the same order every time (Spark's JsonProtocol does), so
  // the key found at each position is remembered and compared first: one comparison instead of a
  // hash and a probe. The guess is always checked against the key, so a wrong or stale guess (an
  // other writer, another thread's object) costs only the lookup it saves.
  template <std::size_t N>
  void Collect(sj::object obj, std::array<sj::element, N>* found, std::uint64_t* present) const {
    *present = 0;
    std::size_t pos = 0;
    for (const sj::key_value_pair field : obj) {
      const int i = Lookup(field.key, pos++);
      if (i < 0 || static_cast<std::size_t>(i) >= N || (*present >> i & 1)) continue;
      *present |= std::uint64_t{1} << i;
      (*found)[static_cast<std::size_t>(i)] = field.value;
    }
  }
  // The remembered key at position `pos` if `raw`, the text of a JSON key after its opening
  // quote (followed by a readable padding), is that key, else -1: no length needed. The key
  // is the same only if its closing quote follows (not escaped: no key of a table ends with a
  // backslash). Inlined into the On-Demand reader's loop, as its Int (below).
  [[gnu::always_inline]] int Remembered(const char* raw, std::size_t pos) const {
    if (pos >= kGuesses) return -1;
    const int guess = guess_[pos].load(std::memory_order_relaxed);
    if (guess < 0) return -1;
    const std::string_view k = keys_[static_cast<std::size_t>(guess)];
    return SameBytes(k.data(), raw, k.size()) && raw[k.size()] == '"' ? guess : -1;
  }
  // Find(key) for the field at position `pos` of its object, the remembered key compared first.
  int Lookup(std::string_view key, std::size_t pos) const {
    if (pos >= kGuesses) return Find(key);
    const int guess = guess_[pos].load(std::memory_order_relaxed);
    if (guess >= 0 && Same(keys_[static_cast<std::size_t>(guess)], key)) return guess;
    const int i = Find(key);
    if (i >= 0) guess_[pos].store(static_cast<std::int8_t>(i), std::memory_order_relaxed);
    return i;
  }

 private:
  static bool Same(std::string_view k, std::string_view key) {
    return k.size() == key.size() && SameBytes(k.data(), key.data(), k.size());
  }
  // Keys are short: comparing 8 bytes at a time inline is cheaper than a call to memcmp. The
  // last 8 (or 4) bytes are compared as one word overlapping the one before, not byte by byte.
  static bool SameBytes(const char* a, const char* b, std::size_t n) {
    const auto word = [](const char* p) {
      std::uint64_t x;
      std::memcpy(&x, p, 8);
      return x;
    };
    if (n >= 8) {
      for (std::size_t at = 0; at + 8 < n; at += 8) {
        if (word(a + at) != word(b + at)) return false;
      }
      return word(a + n - 8) == word(b + n - 8);
    }
    if (n >= 4) {
      std::uint32_t x, y, u, v;
      std::memcpy(&x, a, 4);
      std::memcpy(&y, b, 4);
      std::memcpy(&u, a + n - 4, 4);
      std::memcpy(&v, b + n - 4, 4);
      return x == y && u == v;
    }
    for (; n > 0; ++a, ++b, --n) {
      if (*a != *b) return false;
    }
    return true;
  }
  static constexpr std::size_t kSlots = 128;
  static std::size_t Hash(std::string_view k) {
    if (k.empty()) return 0;
    const auto c = [&](std::size_t i) { return static_cast<unsigned char>(k[i]); };
    return (k.size() * 131 + c(0) * 31 + c(k.size() / 2) * 7 + c(k.size() - 1)) % kSlots;
  }
  std::vector<std::string_view> keys_;
  std::array<std::int8_t, kSlots> slots_{};
  // The index of the key last found at each field position (-1: none yet). Shared by the
  // threads that parse (--jobs): relaxed atomics, as a guess is checked before it is used.
  static constexpr std::size_t kGuesses = 48;
  mutable std::array<std::atomic<std::int8_t>, kGuesses> guess_;
};

// The value of slot i after KeyTable::Collect, as operator[] would return it.
template <std::size_t N>
SjResult Slot(const std::array<sj::element, N>& found, std::uint64_t present, std::size_t i) {
  if (present >> i & 1) return SjResult(sj::element(found[i]));
  return SjResult(simdjson::NO_SUCH_FIELD);
}

// Where each field of "Task Metrics" goes: kTaskMetrics' indices by group, read in one pass
// over each object.
struct TaskMetricKeys {
  // Top level: the metrics without a group, then the group objects.
  std::vector<std::string_view> top_names;
  std::vector<int> top_metric;  // metric index, or -1 - group index for a group object
  struct Group {
    std::string_view name;
    std::vector<int> metric;  // metric index of each key
    std::unique_ptr<KeyTable> keys;
  };
  std::vector<Group> groups;  // in order of first appearance in kTaskMetrics; "Push" included
  std::unique_ptr<KeyTable> top;
  int push = -1, shuffle_read = -1;      // group indices
  int push_key = -1, push_alt_key = -1;  // keys of Shuffle Read Metrics holding the push group

  TaskMetricKeys() {
    std::vector<std::vector<std::string_view>> group_keys;
    for (std::size_t i = 0; i < detail::kTaskMetrics.size(); ++i) {
      const auto& m = detail::kTaskMetrics[i];
      if (m.log_group.empty()) {
        top_names.push_back(m.log_field);
        top_metric.push_back(static_cast<int>(i));
        continue;
      }
      std::size_t g = 0;
      while (g < groups.size() && groups[g].name != m.log_group) ++g;
      if (g == groups.size()) {
        groups.push_back({m.log_group, {}, nullptr});
        group_keys.emplace_back();
        if (m.log_group == "Push") {
          push = static_cast<int>(g);
        } else {
          top_names.push_back(m.log_group);
          top_metric.push_back(-1 - static_cast<int>(g));
        }
        if (m.log_group == "Shuffle Read Metrics") shuffle_read = static_cast<int>(g);
      }
      groups[g].metric.push_back(static_cast<int>(i));
      group_keys[g].push_back(m.log_field);
    }
    if (shuffle_read >= 0) {
      // JsonProtocol (3.2+) writes "Shuffle Push Read Metrics"; "Push Based Shuffle" is also
      // accepted, as other writers of this format spell it.
      auto& keys = group_keys[static_cast<std::size_t>(shuffle_read)];
      push_key = static_cast<int>(keys.size());
      keys.push_back("Shuffle Push Read Metrics");
      push_alt_key = static_cast<int>(keys.size());
      keys.push_back("Push Based Shuffle");
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
      groups[g].keys = std::make_unique<KeyTable>(std::move(group_keys[g]));
    }
    top = std::make_unique<KeyTable>(top_names);
  }
};

const TaskMetricKeys& MetricKeys() {
  static const TaskMetricKeys keys;
  return keys;
}

// Reads the metrics of one group object into out->metrics (each metric is 0 unless found).
void ReadMetricGroup(const TaskMetricKeys& keys, int g, sj::element obj, TaskEvent* out) {
  sj::object o;
  if (obj.get_object().get(o) != simdjson::SUCCESS) return;
  const TaskMetricKeys::Group& group = keys.groups[static_cast<std::size_t>(g)];
  std::array<sj::element, 24> found;
  std::uint64_t present = 0;
  group.keys->Collect(o, &found, &present);
  for (std::size_t k = 0; k < group.metric.size(); ++k) {
    if (present >> k & 1) {
      out->metrics[static_cast<std::size_t>(group.metric[k])] = ElementInt(found[k]);
    }
  }
  if (g == keys.shuffle_read && keys.push >= 0) {
    const auto push_key = static_cast<std::size_t>(keys.push_key);
    const auto alt_key = static_cast<std::size_t>(keys.push_alt_key);
    if (present >> push_key & 1) {
      ReadMetricGroup(keys, keys.push, found[push_key], out);
    } else if (present >> alt_key & 1) {
      ReadMetricGroup(keys, keys.push, found[alt_key], out);
    }
  }
}

// "Task Metrics" in one pass over each object: the same values as looking every metric up
// (a missing metric or group is 0; the first of repeated keys counts).
void ReadTaskMetrics(sj::object metrics, TaskEvent* out) {
  const TaskMetricKeys& keys = MetricKeys();
  std::array<sj::element, 24> found;
  std::uint64_t present = 0;
  keys.top->Collect(metrics, &found, &present);
  for (std::size_t k = 0; k < keys.top_metric.size(); ++k) {
    if (!(present >> k & 1)) continue;
    const int m = keys.top_metric[k];
    if (m >= 0) {
      out->metrics[static_cast<std::size_t>(m)] = ElementInt(found[k]);
    } else {
      ReadMetricGroup(keys, -1 - m, found[k], out);
    }
  }
}

// The fields of a task event that are read, and those of its "Task Info".
enum TaskEventKey { kStageId, kStageAttempt, kInfo, kReason, kMetrics, kPeaks };
const KeyTable& TaskEventKeys() {
  static const KeyTable keys({"Stage ID", "Stage Attempt ID", "Task Info", "Task End Reason",
                              "Task Metrics", "Task Executor Metrics"});
  return keys;
}
enum TaskInfoKey {
  kTaskId,
  kIndex,
  kAttempt,
  kPartition,
  kLaunch,
  kFinish,
  kGettingResult,
  kExecutor,
  kHost,
  kLocality,
  kSpeculative,
  kFailed,
  kKilled,
  kAccumulables
};
const KeyTable& TaskInfoKeys() {
  static const KeyTable keys({"Task ID", "Index", "Attempt", "Partition ID", "Launch Time",
                              "Finish Time", "Getting Result Time", "Executor ID", "Host",
                              "Locality", "Speculative", "Failed", "Killed", "Accumulables"});
  return keys;
}

// Fills `out` from a SparkListenerTaskStart/TaskEnd document; returns a reason when the event
// lacks what it needs. Each object is read in one pass over its fields.
std::string ReadTaskEvent(sj::element doc, bool end, TaskEvent* out) {
  const KeyTable& doc_keys = TaskEventKeys();
  const KeyTable& info_keys = TaskInfoKeys();
  const char* name = end ? "SparkListenerTaskEnd" : "SparkListenerTaskStart";
  std::array<sj::element, 6> top;
  std::uint64_t top_present = 0;
  sj::object doc_object;
  if (doc.get_object().get(doc_object) == simdjson::SUCCESS) {
    doc_keys.Collect(doc_object, &top, &top_present);
  }
  std::array<sj::element, 14> f;
  std::uint64_t present = 0;
  sj::object info;
  if (!(top_present >> kInfo & 1) || top[kInfo].get_object().get(info) != simdjson::SUCCESS) {
    return std::string(name) + " without \"Task Info\"";
  }
  info_keys.Collect(info, &f, &present);
  const auto field = [&](std::size_t i) { return Slot(f, present, i); };
  // SInt(field(i), fallback) without the result wrapper.
  const auto int_field = [&](std::size_t i, std::int64_t fallback = 0) {
    return (present >> i & 1) ? ElementInt(f[i], fallback) : fallback;
  };
  if (!(present >> kTaskId & 1)) return std::string(name) + " without \"Task Info\"";
  // get_int64() succeeds exactly for an INT64 element: simdjson makes a number UINT64 only
  // above INT64_MAX.
  if (f[kTaskId].type() != sj::element_type::INT64) {
    return std::string(name) + " with a \"Task ID\" that is not an integer";
  }
  if (!(top_present >> kStageId & 1) || top[kStageId].type() != sj::element_type::INT64) {
    return std::string(name) + " without an integer \"Stage ID\"";
  }
  out->end = end;
  out->stage_id = static_cast<int>(Int64Of(top[kStageId]));
  out->stage_attempt =
      static_cast<int>((top_present >> kStageAttempt & 1) ? ElementInt(top[kStageAttempt]) : 0);
  TaskInfoRecord& t = out->info;
  t.task_id = int_field(kTaskId);
  t.index = int_field(kIndex);
  t.attempt = int_field(kAttempt);
  t.partition = int_field(kPartition, -1);
  t.launch_ms = int_field(kLaunch);
  t.finish_ms = int_field(kFinish);
  t.getting_result_ms = int_field(kGettingResult);
  AssignStr(field(kExecutor), &t.executor);
  AssignStr(field(kHost), &t.host);
  AssignStr(field(kLocality), &t.locality);
  bool spec = false;
  if (field(kSpeculative).get_bool().get(spec) != simdjson::SUCCESS) spec = false;
  t.speculative = spec;
  if (!end) return "";
  bool flag = false;
  t.failed = field(kFailed).get_bool().get(flag) == simdjson::SUCCESS && flag;
  flag = false;
  t.killed = field(kKilled).get_bool().get(flag) == simdjson::SUCCESS && flag;
  t.accumulables_json = SPublicAccumulables(field(kAccumulables), &out->accums);
  SjResult reason = Slot(top, top_present, kReason);
  if (reason.error()) {
    out->kind = "Success";
  } else {
    AssignStr(reason["Reason"], &out->kind);
  }
  if (out->kind == "TaskKilled") {
    out->killed_key = SStr(reason["Kill Reason"], "unknown reason");
  } else if (out->kind == "TaskCommitDenied") {
    out->killed_key = TaskEndErrorString(reason, out->kind);
  }
  // The REST API's errorMessage: a killed task's reason, else TaskFailedReason.toErrorString.
  if (out->kind == "TaskKilled") {
    out->error = out->killed_key;
  } else if (out->kind != "Success") {
    out->error = TaskEndErrorString(reason, out->kind);
  }
  sj::object metrics;
  out->has_metrics =
      (top_present >> kMetrics & 1) && top[kMetrics].get_object().get(metrics) == simdjson::SUCCESS;
  if (out->has_metrics) ReadTaskMetrics(metrics, out);
  sj::object peaks;
  if ((top_present >> kPeaks & 1) && top[kPeaks].get_object().get(peaks) == simdjson::SUCCESS) {
    for (auto kv : peaks) {
      std::int64_t v = SInt(SjResult(sj::element(kv.value)), -1);
      if (v >= 0) out->executor_metrics.emplace_back(std::string(kv.key), v);
    }
  }
  return "";
}

// ---- Task events read On-Demand: one forward pass over the line, no DOM tree ----
namespace od = simdjson::ondemand;

// Reads a task event line with simdjson's On-Demand API into the record ReadTaskEvent would
// fill from the line's DOM, for the lines that pass reads exactly as the DOM reader does: every
// value of the line is visited (what is not wanted is still parsed, so the line is valid JSON
// exactly when the DOM parser says so), and a line with anything else — a key written twice or
// with escapes, a value of another type than Spark writes, a failed task's end reason, anything
// after the object, an event ReadTaskEvent would reject — is refused: Read returns false and
// the caller reads the line's DOM. Fields may come in any order.
class OnDemandTaskReader {
 public:
  // `line` is followed by `after` readable bytes (simdjson's padding when enough).
  bool Read(std::string_view line, std::size_t after, bool end, TaskEvent* out) {
    // A task line of thousands of accumulables goes to the DOM: this parser's buffers stay small.
    if (line.size() > kMaxLine) return false;
    const char* data = line.data();
    if (after < simdjson::SIMDJSON_PADDING) {
      padded_.assign(line.data(), line.size());
      padded_.resize(line.size() + simdjson::SIMDJSON_PADDING);
      data = padded_.data();
      after = simdjson::SIMDJSON_PADDING;
    }
    od::document doc;
    od::object root;
    if (parser_.iterate(data, line.size(), line.size() + after).get(doc) ||
        doc.get_object().get(root)) {
      return false;
    }
    if (!ReadRoot(root, end, out)) return false;
    // Nothing but white space after the object (the DOM parser's TRAILING_CONTENT).
    std::string_view whole;
    return !doc.raw_json().get(whole) && whole.data() + whole.size() == data + line.size();
  }

 private:
  static constexpr std::size_t kMaxLine = 1 << 16;
  static constexpr int kMaxDepth = 16;  // values nested deeper are refused, not skipped

  // The key of `f` as written, if it has no escape.
  static bool Key(od::field& f, std::string_view* key) {
    const char* begin = f.key().raw();
    const char* p = begin;
    for (; *p != '"'; ++p) {
      if (*p == '\\') return false;
    }
    *key = std::string_view(begin, static_cast<std::size_t>(p - begin));
    return true;
  }
  // Parses a value that is not read, as the DOM parser would.
  static bool Skip(od::value v, int depth = 0) {
    od::json_type type;
    if (v.type().get(type)) return false;
    switch (type) {
      case od::json_type::object: {
        od::object o;
        if (depth >= kMaxDepth || v.get_object().get(o)) return false;
        for (auto field : o) {
          od::field f;
          std::string_view key;
          if (std::move(field).get(f) || f.unescaped_key().get(key) ||
              !Skip(f.value(), depth + 1)) {
            return false;
          }
        }
        return true;
      }
      case od::json_type::array: {
        od::array a;
        if (depth >= kMaxDepth || v.get_array().get(a)) return false;
        for (auto element : a) {
          od::value e;
          if (std::move(element).get(e) || !Skip(e, depth + 1)) return false;
        }
        return true;
      }
      case od::json_type::string: {
        std::string_view s;
        return !v.get_string().get(s);
      }
      case od::json_type::number: {
        od::number n;
        return !v.get_number().get(n);
      }
      case od::json_type::boolean: {
        bool b;
        return !v.get_bool().get(b);
      }
      case od::json_type::null: {
        bool null = false;
        return !v.is_null().get(null) && null;
      }
    }
    return false;
  }
  // Calls read(f, k) for each field `f` of object `v` with `k` its index in `keys` (first
  // seen), skips the fields of other keys; false when read does, on a key seen twice, or on
  // anything that is not an object of valid fields. `seen` gets bit k of each key found.
  template <typename ReadField>
  static bool Fields(od::value v, const KeyTable& keys, std::uint64_t* seen, ReadField read) {
    od::object o;
    if (v.get_object().get(o)) return false;
    return Fields(o, keys, seen, read);
  }
  template <typename ReadField>
  static bool Fields(od::object& o, const KeyTable& keys, std::uint64_t* seen, ReadField read) {
    *seen = 0;
    std::size_t pos = 0;
    for (auto field : o) {
      od::field f;
      if (std::move(field).get(f)) return false;
      int k = keys.Remembered(f.key().raw(), pos);
      if (k < 0) {
        std::string_view key;
        if (!Key(f, &key)) return false;
        k = keys.Lookup(key, pos);
      }
      ++pos;
      if (k < 0) {
        if (!Skip(f.value())) return false;
        continue;
      }
      if (*seen >> k & 1) return false;
      *seen |= std::uint64_t{1} << k;
      if (!read(f.value(), static_cast<std::size_t>(k))) return false;
    }
    return true;
  }
  // Inlined: called, the iterator's position went through memory for each of a task end's ~40
  // integers, and this one function cost ~0.45 CPU-s on the 1 GB log (the whole reader then
  // about as much as the DOM's parse and walk); inlined, the reader costs half of theirs.
  [[gnu::always_inline]] static bool Int(od::value& v, std::int64_t* out) {
    return !v.get_int64().get(*out);
  }
  static bool Str(od::value& v, std::string* out) {
    std::string_view s;
    if (v.get_string().get(s)) return false;
    out->assign(s);
    return true;
  }
  static bool Bool(od::value& v, bool* out) { return !v.get_bool().get(*out); }

  bool ReadRoot(od::object& root, bool end, TaskEvent* out) {
    std::uint64_t seen = 0;
    std::int64_t stage_id = 0, stage_attempt = 0;
    bool has_task_id = false;
    const bool ok = Fields(root, TaskEventKeys(), &seen, [&](od::value v, std::size_t k) {
      switch (k) {
        case kStageId:
          return Int(v, &stage_id);
        case kStageAttempt:
          return Int(v, &stage_attempt);
        case kInfo:
          return ReadInfo(v, end, &has_task_id, &out->info, &out->accums);
        case kReason:  // "Success" already in *out
          return end ? SuccessReason(v) : Skip(v);
        case kMetrics:
          if (!end) return Skip(v);
          out->has_metrics = true;
          return ReadMetrics(-1, v, out);
        case kPeaks:
          return end ? ReadPeaks(v, out) : Skip(v);
      }
      return false;
    });
    if (!ok || !(seen >> kStageId & 1) || !(seen >> kInfo & 1) || !has_task_id) return false;
    out->end = end;
    out->stage_id = static_cast<int>(stage_id);
    out->stage_attempt = static_cast<int>(stage_attempt);
    return true;
  }
  static bool ReadInfo(od::value v, bool end, bool* has_task_id, TaskInfoRecord* t,
                       std::vector<SqlListener::Accum>* accums) {
    std::uint64_t seen = 0;
    // Chosen by ranges of keys, not a switch: no indirect jump per field.
    static_assert(kTaskId == 0 && kGettingResult == 6 && kExecutor == 7 && kLocality == 9 &&
                  kSpeculative == 10 && kKilled == 12 && kAccumulables == 13);
    static constexpr std::int64_t TaskInfoRecord::*kInts[] = {
        &TaskInfoRecord::task_id,          &TaskInfoRecord::index,     &TaskInfoRecord::attempt,
        &TaskInfoRecord::partition,        &TaskInfoRecord::launch_ms, &TaskInfoRecord::finish_ms,
        &TaskInfoRecord::getting_result_ms};
    static constexpr std::string TaskInfoRecord::*kStrings[] = {
        &TaskInfoRecord::executor, &TaskInfoRecord::host, &TaskInfoRecord::locality};
    static constexpr bool TaskInfoRecord::*kBools[] = {
        &TaskInfoRecord::speculative, &TaskInfoRecord::failed, &TaskInfoRecord::killed};
    const bool ok = Fields(v, TaskInfoKeys(), &seen, [&](od::value x, std::size_t k) {
      if (k <= kGettingResult) return Int(x, &(t->*kInts[k]));
      if (k <= kLocality) return Str(x, &(t->*kStrings[k - kExecutor]));
      // A task start's "Failed" and "Killed" are not read (ReadTaskEvent stops before them).
      if (k == kSpeculative || (end && k <= kKilled)) {
        return Bool(x, &(t->*kBools[k - kSpeculative]));
      }
      if (!end) return Skip(x);
      return ReadAccumulables(x, &t->accumulables_json, accums);
    });
    *has_task_id = seen >> kTaskId & 1;
    return ok;
  }
  // A task end's "Accumulables" as SPublicAccumulables reads them (*json its text), for
  // accumulables whose fields are of the types Spark writes.
  static bool ReadAccumulables(od::value v, std::string* json_text,
                               std::vector<SqlListener::Accum>* updates) {
    enum { kId, kName, kUpdate, kValue, kInternal };
    static const KeyTable keys({"ID", "Name", "Update", "Value", "Internal"});
    od::array array;
    if (v.get_array().get(array)) return false;
    json public_ones = json::array();
    bool any = false;
    for (auto element : array) {
      od::value e;
      if (std::move(element).get(e)) return false;
      any = true;
      Accumulable a;
      // "Update" and "Value": a string, or an integer (its text as the DOM writes it).
      const auto text = [](od::value& x, std::string* out, std::optional<std::int64_t>* number) {
        od::json_type type;
        if (x.type().get(type)) return false;
        if (type == od::json_type::string) return Str(x, out);
        std::int64_t n = 0;
        if (!Int(x, &n)) return false;
        *out = std::to_string(n);
        if (number) *number = n;
        return true;
      };
      std::uint64_t seen = 0;
      const bool ok = Fields(e, keys, &seen, [&](od::value x, std::size_t k) {
        switch (k) {
          case kId:
            if (!Int(x, &a.id)) return false;
            a.int_id = a.id;
            return true;
          case kName:
            return Str(x, &a.name);
          case kUpdate:
            return text(x, &a.update, &a.whole_update);
          case kValue:
            return text(x, &a.value, nullptr);
          case kInternal:
            return Bool(x, &a.internal);
        }
        return false;
      });
      if (!ok) return false;
      if (!a.whole_update && (seen >> kUpdate & 1)) a.whole_update = WholeNumber(a.update);
      FoldAccumulable(a, &public_ones, updates);
    }
    *json_text = any ? JsonText(public_ones) : "[]";
    return true;
  }
  // Whether `v` is a successful task's end reason; any other goes to the DOM reader.
  static bool SuccessReason(od::value v) {
    static const KeyTable keys({"Reason"});
    std::uint64_t seen = 0;
    const bool ok = Fields(v, keys, &seen, [&](od::value x, std::size_t) {
      std::string_view reason;
      return !x.get_string().get(reason) && reason == "Success";
    });
    return ok && seen == 1;
  }
  // "Task Metrics" (group -1) or one of its groups, as ReadTaskMetrics and ReadMetricGroup.
  static bool ReadMetrics(int g, od::value v, TaskEvent* out) {
    const TaskMetricKeys& keys = MetricKeys();
    const bool top = g < 0;
    const KeyTable& table = top ? *keys.top : *keys.groups[static_cast<std::size_t>(g)].keys;
    bool push_read = false;
    std::uint64_t seen = 0;
    return Fields(v, table, &seen, [&](od::value x, std::size_t k) {
      // Index of the metric, or -1 - group index of a group object.
      int m = -1;
      if (top) {
        m = keys.top_metric[k];
      } else if (k < keys.groups[static_cast<std::size_t>(g)].metric.size()) {
        m = keys.groups[static_cast<std::size_t>(g)].metric[k];
      } else if (g == keys.shuffle_read && keys.push >= 0) {
        // "Shuffle Push Read Metrics" or its other spelling: the DOM reader takes the first
        // spelling when both are there.
        if (push_read) return false;
        push_read = true;
        return ReadMetrics(keys.push, x, out);
      } else {
        return Skip(x);
      }
      if (m < 0) return ReadMetrics(-1 - m, x, out);
      return Int(x, &out->metrics[static_cast<std::size_t>(m)]);
    });
  }
  static bool ReadPeaks(od::value v, TaskEvent* out) {
    od::object o;
    if (v.get_object().get(o)) return false;
    for (auto field : o) {
      od::field f;
      std::string_view key;
      std::int64_t value = 0;
      if (std::move(field).get(f) || f.unescaped_key().get(key)) return false;
      if (!Int(f.value(), &value)) return false;
      if (value >= 0) out->executor_metrics.emplace_back(std::string(key), value);
    }
    return true;
  }

  od::parser parser_;
  std::string padded_;  // a line copied with simdjson's padding
};

struct LiveTask {
  std::int64_t task_id = 0;
  int stage_id = 0, stage_attempt = 0;
  TaskInfoRecord info;
};

// The position of a spark_tasks metric column in detail::kTaskMetrics.
constexpr std::size_t MetricIndex(std::string_view column) {
  for (std::size_t i = 0; i < detail::kTaskMetrics.size(); ++i) {
    if (detail::kTaskMetrics[i].column == column) return i;
  }
  throw "no such task metric";  // a compile-time error in a constant expression
}

// The rows of the task table and of the stage × executor summaries go in kRowsPerInsert per
// execution of one multi-row INSERT: a statement's execution opens its B-tree cursor at the
// root, and one row per execution made every row a descent of the primary key from the root,
// comparing records at each level (a quarter of the store's time); within one execution SQLite
// inserts a row that sorts after the one before it at the cursor's place. Preparing the
// statement of 32 rows takes ~0.1 ms, what batching saves on ~200 rows: each is prepared when
// its first batch is full, so an application of fewer rows never prepares it (docs/
// performance.md, session 16: 64 rows saved little more on 10^6 tasks and cost more on many
// small logs). The rows after the last full batch go in one by one.
constexpr int kRowsPerInsert = 32;

// "(?,…,?),…,(?,…,?)": `rows` rows of `columns` parameters, for INSERT … VALUES.
std::string ValuesRows(int columns, int rows) {
  std::string row = "(?";
  for (int c = 1; c < columns; ++c) row += ",?";
  row += ")";
  std::string out = row;
  for (int r = 1; r < rows; ++r) out += "," + row;
  return out;
}

// The summaries of one application attempt's stored tasks (spark_store.h: spark_stage_summaries,
// spark_stage_executor_summaries, spark_executor_summaries), added up as each task row is
// inserted, so that writing them costs no pass over the tasks: the GROUP BYs of WriteSummaries
// read every task row back from the store three times, a third of `ingest spark`'s CPU time on a
// 10^5-task log. Same figures as those statements (SQL's SUM and MAX over the same rows), written
// in the same key order; on an integer overflow, where SQL's arithmetic differs (SUM fails, +
// turns to a real), Write() is not used and the caller runs WriteSummaries instead. Memory: one
// entry per executor and per stage attempt still running; a stage attempt the caller says is
// done (Release) goes to a scratch file (StageSpill) with its (stage attempt, executor)
// entries, 16 bytes of index staying in memory, and comes back if a row of that stage arrives
// after all.
class TaskSummaries {
 public:
  TaskSummaries() = default;
  TaskSummaries(const TaskSummaries&) = delete;  // holds pointers into its own maps
  TaskSummaries& operator=(const TaskSummaries&) = delete;
  // One inserted row of spark_tasks: finish_ms <= 0 stores finish_time_ms and duration_ms NULL;
  // metrics == nullptr stores every metric 0.
  void Add(int stage_id, int stage_attempt, const std::string& executor, std::string_view status,
           std::int64_t launch_ms, std::int64_t finish_ms,
           const std::array<std::int64_t, detail::kTaskMetrics.size()>* metrics) {
    const bool finished = finish_ms > 0;
    const std::int64_t duration = finished ? finish_ms - launch_ms : 0;
    const Counts c{1, status == "RUNNING", status == "SUCCESS", status == "FAILED",
                   status == "KILLED"};
    auto metric = [metrics](std::size_t i) { return metrics ? (*metrics)[i] : 0; };
    std::int64_t shuffle_read = 0;
    if (__builtin_add_overflow(metric(kRemoteRead), metric(kLocalRead), &shuffle_read)) {
      overflow_ = true;
    }

    // The entries are found through the last stage attempt and a hash of the executor id, which
    // remembers the executor's entry in the stage attempt it last ran a task of (the maps'
    // nodes never move): most rows need no search of the ordered maps.
    const StageKey stage{stage_id, stage_attempt};
    if (last_stage_ == nullptr || last_stage_key_ != stage) {
      auto it = stages_.find(stage);
      if (it == stages_.end()) it = stages_.emplace(stage, Reload(stage)).first;
      last_stage_ = &it->second;
      last_stage_key_ = stage;
    }
    ExecutorSlot& slot = executor_slots_[executor];
    if (slot.executor == nullptr) slot.executor = &executors_[executor];
    if (slot.stage_executor == nullptr || slot.stage != stage) {
      slot.stage_executor = &stage_executors_[{stage_id, stage_attempt, executor}];
      slot.stage = stage;
    }
    StageSums& st = *last_stage_;
    AddCounts(st.counts, c);
    AddTo(st.duration_sum, duration);
    if (finished) st.finish_max = st.finish_max ? std::max(*st.finish_max, finish_ms) : finish_ms;
    for (std::size_t i = 0; i < st.metrics.size(); ++i) AddTo(st.metrics[i], metric(i));

    StageExecutorSums& se = *slot.stage_executor;
    AddCounts(se.counts, c);
    AddTo(se.duration_sum, duration);
    for (std::size_t i = 0; i < kStageExecutorMetrics.size(); ++i) {
      AddTo(se.sums[i], i == kShuffleReadSlot ? shuffle_read : metric(kStageExecutorMetrics[i]));
    }

    ExecutorSums& ex = *slot.executor;
    AddCounts(ex.counts, c);
    AddTo(ex.duration_sum, duration);
    AddTo(ex.sums[0], metric(MetricIndex("input_bytes")));
    AddTo(ex.sums[1], shuffle_read);
    AddTo(ex.sums[2], metric(MetricIndex("shuffle_bytes_written")));
    AddTo(ex.sums[3], metric(MetricIndex("jvm_gc_time_ms")));
  }

  // True when a sum overflowed 64 bits, or RequireSql was called: the figures are not SQL's,
  // use WriteSummaries.
  bool overflow() const { return overflow_; }
  // The rows added are not exactly the rows stored (the store turned one away): the summaries
  // are to be grouped from the stored rows.
  void RequireSql() { overflow_ = true; }

  // The stage attempt is done (completed, no task running): its sums and its (stage,
  // executor) entries go to the scratch file. Nothing changes when there is none to be had.
  void Release(int stage_id, int stage_attempt) {
    const StageKey stage{stage_id, stage_attempt};
    auto st = stages_.find(stage);
    if (st == stages_.end()) return;
    const auto first = stage_executors_.lower_bound({stage_id, stage_attempt, std::string()});
    auto last = first;
    RecordWriter w;
    PackSums(st->second, w);
    for (; last != stage_executors_.end() && std::get<0>(last->first) == stage_id &&
           std::get<1>(last->first) == stage_attempt;
         ++last) {
      w.Str(std::get<2>(last->first));
      w.Raw(last->second);
    }
    const auto at = spill_.PutRecord(w.Framed());
    if (!at) return;
    for (auto it = first; it != last; ++it) {  // the shortcuts into the entries going
      auto slot = executor_slots_.find(std::get<2>(it->first));
      if (slot != executor_slots_.end() && slot->second.stage == stage) {
        slot->second.stage_executor = nullptr;
      }
    }
    stage_executors_.erase(first, last);
    if (last_stage_ == &st->second) last_stage_ = nullptr;  // Add reloads it
    stages_.erase(st);
    aside_.Add(stage, *at);
  }

  // Inserts the three summaries of attempt `key` (none of its rows there yet).
  Status Write(Store& store, std::int64_t key) {
    {
      std::string sql =
          "INSERT INTO spark_stage_summaries(attempt_key, stage_id, stage_attempt_id, tasks, "
          "running_tasks, succeeded_tasks, failed_tasks, killed_tasks, duration_ms_sum, "
          "finish_time_ms_max";
      std::string values = "?,?,?,?,?,?,?,?,?,?";
      for (const auto& m : detail::kTaskMetrics)
        sql += ", " + std::string(m.column), values += ",?";
      auto q = store.Prepare(sql + ") VALUES(" + values + ")");
      if (!q.ok()) return q.status();
      const auto write = [&](const StageKey& stage, const StageSums& st) {
        Binder b(q.value(), key);
        b(stage.first), b(stage.second);
        BindCounts(b, st.counts, {kTasks, kRunning, kSucceeded, kFailed, kKilled});
        b(st.duration_sum), b(st.finish_max);
        for (const std::int64_t v : st.metrics) b(v);
        return q.value().Run();
      };
      // In key order, from memory or from the scratch file (the sums only).
      Status st = InKeyOrder(stages_, aside_, write, [&](const StageKey& stage, std::uint64_t at) {
        auto bytes = spill_.GetRecord(at, kPackedSums);
        if (!bytes.ok()) return bytes.status();
        RecordReader r(bytes.value());
        return write(stage, UnpackSums(r));
      });
      if (!st.ok()) return st;
    }
    {
      const std::string insert =
          "INSERT INTO spark_stage_executor_summaries(attempt_key, stage_id, stage_attempt_id, "
          "executor_id, tasks, duration_ms_sum, failed_tasks, succeeded_tasks, killed_tasks, "
          "input_bytes, input_records, output_bytes, output_records, shuffle_read_bytes, "
          "shuffle_records_read, shuffle_bytes_written, shuffle_records_written, "
          "memory_bytes_spilled, disk_bytes_spilled) VALUES";
      constexpr int kColumns = 19;
      auto q = store.Prepare(insert + ValuesRows(kColumns, 1));
      if (!q.ok()) return q.status();
      // One row per (stage attempt, executor): as many as tasks on some applications, so they
      // go in by kRowsPerInsert.
      std::optional<Statement> batch;
      std::vector<std::tuple<StageKey, std::string, StageExecutorSums>> waiting;
      const auto bind_rest = [&](Binder& b, const auto& w) {
        const auto& [stage, executor, se] = w;
        b(stage.first), b(stage.second), b(executor);
        b(se.counts.tasks), b(se.duration_sum);
        BindCounts(b, se.counts, {kFailed, kSucceeded, kKilled});
        for (const std::int64_t v : se.sums) b(v);
      };
      const auto write = [&](const StageKey& stage, const std::string& executor,
                             const StageExecutorSums& se) -> Status {
        waiting.emplace_back(stage, executor, se);
        if (waiting.size() < kRowsPerInsert) return Status::Ok();
        if (!batch) {
          auto prepared = store.Prepare(insert + ValuesRows(kColumns, kRowsPerInsert));
          if (!prepared.ok()) return prepared.status();
          batch.emplace(std::move(prepared).value());
        }
        Binder b(*batch, key);
        for (std::size_t r = 0; r < waiting.size(); ++r) {
          if (r > 0) b(key);
          bind_rest(b, waiting[r]);
        }
        waiting.clear();
        return batch->Run();
      };
      // In key order: stage by stage, each from the scratch file or from memory.
      auto it = stage_executors_.begin();
      Status st = InKeyOrder(
          stages_, aside_,
          [&](const StageKey& stage, const StageSums&) {
            for (; it != stage_executors_.end() && std::get<0>(it->first) == stage.first &&
                   std::get<1>(it->first) == stage.second;
                 ++it) {
              if (Status r = write(stage, std::get<2>(it->first), it->second); !r.ok()) return r;
            }
            return Status::Ok();
          },
          [&](const StageKey& stage, std::uint64_t at) {
            Status failed;
            Status read =
                ForEachPutAside(at, [&](std::string executor, const StageExecutorSums& se) {
                  if (failed.ok()) failed = write(stage, executor, se);
                });
            return read.ok() ? failed : read;
          });
      if (!st.ok()) return st;
      for (const auto& w : waiting) {
        Binder b(q.value(), key);
        bind_rest(b, w);
        if (Status r = q.value().Run(); !r.ok()) return r;
      }
    }
    auto q = store.Prepare(
        "INSERT INTO spark_executor_summaries(attempt_key, executor_id, tasks, running_tasks, "
        "failed_tasks, succeeded_tasks, duration_ms_sum, input_bytes, shuffle_read_bytes, "
        "shuffle_bytes_written, jvm_gc_time_ms) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    if (!q.ok()) return q.status();
    for (const auto& [executor, ex] : executors_) {
      Binder b(q.value(), key);
      b(executor);
      BindCounts(b, ex.counts, {kTasks, kRunning, kFailed, kSucceeded});
      b(ex.duration_sum);
      for (const std::int64_t v : ex.sums) b(v);
      if (Status r = q.value().Run(); !r.ok()) return r;
    }
    return Status::Ok();
  }

 private:
  struct Counts {
    std::int64_t tasks = 0, running = 0, succeeded = 0, failed = 0, killed = 0;
  };
  enum CountColumn { kTasks, kRunning, kSucceeded, kFailed, kKilled };
  // Binds a reset statement's parameters in order, from ?1 = the attempt key.
  class Binder {
   public:
    Binder(Statement& q, std::int64_t key) : q_(q) {
      q_.Reset();
      (*this)(key);
    }
    void operator()(int v) { q_.Bind(++i_, std::int64_t{v}); }
    void operator()(std::int64_t v) { q_.Bind(++i_, v); }
    void operator()(const std::string& v) { q_.Bind(++i_, v); }
    void operator()(const std::optional<std::int64_t>& v) { q_.Bind(++i_, v); }

   private:
    Statement& q_;
    int i_ = 0;
  };
  static void BindCounts(Binder& b, const Counts& c, std::initializer_list<CountColumn> cols) {
    for (const CountColumn col : cols) {
      b(col == kTasks       ? c.tasks
        : col == kRunning   ? c.running
        : col == kSucceeded ? c.succeeded
        : col == kFailed    ? c.failed
                            : c.killed);
    }
  }
  static constexpr std::size_t kRemoteRead = MetricIndex("shuffle_remote_bytes_read");
  static constexpr std::size_t kLocalRead = MetricIndex("shuffle_local_bytes_read");
  // spark_stage_executor_summaries' sums after the counts, in its column order; the shuffle read
  // bytes (remote + local) sit in slot kShuffleReadSlot.
  static constexpr std::size_t kShuffleReadSlot = 4;
  static constexpr std::array<std::size_t, 10> kStageExecutorMetrics = {
      // clang-format off
      MetricIndex("input_bytes"),           MetricIndex("input_records"),
      MetricIndex("output_bytes"),          MetricIndex("output_records"),
      kRemoteRead /* + local */,            MetricIndex("shuffle_records_read"),
      MetricIndex("shuffle_bytes_written"), MetricIndex("shuffle_records_written"),
      MetricIndex("memory_bytes_spilled"),  MetricIndex("disk_bytes_spilled")};
  // clang-format on
  struct StageSums {
    Counts counts;
    std::int64_t duration_sum = 0;  // COALESCE(SUM(duration_ms), 0)
    std::optional<std::int64_t> finish_max;
    std::array<std::int64_t, detail::kTaskMetrics.size()> metrics{};
  };
  // A stage attempt's record in the scratch file: its sums, then its (stage attempt, executor)
  // entries, each the executor id and its sums.
  static void PackSums(const StageSums& st, RecordWriter& w) {
    w.Raw(st.counts), w.Raw(st.duration_sum), w.Opt(st.finish_max), w.Raw(st.metrics);
  }
  static StageSums UnpackSums(RecordReader& r) {
    StageSums st;
    r.Raw(&st.counts), r.Raw(&st.duration_sum), r.Opt(&st.finish_max), r.Raw(&st.metrics);
    return st;
  }
  // The length of PackSums' part of a record.
  static constexpr std::size_t kPackedSums =
      sizeof(Counts) + sizeof(std::int64_t) + sizeof(bool) + sizeof(std::int64_t) +
      sizeof(std::array<std::int64_t, detail::kTaskMetrics.size()>);
  struct StageExecutorSums {
    Counts counts;
    std::int64_t duration_sum = 0;
    std::array<std::int64_t, kStageExecutorMetrics.size()> sums{};
  };
  static_assert(std::is_trivially_copyable_v<StageExecutorSums>);
  // Calls f(executor, sums) for each entry of the record Release put at `at`, in key order;
  // answers the record's sums (through `sums`, when given).
  template <typename F>
  Status ForEachPutAside(std::uint64_t at, F f, StageSums* sums = nullptr) {
    auto bytes = spill_.GetRecord(at);
    if (!bytes.ok()) return bytes.status();
    RecordReader r(bytes.value());
    const StageSums st = UnpackSums(r);
    if (sums) *sums = st;
    while (!r.AtEnd()) {
      std::string executor = r.Str();
      f(std::move(executor), r.Raw<StageExecutorSums>());
    }
    return Status::Ok();
  }
  // The sums of a stage attempt not in memory: fresh, or those Release put aside, taken back
  // with the stage's entries (a row of the stage arrived after all). If the scratch file cannot
  // be read, the figures are grouped from the stored rows instead (overflow()).
  StageSums Reload(const StageKey& stage) {
    StageSums st;
    const auto at = aside_.Take(stage);
    if (!at) return st;
    Status read = ForEachPutAside(
        *at,
        [&](std::string executor, const StageExecutorSums& se) {
          stage_executors_.emplace(std::tuple{stage.first, stage.second, std::move(executor)}, se);
        },
        &st);
    if (!read.ok()) overflow_ = true;
    return st;
  }
  struct ExecutorSums {
    Counts counts;
    std::int64_t duration_sum = 0;
    std::array<std::int64_t, 4> sums{};  // input, shuffle read, shuffle written, GC time
  };
  void AddTo(std::int64_t& sum, std::int64_t v) {
    if (__builtin_add_overflow(sum, v, &sum)) overflow_ = true;
  }
  void AddCounts(Counts& into, const Counts& c) {
    into.tasks += c.tasks, into.running += c.running, into.succeeded += c.succeeded;
    into.failed += c.failed, into.killed += c.killed;
  }

  // Ordered maps: rows go in in the GROUP BY's key order (executor ids compare bytewise in
  // both), so the store's pages are laid out as before.
  std::map<StageKey, StageSums> stages_;
  std::map<std::tuple<int, int, std::string>, StageExecutorSums> stage_executors_;
  std::map<std::string, ExecutorSums> executors_;
  bool overflow_ = false;
  // Lookup shortcuts into the maps above (Add).
  struct ExecutorSlot {
    ExecutorSums* executor = nullptr;
    StageKey stage{};
    StageExecutorSums* stage_executor = nullptr;  // of `stage`
  };
  std::unordered_map<std::string, ExecutorSlot> executor_slots_;
  StageKey last_stage_key_{};
  StageSums* last_stage_ = nullptr;
  StageSpill spill_;
  SpillIndex<StageKey> aside_;  // the stage attempts Release put in spill_
};

// Where an application's task rows go as its tasks end: straight into the store (TaskInserter),
// or, with parallel jobs, to the writer thread in batches (TaskBatcher below).
class TaskSink {
 public:
  virtual ~TaskSink() = default;
  // One spark_tasks row; `metrics` == nullptr stores has_metrics 0 and every metric 0.
  virtual Status Row(int stage_id, int stage_attempt, const TaskInfoRecord& info,
                     const std::string& status, const std::string& error,
                     const TaskMetricValues* metrics) = 0;
  // The stage attempt completed and runs no task: its summaries per executor may go to scratch.
  virtual void StageDone(int stage_id, int stage_attempt) = 0;
};

// Inserts task rows into attempt `key` of a store, kRowsPerInsert per execution, and adds up
// their summaries. Finish() inserts the rows still waiting; nothing reads spark_tasks before it.
class TaskInserter final : public TaskSink {
 public:
  // `add_up` false: the caller adds up the summaries of the rows it hands in (and checks
  // all_inserted() before using them).
  TaskInserter(Store& store, std::int64_t key, bool add_up = true)
      : store_(store), key_(key), add_up_(add_up) {}
  TaskInserter(const TaskInserter&) = delete;
  TaskInserter& operator=(const TaskInserter&) = delete;

  Status Prepare() {
    auto one = store_.Prepare(InsertSql(1));
    if (!one.ok()) return one.status();
    one_.emplace(std::move(one).value());
    return Status::Ok();
  }

  Status Row(int stage_id, int stage_attempt, const TaskInfoRecord& info, const std::string& status,
             const std::string& error, const TaskMetricValues* metrics) override;
  void StageDone(int stage_id, int stage_attempt) override {
    if (add_up_) summaries_.Release(stage_id, stage_attempt);
  }
  // Inserts the rows still waiting for a batch.
  Status Finish();

  // The summaries of the rows inserted (not those a stored task id turned away).
  TaskSummaries& summaries() { return summaries_; }
  // Whether every row handed in was stored (no task id was there already).
  bool all_inserted() const { return all_inserted_; }

 private:
  static constexpr int kColumns = 19;

  // A task end repeated in the log repeats its stage attempt too (task ids are unique in an
  // application): the primary key turns it away (schema version 7).
  static std::string InsertSql(int rows) {
    std::string sql =
        "INSERT INTO spark_tasks(attempt_key, task_id, stage_id, stage_attempt_id, "
        "task_index, task_attempt, partition_id, launch_time_ms, finish_time_ms, "
        "getting_result_time_ms, duration_ms, executor_id, host, status, locality, "
        "speculative, error_message, accumulables_json, metrics) VALUES";
    return sql + ValuesRows(kColumns, rows) + " ON CONFLICT DO NOTHING";
  }

  // Positions in InsertSql's column list of the integers Bind treats apart.
  enum Column { kFinishTime = 8, kGettingResultTime = 9, kDuration = 10, kSpeculative = 15 };
  // A row waiting for its batch: its values, the texts and the metrics copied (the caller's
  // strings are the next task's once Row returns).
  struct Pending {
    std::array<std::int64_t, kColumns> ints{};  // by Column; the text columns' are unused
    bool finished = false;                      // finish_time_ms and duration_ms are not NULL
    bool has_error = false;                     // error_message is not NULL
    std::string executor, host, status, locality, error, accumulables;
    std::size_t metrics_bytes = 0;  // 0: metrics NULL
    std::array<unsigned char, kMaxTaskMetricsBytes> metrics{};
  };
  // Binds `row` as the row starting at parameter `base` + 1 of `q`; an integer equal to the one
  // bound there last is left bound (SQLite keeps bindings across resets): a task's metrics
  // are mostly the same zeros and constants as the task before.
  void Bind(Statement& q, int base, const Pending& row);
  // Runs `q` over `rows` bound rows; a row turned away clears all_inserted().
  Status Run(Statement& q, int rows);

  Store& store_;
  std::int64_t key_;
  bool add_up_ = true, all_inserted_ = true;
  std::optional<Statement> one_, batch_;
  std::array<Pending, kRowsPerInsert> pending_;
  int waiting_ = 0;  // rows of pending_ in use
  // The integer bound to each parameter of batch_ (by 1-based index), if the last binding was
  // one.
  std::array<std::optional<std::int64_t>, kRowsPerInsert * kColumns + 1> bound_{};
  TaskSummaries summaries_;
};

Status TaskInserter::Row(int stage_id, int stage_attempt, const TaskInfoRecord& info,
                         const std::string& status, const std::string& error,
                         const TaskMetricValues* metrics) {
  Pending& r = pending_[static_cast<std::size_t>(waiting_++)];
  r.finished = info.finish_ms > 0;
  r.ints = {key_,
            info.task_id,
            stage_id,
            stage_attempt,
            info.index,
            info.attempt,
            info.partition,
            info.launch_ms,
            info.finish_ms,
            info.getting_result_ms,
            info.finish_ms - info.launch_ms};
  r.ints[kSpeculative] = info.speculative;
  r.executor.assign(info.executor);
  r.host.assign(info.host);
  r.status.assign(status);
  r.locality.assign(info.locality);
  r.has_error = !error.empty();
  r.error.assign(error);
  r.accumulables.assign(info.accumulables_json);
  r.metrics_bytes = metrics ? EncodeTaskMetrics(*metrics, r.metrics.data()) : 0;
  // Added now, before the insert: should the store turn a row of the batch away, the figures
  // are not used (RequireSql).
  if (add_up_) {
    summaries_.Add(stage_id, stage_attempt, info.executor, status, info.launch_ms, info.finish_ms,
                   metrics);
  }
  if (waiting_ < kRowsPerInsert) return Status::Ok();
  if (!batch_) {
    auto batch = store_.Prepare(InsertSql(kRowsPerInsert));
    if (!batch.ok()) return batch.status();
    batch_.emplace(std::move(batch).value());
  }
  for (int i = 0; i < kRowsPerInsert; ++i) Bind(*batch_, i * kColumns, pending_[i]);
  waiting_ = 0;
  return Run(*batch_, kRowsPerInsert);
}

Status TaskInserter::Finish() {
  const int rows = waiting_;
  waiting_ = 0;
  for (int i = 0; i < rows; ++i) {
    one_->Reset();
    Bind(*one_, 0, pending_[i]);
    if (Status s = Run(*one_, 1); !s.ok()) return s;
  }
  return Status::Ok();
}

void TaskInserter::Bind(Statement& q, int base, const Pending& row) {
  const bool cached = batch_ && &q == &*batch_;
  int i = base + 1;
  const auto bind = [&](std::int64_t v) {
    if (!cached) {
      q.Bind(i++, v);
      return;
    }
    std::optional<std::int64_t>& last = bound_[static_cast<std::size_t>(i)];
    if (last != v) q.Bind(i, v), last = v;
    ++i;
  };
  const auto forget = [&] {
    if (cached) bound_[static_cast<std::size_t>(i)].reset();
  };
  const auto bind_text = [&](std::string_view v) {
    forget();
    q.BindUncopied(i++, v);
  };
  const auto bind_null = [&] {
    forget();
    q.BindNull(i++);
  };
  for (int c = 0; c < kFinishTime; ++c) bind(row.ints[static_cast<std::size_t>(c)]);
  row.finished ? bind(row.ints[kFinishTime]) : bind_null();
  bind(row.ints[kGettingResultTime]);
  row.finished ? bind(row.ints[kDuration]) : bind_null();
  bind_text(row.executor);
  bind_text(row.host);
  bind_text(row.status);
  bind_text(row.locality);
  bind(row.ints[kSpeculative]);
  row.has_error ? bind_text(row.error) : bind_null();
  bind_text(row.accumulables);
  if (row.metrics_bytes > 0) {
    forget();
    q.BindBlobUncopied(
        i, std::string_view(reinterpret_cast<const char*>(row.metrics.data()), row.metrics_bytes));
  } else {
    bind_null();
  }
}

Status TaskInserter::Run(Statement& q, int rows) {
  if (Status s = q.Run(); !s.ok()) return s;
  if (store_.Changes() != rows) {  // a task stored already (ON CONFLICT DO NOTHING)
    all_inserted_ = false;
    summaries_.RequireSql();
  }
  return Status::Ok();
}

// Folds one application's events and writes them; tasks go to the store as they end.
class AppBuilder {
 public:
  // Task rows go to `sink` as the tasks end (and those still running at FlushRunning).
  AppBuilder(const EventLogSource& src, TaskSink* sink) : src_(src), sink_(sink) {}

  // Returns a reason when the event lacks what it needs.
  std::string Apply(const json& e, const std::string& type) {
    if (type == "SparkListenerTaskEnd" || type == "SparkListenerTaskStart") {
      // Only reached when the "Event" key is not first; the fast path reads these directly.
      std::string text = JsonText(e);
      auto doc = parser_.parse(text);
      if (doc.error()) return "invalid JSON";
      return ApplyTask(doc.value_unsafe(), type == "SparkListenerTaskEnd");
    }
    if (type == "SparkListenerStageSubmitted") return OnStageSubmitted(e);
    if (type == "SparkListenerStageCompleted") return OnStageCompleted(e);
    if (type == "SparkListenerJobStart") return OnJobStart(e);
    if (type == "SparkListenerJobEnd") return OnJobEnd(e);
    if (type == "SparkListenerApplicationStart") {
      app_id_ = Str(e, "App ID");
      app_name_ = Str(e, "App Name");
      attempt_id_ = Str(e, "App Attempt ID");
      user_ = Str(e, "User");
      start_ms_ = OptInt(e, "Timestamp");
      saw_start_ = true;
      // The driver's log links and attributes arrive with ApplicationStart.
      if (const json* logs = Find(e, "Driver Logs"); logs && logs->is_object()) {
        if (auto it = executors_.find("driver"); it != executors_.end()) {
          it->second.log_urls = *logs;
          if (const json* attrs = Find(e, "Driver Attributes"); attrs && attrs->is_object()) {
            it->second.attributes = *attrs;
          }
        }
      }
      return "";
    }
    if (type == "SparkListenerApplicationEnd") {
      end_ms_ = OptInt(e, "Timestamp");
      completed_ = true;
      return "";
    }
    if (type == "SparkListenerLogStart") {
      spark_version_ = Str(e, "Spark Version");
      return "";
    }
    if (type == "SparkListenerEnvironmentUpdate") {
      environment_ = e;
      return "";
    }
    if (type == "SparkListenerResourceProfileAdded") {
      resource_profiles_[static_cast<int>(Int(e, "Resource Profile Id"))] = e;
      return "";
    }
    if (type == "SparkListenerExecutorAdded") return OnExecutorAdded(e);
    if (type == "SparkListenerExecutorRemoved") {
      LiveExecutor& ex = Executor(Str(e, "Executor ID"));
      ex.remove_ms = OptInt(e, "Timestamp");
      ex.remove_reason = Str(e, "Removed Reason");
      return "";
    }
    if (type == "SparkListenerBlockManagerAdded") return OnBlockManagerAdded(e);
    if (type == "SparkListenerStageExecutorMetrics") return OnStageExecutorMetrics(e);
    if (type == "SparkListenerExecutorMetricsUpdate") {
      sql_.OnExecutorMetricsUpdate(e);
      return OnExecutorMetricsUpdate(e);
    }
    if (type == "SparkListenerBlockUpdated") return OnBlockUpdated(e);
    if (type == "SparkListenerUnpersistRDD") return OnUnpersistRdd(e);
    if (type == "org.apache.spark.scheduler.SparkListenerMiscellaneousProcessAdded") {
      const std::string id = Str(e, "processId");
      MiscProcess& p = misc_[id];
      p.id = id;
      p.add_ms = Int(e, "time");
      if (const json* info = Find(e, "info")) {
        p.host_port = Str(*info, "hostPort");
        p.cores = Int(*info, "cores");
        if (const json* logs = Find(*info, "logUrlInfo"); logs && logs->is_object()) p.logs = *logs;
      }
      return "";
    }
    if (std::string_view kind = ExclusionKind(type); !kind.empty()) {
      return OnExclusion(e, kind);
    }
    if (std::string problem; sql_.OnSqlEvent(type, e, &problem)) return problem;
    return "";  // unknown or unneeded event: skipped silently by design
  }

  // Applies a SparkListenerTaskStart/TaskEnd document read by simdjson.
  std::string ApplyTask(sj::element doc, bool end) {
    // One record for every task event, reset rather than built anew: its strings keep their
    // buffers from one task to the next (a task start moves its Task Info away).
    TaskEvent& ev = task_event_;
    ev.Reset();
    std::string problem = ReadTaskEvent(doc, end, &ev);
    if (!problem.empty()) return problem;
    if (end) {
      OnTaskEnd(ev);
    } else {
      OnTaskStart(std::move(ev));
    }
    return "";
  }
  // ApplyTask for a task event line read On-Demand, if OnDemandTaskReader reads it (the event
  // is then applied, with no problem); false leaves the line to the DOM and ApplyTask. `after`:
  // the readable bytes after the line.
  bool ApplyTaskOnDemand(std::string_view line, std::size_t after, bool end) {
    TaskEvent& ev = task_event_;
    ev.Reset();
    if (!on_demand_.Read(line, after, end, &ev)) return false;
    if (end) {
      OnTaskEnd(ev);
    } else {
      OnTaskStart(std::move(ev));
    }
    return true;
  }
  sj::parser& parser() { return parser_; }

  bool saw_start() const { return saw_start_; }
  const std::string& app_id() const { return app_id_; }
  const std::string& attempt_id() const { return attempt_id_; }
  bool completed() const { return completed_; }
  void set_app_id(std::string id) { app_id_ = std::move(id); }

  // After the last event: the tasks still running go to the sink as RUNNING rows. Returns the
  // first failure of the sink.
  Status FlushRunning();
  // Writes everything but the task rows into attempt `key` of `store` (the rows are there), with
  // `tasks` the summaries of those rows.
  Status Finish(Store& store, std::int64_t key, TaskSummaries& tasks, std::int64_t events,
                std::int64_t skipped, std::int64_t last_updated_ms);

 private:
  LiveStage& Stage(int id, int attempt) {
    const StageKey key{id, attempt};
    if (auto it = stages_.find(key); it != stages_.end()) return it->second;
    if (LiveStage* s = TakeBackStage(key)) return *s;
    LiveStage& s = stages_[key];
    s.stage_id = id;
    s.attempt_id = attempt;
    return s;
  }
  // The stage attempt if it is known (in memory or put aside), else nullptr.
  LiveStage* FindStage(const StageKey& key) {
    auto it = stages_.find(key);
    return it != stages_.end() ? &it->second : TakeBackStage(key);
  }
  LiveJob& Job(int id) {
    if (auto it = jobs_.find(id); it != jobs_.end()) return it->second;
    if (LiveJob* job = TakeBackJob(id)) return *job;
    return jobs_[id];
  }
  LiveJob* FindJob(int id) {
    auto it = jobs_.find(id);
    return it != jobs_.end() ? &it->second : TakeBackJob(id);
  }
  // What AppStatusListener no longer keeps live (a stage attempt completed that runs no task, a
  // job ended) is put aside in the scratch file (spill_), whole, and taken back into memory
  // when a later event touches it; the ones taken back stay in memory until kKeepTakenBack
  // others were (each a reference stays valid until then), and go back if they are still done.
  // Without a scratch file everything stays in memory.
  static constexpr std::size_t kKeepTakenBack = 16;
  static bool Done(const LiveStage& s) {
    return s.active <= 0 && s.status != "ACTIVE" && s.status != "PENDING";
  }
  LiveStage* TakeBackStage(const StageKey& key);
  LiveJob* TakeBackJob(int id);
  template <typename Key, typename T, typename PutBack>
  T* TakeBack(const Key& key, SpillIndex<Key>& index, std::map<Key, T>& live,
              std::deque<Key>& taken_back, PutBack put_back);
  // The stage or job PutStageAside or PutJobAside put at `at`, read into `into`.
  template <typename T>
  Status ReadBack(std::uint64_t at, T* into) {
    auto bytes = spill_.GetRecord(at);
    if (!bytes.ok()) return bytes.status();
    RecordReader r(bytes.value());
    Unpack(r, into);
    return Status::Ok();
  }
  void PutStageAside(LiveStage& s);
  void PutJobAside(LiveJob& job);
  LiveStage& StageFromInfo(const json& info) {
    LiveStage& s = Stage(static_cast<int>(Int(info, "Stage ID")),
                         static_cast<int>(Int(info, "Stage Attempt ID")));
    s.name = Str(info, "Stage Name");
    s.num_tasks = static_cast<int>(Int(info, "Number of Tasks"));
    s.details = Str(info, "Details");
    s.resource_profile_id = static_cast<int>(Int(info, "Resource Profile Id"));
    s.shuffle_push_enabled = Bool(info, "Shuffle Push Enabled");
    s.shuffle_mergers_count = Int(info, "Shuffle Push Mergers Count");
    if (const json* rdds = Find(info, "RDD Info"); rdds && rdds->is_array()) {
      s.rdd_ids = json::array();
      for (const json& r : *rdds) s.rdd_ids.push_back(Int(r, "RDD ID"));
    }
    if (const json* p = Find(info, "Parent IDs"); p && p->is_array()) s.parent_ids = *p;
    if (auto t = OptInt(info, "Submission Time")) s.submission_ms = t;
    if (auto t = OptInt(info, "Completion Time")) s.completion_ms = t;
    if (const json* f = Find(info, "Failure Reason")) s.failure_reason = f->get<std::string>();
    s.accumulables = PublicAccumulables(info, false);
    return s;
  }
  // Calls f(LiveJob&) for each known job of the stage (without a list: every task start and end
  // runs this).
  template <typename F>
  void ForEachJob(const LiveStage& s, F f) {
    for (int id : s.job_ids) {
      if (LiveJob* job = FindJob(id)) f(*job);
    }
  }
  LiveExecutor& Executor(const std::string& id) {
    auto [it, inserted] = executors_.try_emplace(id);
    if (inserted) {
      it->second.id = id;
      it->second.ord = static_cast<int>(executors_.size());
    }
    return it->second;
  }

  std::string OnJobStart(const json& e) {
    if (!Find(e, "Job ID")) return "SparkListenerJobStart without \"Job ID\"";
    sql_.OnJobStart(e);
    LiveJob& job = Job(static_cast<int>(Int(e, "Job ID")));
    job.job_id = static_cast<int>(Int(e, "Job ID"));
    if (job.status == "RUNNING") running_jobs_.insert(job.job_id);
    job.submission_ms = OptInt(e, "Submission Time");
    job.description = Property(e, "spark.job.description");
    job.job_group = Property(e, "spark.jobGroup.id");
    if (auto sql = Property(e, "spark.sql.execution.id")) {
      try {
        job.sql_execution_id = std::stoll(*sql);
      } catch (...) {
      }
    }
    if (auto tags = Property(e, "spark.job.tags")) {
      std::string t = *tags;
      std::size_t at = 0;
      while (at <= t.size() && !t.empty()) {
        std::size_t comma = t.find(',', at);
        std::string tag = t.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (!tag.empty()) job.tags.push_back(tag);
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
    }
    int last_stage = -1;
    const json* infos = Find(e, "Stage Infos");
    if (infos && infos->is_array()) {
      for (const json& info : *infos) {
        if (!Find(info, "Completion Time")) job.num_tasks += Int(info, "Number of Tasks");
        int id = static_cast<int>(Int(info, "Stage ID"));
        if (id >= last_stage) {
          last_stage = id;
          job.name = Str(info, "Stage Name");
        }
        LiveStage& s = Stage(id, static_cast<int>(Int(info, "Stage Attempt ID")));
        bool fresh = s.name.empty();
        if (fresh) StageFromInfo(info);
        s.job_ids.insert(job.job_id);
      }
    }
    if (const json* ids = Find(e, "Stage IDs"); ids && ids->is_array()) {
      for (const json& id : *ids) job.stage_ids.push_back(id.get<int>());
    } else if (infos && infos->is_array()) {
      for (const json& info : *infos)
        job.stage_ids.push_back(static_cast<int>(Int(info, "Stage ID")));
    }
    return "";
  }

  std::string OnJobEnd(const json& e) {
    LiveJob* found = FindJob(static_cast<int>(Int(e, "Job ID", -1)));
    if (!found) return "SparkListenerJobEnd for a job that never started";
    LiveJob& job = *found;
    // The job's stages still pending, every attempt of each stage id once (found through the
    // ids, not by a pass over every stage: that was quadratic in the stages of a log).
    std::vector<int> ids = job.stage_ids;
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (const int id : ids) {
      for (auto st = stages_.lower_bound({id, std::numeric_limits<int>::min()});
           st != stages_.end() && st->first.first == id; ++st) {
        LiveStage& s = st->second;
        if (s.status != "PENDING") continue;
        s.status = "SKIPPED";
        job.skipped_stages.insert(s.stage_id);
        job.skipped_tasks += s.num_tasks;
      }
    }
    const json* result = Find(e, "Job Result");
    job.status = result && Str(*result, "Result") == "JobSucceeded" ? "SUCCEEDED" : "FAILED";
    running_jobs_.erase(job.job_id);
    job.completion_ms = OptInt(e, "Completion Time");
    sql_.OnJobEnd(job.job_id, job.status == "SUCCEEDED");
    PutJobAside(job);  // gone from memory: not used after this
    return "";
  }

  std::string OnStageSubmitted(const json& e) {
    const json* info = Find(e, "Stage Info");
    if (!info) return "SparkListenerStageSubmitted without \"Stage Info\"";
    LiveStage& s = StageFromInfo(*info);
    s.status = "ACTIVE";
    sql_.OnStageSubmitted(s.stage_id, s.attempt_id);
    if (const json* rdds = Find(*info, "RDD Info"); rdds && rdds->is_array()) {
      for (const json& r : *rdds) {
        const StorageLevel level = ReadStorageLevel(r);
        if (!level.Valid() || rdds_.count(Int(r, "RDD ID"))) continue;
        LiveRdd& rdd = rdds_[Int(r, "RDD ID")];
        rdd.id = Int(r, "RDD ID");
        rdd.name = Str(r, "Name");
        rdd.num_partitions = Int(r, "Number of Partitions");
        rdd.storage_level = level.Description();
      }
    }
    if (auto pool = Property(e, "spark.scheduler.pool")) s.pool = *pool;
    if (auto d = Property(e, "spark.job.description")) s.description = *d;
    s.job_ids.clear();
    for (const int id : running_jobs_) {
      LiveJob& job = jobs_.at(id);
      if (std::find(job.stage_ids.begin(), job.stage_ids.end(), s.stage_id) !=
          job.stage_ids.end()) {
        s.job_ids.insert(id);
        job.completed_stages.erase(s.stage_id);
        job.active_stages += 1;
      }
    }
    return "";
  }

  std::string OnStageCompleted(const json& e) {
    const json* info = Find(e, "Stage Info");
    if (!info) return "SparkListenerStageCompleted without \"Stage Info\"";
    LiveStage& s = StageFromInfo(*info);
    if (!s.failure_reason.empty()) {
      s.status = "FAILED";
    } else if (s.submission_ms) {
      s.status = "COMPLETE";
    } else {
      s.status = "SKIPPED";
    }
    for (const std::string& id : s.excluded_executors) {
      if (LiveExecutor* ex = LiveExecutorById(id)) ex->excluded_stages.erase(s.stage_id);
    }
    ForEachJob(s, [&](LiveJob& job) {
      if (s.status == "COMPLETE") {
        job.completed_stages.insert(s.stage_id);
      } else if (s.status == "SKIPPED") {
        job.skipped_stages.insert(s.stage_id);
        job.skipped_tasks += s.num_tasks;
      } else {
        job.failed_stages += 1;
      }
      job.active_stages -= 1;
    });
    if (s.active <= 0) StageDone(s);
    return "";
  }

  // Keeps the event's task info (moved) while the task runs.
  void OnTaskStart(TaskEvent&& ev) {
    LiveTask t;
    t.task_id = ev.info.task_id;
    t.stage_id = ev.stage_id;
    t.stage_attempt = ev.stage_attempt;
    sql_.OnTaskStart(t.stage_id, t.stage_attempt, t.task_id, ev.info.index);
    LiveStage& s = Stage(t.stage_id, t.stage_attempt);
    s.active += 1;
    if (ev.info.speculative) {
      s.speculated = true;
      s.spec_active += 1;
      s.spec_tasks += 1;
    }
    if (ev.info.launch_ms > 0 && (!s.first_launch_ms || ev.info.launch_ms < *s.first_launch_ms)) {
      s.first_launch_ms = ev.info.launch_ms;
    }
    ForEachJob(s, [](LiveJob& job) { job.active_tasks += 1; });
    t.info = std::move(ev.info);
    running_[t.task_id] = std::move(t);
  }

  void OnTaskEnd(const TaskEvent& ev);
  // The stage attempt completed and runs no task: it goes to scratch, with its entries per
  // executor (the peaks here, the summaries in the sink), until a later event or Finish needs
  // it. `s` is gone from memory after this (when a scratch file could be had).
  void StageDone(LiveStage& s);
  void SpillPeaks(LiveStage& s);
  // The stage's peaks per executor, taken back from scratch if they were put there.
  std::map<std::string, json>& Peaks(LiveStage& s);

  std::string OnExecutorAdded(const json& e) {
    LiveExecutor& ex = Executor(Str(e, "Executor ID"));
    ex.add_ms = OptInt(e, "Timestamp");
    if (const json* info = Find(e, "Executor Info")) {
      ex.host = Str(*info, "Host");
      ex.total_cores = OptInt(*info, "Total Cores");
      if (const json* v = Find(*info, "Log Urls")) ex.log_urls = *v;
      if (const json* v = Find(*info, "Attributes")) ex.attributes = *v;
      if (const json* v = Find(*info, "Resources")) ex.resources = *v;
      ex.resource_profile_id = static_cast<int>(Int(*info, "Resource Profile Id"));
    }
    return "";
  }

  std::string OnBlockManagerAdded(const json& e) {
    const json* bm = Find(e, "Block Manager ID");
    if (!bm) return "SparkListenerBlockManagerAdded without \"Block Manager ID\"";
    LiveExecutor& ex = Executor(Str(*bm, "Executor ID"));
    if (!ex.add_ms) ex.add_ms = OptInt(e, "Timestamp");
    ex.host_port = Str(*bm, "Host") + ":" + std::to_string(Int(*bm, "Port"));
    if (ex.host.empty()) ex.host = Str(*bm, "Host");
    ex.max_memory = OptInt(e, "Maximum Memory");
    ex.max_onheap = OptInt(e, "Maximum Onheap Memory");
    ex.max_offheap = OptInt(e, "Maximum Offheap Memory");
    return "";
  }

  std::string OnStageExecutorMetrics(const json& e) {
    const json* m = Find(e, "Executor Metrics");
    if (!m || !m->is_object()) return "";
    const std::string id = Str(e, "Executor ID");
    LiveStage& s =
        Stage(static_cast<int>(Int(e, "Stage ID")), static_cast<int>(Int(e, "Stage Attempt ID")));
    json& stage_peaks = Peaks(s)[id];
    if (stage_peaks.is_null()) stage_peaks = json::object();
    json ignored = json::object();
    json* executor_peaks = &ignored;
    if (auto it = executors_.find(id); it != executors_.end()) {
      if (it->second.peak_metrics.is_null()) it->second.peak_metrics = json::object();
      executor_peaks = &it->second.peak_metrics;
    }
    UpdatePeaks(*m, executor_peaks, &s.peak_executor_metrics);
    UpdatePeaks(*m, &stage_peaks, &ignored);
    return "";
  }

  // v1.RDDStorageInfo as LiveRDD.doUpdate builds it; dataDistribution only when an executor
  // holds a block, memoryRemaining from the executor's state at the end of the log.
  json RddStorageInfo(const LiveRdd& rdd) const {
    json j = {{"id", rdd.id},
              {"name", rdd.name},
              {"numPartitions", rdd.num_partitions},
              {"numCachedPartitions", rdd.partitions.size()},
              {"storageLevel", rdd.storage_level},
              {"memoryUsed", rdd.memory_used},
              {"diskUsed", rdd.disk_used}};
    if (!rdd.distributions.empty()) {
      json dists = json::array();
      for (const LiveRddDistribution& d : rdd.distributions) {
        auto it = executors_.find(d.executor_id);
        if (it == executors_.end()) continue;
        const LiveExecutor& ex = it->second;
        json o = {{"address", ex.host_port.empty() ? ex.host : ex.host_port},
                  {"memoryUsed", d.memory_used},
                  {"memoryRemaining", ex.max_memory.value_or(0) - ex.memory_used},
                  {"diskUsed", d.disk_used}};
        if (ex.max_onheap) {
          o["onHeapMemoryUsed"] = d.on_heap_used;
          o["offHeapMemoryUsed"] = d.off_heap_used;
          o["onHeapMemoryRemaining"] = *ex.max_onheap - ex.used_on_heap;
          o["offHeapMemoryRemaining"] = ex.max_offheap.value_or(0) - ex.used_off_heap;
        }
        dists.push_back(std::move(o));
      }
      j["dataDistribution"] = dists;
    }
    json parts = json::array();
    for (const LiveRddPartition& p : rdd.partitions) {
      parts.push_back({{"blockName", p.block_name},
                       {"storageLevel", rdd.storage_level},
                       {"memoryUsed", p.memory_used},
                       {"diskUsed", p.disk_used},
                       {"executors", p.executors}});
    }
    j["partitions"] = parts;
    return j;
  }

  // SparkListenerExecutorMetricsUpdate (a heartbeat): each "Executor Metrics Updated" entry
  // raises the live executor's peaks and, for a stage it names, the stage's and the executor's
  // peaks in that stage (AppStatusListener.onExecutorMetricsUpdate). Task accumulator updates
  // ("Metrics Updated") are not folded: finished tasks carry their final metrics.
  std::string OnExecutorMetricsUpdate(const json& e) {
    const std::string id = Str(e, "Executor ID");
    const json* updates = Find(e, "Executor Metrics Updated");
    if (!updates || !updates->is_array()) return "";
    LiveExecutor* ex = LiveExecutorById(id);
    for (const json& u : *updates) {
      const json* m = Find(u, "Executor Metrics");
      if (!m || !m->is_object()) continue;
      json ignored = json::object();
      if (ex) {
        if (ex->peak_metrics.is_null()) ex->peak_metrics = json::object();
        UpdatePeaks(*m, &ex->peak_metrics, &ignored);
      }
      LiveStage* stage = FindStage(
          {static_cast<int>(Int(u, "Stage ID")), static_cast<int>(Int(u, "Stage Attempt ID"))});
      if (!stage) continue;
      json& stage_peaks = Peaks(*stage)[id];
      if (stage_peaks.is_null()) stage_peaks = json::object();
      UpdatePeaks(*m, &stage->peak_executor_metrics, &stage_peaks);
    }
    return "";
  }

  static StorageLevel ReadStorageLevel(const json& holder) {
    StorageLevel level;
    const json* l = Find(holder, "Storage Level");
    if (!l) return level;
    level.use_disk = Bool(*l, "Use Disk");
    level.use_memory = Bool(*l, "Use Memory");
    level.use_off_heap = Bool(*l, "Use Off Heap");
    level.deserialized = Bool(*l, "Deserialized");
    level.replication = Int(*l, "Replication", 1);
    return level;
  }

  static std::int64_t AddDelta(std::int64_t value, std::int64_t delta) {
    return std::max<std::int64_t>(0, value + delta);
  }

  static void AddMemoryDisk(LiveExecutor& ex, const StorageLevel& level, std::int64_t memory,
                            std::int64_t disk) {
    if (ex.max_onheap) {
      if (level.use_off_heap) {
        ex.used_off_heap = AddDelta(ex.used_off_heap, memory);
      } else {
        ex.used_on_heap = AddDelta(ex.used_on_heap, memory);
      }
    }
    ex.memory_used = AddDelta(ex.memory_used, memory);
    ex.disk_used = AddDelta(ex.disk_used, disk);
  }

  // SparkListenerBlockUpdated: RDD blocks change their RDD's partitions and distribution and the
  // executor's storage use; broadcast blocks only the executor's (AppStatusListener).
  std::string OnBlockUpdated(const json& e) {
    const json* info = Find(e, "Block Updated Info");
    if (!info) return "SparkListenerBlockUpdated without \"Block Updated Info\"";
    const json* bm = Find(*info, "Block Manager ID");
    const std::string exec_id = bm ? Str(*bm, "Executor ID") : "";
    const std::string block = Str(*info, "Block ID");
    const StorageLevel level = ReadStorageLevel(*info);
    const std::int64_t disk = Int(*info, "Disk Size") * (level.use_disk ? 1 : -1);
    const std::int64_t memory = Int(*info, "Memory Size") * (level.use_memory ? 1 : -1);
    LiveExecutor* ex = LiveExecutorById(exec_id);
    if (block.rfind("broadcast_", 0) == 0) {
      if (ex) AddMemoryDisk(*ex, level, memory, disk);
      return "";
    }
    long long rdd_number = 0;
    char tail = 0;
    if (block.rfind("rdd_", 0) != 0 ||
        std::sscanf(block.c_str(), "rdd_%lld_%*d%c", &rdd_number, &tail) != 1) {
      return "";  // stream and other blocks: not served
    }
    const std::int64_t rdd_id = rdd_number;
    if (ex) AddMemoryDisk(*ex, level, memory, disk);
    std::int64_t blocks_delta = 0;
    if (auto it = rdds_.find(rdd_id); it != rdds_.end()) {
      LiveRdd& rdd = it->second;
      auto part = std::find_if(rdd.partitions.begin(), rdd.partitions.end(),
                               [&](const LiveRddPartition& p) { return p.block_name == block; });
      if (part == rdd.partitions.end()) {
        rdd.partitions.push_back({block, {}, 0, 0});
        part = rdd.partitions.end() - 1;
      }
      std::vector<std::string> executors = part->executors;
      if (level.Valid()) {
        if (std::find(executors.begin(), executors.end(), exec_id) == executors.end()) {
          blocks_delta = 1;
          executors.push_back(exec_id);
        }
      } else {
        blocks_delta = -1;
        executors.erase(std::remove(executors.begin(), executors.end(), exec_id), executors.end());
      }
      if (!executors.empty()) {
        part->executors = executors;
        part->memory_used = AddDelta(part->memory_used, memory);
        part->disk_used = AddDelta(part->disk_used, disk);
      } else {
        rdd.partitions.erase(part);
      }
      if (ex) {
        auto dist =
            std::find_if(rdd.distributions.begin(), rdd.distributions.end(),
                         [&](const LiveRddDistribution& d) { return d.executor_id == exec_id; });
        if (ex->rdd_blocks + blocks_delta > 0) {
          if (dist == rdd.distributions.end()) {
            rdd.distributions.push_back({exec_id, 0, 0, 0, 0});
            dist = rdd.distributions.end() - 1;
          }
          dist->memory_used = AddDelta(dist->memory_used, memory);
          dist->disk_used = AddDelta(dist->disk_used, disk);
          if (ex->max_onheap) {
            if (level.use_off_heap) {
              dist->off_heap_used = AddDelta(dist->off_heap_used, memory);
            } else {
              dist->on_heap_used = AddDelta(dist->on_heap_used, memory);
            }
          }
        } else if (dist != rdd.distributions.end()) {
          rdd.distributions.erase(dist);
        }
      }
      rdd.memory_used = AddDelta(rdd.memory_used, memory);
      rdd.disk_used = AddDelta(rdd.disk_used, disk);
    }
    if (ex) ex->rdd_blocks += blocks_delta;
    return "";
  }

  // SparkListenerUnpersistRDD: the RDD leaves storage/rdd and its executors' storage use.
  std::string OnUnpersistRdd(const json& e) {
    auto it = rdds_.find(Int(e, "RDD ID", -1));
    if (it == rdds_.end()) return "";
    const LiveRdd& rdd = it->second;
    for (const LiveRddPartition& p : rdd.partitions) {
      for (const std::string& id : p.executors) {
        if (LiveExecutor* ex = LiveExecutorById(id)) ex->rdd_blocks -= 1;
      }
    }
    const bool off_heap = rdd.storage_level.find("off heap") != std::string::npos;
    for (const LiveRddDistribution& d : rdd.distributions) {
      LiveExecutor* ex = LiveExecutorById(d.executor_id);
      if (!ex) continue;
      if (ex->max_onheap) {
        if (off_heap) {
          ex->used_off_heap = AddDelta(ex->used_off_heap, -d.off_heap_used);
        } else {
          ex->used_on_heap = AddDelta(ex->used_on_heap, -d.on_heap_used);
        }
      }
      ex->memory_used = AddDelta(ex->memory_used, -d.memory_used);
      ex->disk_used = AddDelta(ex->disk_used, -d.disk_used);
    }
    rdds_.erase(it);
    return "";
  }

  static void UpdatePeaks(const json& m, json* a, json* b) {
    for (auto it = m.begin(); it != m.end(); ++it) {
      if (!it.value().is_number()) continue;
      std::int64_t v = it.value().get<std::int64_t>();
      for (json* peak : {a, b}) {
        if (!peak->contains(it.key()) || (*peak)[it.key()].get<std::int64_t>() < v) {
          (*peak)[it.key()] = v;
        }
      }
    }
  }

  // The event name without package and with Spark 3.1's spelling ("Blacklisted" became
  // "Excluded", "Unblacklisted" "Unexcluded"); "" for any other event.
  static std::string_view ExclusionKind(std::string_view type) {
    static const std::pair<std::string_view, std::string_view> kKinds[] = {
        {"SparkListenerExecutorExcluded", "ExecutorExcluded"},
        {"SparkListenerExecutorBlacklisted", "ExecutorExcluded"},
        {"SparkListenerExecutorUnexcluded", "ExecutorUnexcluded"},
        {"SparkListenerExecutorUnblacklisted", "ExecutorUnexcluded"},
        {"SparkListenerNodeExcluded", "NodeExcluded"},
        {"SparkListenerNodeBlacklisted", "NodeExcluded"},
        {"SparkListenerNodeUnexcluded", "NodeUnexcluded"},
        {"SparkListenerNodeUnblacklisted", "NodeUnexcluded"},
        {"SparkListenerExecutorExcludedForStage", "ExecutorExcludedForStage"},
        {"SparkListenerExecutorBlacklistedForStage", "ExecutorExcludedForStage"},
        {"SparkListenerNodeExcludedForStage", "NodeExcludedForStage"},
        {"SparkListenerNodeBlacklistedForStage", "NodeExcludedForStage"},
    };
    if (auto dot = type.rfind('.'); dot != std::string_view::npos) type.remove_prefix(dot + 1);
    for (const auto& [name, kind] : kKinds) {
      if (type == name) return kind;
    }
    return {};
  }

  // Live executors (added, not removed) on `host`, the driver aside: the ones a node exclusion
  // applies to (AppStatusListener.updateNodeExcluded).
  std::vector<LiveExecutor*> LiveExecutorsOn(const std::string& host) {
    std::vector<LiveExecutor*> out;
    for (auto& [id, ex] : executors_) {
      if (id == "driver" || ex.remove_ms) continue;
      std::string ex_host =
          ex.host.empty() ? ex.host_port.substr(0, ex.host_port.rfind(':')) : ex.host;
      if (ex_host == host) out.push_back(&ex);
    }
    return out;
  }
  LiveExecutor* LiveExecutorById(const std::string& id) {
    auto it = executors_.find(id);
    return it == executors_.end() || it->second.remove_ms ? nullptr : &it->second;
  }

  // Exclusion events change live executors only, as AppStatusListener does: an executor or node
  // excluded for the application is (un)excluded; one excluded for a stage lists the stage in
  // excludedInStages until the stage completes, and the stage lists it as excluded.
  std::string OnExclusion(const json& e, std::string_view kind) {
    const bool for_stage = kind.ends_with("ForStage");
    std::vector<LiveExecutor*> targets;
    if (kind.starts_with("Node")) {
      targets = LiveExecutorsOn(Str(e, "hostId"));
    } else if (LiveExecutor* ex = LiveExecutorById(Str(e, "executorId"))) {
      targets.push_back(ex);
    }
    if (!for_stage) {
      const bool excluded = kind.find("Unexcluded") == std::string_view::npos;
      for (LiveExecutor* ex : targets) ex->excluded = excluded;
      return "";
    }
    const int stage_id = static_cast<int>(Int(e, "stageId"));
    LiveStage* stage = FindStage({stage_id, static_cast<int>(Int(e, "stageAttemptId"))});
    if (kind.starts_with("Executor") && stage) {
      // The stage marks the executor even when it is no longer live.
      stage->excluded_executors.insert(Str(e, "executorId"));
    }
    for (LiveExecutor* ex : targets) {
      ex->excluded_stages.insert(stage_id);
      if (kind.starts_with("Node") && stage) stage->excluded_executors.insert(ex->id);
    }
    return "";
  }

  const EventLogSource& src_;
  TaskSink* sink_;
  std::string app_id_, app_name_, attempt_id_, user_, spark_version_;
  std::optional<std::int64_t> start_ms_, end_ms_;
  bool saw_start_ = false, completed_ = false;
  json environment_;
  std::map<int, json> resource_profiles_;
  std::map<StageKey, LiveStage> stages_;  // in memory; the others are in stages_aside_
  std::map<int, LiveJob> jobs_;           // in memory; the others are in jobs_aside_
  std::set<int> running_jobs_;            // the ids of jobs_ whose status is RUNNING
  std::map<std::string, LiveExecutor> executors_;
  // The peaks every task end updates (its executor's, and the stage's for that executor), found
  // through a hash of the executor id instead of two ordered-map searches per task end: the
  // maps' nodes never move and nothing is erased from them.
  struct ExecutorPeaks {
    LiveExecutor* executor = nullptr;
    const LiveStage* stage = nullptr;  // the stage attempt stage_peaks belongs to
    json* stage_peaks = nullptr;
  };
  std::unordered_map<std::string, ExecutorPeaks> executor_peaks_;
  std::unordered_map<std::int64_t, LiveTask> running_;
  sj::parser parser_;
  OnDemandTaskReader on_demand_;
  TaskEvent task_event_;  // ApplyTask's record, reused
  SqlListener sql_;
  std::map<std::int64_t, LiveRdd> rdds_;
  std::map<std::string, MiscProcess> misc_;
  Status task_error_;
  StageSpill spill_;  // the peaks of stages done (StageDone), the stages and jobs put aside
  SpillIndex<StageKey> stages_aside_;
  SpillIndex<int> jobs_aside_;
  std::deque<StageKey> stages_taken_back_;  // the last ones, oldest first (kKeepTakenBack)
  std::deque<int> jobs_taken_back_;
};

void AppBuilder::OnTaskEnd(const TaskEvent& ev) {
  const int stage_id = ev.stage_id, stage_attempt = ev.stage_attempt;
  // TaskInfo.successful: finished, neither failed nor killed.
  sql_.OnTaskEnd(stage_id, stage_attempt, ev.info.task_id, ev.info.index,
                 ev.info.finish_ms != 0 && !ev.info.failed && !ev.info.killed, ev.accums);
  bool was_running = running_.erase(ev.info.task_id) > 0;
  int completed = 0, failed = 0, killed = 0;
  static const std::string kSuccess = "SUCCESS", kKilled = "KILLED", kFailed = "FAILED";
  const std::string* status = &kFailed;
  if (ev.kind == "Success") {
    completed = 1;
    status = &kSuccess;
  } else if (ev.kind == "TaskKilled" || ev.kind == "TaskCommitDenied") {
    killed = 1;
    status = &kKilled;
  } else {
    failed = 1;
  }
  LiveStage& s = Stage(stage_id, stage_attempt);
  if (was_running) s.active -= 1;
  s.complete += completed;
  s.failed += failed;
  s.killed += killed;
  const std::int64_t index = ev.info.index;
  if (completed) s.completed_indices.Insert(index);
  if (killed) s.killed_summary[ev.killed_key] += 1;
  ForEachJob(s, [&](LiveJob& job) {
    if (was_running) job.active_tasks -= 1;
    job.completed_tasks += completed;
    job.failed_tasks += failed;
    job.killed_tasks += killed;
    if (completed) job.completed_indices[stage_id].Insert(index);
    if (killed) job.killed_summary[ev.killed_key] += 1;
  });
  if (ev.info.speculative) {
    s.speculated = true;
    s.spec_active -= 1;
    s.spec_completed += completed;
    s.spec_failed += failed;
    s.spec_killed += killed;
  }
  ExecutorPeaks& found = executor_peaks_[ev.info.executor];
  if (found.executor == nullptr) found.executor = &Executor(ev.info.executor);
  if (found.stage != &s) {
    found.stage = &s;
    found.stage_peaks = &Peaks(s)[ev.info.executor];
  }
  json& executor_peaks = found.executor->peak_metrics;
  if (executor_peaks.is_null()) executor_peaks = json::object();
  json& stage_executor_peaks = *found.stage_peaks;
  if (stage_executor_peaks.is_null()) stage_executor_peaks = json::object();
  if (!ev.executor_metrics.empty()) {
    json* peaks[] = {&executor_peaks, &s.peak_executor_metrics, &stage_executor_peaks};
    for (const auto& [name, v] : ev.executor_metrics) {
      for (json* peak : peaks) {
        auto it = peak->find(name);
        if (it == peak->end() || it->get<std::int64_t>() < v) (*peak)[name] = v;
      }
    }
  }
  Status st = sink_->Row(stage_id, stage_attempt, ev.info, *status, ev.error,
                         ev.has_metrics ? &ev.metrics : nullptr);
  if (!st.ok() && task_error_.ok()) task_error_ = st;
  // The last task running in a completed stage ended (a speculative copy killed after the stage
  // completed, say).
  if (was_running && Done(s)) StageDone(s);
}

void AppBuilder::StageDone(LiveStage& s) {
  sink_->StageDone(s.stage_id, s.attempt_id);
  if (!s.executor_peaks.empty() && !s.peaks_spilled) SpillPeaks(s);
  PutStageAside(s);
}

void AppBuilder::SpillPeaks(LiveStage& s) {
  for (const auto& [id, peaks] : s.executor_peaks) {
    // Put aside only what reads back as the same keys (JSON text replaces invalid UTF-8).
    for (const char c : id) {
      if (static_cast<unsigned char>(c) >= 0x80) return;
    }
  }
  const auto extent = spill_.Put(JsonText(json(s.executor_peaks)));
  if (!extent) return;
  for (const auto& [id, peaks] : s.executor_peaks) {  // the shortcuts into the entries going
    auto found = executor_peaks_.find(id);
    if (found != executor_peaks_.end() && found->second.stage == &s) found->second.stage = nullptr;
  }
  std::map<std::string, json>().swap(s.executor_peaks);
  s.peaks_spilled = extent;
}

void AppBuilder::PutStageAside(LiveStage& s) {
  // Peaks still in memory (not put aside) keep the stage there: shortcuts point into them.
  if (!Done(s) || !s.executor_peaks.empty()) return;
  RecordWriter w;
  PackStage(s, w);
  const auto at = spill_.PutRecord(w.Framed());
  if (!at) return;
  const StageKey key{s.stage_id, s.attempt_id};
  stages_.erase(key);
  stages_aside_.Add(key, *at);
}

void AppBuilder::PutJobAside(LiveJob& job) {
  if (job.status == "RUNNING") return;  // running_jobs_ holds the running ones' ids
  RecordWriter w;
  PackJob(job, w);
  const auto at = spill_.PutRecord(w.Framed());
  if (!at) return;
  const int id = job.job_id;
  jobs_.erase(id);
  jobs_aside_.Add(id, *at);
}

template <typename Key, typename T, typename PutBack>
T* AppBuilder::TakeBack(const Key& key, SpillIndex<Key>& index, std::map<Key, T>& live,
                        std::deque<Key>& taken_back, PutBack put_back) {
  const auto at = index.Take(key);
  if (!at) return nullptr;
  // The oldest taken back goes back first (never `key`: not in memory).
  while (taken_back.size() >= kKeepTakenBack) {
    auto it = live.find(taken_back.front());
    taken_back.pop_front();
    if (it != live.end()) put_back(it->second);
  }
  taken_back.push_back(key);
  T& v = live[key];
  if (Status st = ReadBack(*at, &v); !st.ok() && task_error_.ok()) task_error_ = st;
  return &v;
}

LiveStage* AppBuilder::TakeBackStage(const StageKey& key) {
  LiveStage* s = TakeBack(key, stages_aside_, stages_, stages_taken_back_, [&](LiveStage& old) {
    if (Done(old)) StageDone(old);  // still done: back to scratch
  });
  if (s) s->stage_id = key.first, s->attempt_id = key.second;
  return s;
}

LiveJob* AppBuilder::TakeBackJob(int id) {
  LiveJob* job =
      TakeBack(id, jobs_aside_, jobs_, jobs_taken_back_, [&](LiveJob& old) { PutJobAside(old); });
  if (job) job->job_id = id;
  return job;
}

std::map<std::string, json>& AppBuilder::Peaks(LiveStage& s) {
  if (s.peaks_spilled) {
    auto text = spill_.Get(*s.peaks_spilled);
    if (text.ok()) {
      json parsed = json::parse(text.value());
      for (auto it = parsed.begin(); it != parsed.end(); ++it) {
        s.executor_peaks[it.key()] = std::move(it.value());
      }
    } else if (task_error_.ok()) {
      task_error_ = text.status();
    }
    s.peaks_spilled.reset();
  }
  return s.executor_peaks;
}

Status AppBuilder::FlushRunning() {
  if (!task_error_.ok()) return task_error_;
  // Tasks still running when the log ends (an application still running, or a lost end event).
  static const std::string kRunning = "RUNNING", kNoError;
  for (const auto& entry : running_) {
    const LiveTask& t = entry.second;
    Status st = sink_->Row(t.stage_id, t.stage_attempt, t.info, kRunning, kNoError, nullptr);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

// Deletes the rows of every other stored copy of the attempt (app_id, attempt_id) than `key`.
Status DeleteOtherAttempts(Store& store, const std::string& app_id, const std::string& attempt_id,
                           std::int64_t key) {
  for (const char* table : profiles::detail::kSparkAttemptTables) {
    auto del = store.Prepare(std::string("DELETE FROM ") + table +
                             " WHERE attempt_key IN (SELECT attempt_key FROM spark_attempts "
                             "WHERE app_id = ?1 AND attempt_id = ?2 AND attempt_key != ?3)");
    if (!del.ok()) return del.status();
    del.value().Bind(1, app_id).Bind(2, attempt_id).Bind(3, key);
    if (Status st = del.value().Run(); !st.ok()) return st;
  }
  return Status::Ok();
}

Status AppBuilder::Finish(Store& store, std::int64_t key, TaskSummaries& tasks, std::int64_t events,
                          std::int64_t skipped, std::int64_t last_updated_ms) {
  // Replace whatever the store held for this application attempt.
  if (Status st = DeleteOtherAttempts(store, app_id_, attempt_id_, key); !st.ok()) return st;
  {
    auto up = store.Prepare(
        "UPDATE spark_attempts SET app_id=?2, attempt_id=?3, app_name=?4, spark_user=?5, "
        "spark_version=?6, start_time_ms=?7, end_time_ms=?8, completed=?9, last_updated_ms=?10, "
        "events=?11, skipped_lines=?12 WHERE attempt_key=?1");
    if (!up.ok()) return up.status();
    Statement& q = up.value();
    q.Bind(1, key).Bind(2, app_id_).Bind(3, attempt_id_).Bind(4, app_name_).Bind(5, user_);
    q.Bind(6, spark_version_);
    if (start_ms_)
      q.Bind(7, *start_ms_);
    else
      q.BindNull(7);
    if (end_ms_)
      q.Bind(8, *end_ms_);
    else
      q.BindNull(8);
    q.Bind(9, std::int64_t{completed_}).Bind(10, last_updated_ms).Bind(11, events);
    q.Bind(12, skipped);
    if (Status st = q.Run(); !st.ok()) return st;
  }
  // Environment.
  if (!environment_.is_null()) {
    auto ins = store.Prepare(
        "INSERT INTO spark_properties(attempt_key, section, ord, name, value) "
        "VALUES(?1, ?2, ?3, ?4, ?5)");
    if (!ins.ok()) return ins.status();
    const std::pair<const char*, const char*> sections[] = {
        {"jvm", "JVM Information"},         {"spark", "Spark Properties"},
        {"hadoop", "Hadoop Properties"},    {"system", "System Properties"},
        {"classpath", "Classpath Entries"}, {"metrics", "Metrics Properties"}};
    for (const auto& [section, field] : sections) {
      const json* obj = Find(environment_, field);
      if (!obj || !obj->is_object()) continue;
      std::int64_t ord = 0;
      for (auto it = obj->begin(); it != obj->end(); ++it) {
        Statement& q = ins.value();
        q.Reset();
        q.Bind(1, key).Bind(2, std::string(section)).Bind(3, ord++).Bind(4, it.key());
        q.Bind(5, it.value().is_string() ? it.value().get<std::string>() : JsonText(it.value()));
        if (Status st = q.Run(); !st.ok()) return st;
      }
    }
  }
  {  // prepared once for all rows
    auto q = store.Prepare("INSERT OR REPLACE INTO spark_resource_profiles VALUES(?1, ?2, ?3, ?4)");
    if (!q.ok()) return q.status();
    for (const auto& [id, e] : resource_profiles_) {
      q.value().Reset();
      const json* ex = Find(e, "Executor Resource Requests");
      const json* task = Find(e, "Task Resource Requests");
      q.value().Bind(1, key).Bind(2, std::int64_t{id});
      q.value().Bind(3, ex ? ex->dump() : "{}").Bind(4, task ? task->dump() : "{}");
      if (Status st = q.value().Run(); !st.ok()) return st;
    }
  }
  {  // prepared once for all rows
    auto q = store.Prepare(
        "INSERT INTO spark_executors VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
        "?16,?17,?18,?19,?20,?21,?22,?23,?24)");
    if (!q.ok()) return q.status();
    for (const auto& [id, ex] : executors_) {
      q.value().Reset();
      Statement& s = q.value();
      s.Bind(1, key).Bind(2, ex.id).Bind(3, ex.host_port).Bind(4, ex.host);
      s.Bind(5, ex.total_cores);
      s.Bind(6, ex.add_ms);
      s.Bind(7, ex.remove_ms);
      s.Bind(8, ex.remove_reason);
      s.Bind(9, ex.max_memory);
      s.Bind(10, ex.max_onheap);
      s.Bind(11, ex.max_offheap);
      s.Bind(12, JsonText(ex.log_urls))
          .Bind(13, JsonText(ex.attributes))
          .Bind(14, JsonText(ex.resources));
      s.Bind(15, std::int64_t{ex.resource_profile_id}).Bind(16, std::int64_t{ex.excluded});
      s.Bind(17, JsonText(json(ex.excluded_stages))).Bind(18, JsonText(ex.peak_metrics));
      s.Bind(19, std::int64_t{ex.ord});
      s.Bind(20, ex.memory_used).Bind(21, ex.disk_used).Bind(22, ex.rdd_blocks);
      s.Bind(23, ex.used_on_heap).Bind(24, ex.used_off_heap);
      if (Status st = s.Run(); !st.ok()) return st;
    }
  }
  {  // prepared once for all rows
    auto q = store.Prepare(
        "INSERT INTO spark_jobs VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,"
        "?17,?18,?19,?20,?21,?22,?23)");
    if (!q.ok()) return q.status();
    const auto write = [&](int id, const LiveJob& j) {
      q.value().Reset();
      Statement& s = q.value();
      s.Bind(1, key).Bind(2, std::int64_t{id}).Bind(3, j.name);
      s.Bind(4, j.description);
      s.Bind(5, j.submission_ms);
      s.Bind(6, j.completion_ms);
      s.Bind(7, j.status).Bind(8, JsonText(json(j.stage_ids)));
      s.Bind(9, j.job_group);
      s.Bind(10, JsonText(j.tags));
      s.Bind(11, j.sql_execution_id);
      s.Bind(12, std::int64_t{j.num_tasks}).Bind(13, std::int64_t{j.active_tasks});
      s.Bind(14, std::int64_t{j.completed_tasks}).Bind(15, std::int64_t{j.skipped_tasks});
      s.Bind(16, std::int64_t{j.failed_tasks}).Bind(17, std::int64_t{j.killed_tasks});
      std::int64_t completed_indices = 0;
      for (const auto& [stage, set] : j.completed_indices) {
        completed_indices += static_cast<std::int64_t>(set.size());
      }
      s.Bind(18, completed_indices);
      s.Bind(19, std::int64_t{std::max(0, j.active_stages)});
      s.Bind(20, static_cast<std::int64_t>(j.completed_stages.size()));
      s.Bind(21, static_cast<std::int64_t>(j.skipped_stages.size()));
      s.Bind(22, std::int64_t{j.failed_stages}).Bind(23, JsonText(json(j.killed_summary)));
      return s.Run();
    };
    // In key order, from memory or from the scratch file.
    Status st = InKeyOrder(jobs_, jobs_aside_, write, [&](int id, std::uint64_t at) {
      LiveJob j;
      Status read = ReadBack(at, &j);
      return read.ok() ? write(id, j) : read;
    });
    if (!st.ok()) return st;
  }
  {  // prepared once for all rows
    auto q = store.Prepare(
        "INSERT INTO spark_stages VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,"
        "?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29,?30)");
    if (!q.ok()) return q.status();
    const auto write = [&](const StageKey&, const LiveStage& st_) {
      std::string executor_peaks;
      if (st_.peaks_spilled) {
        auto text = spill_.Get(*st_.peaks_spilled);
        if (!text.ok()) return text.status();
        executor_peaks = std::move(text).value();
      } else {
        executor_peaks = JsonText(json(st_.executor_peaks));
      }
      q.value().Reset();
      Statement& s = q.value();
      s.Bind(1, key).Bind(2, std::int64_t{st_.stage_id}).Bind(3, std::int64_t{st_.attempt_id});
      s.Bind(4, st_.name).Bind(5, st_.description).Bind(6, st_.details);
      s.Bind(7, std::int64_t{st_.num_tasks}).Bind(8, st_.status);
      s.Bind(9, st_.submission_ms);
      s.Bind(10, st_.first_launch_ms);
      s.Bind(11, st_.completion_ms);
      s.Bind(12, st_.failure_reason).Bind(13, st_.pool).Bind(14, JsonText(st_.rdd_ids));
      s.Bind(15, JsonText(st_.parent_ids)).Bind(16, JsonText(json(st_.job_ids)));
      s.Bind(17, JsonText(st_.accumulables)).Bind(18, std::int64_t{st_.resource_profile_id});
      s.Bind(19, std::int64_t{st_.active}).Bind(20, std::int64_t{st_.complete});
      s.Bind(21, std::int64_t{st_.failed}).Bind(22, std::int64_t{st_.killed});
      s.Bind(23, static_cast<std::int64_t>(st_.completed_indices.size()));
      s.Bind(24, JsonText(json(st_.killed_summary))).Bind(25, JsonText(st_.peak_executor_metrics));
      s.Bind(26, JsonText(json(st_.excluded_executors)));
      s.Bind(27, executor_peaks);
      if (st_.speculated) {
        s.Bind(28, JsonText(json{{"numTasks", st_.spec_tasks},
                                 {"numActiveTasks", st_.spec_active},
                                 {"numCompletedTasks", st_.spec_completed},
                                 {"numFailedTasks", st_.spec_failed},
                                 {"numKilledTasks", st_.spec_killed}}));
      } else {
        s.BindNull(28);
      }
      s.Bind(29, std::int64_t{st_.shuffle_push_enabled}).Bind(30, st_.shuffle_mergers_count);
      return s.Run();
    };
    // In key order, from memory or from the scratch file.
    Status st = InKeyOrder(stages_, stages_aside_, write, [&](const StageKey& k, std::uint64_t at) {
      LiveStage stage;
      Status read = ReadBack(at, &stage);
      return read.ok() ? write(k, stage) : read;
    });
    if (!st.ok()) return st;
  }
  // The summaries the read paths answer from, in this same transaction: kept as the tasks were
  // inserted, or grouped from the stored tasks when a sum overflowed (SQL's arithmetic then).
  if (Status st = tasks.overflow() ? WriteSummaries(store, key) : tasks.Write(store, key);
      !st.ok()) {
    return st;
  }
  {  // prepared once for all rows
    auto q = store.Prepare("INSERT INTO spark_rdds VALUES(?1, ?2, ?3)");
    if (!q.ok()) return q.status();
    for (const auto& [id, rdd] : rdds_) {
      q.value().Reset();
      q.value().Bind(1, key).Bind(2, id).Bind(3, JsonText(RddStorageInfo(rdd)));
      if (Status st = q.value().Run(); !st.ok()) return st;
    }
  }
  {  // prepared once for all rows
    auto q = store.Prepare("INSERT INTO spark_misc_processes VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    if (!q.ok()) return q.status();
    for (const auto& [id, p] : misc_) {
      q.value().Reset();
      q.value().Bind(1, key).Bind(2, id).Bind(3, p.host_port).Bind(4, p.cores);
      q.value().Bind(5, p.add_ms).Bind(6, JsonText(p.logs));
      if (Status st = q.value().Run(); !st.ok()) return st;
    }
  }
  {  // prepared once for all rows
    auto q = store.Prepare(
        "INSERT INTO spark_sql_executions(attempt_key, execution_id, description, details, "
        "physical_plan, start_time_ms, end_time_ms, error_message, root_execution_id, jobs_json, "
        "nodes_json, edges_json) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
    if (!q.ok()) return q.status();
    for (const SqlListener::Execution& x : sql_.Finish()) {
      q.value().Reset();
      Statement& s = q.value();
      s.Bind(1, key).Bind(2, x.id);
      auto text = [&](int i, const std::optional<std::string>& v) {
        if (v) {
          s.Bind(i, *v);
        } else {
          s.BindNull(i);
        }
      };
      auto number = [&](int i, const std::optional<std::int64_t>& v) {
        if (v) {
          s.Bind(i, *v);
        } else {
          s.BindNull(i);
        }
      };
      text(3, x.description);
      text(4, x.details);
      text(5, x.plan);
      s.Bind(6, x.submission_ms);
      number(7, x.completion_ms);
      s.Bind(8, x.error);
      number(9, x.root_id);
      s.Bind(10, x.jobs_json).Bind(11, x.nodes_json).Bind(12, x.edges_json);
      if (Status st = s.Run(); !st.ok()) return st;
    }
  }
  return Status::Ok();
}

struct SourceStamp {
  std::int64_t size_bytes = 0;
  std::int64_t mtime_ns = 0;
  std::string fingerprint;
};

SourceStamp Stamp(const EventLogSource& src) {
  SourceStamp s;
  XXH64_state_t* h = XXH64_createState();
  XXH64_reset(h, 0);
  for (const std::string& part : src.parts) {
    std::error_code ec;
    auto size = fs::file_size(part, ec);
    if (!ec) s.size_bytes += static_cast<std::int64_t>(size);
    auto t = fs::last_write_time(part, ec);
    if (!ec) {
      s.mtime_ns = std::max<std::int64_t>(s.mtime_ns,
                                          std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::file_clock::to_sys(t).time_since_epoch())
                                              .count());
    }
    // Only regular files: opening a FIFO nobody writes to would block (the reader refuses it).
    std::FILE* f = fs::is_regular_file(part, ec) ? std::fopen(part.c_str(), "rb") : nullptr;
    if (f != nullptr) {
      char buf[4096];
      std::size_t n = std::fread(buf, 1, sizeof(buf), f);
      XXH64_update(h, buf, n);
      std::fclose(f);
    }
    XXH64_update(h, part.data(), part.size());
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(XXH64_digest(h)));
  XXH64_freeState(h);
  s.fingerprint = hex;
  s.fingerprint += src.in_progress ? "+inprogress" : "";
  return s;
}

// The application id a rolling folder or file name implies, for logs without ApplicationStart.
std::string AppIdFromName(const EventLogSource& src) {
  std::string base = fs::path(src.name).filename().string();
  if (src.rolling && base.rfind("eventlog_v2_", 0) == 0) return base.substr(12);
  for (std::string_view suffix :
       {".inprogress", ".zstd", ".zst", ".lz4", ".snappy", ".lzf", ".gz"}) {
    if (base.size() > suffix.size() && base.substr(base.size() - suffix.size()) == suffix) {
      base.resize(base.size() - suffix.size());
    }
  }
  return base;
}

bool SourceUnchanged(Store& store, const EventLogSource& src, const SourceStamp& stamp) {
  // The source row alone decides: when another file of the same application attempt replaced
  // this one's rows, reading it again would only flip the store back and forth.
  auto q = store.Prepare(
      "SELECT 1 FROM spark_sources s "
      "WHERE s.source = ?1 AND s.size_bytes = ?2 AND s.mtime_ns = ?3 AND s.fingerprint = ?4");
  if (!q.ok()) return false;
  q.value().Bind(1, src.name).Bind(2, stamp.size_bytes).Bind(3, stamp.mtime_ns);
  q.value().Bind(4, stamp.fingerprint);
  return q.value().Step();
}

// The placeholder row of a log being read: a unique app id until the real one is known.
Result<std::int64_t> InsertPlaceholder(Store& store, const EventLogSource& src) {
  if (Status st = store.Exec("INSERT INTO spark_attempts(app_id, completed, source) VALUES('', 0, "
                             "'')");
      !st.ok()) {
    return st;
  }
  const std::int64_t key = store.LastInsertRowId();
  auto q =
      store.Prepare("UPDATE spark_attempts SET app_id = ?1, source = ?2 WHERE attempt_key = ?3");
  if (!q.ok()) return q.status();
  q.value().Bind(1, "\x01pending-" + std::to_string(key)).Bind(2, src.name).Bind(3, key);
  if (Status st = q.value().Run(); !st.ok()) return st;
  return key;
}

// Why `app` (read into attempt `key`) must not replace the copy of its attempt stored from
// elsewhere — a shorter or stale one — or "" when it may.
Result<std::string> StaleCopy(Store& store, const IngestedApplication& app, std::int64_t key) {
  auto q = store.Prepare(
      "SELECT source, events, completed FROM spark_attempts WHERE app_id = ?1 AND "
      "attempt_id = ?2 AND attempt_key != ?3");
  if (!q.ok()) return q.status();
  q.value().Bind(1, app.app_id).Bind(2, app.attempt_id).Bind(3, key);
  if (!q.value().Step())
    return q.value().Error().ok() ? Result<std::string>(std::string())
                                  : Result<std::string>(q.value().Error());
  const std::string stored = q.value().ColumnText(0);
  const std::int64_t stored_events = q.value().ColumnInt(1);
  const bool stored_completed = q.value().ColumnInt(2) != 0;
  std::string why;
  if (stored_completed && !app.completed) {
    why = "it is incomplete and the stored copy is complete";
  } else if (stored_events > app.events) {
    why = "it has " + std::to_string(app.events) + " events, the stored copy " +
          std::to_string(stored_events);
  }
  if (why.empty()) return why;
  return "not replacing application " + app.app_id +
         (app.attempt_id.empty() ? "" : " attempt " + app.attempt_id) + " stored from " + stored +
         ": " + why + " (the replace option forces it)";
}

// Remembers which source produced attempt `key`, so an unchanged source is not read again.
Status RecordSource(Store& store, const EventLogSource& src, const SourceStamp& stamp,
                    std::int64_t key, const IngestedApplication& app) {
  auto q = store.Prepare(
      "INSERT OR REPLACE INTO spark_sources VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  if (!q.ok()) return q.status();
  q.value().Bind(1, src.name).Bind(2, stamp.size_bytes).Bind(3, stamp.mtime_ns);
  q.value().Bind(4, stamp.fingerprint).Bind(5, key).Bind(6, app.app_id);
  q.value().Bind(7, app.attempt_id).Bind(8, app.events).Bind(9, std::int64_t{app.completed});
  return q.value().Run();
}

// Reads one log's events into `app`: its task rows go to the app's sink as they end. Input
// problems go to `skips` (this log's alone, so that a file found not to be an event log can take
// back what its first lines reported) and the counts to `summary`. Returns whether the log is to
// be stored: false when it is not an event log, holds no event, or `cancel` was set.
bool ReadEvents(const EventLogSource& src, const IngestLimits& limits, AppBuilder& app,
                IngestSummary* summary, SkipTally<SkippedLine>* skips, std::int64_t* events_out,
                std::int64_t* skipped_out, const std::atomic<bool>* cancel = nullptr) {
  EventLineReader reader(src, limits.max_line_bytes);
  std::string_view line;
  std::int64_t& events = *events_out;
  std::int64_t& skipped = *skipped_out;
  events = 0, skipped = 0;
  std::int64_t lines = 0;
  std::size_t reader_skips_seen = 0;
  // A file whose first lines hold no Spark event is not an event log: report it once, not once
  // per line.
  constexpr std::int64_t kProbeLines = 5;
  while (reader.Next(&line)) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) return false;
    if (events == 0 && skipped >= kProbeLines) {
      *skips = {};
      skips->Add({src.name, 0, "not a Spark event log: no Spark event in the first lines"});
      summary->lines += lines;
      summary->bytes_read += reader.file_bytes_read();
      return false;
    }
    ++lines;
    // Drain reader-level problems (corrupt streams) in order.
    while (reader_skips_seen < reader.skipped().size()) {
      skips->Add(reader.skipped()[reader_skips_seen++]);
      ++skipped;
    }
    if (line.empty()) continue;
    // Fast path: Spark writes "Event" first, and task events are most of a log.
    const bool task_end = line.rfind(kTaskEndPrefix, 0) == 0;
    if (task_end || line.rfind(kTaskStartPrefix, 0) == 0) {
      // The line's view is followed by the rest of the reader's buffer: when that holds
      // simdjson's padding, the line is parsed in place instead of copied into a padded buffer.
      if (app.ApplyTaskOnDemand(line, reader.bytes_after_line(), task_end)) {
        ++events;
        continue;
      }
      const bool copy = reader.bytes_after_line() < simdjson::SIMDJSON_PADDING;
      auto doc = app.parser().parse(line.data(), line.size(), copy);
      if (!doc.error()) {
        ++events;
        std::string problem = app.ApplyTask(doc.value_unsafe(), task_end);
        if (!problem.empty() && profiles::JsonDeeperThan(line, limits.max_json_depth)) {
          // Checked only on failure, to keep the scan off the hot path.
          problem = "JSON nested deeper than " + std::to_string(limits.max_json_depth) + " levels";
        }
        if (!problem.empty()) {
          skips->Add({reader.current_file(), reader.current_line(), problem});
          ++skipped;
        }
        continue;
      }
      // Not valid JSON: the general path below classifies and reports it.
    }
    // Parsing a deep line works, but copying or dumping the tree recurses once per level.
    if (profiles::JsonDeeperThan(line, limits.max_json_depth)) {
      skips->Add({reader.current_file(), reader.current_line(),
                  "JSON nested deeper than " + std::to_string(limits.max_json_depth) + " levels"});
      ++skipped;
      continue;
    }
    json e = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (e.is_discarded() || !e.is_object()) {
      std::string reason;
      if (reader.current_line_unterminated()) {
        reason = "truncated last line (no line end, not valid JSON)";
      } else if (e.is_discarded()) {
        reason = "invalid JSON";
      } else {
        reason = "not a JSON object";
      }
      skips->Add({reader.current_file(), reader.current_line(), reason});
      ++skipped;
      continue;
    }
    const json* type = Find(e, "Event");
    if (!type || !type->is_string()) {
      skips->Add({reader.current_file(), reader.current_line(), "no \"Event\" field"});
      ++skipped;
      continue;
    }
    ++events;
    std::string problem;
    try {
      problem = app.Apply(e, type->get<std::string>());
    } catch (const std::exception& ex) {
      problem = std::string("unexpected field type: ") + ex.what();
    }
    if (!problem.empty()) {
      skips->Add({reader.current_file(), reader.current_line(), problem});
      ++skipped;
    }
  }
  while (reader_skips_seen < reader.skipped().size()) {
    skips->Add(reader.skipped()[reader_skips_seen++]);
    ++skipped;
  }
  summary->events += events;
  summary->lines += lines;
  summary->bytes_read += reader.file_bytes_read();
  if (!app.saw_start()) {
    if (events == 0) {
      // A stream that failed before one event decoded (a zstd file cut in half) is reported by
      // what went wrong with it, not as "not a Spark event log".
      const bool stream_failed =
          std::any_of(reader.skipped().begin(), reader.skipped().end(),
                      [](const SkippedLine& s) { return s.reason.rfind("corrupt ", 0) == 0; });
      if (!stream_failed) {
        *skips = {};
        skips->Add({src.name, 0, "not a Spark event log: no Spark event in the first lines"});
      }
      return false;  // the caller rolls back the placeholder
    }
    app.set_app_id(AppIdFromName(src));
    skips->Add({src.name, 0,
                "no SparkListenerApplicationStart event; application id taken from the name: " +
                    app.app_id()});
  }
  return true;
}

// The application already stored from an unchanged source, as the summary lists it.
IngestedApplication UnchangedApplication(Store& store, const EventLogSource& src) {
  IngestedApplication app;
  auto q = store.Prepare(
      "SELECT app_id, attempt_id, events, completed FROM spark_sources WHERE source = ?1");
  if (q.ok()) {
    q.value().Bind(1, src.name);
    if (q.value().Step()) {
      app = {q.value().ColumnText(0),
             q.value().ColumnText(1),
             src.name,
             0,
             q.value().ColumnInt(3) != 0,
             true};
    }
  }
  return app;
}

// What the ingest does after reading a log whose task rows are in attempt `key`: refuse a stale
// copy (unless replacing), else write the rest of the application and remember the source.
// `wrote` tells whether the caller is to commit.
Status StoreApplication(Store& store, const EventLogSource& src, const IngestLimits& limits,
                        const SourceStamp& stamp, std::int64_t key, AppBuilder& app,
                        TaskSummaries& tasks, std::int64_t events, std::int64_t skipped,
                        SkipTally<SkippedLine>* skips, IngestedApplication* app_out, bool* wrote) {
  *wrote = false;
  *app_out = {app.app_id(), app.attempt_id(), src.name, events, app.completed(), false};
  if (!limits.replace) {
    auto stale = StaleCopy(store, *app_out, key);
    if (!stale.ok()) return stale.status();
    if (!stale.value().empty()) {
      skips->Add({src.name, 0, std::move(stale).value()});
      *app_out = {};
      return Status::Ok();  // the caller rolls back the placeholder
    }
  }
  if (Status st = app.Finish(store, key, tasks, events, skipped, stamp.mtime_ns / 1000000);
      !st.ok()) {
    return st;
  }
  if (Status st = RecordSource(store, src, stamp, key, *app_out); !st.ok()) return st;
  *wrote = true;
  return Status::Ok();
}

// Reads one log into the store inside the caller's transaction. A non-ok Status is a store
// failure; input problems go to `skips` and the counts to `summary` (as ReadEvents).
Status IngestOne(Store& store, const EventLogSource& src, const IngestLimits& limits,
                 IngestSummary* summary, SkipTally<SkippedLine>* skips,
                 IngestedApplication* app_out, bool* wrote) {
  *wrote = false;
  const SourceStamp stamp = Stamp(src);
  if (SourceUnchanged(store, src, stamp)) {
    *app_out = UnchangedApplication(store, src);
    return Status::Ok();
  }
  auto placeholder = InsertPlaceholder(store, src);
  if (!placeholder.ok()) return placeholder.status();
  const std::int64_t key = placeholder.value();
  TaskInserter tasks(store, key);
  if (Status st = tasks.Prepare(); !st.ok()) return st;
  AppBuilder app(src, &tasks);
  std::int64_t events = 0, skipped = 0;
  if (!ReadEvents(src, limits, app, summary, skips, &events, &skipped)) return Status::Ok();
  if (Status st = app.FlushRunning(); !st.ok()) return st;
  if (Status st = tasks.Finish(); !st.ok()) return st;
  return StoreApplication(store, src, limits, stamp, key, app, tasks.summaries(), events, skipped,
                          skips, app_out, wrote);
}

// One log in one transaction of `store`: what IngestEventLogs does per log.
Status IngestInTransaction(Store& store, const EventLogSource& src, const IngestLimits& limits,
                           IngestSummary* summary, SkipTally<SkippedLine>* skips) {
  if (Status st = store.Begin(); !st.ok()) return st;
  IngestedApplication app;
  bool wrote = false;
  SkipTally<SkippedLine> log_skips;
  Status st = IngestOne(store, src, limits, summary, &log_skips, &app, &wrote);
  skips->Merge(std::move(log_skips));
  if (!st.ok()) {
    store.Rollback();
    return Status::Failed(src.name + ": writing to the store failed: " + st.message());
  }
  if (wrote) {
    if (Status c = store.Commit(); !c.ok()) return c;
  } else {
    store.Rollback();
  }
  if (!app.app_id.empty()) summary->applications.push_back(std::move(app));
  return Status::Ok();
}

void FinishSummary(IngestSummary* summary, SkipTally<SkippedLine>* skips) {
  summary->skipped = std::move(skips->mutable_examples());
  summary->skipped_total = skips->total();
  summary->skipped_reasons = skips->Reasons();
}

// ---- Parallel ingest (spark_ingest_parallel.h) ----

// Earlier versions parsed each log into a scratch store named so under the temporary directory.
constexpr std::string_view kScratchPrefix = "perfplan-spark-ingest-";

// Scratch stores of earlier versions' parallel runs that died (their process no longer exists).
void RemoveStaleScratch() {
  std::error_code ec;
  const fs::path dir = fs::temp_directory_path(ec);
  if (ec) return;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kScratchPrefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + kScratchPrefix.size(), nullptr, 10);
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
      std::error_code ignored;
      fs::remove(it->path(), ignored);
    }
  }
}

// One spark_tasks row on its way from a parser thread to the writer.
struct TaskRow {
  int stage_id = 0, stage_attempt = 0;
  TaskInfoRecord info;
  std::string status, error;
  bool has_metrics = false;
  TaskMetricValues metrics{};
};

// The task rows of one log between its parser thread and the writer, in batches. At most
// `max_batches` batches wait, so a log in flight holds a bounded number of rows.
class RowQueue {
 public:
  static constexpr std::size_t kBatchRows = 512;
  // The batches all `jobs` logs in flight may hold together (about 20 MiB of rows), and the
  // fewest one log may hold. A parser ahead of the writer fills its log's share while the writer
  // finishes the log before (its stages, jobs and summaries); with only a few batches it waited
  // there, and `--jobs 2` over 8 logs of 20,000 tasks ran 1.54x faster than `--jobs 1` instead of
  // 1.70x (docs/performance.md, session 13).
  static constexpr std::size_t kBudgetBatches = 64;
  static constexpr std::size_t kMinBatches = 4;
  static std::size_t BatchesPerLog(std::size_t jobs) {
    return std::max(kMinBatches, kBudgetBatches / std::max<std::size_t>(1, jobs));
  }

  explicit RowQueue(std::size_t max_batches) : batches_{max_batches} {}

  // Parser side: waits while the queue is full; drops the batch once the queue is abandoned.
  void Push(std::vector<TaskRow>&& batch) { batches_.Push(std::move(batch)); }
  // Parser side: no more rows.
  void Close() { batches_.Close(); }
  // Writer side: the next batch into `batch` (its old rows are handed back for reuse); false
  // once the queue is closed and empty.
  bool Pop(std::vector<TaskRow>* batch) {
    std::vector<TaskRow> next;
    if (!batches_.Pop(&next)) return false;
    if (!batch->empty()) {
      std::lock_guard lock(spare_mu_);
      spare_ = std::move(*batch);
    }
    *batch = std::move(next);
    return true;
  }
  // Parser side: an emptied batch to fill again (its strings keep their buffers), if any.
  std::vector<TaskRow> TakeSpare() {
    std::lock_guard lock(spare_mu_);
    std::vector<TaskRow> out;
    out.swap(spare_);
    return out;
  }
  // The writer wants no more rows: what is queued goes, and Push drops from now on.
  void Abandon() { batches_.Abandon(); }

 private:
  models::BoundedQueue<std::vector<TaskRow>> batches_;
  std::mutex spare_mu_;
  std::vector<TaskRow> spare_;
};

// The parser thread's sink: rows into batches of the log's queue.
class TaskBatcher final : public TaskSink {
 public:
  explicit TaskBatcher(RowQueue* queue) : queue_(queue) { batch_.reserve(RowQueue::kBatchRows); }

  Status Row(int stage_id, int stage_attempt, const TaskInfoRecord& info, const std::string& status,
             const std::string& error, const TaskMetricValues* metrics) override {
    if (used_ == batch_.size()) batch_.emplace_back();
    TaskRow& r = batch_[used_++];
    r.stage_id = stage_id;
    r.stage_attempt = stage_attempt;
    r.info = info;
    r.status = status;
    r.error = error;
    r.has_metrics = metrics != nullptr;
    if (metrics) r.metrics = *metrics;
    // Added up here, off the writer's thread; the writer checks that every row was stored.
    summaries_.Add(stage_id, stage_attempt, info.executor, status, info.launch_ms, info.finish_ms,
                   metrics);
    if (used_ == RowQueue::kBatchRows) Flush();
    return Status::Ok();
  }
  void StageDone(int stage_id, int stage_attempt) override {
    summaries_.Release(stage_id, stage_attempt);
  }
  // Hands the rows so far to the writer.
  void Flush() {
    if (used_ == 0) return;
    batch_.resize(used_);
    queue_->Push(std::move(batch_));
    batch_ = queue_->TakeSpare();
    used_ = 0;
  }
  // The summaries of every row handed to the writer.
  TaskSummaries& summaries() { return summaries_; }

 private:
  RowQueue* queue_;
  TaskSummaries summaries_;
  std::vector<TaskRow> batch_;  // rows [0, used_) are this batch's; the rest are reused buffers
  std::size_t used_ = 0;
};

// What a parser thread hands the writer for one log. The parser sets `stamp` and `started`
// before it reads, the rest and `ready` after; the writer reads a field once the flag that
// covers it is set (under the pool's mutex) and takes the task rows from `rows` meanwhile.
struct ParsedLog {
  explicit ParsedLog(std::size_t max_batches) : rows(max_batches) {}
  bool unchanged = false;  // the store held the source unchanged: not parsed
  bool started = false;
  SourceStamp stamp;
  RowQueue rows;
  std::atomic<bool> cancel{false};  // the writer wants no more of this log
  bool ready = false;
  Status status;          // the parser failed (an exception): the writer reads the log
  bool store_it = false;  // ReadEvents' answer
  std::unique_ptr<TaskBatcher> batcher;
  std::unique_ptr<AppBuilder> app;  // the folded application, its rows sent
  std::int64_t events = 0, skipped = 0;
  IngestSummary counts;  // events, lines, bytes_read
  SkipTally<SkippedLine> skips;
};

// The parser threads: log i is parsed once logs before i - jobs are written, so at most `jobs`
// logs are being parsed or wait for the writer at any time, each holding at most its queue's
// rows.
class ParsePool {
 public:
  ParsePool(const std::vector<EventLogSource>& sources, const std::vector<bool>& unchanged,
            const IngestLimits& limits, std::size_t jobs)
      : sources_(sources), limits_(limits), jobs_(jobs), logs_(sources.size()) {
    for (std::size_t i = 0; i < logs_.size(); ++i) {
      logs_[i] = std::make_unique<ParsedLog>(RowQueue::BatchesPerLog(jobs));
      logs_[i]->unchanged = unchanged[i];
    }
    const std::size_t threads = std::min(jobs, sources.size());
    for (std::size_t t = 0; t < threads; ++t) threads_.emplace_back([this] { Work(); });
  }
  ~ParsePool() { Stop(); }

  // Log i once its parser has started (its stamp known) or found it unchanged.
  ParsedLog& WaitStarted(std::size_t i) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return logs_[i]->started; });
    return *logs_[i];
  }
  // Log i once its parser is done.
  ParsedLog& WaitReady(std::size_t i) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return logs_[i]->ready; });
    return *logs_[i];
  }
  // The writer wants no more of log i: its parser stops at the next line.
  static void Cancel(ParsedLog& p) {
    p.cancel.store(true, std::memory_order_relaxed);
    p.rows.Abandon();
  }
  // The writer is done with log i: what it held goes and the next log may start.
  void Done(std::size_t i) {
    std::unique_ptr<ParsedLog> gone;
    {
      std::lock_guard lock(mu_);
      gone = std::move(logs_[i]);
      written_ = i + 1;
      cv_.notify_all();
    }
  }
  // Stops the threads (each at its next line) and drops what was left unwritten.
  void Stop() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
      for (auto& p : logs_) {
        if (p) Cancel(*p);
      }
      cv_.notify_all();
    }
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

 private:
  void Work() {
    for (;;) {
      ParsedLog* p = nullptr;
      std::size_t i = 0;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || next_ >= logs_.size() || next_ < written_ + jobs_; });
        if (stop_ || next_ >= logs_.size()) return;
        i = next_++;
        p = logs_[i].get();
        if (p->unchanged) {  // set before the threads started, never written
          p->started = p->ready = true;
          cv_.notify_all();
          continue;
        }
      }
      Parse(sources_[i], p);
    }
  }

  void Parse(const EventLogSource& src, ParsedLog* p) {
    const SourceStamp stamp = Stamp(src);
    {
      std::lock_guard lock(mu_);
      p->stamp = stamp;
      p->started = true;
      cv_.notify_all();
    }
    auto batcher = std::make_unique<TaskBatcher>(&p->rows);
    auto app = std::make_unique<AppBuilder>(src, batcher.get());
    Status status;
    bool store_it = false;
    std::int64_t events = 0, skipped = 0;
    IngestSummary counts;
    SkipTally<SkippedLine> skips;
    try {
      store_it = ReadEvents(src, limits_, *app, &counts, &skips, &events, &skipped, &p->cancel);
      if (store_it) status = app->FlushRunning();
      batcher->Flush();
    } catch (const std::exception& e) {  // the writer then reads the log itself
      status = Status::Failed(e.what());
    }
    p->rows.Close();
    std::lock_guard lock(mu_);
    p->status = std::move(status);
    p->store_it = store_it;
    p->batcher = std::move(batcher);
    p->app = std::move(app);
    p->events = events;
    p->skipped = skipped;
    p->counts = std::move(counts);
    p->skips = std::move(skips);
    p->ready = true;
    cv_.notify_all();
  }

  const std::vector<EventLogSource>& sources_;
  const IngestLimits& limits_;
  const std::size_t jobs_;
  std::vector<std::unique_ptr<ParsedLog>> logs_;  // null once written
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t next_ = 0, written_ = 0;
  bool stop_ = false;
};

// With parallel jobs the store's WAL is copied into the store file (checkpointed) by a thread of
// its own, through its own connection, instead of by the writer: SQLite's automatic checkpoint
// runs on the connection that commits, inside the serial part. A passive checkpoint follows each
// log the writer is done with, while it goes on with the next, and a last one ends the ingest;
// the writer's automatic checkpoint is off meanwhile and restored after. When the second
// connection cannot be had (an in-memory store), nothing changes.
class Checkpointer {
 public:
  explicit Checkpointer(Store& writer) : writer_(writer) {
    if (writer.path().empty() || writer.path() == ":memory:") return;
    auto q = writer.Prepare("PRAGMA wal_autocheckpoint");
    if (!q.ok() || !q.value().Step()) return;
    saved_ = q.value().ColumnInt(0);
    if (saved_ <= 0) return;  // the store's owner turned checkpoints off: leave it so
    auto conn = Store::Open(writer.path(), {});
    if (!conn.ok()) return;
    if (!writer.Exec("PRAGMA wal_autocheckpoint=0").ok()) return;
    conn_ = std::move(conn).value();
    thread_ = std::thread([this] { Run(); });
  }
  ~Checkpointer() { Stop(); }
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // The writer is done with a log (committed or not).
  void LogDone() {
    std::lock_guard lock(mu_);
    pending_ = true;
    cv_.notify_one();
  }
  // A last checkpoint, then the writer checkpoints by itself again.
  void Stop() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mu_);
      stop_ = true;
      cv_.notify_one();
    }
    thread_.join();
    writer_.Exec("PRAGMA wal_autocheckpoint=" + std::to_string(saved_));
  }

 private:
  void Run() {
    for (bool last = false; !last;) {
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || pending_; });
        last = stop_;
        pending_ = false;
      }
      // A failed or partial checkpoint is made up by the next one, or by the writer's own
      // automatic checkpoint once it is restored.
      conn_->Exec("PRAGMA wal_checkpoint(PASSIVE)");
    }
  }

  Store& writer_;
  std::int64_t saved_ = 0;  // the writer's wal_autocheckpoint
  std::unique_ptr<Store> conn_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool pending_ = false, stop_ = false;
};

// The writer's part for log i, in one transaction of `store`: what IngestOne does, with the
// events read by a parser thread and the task rows taken from its queue as they come.
Status WriteParsed(Store& store, ParsePool& pool, std::size_t i, const EventLogSource& src,
                   const IngestLimits& limits, IngestSummary* summary,
                   SkipTally<SkippedLine>* skips) {
  ParsedLog& p = pool.WaitStarted(i);
  // Not parsed (unchanged): the writer reads the log itself, as the sequential ingest does.
  if (p.unchanged) return IngestInTransaction(store, src, limits, summary, skips);
  const auto fail = [&](const Status& st) {
    return Status::Failed(src.name + ": writing to the store failed: " + st.message());
  };
  // Gives up the parser's work: the writer reads the log itself instead.
  const auto read_itself = [&] {
    ParsePool::Cancel(p);
    pool.WaitReady(i);
    return IngestInTransaction(store, src, limits, summary, skips);
  };
  if (Status st = store.Begin(); !st.ok()) {  // as IngestInTransaction reports it
    ParsePool::Cancel(p);
    pool.WaitReady(i);
    return st;
  }
  // Unchanged by now (the same source listed twice, or another ingester stored it meanwhile):
  // decided inside the write transaction, as the sequential ingest decides it.
  if (SourceUnchanged(store, src, p.stamp)) {
    store.Rollback();
    return read_itself();
  }
  auto key = InsertPlaceholder(store, src);
  std::optional<TaskInserter> tasks;
  Status st = key.status();
  if (st.ok()) {
    tasks.emplace(store, key.value(), /*add_up=*/false);
    st = tasks->Prepare();
  }
  std::vector<TaskRow> batch;
  while (st.ok() && p.rows.Pop(&batch)) {
    for (const TaskRow& r : batch) {
      st = tasks->Row(r.stage_id, r.stage_attempt, r.info, r.status, r.error,
                      r.has_metrics ? &r.metrics : nullptr);
      if (!st.ok()) break;
    }
  }
  if (st.ok()) st = tasks->Finish();
  if (!st.ok()) {
    ParsePool::Cancel(p);
    pool.WaitReady(i);
    store.Rollback();
    return fail(st);
  }
  pool.WaitReady(i);
  if (!p.status.ok()) {
    store.Rollback();
    return IngestInTransaction(store, src, limits, summary, skips);
  }
  summary->events += p.counts.events;
  summary->lines += p.counts.lines;
  summary->bytes_read += p.counts.bytes_read;
  IngestedApplication app;
  bool wrote = false;
  if (p.store_it) {
    TaskSummaries& sums = p.batcher->summaries();
    if (!tasks->all_inserted()) sums.RequireSql();
    st = StoreApplication(store, src, limits, p.stamp, key.value(), *p.app, sums, p.events,
                          p.skipped, &p.skips, &app, &wrote);
  }
  skips->Merge(std::move(p.skips));
  if (!st.ok()) {
    store.Rollback();
    return fail(st);
  }
  if (wrote) {
    if (Status c = store.Commit(); !c.ok()) return c;
  } else {
    store.Rollback();
  }
  if (!app.app_id.empty()) summary->applications.push_back(std::move(app));
  return Status::Ok();
}

}  // namespace

Status InsertGeneratedTaskRows(Store& store, long tasks) {
  if (Status st = store.Begin(); !st.ok()) return st;
  EventLogSource src;
  src.name = "generated task rows";
  auto key = InsertPlaceholder(store, src);
  if (!key.ok()) {
    store.Rollback();
    return key.status();
  }
  TaskInserter inserter(store, key.value());
  if (Status st = inserter.Prepare(); !st.ok()) {
    store.Rollback();
    return st;
  }
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> run(std::log(2000.0), 0.6);
  std::uniform_int_distribution<std::int64_t> bytes(1 << 20, 128 << 20);
  const std::int64_t per_stage = std::max<std::int64_t>(1, tasks / 10);
  const std::string success = "SUCCESS", no_error;
  TaskInfoRecord info;
  info.locality = "NODE_LOCAL";
  for (std::int64_t t = 0; t < tasks; ++t) {
    const std::int64_t k = t % per_stage, stage = t / per_stage;
    const auto run_ms = static_cast<std::int64_t>(run(rng));
    const std::int64_t read = bytes(rng), written = bytes(rng) / 4;
    info.task_id = t;
    info.index = info.partition = k;
    info.launch_ms = 1700000001000 + stage * 100000 + (k / 800) * 2500;
    info.finish_ms = info.launch_ms + run_ms + 15;
    info.executor = std::to_string(1 + t % 200);
    info.host = "node" + std::to_string(t % 50) + ".cluster.example.com";
    // In detail::kTaskMetrics' order, as `generate` writes a task end's metrics.
    // clang-format off
    const TaskMetricValues metrics = {
        7, 6123456, run_ms, run_ms * 900000, 2456, run_ms / 40, 1, 0, 0, 16777216,  // top level
        0, 0, 0, 0,                                                      // input, output
        180, 20, 12, read, 0, read / 9, read / 100, 40,                  // shuffle read
        0, 0, 0, 0, 0, 0, 0, 0, 0,                                       // push-based shuffle
        written, written * 3, written / 100};                            // shuffle write
    // clang-format on
    if (Status st = inserter.Row(static_cast<int>(stage), 0, info, success, no_error, &metrics);
        !st.ok()) {
      store.Rollback();
      return st;
    }
  }
  if (Status st = inserter.Finish(); !st.ok()) {
    store.Rollback();
    return st;
  }
  return store.Commit();
}

Status IngestLimits::Validate() const {
  if (max_line_bytes < 1024) {
    return Status::InvalidField("max_line_bytes",
                                "expected at least 1024, got " + std::to_string(max_line_bytes));
  }
  if (max_json_depth < 16) {
    return Status::InvalidField("max_json_depth",
                                "expected at least 16, got " + std::to_string(max_json_depth));
  }
  return Status::Ok();
}

Result<IngestSummary> IngestEventLogs(Store& store, const std::vector<std::string>& paths,
                                      const IngestProgress& progress, const IngestLimits& limits) {
  return IngestEventLogsParallel(store, paths, 1, progress, limits);
}

int DefaultIngestJobs() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

Result<IngestSummary> IngestEventLogsParallel(Store& store, const std::vector<std::string>& paths,
                                              int jobs, const IngestProgress& progress,
                                              const IngestLimits& limits) {
  if (jobs < 1 || jobs > 256) {
    return Status::InvalidField("jobs", "expected 1 to 256, got " + std::to_string(jobs));
  }
  if (Status st = limits.Validate(); !st.ok()) return st;
  IngestSummary summary;
  SkipTally<SkippedLine> skips;
  std::vector<SkippedLine> missing;
  std::vector<EventLogSource> sources = FindEventLogs(paths, &missing);
  for (SkippedLine& m : missing) skips.Add(std::move(m));
  if (jobs == 1) {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      if (Status st = IngestInTransaction(store, sources[i], limits, &summary, &skips); !st.ok()) {
        return st;
      }
      if (progress) progress(i + 1, sources.size(), summary.bytes_read);
    }
    FinishSummary(&summary, &skips);
    return summary;
  }
  RemoveStaleScratch();
  // Sources the store already holds unchanged are not parsed: the writer handles them as the
  // sequential ingest does.
  std::vector<bool> unchanged(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    unchanged[i] = SourceUnchanged(store, sources[i], Stamp(sources[i]));
  }
  ParsePool pool(sources, unchanged, limits, static_cast<std::size_t>(jobs));
  Checkpointer checkpointer(store);
  Status failed;
  for (std::size_t i = 0; i < sources.size() && failed.ok(); ++i) {
    failed = WriteParsed(store, pool, i, sources[i], limits, &summary, &skips);
    pool.Done(i);
    checkpointer.LogDone();
    if (failed.ok() && progress) progress(i + 1, sources.size(), summary.bytes_read);
  }
  pool.Stop();
  checkpointer.Stop();
  if (!failed.ok()) return failed;
  FinishSummary(&summary, &skips);
  return summary;
}

}  // namespace perfplan::profiles::spark
