#include "profiles/ganglia/ganglia_store.h"

#include <map>
#include <set>
#include <tuple>

namespace perfplan::profiles {

const Migrations& GangliaMigrations() {
  static const Migrations kMigrations = {"ganglia", {R"(CREATE TABLE ganglia_hosts(
            id INTEGER PRIMARY KEY,
            cluster TEXT NOT NULL,
            name TEXT NOT NULL,
            ip TEXT NOT NULL DEFAULT '',
            UNIQUE(cluster, name));
          CREATE TABLE ganglia_metrics(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            units TEXT NOT NULL DEFAULT '',
            metric_group TEXT NOT NULL DEFAULT '');
          CREATE TABLE ganglia_samples(
            host_id INTEGER NOT NULL REFERENCES ganglia_hosts(id),
            metric_id INTEGER NOT NULL REFERENCES ganglia_metrics(id),
            time_seconds INTEGER NOT NULL,
            value REAL,
            text TEXT,
            PRIMARY KEY(host_id, metric_id, time_seconds)) WITHOUT ROWID;
          CREATE INDEX ganglia_samples_by_time ON ganglia_samples(time_seconds);)"}};
  return kMigrations;
}

namespace {

// Writes one unit of ingestion; ids are cached so each host and metric is looked up once.
class Writer {
 public:
  explicit Writer(Store& store) : store_(store) {}

  Status Prepare() {
    auto host = store_.Prepare(
        "INSERT INTO ganglia_hosts(cluster, name, ip) VALUES(?1, ?2, ?3) "
        "ON CONFLICT(cluster, name) DO UPDATE SET ip = CASE WHEN excluded.ip = '' THEN ip ELSE "
        "excluded.ip END RETURNING id");
    if (!host.ok()) return host.status();
    auto metric = store_.Prepare(
        "INSERT INTO ganglia_metrics(name, type, units, metric_group) VALUES(?1, ?2, ?3, ?4) "
        "ON CONFLICT(name) DO UPDATE SET units = units RETURNING id");
    if (!metric.ok()) return metric.status();
    auto sample = store_.Prepare(
        "INSERT OR IGNORE INTO ganglia_samples(host_id, metric_id, time_seconds, value, text) "
        "VALUES(?1, ?2, ?3, ?4, ?5)");
    if (!sample.ok()) return sample.status();
    host_.emplace(std::move(host).value());
    metric_.emplace(std::move(metric).value());
    sample_.emplace(std::move(sample).value());
    return Status::Ok();
  }

  Result<std::int64_t> HostId(const std::string& cluster, const std::string& name,
                              const std::string& ip) {
    auto key = std::make_pair(cluster, name);
    if (auto it = hosts_.find(key); it != hosts_.end()) return it->second;
    host_->Reset();
    host_->Bind(1, cluster).Bind(2, name).Bind(3, ip);
    if (!host_->Step()) return Failure(*host_);
    const std::int64_t id = host_->ColumnInt(0);
    host_->Reset();
    hosts_.emplace(key, id);
    counts.hosts.push_back(cluster + "/" + name);
    return id;
  }

  Result<std::int64_t> MetricId(const std::string& name, std::string_view type,
                                const std::string& units, const std::string& group) {
    if (auto it = metrics_.find(name); it != metrics_.end()) return it->second;
    metric_->Reset();
    metric_->Bind(1, name).Bind(2, std::string(type)).Bind(3, units).Bind(4, group);
    if (!metric_->Step()) return Failure(*metric_);
    const std::int64_t id = metric_->ColumnInt(0);
    metric_->Reset();
    metrics_.emplace(name, id);
    counts.metrics.push_back(name);
    return id;
  }

  Status Sample(std::int64_t host_id, std::int64_t metric_id, std::int64_t time,
                std::optional<double> value, const std::string* text) {
    sample_->Reset();
    sample_->Bind(1, host_id).Bind(2, metric_id).Bind(3, time).Bind(4, value);
    if (text != nullptr) {
      sample_->Bind(5, *text);
    } else {
      sample_->BindNull(5);
    }
    if (Status st = sample_->Run(); !st.ok()) return st;
    ++counts.samples_seen;
    counts.samples_added += store_.Changes();
    return Status::Ok();
  }

  GangliaStoreCounts counts;

 private:
  static Status Failure(Statement& st) {
    return st.Error().ok() ? Status::Failed("ganglia store: upsert returned no id") : st.Error();
  }

  Store& store_;
  std::optional<Statement> host_, metric_, sample_;
  std::map<std::pair<std::string, std::string>, std::int64_t> hosts_;
  std::map<std::string, std::int64_t> metrics_;
};

// Runs `body` inside BEGIN IMMEDIATE … COMMIT; rolls back when it fails.
template <typename Body>
Result<GangliaStoreCounts> InTransaction(Store& store, Body body) {
  if (Status st = store.Begin(); !st.ok()) return st;
  Writer writer(store);
  Status st = writer.Prepare();
  if (st.ok()) st = body(writer);
  if (st.ok()) st = store.Commit();
  if (!st.ok()) {
    store.Rollback();
    return st;
  }
  return std::move(writer.counts);
}

}  // namespace

Result<GangliaStoreCounts> StoreGangliaSnapshot(Store& store, const GangliaSnapshot& snapshot,
                                                std::int64_t poll_epoch) {
  return InTransaction(store, [&](Writer& w) -> Status {
    for (const GangliaCluster& c : snapshot.clusters) {
      const std::int64_t now = c.localtime_epoch > 0 ? c.localtime_epoch : poll_epoch;
      for (const GangliaHost& h : c.hosts) {
        Result<std::int64_t> host_id = w.HostId(c.name, h.name, h.ip);
        if (!host_id.ok()) return host_id.status();
        for (const GangliaMetric& m : h.metrics) {
          Result<std::int64_t> metric_id = w.MetricId(m.name, ToString(m.type), m.units, m.Group());
          if (!metric_id.ok()) return metric_id.status();
          const bool numeric = m.value.has_value();
          if (Status st = w.Sample(host_id.value(), metric_id.value(), now - m.tn_seconds, m.value,
                                   numeric ? nullptr : &m.text);
              !st.ok()) {
            return st;
          }
        }
      }
    }
    return Status::Ok();
  });
}

Result<GangliaStoreCounts> StoreGangliaExport(Store& store, const GangliaExport& exported) {
  return InTransaction(store, [&](Writer& w) -> Status {
    for (const GangliaSeries& s : exported.series) {
      Result<std::int64_t> host_id = w.HostId(s.cluster, s.host, "");
      if (!host_id.ok()) return host_id.status();
      Result<std::int64_t> metric_id = w.MetricId(s.metric, "double", "", "");
      if (!metric_id.ok()) return metric_id.status();
      for (const auto& [time, value] : s.points) {
        if (Status st = w.Sample(host_id.value(), metric_id.value(), time, value, nullptr);
            !st.ok()) {
          return st;
        }
      }
    }
    return Status::Ok();
  });
}

Result<std::vector<models::MetricSample>> LoadGangliaSamples(
    Store& store, std::int64_t from_epoch, std::int64_t to_epoch,
    const std::vector<std::string>& hosts) {
  auto st = store.Prepare(
      "SELECT h.name, m.name, s.time_seconds, s.value FROM ganglia_samples s "
      "JOIN ganglia_hosts h ON h.id = s.host_id JOIN ganglia_metrics m ON m.id = s.metric_id "
      "WHERE s.time_seconds BETWEEN ?1 AND ?2 AND s.value IS NOT NULL "
      "ORDER BY h.name, m.name, s.time_seconds");
  if (!st.ok()) return st.status();
  Statement& q = st.value();
  q.Bind(1, from_epoch).Bind(2, to_epoch);
  const std::set<std::string> wanted(hosts.begin(), hosts.end());
  std::vector<models::MetricSample> out;
  while (q.Step()) {
    models::MetricSample s;
    s.host = q.ColumnText(0);
    if (!wanted.empty() && !wanted.count(s.host)) continue;
    s.metric = q.ColumnText(1);
    s.time_seconds = q.ColumnInt(2);
    s.value = q.ColumnDouble(3);
    out.push_back(std::move(s));
  }
  if (!q.Error().ok()) return q.Error();
  return out;
}

Result<std::vector<models::KnownHost>> LoadGangliaHosts(Store& store) {
  auto st = store.Prepare("SELECT cluster, name, ip FROM ganglia_hosts ORDER BY cluster, name");
  if (!st.ok()) return st.status();
  Statement& q = st.value();
  std::vector<models::KnownHost> out;
  while (q.Step()) out.push_back({q.ColumnText(0), q.ColumnText(1), q.ColumnText(2)});
  if (!q.Error().ok()) return q.Error();
  return out;
}

}  // namespace perfplan::profiles
