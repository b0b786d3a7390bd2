#include "profiles/spark/spark_sql_listener.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "models/json_text.h"

namespace perfplan::profiles::spark {
namespace {

using nlohmann::json;

const json* Find(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}
std::optional<std::int64_t> OptInt(const json& j, const char* key) {
  const json* v = Find(j, key);
  if (!v) return std::nullopt;
  if (v->is_number_integer() || v->is_number_unsigned()) return v->get<std::int64_t>();
  if (v->is_number_float()) return static_cast<std::int64_t>(v->get<double>());
  if (v->is_string()) {
    const std::string& s = v->get_ref<const std::string&>();
    std::int64_t out = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc() && p == s.data() + s.size()) return out;
  }
  return std::nullopt;
}
std::optional<std::string> OptStr(const json& j, const char* key) {
  const json* v = Find(j, key);
  if (!v) return std::nullopt;
  if (v->is_string()) return v->get<std::string>();
  return JsonText(*v);
}

// Java's "%.Nf" of a double: the shortest decimal that reads back as the value (Double.toString's
// digits), rounded half up, which differs from printf on exact ties such as 1.25.
std::string JavaFixed(double v, int precision) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
  std::string s(buf, ec == std::errc() ? end : buf);
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.erase(0, 1);
  std::size_t dot = s.find('.');
  std::string whole = dot == std::string::npos ? s : s.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : s.substr(dot + 1);
  frac.resize(std::max<std::size_t>(frac.size(), precision + 1), '0');
  const bool up = frac[precision] >= '5';
  std::string digits = whole + frac.substr(0, precision);
  if (up) {
    int i = static_cast<int>(digits.size()) - 1;
    while (i >= 0 && digits[i] == '9') digits[i--] = '0';
    if (i < 0) {
      digits.insert(digits.begin(), '1');
    } else {
      ++digits[i];
    }
  }
  std::string out = digits.substr(0, digits.size() - precision);
  if (precision > 0) out += "." + digits.substr(digits.size() - precision);
  return (negative ? "-" : "") + out;
}

// NumberFormat.getIntegerInstance(Locale.US).format: grouping with commas.
std::string Grouped(std::int64_t v) {
  std::string digits = std::to_string(v);
  if (v < 0) digits.erase(0, 1);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

// SQLMetrics.toNumberFormat: value / 10 (baseForAvgMetric) with NumberFormat.getNumberInstance:
// grouping and up to 3 fraction digits without trailing zeros.
std::string AverageFormat(std::int64_t v) {
  std::string out = Grouped(v / 10);
  if (v % 10 != 0) out += "." + std::to_string(std::abs(v % 10));
  return out;
}

// Scala 2.12's immutable.HashMap.improve, whose 5-bit fragments (lowest first) order a HashMap's
// iteration.
std::uint32_t ImprovedHash(std::int32_t key) {
  std::uint32_t h = static_cast<std::uint32_t>(key);
  h = h + ~(h << 9);
  h = h ^ (h >> 14);
  h = h + (h << 4);
  return h ^ (h >> 10);
}
std::uint64_t TrieOrder(std::int32_t key) {
  const std::uint32_t h = ImprovedHash(key);
  std::uint64_t order = 0;
  for (int level = 0; level < 35; level += 5) order = (order << 5) | ((h >> level) & 0x1f);
  return order;
}

struct PlanMetric {
  std::string name;
  std::int64_t accumulator_id = 0;
  std::string type;
};

std::vector<PlanMetric> ReadMetrics(const json& holder, const char* key) {
  std::vector<PlanMetric> out;
  const json* ms = Find(holder, key);
  if (!ms || !ms->is_array()) return out;
  for (const json& m : *ms) {
    PlanMetric p;
    p.name = OptStr(m, "name").value_or("");
    p.accumulator_id = OptInt(m, "accumulatorId").value_or(0);
    p.type = OptStr(m, "metricType").value_or("");
    out.push_back(std::move(p));
  }
  return out;
}

// SparkPlanGraph of a sparkPlanInfo tree (SparkPlanGraph.buildSparkPlanGraphNode).
struct GraphNode {
  std::int64_t id = 0;
  std::string name;
  std::vector<PlanMetric> metrics;
  bool cluster = false;
  std::vector<int> members;  // a WholeStageCodegen cluster's nodes (indices into Graph::all)
};
struct Graph {
  std::vector<GraphNode> all;             // every node, by creation
  std::vector<int> top;                   // graph.nodes (clusters and nodes outside clusters)
  std::vector<std::pair<std::int64_t, std::int64_t>> edges;  // (fromId = child, toId = parent)

  // SparkPlanGraph.allNodes: each cluster's nodes, then the cluster.
  std::vector<int> AllNodes() const {
    std::vector<int> out;
    for (int i : top) {
      if (all[i].cluster) out.insert(out.end(), all[i].members.begin(), all[i].members.end());
      out.push_back(i);
    }
    return out;
  }
  std::vector<PlanMetric> Metrics() const {
    std::vector<PlanMetric> out;
    for (int i : AllNodes()) out.insert(out.end(), all[i].metrics.begin(), all[i].metrics.end());
    return out;
  }
};

class GraphBuilder {
 public:
  Graph Build(const json& plan) {
    Visit(plan, -1, -1);
    return std::move(graph_);
  }

 private:
  // SparkPlanInfo equality: node name, simple string and children.
  const std::string& Key(const json& p) {
    auto it = keys_.find(&p);
    if (it != keys_.end()) return it->second;
    std::string k = OptStr(p, "nodeName").value_or("") + '\x1f' +
                    OptStr(p, "simpleString").value_or("") + "\x1e[";
    if (const json* c = Find(p, "children"); c && c->is_array()) {
      for (const json& child : *c) k += Key(child) + '\x1d';
    }
    k += "]";
    return keys_.emplace(&p, std::move(k)).first->second;
  }
  static const json* FirstChild(const json& p) {
    const json* c = Find(p, "children");
    return c && c->is_array() && !c->empty() ? &(*c)[0] : nullptr;
  }
  int NewNode(const json& p, bool cluster) {
    GraphNode n;
    n.id = next_id_++;
    n.name = OptStr(p, "nodeName").value_or("");
    n.metrics = ReadMetrics(p, "metrics");
    n.cluster = cluster;
    graph_.all.push_back(std::move(n));
    return static_cast<int>(graph_.all.size()) - 1;
  }
  void Edge(int from, int to) {
    if (from < 0 || to < 0) return;
    graph_.edges.emplace_back(graph_.all[from].id, graph_.all[to].id);
  }
  // parent / subgraph: indices into graph_.all, -1 for none.
  void Visit(const json& p, int parent, int subgraph) {
    if (++depth_ > 2000) return;  // a plan nested this deep is not one Spark writes
    const std::string name = OptStr(p, "nodeName").value_or("");
    const json* child = FirstChild(p);
    if (name.rfind("WholeStageCodegen", 0) == 0) {
      int cluster = NewNode(p, true);
      graph_.top.push_back(cluster);
      if (child) Visit(*child, parent, cluster);
    } else if (name == "InputAdapter") {
      if (child) Visit(*child, parent, -1);
    } else if (name == "BroadcastQueryStage" || name == "ShuffleQueryStage") {
      if (child && exchanges_.count(Key(*child))) {
        Edge(exchanges_[Key(*child)], parent);
      } else if (child) {
        Visit(*child, parent, -1);
      }
    } else if (name == "Subquery" && subgraph >= 0) {
      Visit(p, parent, -1);
    } else if (name == "Subquery" && exchanges_.count(Key(p))) {
      Edge(exchanges_[Key(p)], parent);
    } else if (name == "ReusedSubquery") {
      if (child) Visit(*child, parent, subgraph);
    } else if (name == "ReusedExchange" && child && exchanges_.count(Key(*child))) {
      Edge(exchanges_[Key(*child)], parent);
    } else {
      int node = NewNode(p, false);
      if (subgraph < 0) {
        graph_.top.push_back(node);
      } else {
        graph_.all[subgraph].members.push_back(node);
      }
      if (name.find("Exchange") != std::string::npos || name == "Subquery") {
        exchanges_[Key(p)] = node;
      }
      Edge(node, parent);
      if (const json* c = Find(p, "children"); c && c->is_array()) {
        for (const json& ch : *c) Visit(ch, node, subgraph);
      }
    }
    --depth_;
  }

  Graph graph_;
  std::int64_t next_id_ = 0;
  int depth_ = 0;
  std::unordered_map<const json*, std::string> keys_;
  std::map<std::string, int> exchanges_;
};

// LiveStageMetrics: per accumulator, the value of each task index; the largest task value.
struct StageMetrics {
  int stage_id = 0, attempt_id = 0;
  std::int64_t num_tasks = 0;
  std::map<std::int64_t, std::string> types;  // accumulator id → metric type
  std::unordered_map<std::int64_t, std::int64_t> task_indices;
  std::set<std::int64_t> completed_indices;
  // Per accumulator, the value of each task index that reported one; the other indices of the
  // stage's num_tasks count as 0 (Spark's zero-filled array, kept sparse so that a huge
  // "Number of Tasks" costs nothing).
  std::map<std::int64_t, std::unordered_map<std::int64_t, std::int64_t>> values;
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> max;  // id → (value, task id)

  void Update(std::int64_t task_id, std::int64_t event_index, bool finished,
              const std::vector<SqlListener::Accum>& accums) {
    std::int64_t index = event_index;
    if (event_index < 0) {
      auto it = task_indices.find(task_id);
      if (it == task_indices.end()) return;  // the task's start was missed
      index = it->second;
    } else {
      task_indices[task_id] = event_index;
    }
    if (completed_indices.count(index)) return;
    for (const SqlListener::Accum& a : accums) {
      auto type = types.find(a.id);
      if (type == types.end()) continue;
      if (index < 0 || index >= num_tasks) continue;  // Spark's array would overflow here
      values[a.id][index] = a.update;
      if (type->second != "sum") {
        auto [it, inserted] = max.try_emplace(a.id, a.update, task_id);
        if (!inserted && a.update > it->second.first) it->second = {a.update, task_id};
      }
    }
    if (finished) completed_indices.insert(index);
  }
};

}  // namespace

std::string SparkBytesString(std::int64_t bytes) {
  // Below 2 KiB (and for a negative size) the value is printed in bytes.
  if (bytes < 2048) return std::to_string(bytes) + ".0 B";
  const std::pair<int, const char*> units[] = {{60, "EiB"}, {50, "PiB"}, {40, "TiB"},
                                               {30, "GiB"}, {20, "MiB"}, {10, "KiB"}};
  int shift = 10;
  const char* name = "KiB";
  for (const auto& [s, n] : units) {
    if (s < 62 && bytes >= (std::int64_t{2} << s)) {
      shift = s;
      name = n;
      break;
    }
  }
  // BigDecimal(size) / unit printed with "%.1f", which rounds half up. The remainder times 10
  // is below 2^64 and a power-of-two division is exact, so a long double holds it exactly.
  const std::int64_t unit = std::int64_t{1} << shift;
  std::int64_t whole = bytes / unit;
  const long double frac = static_cast<long double>(bytes % unit) * 10.0L / unit;
  auto tenth = static_cast<std::int64_t>(frac + 0.5L);
  if (tenth == 10) {
    whole += 1;
    tenth = 0;
  }
  return std::to_string(whole) + "." + std::to_string(tenth) + " " + name;
}

std::string SparkDurationString(std::int64_t ms) {
  constexpr std::int64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute;
  if (ms < kSecond) return std::to_string(ms) + " ms";
  if (ms < kMinute) {
    return JavaFixed(static_cast<float>(ms) / static_cast<float>(kSecond), 1) + " s";
  }
  if (ms < kHour) {
    return JavaFixed(static_cast<float>(ms) / static_cast<float>(kMinute), 1) + " m";
  }
  return JavaFixed(static_cast<float>(ms) / static_cast<float>(kHour), 2) + " h";
}

namespace {

// SQLMetrics.stringValue over `values` and `zeros` more values of 0.
std::string MetricString(const std::string& type, std::vector<std::int64_t> values,
                         std::int64_t zeros, const std::vector<std::int64_t>& max) {
  const std::string task_info =
      max.size() < 4 ? "(driver)"
                     : "(stage " + std::to_string(max[1]) + "." + std::to_string(max[2]) +
                           ": task " + std::to_string(max[3]) + ")";
  const std::string suffix = "(min, med, max (stageId: taskId))";
  if (type == "sum") {
    std::int64_t sum = 0;
    for (std::int64_t v : values) sum += v;
    return Grouped(sum);
  }
  if (type == "average") {
    std::vector<std::int64_t> valid;
    for (std::int64_t v : values) {
      if (v > 0) valid.push_back(v);
    }
    if (valid.size() <= 1) return AverageFormat(valid.empty() ? 0 : valid[0]);
    std::sort(valid.begin(), valid.end());
    return suffix + ":\n(" + AverageFormat(valid[0]) + ", " +
           AverageFormat(valid[valid.size() / 2]) + ", " + AverageFormat(valid.back()) + " " +
           task_info + ")";
  }
  std::string (*format)(std::int64_t) = nullptr;
  if (type == "size") {
    format = SparkBytesString;
  } else if (type == "timing") {
    format = SparkDurationString;
  } else if (type == "nsTiming") {
    format = [](std::int64_t ns) { return SparkDurationString(ns / 1000000); };
  } else {
    return "N/A";  // a V2 data source's custom metric, whose class the History Server lacks
  }
  std::vector<std::int64_t> valid;
  for (std::int64_t v : values) {
    if (v >= 0) valid.push_back(v);
  }
  std::sort(valid.begin(), valid.end());
  const std::int64_t n = static_cast<std::int64_t>(valid.size()) + std::max<std::int64_t>(zeros, 0);
  const std::int64_t z = n - static_cast<std::int64_t>(valid.size());
  // The k-th smallest of the zeros and the valid values (all valid values are >= 0).
  auto at = [&](std::int64_t k) { return k < z ? 0 : valid[static_cast<std::size_t>(k - z)]; };
  if (n <= 1) return format(n == 0 ? 0 : at(0));
  std::int64_t sum = 0;
  for (std::int64_t v : valid) sum += v;
  return "total " + suffix + "\n" + format(sum) + " (" + format(at(0)) + ", " +
         format(at(n / 2)) + ", " + format(at(n - 1)) + " " + task_info + ")";
}

}  // namespace

std::string SqlMetricString(const std::string& type, std::vector<std::int64_t> values,
                            const std::vector<std::int64_t>& max) {
  return MetricString(type, std::move(values), 0, max);
}

struct SqlListener::Impl {
  struct Exec {
    SqlListener::Execution out;
    bool live = true;
    int end_events = 0;
    Graph graph;
    std::vector<PlanMetric> metrics;
    std::vector<std::pair<int, std::string>> jobs;  // insertion order
    std::set<int> stages;
    std::vector<std::pair<std::int64_t, std::int64_t>> driver_updates;
    std::optional<std::map<std::int64_t, std::string>> metric_values;
  };
  std::map<std::int64_t, Exec> execs;
  std::set<std::int64_t> live_ids;  // the live executions (few at a time; execs grows)
  std::map<int, StageMetrics> stage_metrics;

  Exec& GetOrCreate(std::int64_t id) {
    auto [it, inserted] = execs.try_emplace(id);
    if (inserted) {
      it->second.out.id = id;
      live_ids.insert(id);
    }
    return it->second;
  }
  Exec* Live(std::int64_t id) {
    auto it = execs.find(id);
    return it != execs.end() && it->second.live ? &it->second : nullptr;
  }
  bool IsSqlStage(int stage_id) const {
    for (std::int64_t id : live_ids) {
      if (execs.at(id).stages.count(stage_id)) return true;
    }
    return false;
  }
  // SQLAppStatusListener.update: an execution whose jobs and itself ended stops being live,
  // and the stage trackers no other live execution needs go.
  void Update(Exec& e) {
    if (e.end_events >= static_cast<int>(e.jobs.size()) + 1) {
      RemoveStaleMetrics(e);
      e.live = false;
      live_ids.erase(e.out.id);
    }
  }
  void RemoveStaleMetrics(const Exec& e) {
    std::set<int> active;
    for (std::int64_t id : live_ids) {
      const Exec& other = execs.at(id);
      if (&other != &e) active.insert(other.stages.begin(), other.stages.end());
    }
    for (auto it = stage_metrics.begin(); it != stage_metrics.end();) {
      it = active.count(it->first) ? std::next(it) : stage_metrics.erase(it);
    }
  }
  std::map<std::int64_t, std::string> Aggregate(const Exec& e) const {
    if (e.metric_values) return *e.metric_values;
    std::map<std::int64_t, std::string> types;
    for (const PlanMetric& m : e.metrics) types[m.accumulator_id] = m.type;
    // Per metric: the reported values and how many task indices reported none (zeros).
    std::map<std::int64_t, std::pair<std::vector<std::int64_t>, std::int64_t>> all;
    std::map<std::int64_t, std::vector<std::int64_t>> max;  // id → {value, stage, attempt, task}
    for (int stage_id : e.stages) {
      auto sm = stage_metrics.find(stage_id);
      if (sm == stage_metrics.end()) continue;
      for (const auto& [id, vals] : sm->second.values) {
        if (!types.count(id)) continue;
        auto& into = all[id];
        for (const auto& [index, v] : vals) into.first.push_back(v);
        into.second += sm->second.num_tasks - static_cast<std::int64_t>(vals.size());
      }
      for (const auto& [id, vt] : sm->second.max) {
        if (!types.count(id)) continue;
        auto [it, inserted] =
            max.try_emplace(id, std::vector<std::int64_t>{vt.first, sm->second.stage_id,
                                                          sm->second.attempt_id, vt.second});
        if (!inserted && vt.first > it->second[0]) {
          it->second = {vt.first, sm->second.stage_id, sm->second.attempt_id, vt.second};
        }
      }
    }
    for (const auto& [id, value] : e.driver_updates) {
      if (!types.count(id)) continue;
      auto it = all.find(id);
      if (it != all.end()) {
        // A driver value above every task's makes the text say "(driver)".
        if (auto m = max.find(id); m != max.end() && value > m->second[0]) max.erase(m);
        it->second.first.push_back(value);
      } else {
        all[id] = {{value}, 0};
      }
    }
    std::map<std::int64_t, std::string> out;
    for (auto& [id, vals] : all) {
      auto m = max.find(id);
      out[id] = MetricString(types[id], std::move(vals.first), vals.second,
                             m == max.end() ? std::vector<std::int64_t>{} : m->second);
    }
    return out;
  }
  void SetGraph(Exec& e, const json* plan) {
    e.graph = plan ? GraphBuilder().Build(*plan) : Graph{};
  }
};

SqlListener::SqlListener() : impl_(std::make_unique<Impl>()) {}
SqlListener::~SqlListener() = default;

bool SqlListener::OnSqlEvent(const std::string& type, const json& e, std::string* problem) {
  constexpr std::string_view kPrefix = "org.apache.spark.sql.execution.ui.";
  if (type.rfind(kPrefix, 0) != 0) return false;
  const std::string name = type.substr(kPrefix.size());
  if (name != "SparkListenerSQLExecutionStart" && name != "SparkListenerSQLExecutionEnd" &&
      name != "SparkListenerSQLAdaptiveExecutionUpdate" &&
      name != "SparkListenerSQLAdaptiveSQLMetricUpdates" &&
      name != "SparkListenerDriverAccumUpdates") {
    return false;
  }
  auto id = OptInt(e, "executionId");
  if (!id) {
    *problem = name + " without an integer \"executionId\"";
    return true;
  }
  if (name == "SparkListenerSQLExecutionStart") {
    Impl::Exec& x = impl_->GetOrCreate(*id);
    x.out.root_id = OptInt(e, "rootExecutionId");
    x.out.description = OptStr(e, "description");
    x.out.details = OptStr(e, "details");
    x.out.plan = OptStr(e, "physicalPlanDescription");
    x.out.submission_ms = OptInt(e, "time").value_or(-1);
    impl_->SetGraph(x, Find(e, "sparkPlanInfo"));
    x.metrics = x.graph.Metrics();
    impl_->Update(x);
  } else if (name == "SparkListenerSQLAdaptiveExecutionUpdate") {
    Impl::Exec& x = impl_->GetOrCreate(*id);
    x.out.plan = OptStr(e, "physicalPlanDescription");
    impl_->SetGraph(x, Find(e, "sparkPlanInfo"));
    std::vector<PlanMetric> more = x.graph.Metrics();
    x.metrics.insert(x.metrics.end(), more.begin(), more.end());
    impl_->Update(x);
  } else if (name == "SparkListenerSQLAdaptiveSQLMetricUpdates") {
    Impl::Exec& x = impl_->GetOrCreate(*id);
    std::vector<PlanMetric> more = ReadMetrics(e, "sqlPlanMetrics");
    x.metrics.insert(x.metrics.end(), more.begin(), more.end());
    impl_->Update(x);
  } else if (name == "SparkListenerSQLExecutionEnd") {
    if (Impl::Exec* x = impl_->Live(*id)) {
      x->out.completion_ms = OptInt(e, "time");
      if (auto err = OptStr(e, "errorMessage")) x->out.error = *err;
      x->metric_values = impl_->Aggregate(*x);
      impl_->RemoveStaleMetrics(*x);
      x->end_events += 1;
      impl_->Update(*x);
    }
  } else {  // SparkListenerDriverAccumUpdates: [[accumulator id, value], …]
    if (Impl::Exec* x = impl_->Live(*id)) {
      if (const json* ups = Find(e, "accumUpdates"); ups && ups->is_array()) {
        for (const json& u : *ups) {
          if (u.is_array() && u.size() == 2 && u[0].is_number_integer() &&
              u[1].is_number_integer()) {
            x->driver_updates.emplace_back(u[0].get<std::int64_t>(), u[1].get<std::int64_t>());
          }
        }
      }
      impl_->Update(*x);
    }
  }
  return true;
}

void SqlListener::OnJobStart(const json& e) {
  const json* props = Find(e, "Properties");
  if (!props) return;
  auto exec_id = OptInt(*props, "spark.sql.execution.id");
  auto job_id = OptInt(e, "Job ID");
  if (!exec_id || !job_id) return;
  Impl::Exec& x = impl_->GetOrCreate(*exec_id);
  if (!x.live) {
    // A job after its execution ended: the History Server reloads the stored execution.
    x.live = true;
    impl_->live_ids.insert(*exec_id);
    x.end_events = static_cast<int>(x.jobs.size()) + 1;
  }
  std::map<std::int64_t, std::string> types;
  for (const PlanMetric& m : x.metrics) types[m.accumulator_id] = m.type;
  if (!types.empty()) {
    if (const json* infos = Find(e, "Stage Infos"); infos && infos->is_array()) {
      for (const json& info : *infos) {
        StageMetrics sm;
        sm.stage_id = static_cast<int>(OptInt(info, "Stage ID").value_or(0));
        sm.attempt_id = 0;
        sm.num_tasks = std::max<std::int64_t>(0, OptInt(info, "Number of Tasks").value_or(0));
        sm.types = types;
        impl_->stage_metrics[sm.stage_id] = std::move(sm);
      }
    }
  }
  const int job = static_cast<int>(*job_id);
  auto it = std::find_if(x.jobs.begin(), x.jobs.end(), [&](const auto& j) { return j.first == job; });
  if (it == x.jobs.end()) {
    x.jobs.emplace_back(job, "RUNNING");
  } else {
    it->second = "RUNNING";
  }
  if (const json* ids = Find(e, "Stage IDs"); ids && ids->is_array()) {
    for (const json& s : *ids) {
      if (s.is_number_integer()) x.stages.insert(s.get<int>());
    }
  }
  impl_->Update(x);
}

void SqlListener::OnJobEnd(int job_id, bool succeeded) {
  const std::set<std::int64_t> live = impl_->live_ids;  // Update may end an execution
  for (std::int64_t id : live) {
    Impl::Exec& x = impl_->execs.at(id);
    auto it = std::find_if(x.jobs.begin(), x.jobs.end(),
                           [&](const auto& j) { return j.first == job_id; });
    if (it == x.jobs.end()) continue;
    it->second = succeeded ? "SUCCEEDED" : "FAILED";
    x.end_events += 1;
    impl_->Update(x);
  }
}

void SqlListener::OnStageSubmitted(int stage_id, int stage_attempt) {
  if (!impl_->IsSqlStage(stage_id)) return;
  auto it = impl_->stage_metrics.find(stage_id);
  if (it == impl_->stage_metrics.end() || it->second.attempt_id == stage_attempt) return;
  StageMetrics fresh;
  fresh.stage_id = stage_id;
  fresh.attempt_id = stage_attempt;
  fresh.num_tasks = it->second.num_tasks;
  fresh.types = std::move(it->second.types);
  it->second = std::move(fresh);
}

void SqlListener::OnTaskStart(int stage_id, int stage_attempt, std::int64_t task_id,
                              std::int64_t index) {
  auto it = impl_->stage_metrics.find(stage_id);
  if (it != impl_->stage_metrics.end() && it->second.attempt_id == stage_attempt) {
    it->second.task_indices[task_id] = index;
  }
}

void SqlListener::OnTaskEnd(int stage_id, int stage_attempt, std::int64_t task_id,
                            std::int64_t index, bool successful,
                            const std::vector<Accum>& accums) {
  auto it = impl_->stage_metrics.find(stage_id);
  if (it == impl_->stage_metrics.end() || it->second.attempt_id != stage_attempt) return;
  if (impl_->IsSqlStage(stage_id)) it->second.Update(task_id, index, successful, accums);
}

void SqlListener::OnExecutorMetricsUpdate(const json& e) {
  const json* updates = Find(e, "Metrics Updated");
  if (!updates || !updates->is_array()) return;
  for (const json& u : *updates) {
    auto task = OptInt(u, "Task ID");
    auto stage = OptInt(u, "Stage ID");
    auto attempt = OptInt(u, "Stage Attempt ID");
    if (!task || !stage || !attempt) continue;
    auto it = impl_->stage_metrics.find(static_cast<int>(*stage));
    if (it == impl_->stage_metrics.end() || it->second.attempt_id != *attempt) continue;
    std::vector<Accum> accums;
    if (const json* acc = Find(u, "Accumulator Updates"); acc && acc->is_array()) {
      for (const json& a : *acc) {
        auto aid = OptInt(a, "ID");
        auto update = OptInt(a, "Update");
        if (aid && update) accums.push_back({*aid, *update});
      }
    }
    it->second.Update(*task, -1, false, accums);
  }
}

std::vector<SqlListener::Execution> SqlListener::Finish() {
  std::vector<Execution> out;
  for (auto& [id, x] : impl_->execs) {
    const std::map<std::int64_t, std::string> values = impl_->Aggregate(x);
    // Jobs in the order Scala 2.12's immutable Map iterates: insertion order up to 4 entries,
    // then the HashMap trie's order.
    std::vector<std::pair<int, std::string>> jobs = x.jobs;
    if (jobs.size() > 4) {
      std::stable_sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) {
        return TrieOrder(a.first) < TrieOrder(b.first);
      });
    }
    json jobs_json = json::array();
    for (const auto& [job, status] : jobs) jobs_json.push_back(json::array({job, status}));
    x.out.jobs_json = JsonText(jobs_json);
    // SqlResource.printableMetrics: every node with the metrics that have a value, the nodes of
    // a "WholeStageCodegen (N)" cluster carrying N, node id descending.
    const Graph& g = x.graph;
    std::map<std::int64_t, std::optional<std::int64_t>> codegen;
    for (int i : g.AllNodes()) {
      const GraphNode& n = g.all[i];
      std::string name = n.name;
      const auto b = name.find_first_not_of(" \t\n\r");
      name = b == std::string::npos ? "" : name.substr(b, name.find_last_not_of(" \t\n\r") - b + 1);
      if (!n.cluster || name.rfind("WholeStageCodegen", 0) != 0) continue;
      std::optional<std::int64_t> wid;
      const std::string prefix = "WholeStageCodegen (";
      if (name.size() > prefix.size()) {
        const std::string digits = name.substr(prefix.size(), name.size() - 1 - prefix.size());
        std::int64_t v = 0;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
        if (ec == std::errc() && p == digits.data() + digits.size() && !digits.empty()) wid = v;
      }
      for (int m : n.members) codegen[g.all[m].id] = wid;
    }
    auto trim = [](const std::string& s) {
      const auto b = s.find_first_not_of(" \t\n\r\f\v");
      if (b == std::string::npos) return std::string();
      return s.substr(b, s.find_last_not_of(" \t\n\r\f\v") - b + 1);
    };
    std::vector<int> nodes = g.AllNodes();
    std::stable_sort(nodes.begin(), nodes.end(),
                     [&](int a, int b) { return g.all[a].id > g.all[b].id; });
    json nodes_json = json::array();
    for (int i : nodes) {
      const GraphNode& n = g.all[i];
      json node = {{"nodeId", n.id}, {"nodeName", trim(n.name)}};
      if (auto c = codegen.find(n.id); c != codegen.end() && c->second) {
        node["wholeStageCodegenId"] = *c->second;
      }
      json metrics = json::array();
      for (const PlanMetric& m : n.metrics) {
        auto v = values.find(m.accumulator_id);
        if (v == values.end()) continue;
        std::string text = v->second;
        if (!text.empty() && text[0] == '\n') text.erase(0, 1);
        metrics.push_back({{"name", trim(m.name)}, {"value", text}});
      }
      node["metrics"] = std::move(metrics);
      nodes_json.push_back(std::move(node));
    }
    x.out.nodes_json = JsonText(nodes_json);
    json edges = json::array();
    for (const auto& [from, to] : g.edges) edges.push_back({{"fromId", from}, {"toId", to}});
    x.out.edges_json = JsonText(edges);
    out.push_back(x.out);
  }
  return out;
}

}  // namespace perfplan::profiles::spark
