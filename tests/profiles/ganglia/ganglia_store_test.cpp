#include "profiles/ganglia/ganglia_store.h"

#include <doctest/doctest.h>

#include "tests/support/result_checks.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

const char* kTwoHosts = R"(<GANGLIA_XML VERSION="3.7.2" SOURCE="gmond">
<CLUSTER NAME="c" LOCALTIME="1000">
<HOST NAME="a" IP="10.0.0.1" REPORTED="995">
<METRIC NAME="cpu_idle" VAL="80" TYPE="float" UNITS="%" TN="10"/>
<METRIC NAME="os_name" VAL="Linux" TYPE="string" UNITS="" TN="0"/>
</HOST>
<HOST NAME="b" IP="10.0.0.2" REPORTED="995">
<METRIC NAME="cpu_idle" VAL="60" TYPE="float" UNITS="%" TN="5"/>
</HOST>
</CLUSTER>
</GANGLIA_XML>)";

std::unique_ptr<Store> OpenMemory() {
  auto store = Store::Open(":memory:", {GangliaMigrations()});
  REQUIRE(store.ok());
  return std::move(store).value();
}

TEST_CASE("A snapshot is stored with sample time = LOCALTIME - TN, strings as text") {
  auto store = OpenMemory();
  const auto snap = testing::ValueOf(ParseGangliaXml(kTwoHosts, "x"));
  const auto counts = testing::ValueOf(StoreGangliaSnapshot(*store, snap, 5000));
  CHECK(counts.samples_seen == 3);
  CHECK(counts.samples_added == 3);
  CHECK(counts.hosts == std::vector<std::string>{"c/a", "c/b"});
  CHECK(counts.metrics == std::vector<std::string>{"cpu_idle", "os_name"});
  Statement st = testing::ValueOf(store->Prepare(
      "SELECT h.name, m.name, s.time_seconds, s.value, s.text FROM ganglia_samples s JOIN "
      "ganglia_hosts h ON h.id = s.host_id JOIN ganglia_metrics m ON m.id = s.metric_id ORDER BY "
      "h.name, m.name"));
  REQUIRE(st.Step());
  CHECK(st.ColumnText(0) == "a");
  CHECK(st.ColumnInt(2) == 990);
  CHECK(st.ColumnDouble(3) == 80.0);
  REQUIRE(st.Step());
  CHECK(st.ColumnText(1) == "os_name");
  CHECK(st.ColumnIsNull(3));
  CHECK(st.ColumnText(4) == "Linux");
  REQUIRE(st.Step());
  CHECK(st.ColumnText(0) == "b");
  CHECK(st.ColumnInt(2) == 995);
}

TEST_CASE("Storing the same snapshot twice adds nothing") {
  auto store = OpenMemory();
  const auto snap = testing::ValueOf(ParseGangliaXml(kTwoHosts, "x"));
  REQUIRE(StoreGangliaSnapshot(*store, snap, 0).ok());
  const auto again = testing::ValueOf(StoreGangliaSnapshot(*store, snap, 0));
  CHECK(again.samples_seen == 3);
  CHECK(again.samples_added == 0);
}

TEST_CASE("Samples load by window and host, numeric only, ordered") {
  auto store = OpenMemory();
  GangliaExport e;
  e.series.push_back({"c", "a", "load_one", "sum", 15, {{100, 1.0}, {115, 2.0}, {130, 3.0}}, 0});
  e.series.push_back({"c", "b", "load_one", "sum", 15, {{100, 5.0}}, 0});
  const auto counts = testing::ValueOf(StoreGangliaExport(*store, e));
  CHECK(counts.samples_added == 4);
  const auto all = testing::ValueOf(LoadGangliaSamples(*store, 100, 115, {}));
  REQUIRE(all.size() == 3);
  CHECK(all[0].host == "a");
  CHECK(all[1].time_seconds == 115);
  CHECK(all[2].host == "b");
  const auto only_b = testing::ValueOf(LoadGangliaSamples(*store, 0, 1000, {"b"}));
  REQUIRE(only_b.size() == 1);
  CHECK(only_b[0].value == 5.0);
}

TEST_CASE("A failed write leaves nothing of that call in the store") {
  auto store = OpenMemory();
  REQUIRE(store
              ->Exec("CREATE TRIGGER refuse BEFORE INSERT ON ganglia_samples WHEN NEW.value = 2 "
                     "BEGIN SELECT RAISE(ABORT, 'refused'); END")
              .ok());
  GangliaExport e;
  e.series.push_back({"c", "a", "m", "sum", 15, {{1, 1.0}, {2, 2.0}}, 0});
  auto counts = StoreGangliaExport(*store, e);
  REQUIRE_FALSE(counts.ok());
  auto q = testing::ValueOf(store->Prepare("SELECT count(*) FROM ganglia_samples"));
  REQUIRE(q.Step());
  CHECK(q.ColumnInt(0) == 0);
}

}  // namespace
}  // namespace perfplan::profiles
