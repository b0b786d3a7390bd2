#include "tuning/properties.h"

#include <doctest/doctest.h>

namespace perfplan::tuning {
namespace {

Feature Numeric(const std::string& name, double lo, double hi, bool integer) {
  Feature f;
  f.name = f.parameter = name;
  f.min = lo;
  f.max = hi;
  f.integer = integer;
  return f;
}

TEST_CASE("BestConf's Hadoop column prefixes name real properties of mapred-site and yarn-site") {
  const PropertyInfo reduces = DescribeColumn("mapredmapreduce.job.reduces");
  CHECK(reduces.property == "mapreduce.job.reduces");
  CHECK(reduces.file == ConfFile::kMapredSite);
  const PropertyInfo am = DescribeColumn("mapredyarn.app.mapreduce.am.resource.cpu-vcores");
  CHECK(am.property == "yarn.app.mapreduce.am.resource.cpu-vcores");
  CHECK(am.file == ConfFile::kMapredSite);
  const PropertyInfo vcores = DescribeColumn("yarnyarn.nodemanager.resource.cpu-vcores");
  CHECK(vcores.property == "yarn.nodemanager.resource.cpu-vcores");
  CHECK(vcores.file == ConfFile::kYarnSite);
  // Already-plain Hadoop and Spark names keep their name and find their file.
  CHECK(DescribeColumn("mapreduce.task.io.sort.mb").file == ConfFile::kMapredSite);
  CHECK(DescribeColumn("yarn.scheduler.maximum-allocation-mb").file == ConfFile::kYarnSite);
  CHECK(DescribeColumn("Size.spark.executor.memory").property == "spark.executor.memory");
  CHECK(DescribeColumn("Size.spark.executor.memory").file == ConfFile::kSparkDefaults);
  CHECK(DescribeColumn("Cores").file == ConfFile::kNone);
  // "mapred" followed by something that is not a property is not a prefix.
  CHECK(DescribeColumn("mapredfoo").property == "mapredfoo");
  CHECK(ToString(ConfFile::kYarnSite) == "yarn-site.xml");
}

TEST_CASE("Integer knobs sampled as fractions (BestConf's LHS) are written as integers") {
  // BestConf samples mapreduce.job.reduces as 14.5222: the property is an int.
  const PropertyInfo r = DescribeProperty(Numeric("mapredmapreduce.job.reduces", 1, 50.3, false));
  CHECK(r.type == PropertyType::kInteger);
  CHECK(r.known);
  CHECK(r.quantum == 1);
  CHECK(PropertyValueText(r, 14.5222) == "15");
  // Unknown Hadoop names are integers unless the name says fraction.
  const PropertyInfo t =
      DescribeProperty(Numeric("yarnyarn.timeline-service.handler-thread-count", 1, 99.5, false));
  CHECK(t.type == PropertyType::kInteger);
  CHECK_FALSE(t.known);
  const PropertyInfo f = DescribeProperty(
      Numeric("mapredmapreduce.reduce.shuffle.input.buffer.percent", 0.1, 0.9, false));
  CHECK(f.type == PropertyType::kNumber);
  CHECK(PropertyValueText(f, 0.496734) == "0.496734");
  const PropertyInfo g =
      DescribeProperty(Numeric("mapredmapreduce.some.new.buffer.percent", 0.1, 0.9, false));
  CHECK(g.type == PropertyType::kNumber);
  // Spark: known integers are integers, unknown ones only when every value is whole.
  CHECK(DescribeProperty(Numeric("spark.executor.cores", 1, 13.97, false)).type ==
        PropertyType::kInteger);
  CHECK(DescribeProperty(Numeric("spark.unknown.knob", 1, 13.97, false)).type ==
        PropertyType::kNumber);
  CHECK(DescribeProperty(Numeric("spark.unknown.knob", 1, 13, true)).type ==
        PropertyType::kInteger);
}

TEST_CASE("Sizes and durations carry units; booleans and enumerations their words") {
  const PropertyInfo mem = DescribeProperty(Numeric("Size.spark.executor.memory", 1024, 4e6, true));
  CHECK(mem.type == PropertyType::kSize);
  CHECK(PropertyValueText(mem, 4194304) == "4g");  // KiB → "4g"
  CHECK(mem.quantum == 1024);                       // a range of GiB is searched in whole MiB
  CHECK(PropertyValueText(mem, 10132234) == "9895m");
  CHECK(DescribeProperty(Numeric("Size.spark.shuffle.file.buffer", 16, 512, true)).quantum == 1);
  const PropertyInfo wait = DescribeProperty(Numeric("Time.spark.locality.wait", 1, 9000, true));
  CHECK(wait.type == PropertyType::kDuration);
  CHECK(PropertyValueText(wait, 3000) == "3s");
  Feature bytes = Numeric("spark.reducer.maxSizeInFlight", 1 << 20, 1 << 27, true);
  bytes.unit = Unit::kBytes;
  CHECK(PropertyValueText(DescribeProperty(bytes), 48.0 * 1024 * 1024) == "48m");
  const PropertyInfo spec = DescribeProperty(Numeric("spark.speculation", 0, 1, true));
  CHECK(spec.type == PropertyType::kBoolean);
  CHECK(PropertyValueText(spec, 0.7) == "true");
  CHECK(PropertyValueText(spec, 0.2) == "false");
  const PropertyInfo codec = DescribeProperty(Numeric("spark.io.compression.codec", 0, 3, true));
  CHECK(codec.type == PropertyType::kEnum);
  CHECK(PropertyValueText(codec, 2.2) == "snappy");
  // A code outside the known levels is not this enumeration: it stays a number.
  CHECK(DescribeProperty(Numeric("spark.io.compression.codec", 0, 7, true)).type ==
        PropertyType::kInteger);
  // A boolean property whose data is not 0/1 is not treated as a boolean.
  CHECK(DescribeProperty(Numeric("spark.speculation", 0, 5, true)).type == PropertyType::kInteger);
  CHECK(DescribeProperty(Numeric("spark.speculation", 0, 5, false)).type == PropertyType::kNumber);
}

TEST_CASE("Fragments: spark-defaults lines and escaped Hadoop site XML") {
  CHECK(SparkDefaultsFragment({{"spark.executor.memory", "4g"}}) ==
        std::vector<std::string>{"spark.executor.memory 4g"});
  CHECK(HadoopSiteXml({{"mapreduce.job.reduces", "15"}, {"a<b", "x&y"}}) ==
        "<?xml version=\"1.0\"?>\n<configuration>\n"
        "  <property>\n    <name>mapreduce.job.reduces</name>\n    <value>15</value>\n"
        "  </property>\n"
        "  <property>\n    <name>a&lt;b</name>\n    <value>x&amp;y</value>\n  </property>\n"
        "</configuration>\n");
}

}  // namespace
}  // namespace perfplan::tuning
