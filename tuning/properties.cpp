#include "tuning/properties.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "tuning/spark_units.h"

namespace perfplan::tuning {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool Contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

struct Known {
  PropertyType type;
  std::vector<std::string> levels;
};

// Documented types of well-known properties: Spark's core/sql config package, Hadoop's
// mapred-default.xml and yarn-default.xml. Sizes and durations only matter for Spark (Hadoop
// writes them as integers of the unit in the name: .mb, -ms).
const std::map<std::string, Known, std::less<>>& KnownProperties() {
  using T = PropertyType;
  static const auto* table = new std::map<std::string, Known, std::less<>>{
      // Spark: integers
      {"spark.executor.cores", {T::kInteger, {}}},
      {"spark.executor.instances", {T::kInteger, {}}},
      {"spark.driver.cores", {T::kInteger, {}}},
      {"spark.task.cpus", {T::kInteger, {}}},
      {"spark.task.maxFailures", {T::kInteger, {}}},
      {"spark.default.parallelism", {T::kInteger, {}}},
      {"spark.sql.shuffle.partitions", {T::kInteger, {}}},
      {"spark.shuffle.sort.bypassMergeThreshold", {T::kInteger, {}}},
      {"spark.shuffle.service.index.cache.entries", {T::kInteger, {}}},
      {"spark.rpc.message.maxSize", {T::kInteger, {}}},
      {"spark.rpc.numRetries", {T::kInteger, {}}},
      {"spark.port.maxRetries", {T::kInteger, {}}},
      {"spark.files.maxPartitionBytes", {T::kInteger, {}}},
      {"spark.sql.files.maxPartitionBytes", {T::kInteger, {}}},
      {"spark.dynamicAllocation.minExecutors", {T::kInteger, {}}},
      {"spark.dynamicAllocation.maxExecutors", {T::kInteger, {}}},
      {"spark.dynamicAllocation.initialExecutors", {T::kInteger, {}}},
      // Spark: sizes
      {"spark.executor.memory", {T::kSize, {}}},
      {"spark.driver.memory", {T::kSize, {}}},
      {"spark.executor.memoryOverhead", {T::kSize, {}}},
      {"spark.memory.offHeap.size", {T::kSize, {}}},
      {"spark.reducer.maxSizeInFlight", {T::kSize, {}}},
      {"spark.shuffle.file.buffer", {T::kSize, {}}},
      {"spark.broadcast.blockSize", {T::kSize, {}}},
      {"spark.storage.memoryMapThreshold", {T::kSize, {}}},
      {"spark.kryoserializer.buffer", {T::kSize, {}}},
      {"spark.kryoserializer.buffer.max", {T::kSize, {}}},
      // Spark: durations
      {"spark.network.timeout", {T::kDuration, {}}},
      {"spark.locality.wait", {T::kDuration, {}}},
      {"spark.rpc.lookupTimeout", {T::kDuration, {}}},
      {"spark.rpc.retry.wait", {T::kDuration, {}}},
      {"spark.executor.heartbeatInterval", {T::kDuration, {}}},
      {"spark.speculation.interval", {T::kDuration, {}}},
      {"spark.scheduler.revive.interval", {T::kDuration, {}}},
      {"spark.files.fetchTimeout", {T::kDuration, {}}},
      {"spark.dynamicAllocation.executorIdleTimeout", {T::kDuration, {}}},
      {"spark.dynamicAllocation.schedulerBacklogTimeout", {T::kDuration, {}}},
      // Spark: booleans
      {"spark.shuffle.compress", {T::kBoolean, {}}},
      {"spark.shuffle.spill.compress", {T::kBoolean, {}}},
      {"spark.broadcast.compress", {T::kBoolean, {}}},
      {"spark.rdd.compress", {T::kBoolean, {}}},
      {"spark.speculation", {T::kBoolean, {}}},
      {"spark.dynamicAllocation.enabled", {T::kBoolean, {}}},
      {"spark.shuffle.service.enabled", {T::kBoolean, {}}},
      {"spark.memory.offHeap.enabled", {T::kBoolean, {}}},
      {"spark.sql.adaptive.enabled", {T::kBoolean, {}}},
      {"spark.kryo.referenceTracking", {T::kBoolean, {}}},
      // Spark: enumerations
      {"spark.serializer",
       {T::kEnum,
        {"org.apache.spark.serializer.JavaSerializer",
         "org.apache.spark.serializer.KryoSerializer"}}},
      {"spark.io.compression.codec", {T::kEnum, {"lz4", "lzf", "snappy", "zstd"}}},
      // Spark: fractions
      {"spark.memory.fraction", {T::kNumber, {}}},
      {"spark.memory.storageFraction", {T::kNumber, {}}},
      {"spark.shuffle.memoryFraction", {T::kNumber, {}}},
      {"spark.storage.memoryFraction", {T::kNumber, {}}},
      {"spark.storage.unrollFraction", {T::kNumber, {}}},
      {"spark.speculation.quantile", {T::kNumber, {}}},
      {"spark.speculation.multiplier", {T::kNumber, {}}},
      {"spark.scheduler.minRegisteredResourcesRatio", {T::kNumber, {}}},
      // MapReduce (mapred-default.xml)
      {"mapreduce.job.maps", {T::kInteger, {}}},
      {"mapreduce.job.reduces", {T::kInteger, {}}},
      {"mapreduce.map.memory.mb", {T::kInteger, {}}},
      {"mapreduce.reduce.memory.mb", {T::kInteger, {}}},
      {"mapreduce.map.cpu.vcores", {T::kInteger, {}}},
      {"mapreduce.reduce.cpu.vcores", {T::kInteger, {}}},
      {"mapreduce.task.io.sort.mb", {T::kInteger, {}}},
      {"mapreduce.task.io.sort.factor", {T::kInteger, {}}},
      {"mapreduce.task.timeout", {T::kInteger, {}}},
      {"mapreduce.reduce.shuffle.parallelcopies", {T::kInteger, {}}},
      {"mapreduce.job.jvm.numtasks", {T::kInteger, {}}},
      {"mapreduce.shuffle.max.threads", {T::kInteger, {}}},
      {"mapreduce.tasktracker.map.tasks.maximum", {T::kInteger, {}}},
      {"mapreduce.tasktracker.reduce.tasks.maximum", {T::kInteger, {}}},
      {"yarn.app.mapreduce.am.resource.mb", {T::kInteger, {}}},
      {"yarn.app.mapreduce.am.resource.cpu-vcores", {T::kInteger, {}}},
      {"mapreduce.job.reduce.slowstart.completedmaps", {T::kNumber, {}}},
      {"mapreduce.reduce.shuffle.input.buffer.percent", {T::kNumber, {}}},
      {"mapreduce.reduce.shuffle.merge.percent", {T::kNumber, {}}},
      {"mapreduce.reduce.input.buffer.percent", {T::kNumber, {}}},
      {"mapreduce.reduce.markreset.buffer.percent", {T::kNumber, {}}},
      {"mapreduce.map.sort.spill.percent", {T::kNumber, {}}},
      {"mapreduce.job.speculative.slowtaskthreshold", {T::kNumber, {}}},
      {"mapreduce.job.speculative.speculativecap", {T::kNumber, {}}},
      {"mapreduce.map.output.compress", {T::kBoolean, {}}},
      {"mapreduce.output.fileoutputformat.compress", {T::kBoolean, {}}},
      {"mapreduce.map.speculative", {T::kBoolean, {}}},
      {"mapreduce.reduce.speculative", {T::kBoolean, {}}},
      {"mapreduce.job.ubertask.enable", {T::kBoolean, {}}},
      {"mapreduce.map.output.compress.codec",
       {T::kEnum,
        {"org.apache.hadoop.io.compress.DefaultCodec", "org.apache.hadoop.io.compress.GzipCodec",
         "org.apache.hadoop.io.compress.BZip2Codec", "org.apache.hadoop.io.compress.SnappyCodec",
         "org.apache.hadoop.io.compress.Lz4Codec"}}},
      {"mapreduce.output.fileoutputformat.compress.type", {T::kEnum, {"NONE", "RECORD", "BLOCK"}}},
      // YARN (yarn-default.xml)
      {"yarn.nodemanager.resource.memory-mb", {T::kInteger, {}}},
      {"yarn.nodemanager.resource.cpu-vcores", {T::kInteger, {}}},
      {"yarn.nodemanager.resource.percentage-physical-cpu-limit", {T::kInteger, {}}},
      {"yarn.scheduler.minimum-allocation-mb", {T::kInteger, {}}},
      {"yarn.scheduler.maximum-allocation-mb", {T::kInteger, {}}},
      {"yarn.scheduler.minimum-allocation-vcores", {T::kInteger, {}}},
      {"yarn.scheduler.maximum-allocation-vcores", {T::kInteger, {}}},
      {"yarn.nodemanager.vmem-pmem-ratio", {T::kNumber, {}}},
      {"yarn.nodemanager.disk-health-checker.min-healthy-disks", {T::kNumber, {}}},
      {"yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage",
       {T::kNumber, {}}},
      {"yarn.nodemanager.vmem-check-enabled", {T::kBoolean, {}}},
      {"yarn.nodemanager.pmem-check-enabled", {T::kBoolean, {}}},
      {"yarn.log-aggregation-enable", {T::kBoolean, {}}},
  };
  return *table;
}

// Hadoop reads fractions with getFloat; their names say so.
bool HadoopFractionName(std::string_view name) {
  for (std::string_view hint : {"percent", "fraction", "ratio", "threshold", "slowstart",
                                "speculativecap", "healthy-disks", "quantile"}) {
    if (Contains(name, hint)) return true;
  }
  return false;
}

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string_view ToString(ConfFile file) {
  switch (file) {
    case ConfFile::kSparkDefaults: return "spark-defaults.conf";
    case ConfFile::kMapredSite: return "mapred-site.xml";
    case ConfFile::kYarnSite: return "yarn-site.xml";
    case ConfFile::kNone: break;
  }
  return "";
}

std::string_view ToString(PropertyType type) {
  switch (type) {
    case PropertyType::kInteger: return "integer";
    case PropertyType::kSize: return "size";
    case PropertyType::kDuration: return "duration";
    case PropertyType::kBoolean: return "boolean";
    case PropertyType::kEnum: return "enum";
    case PropertyType::kNumber: break;
  }
  return "number";
}

PropertyInfo DescribeColumn(const std::string& column) {
  PropertyInfo info;
  info.column = column;
  std::string name = column;
  if (StartsWith(name, "Size.")) {
    name = name.substr(5);
    info.scale = 1024.0;
    info.type = PropertyType::kSize;
    info.quantum = 1;
  } else if (StartsWith(name, "Time.")) {
    name = name.substr(5);
    info.scale = 1e-3;
    info.type = PropertyType::kDuration;
    info.quantum = 1;
  }
  // BestConf's Hadoop sets glue the file to the name: "mapred" + a mapreduce./yarn.app.
  // property, "yarn" + a yarn. property.
  if (StartsWith(name, "mapred") &&
      (StartsWith(name.substr(6), "mapreduce.") || StartsWith(name.substr(6), "yarn."))) {
    name = name.substr(6);
    info.file = ConfFile::kMapredSite;
  } else if (StartsWith(name, "yarnyarn.")) {
    name = name.substr(4);
    info.file = ConfFile::kYarnSite;
  } else if (StartsWith(name, "spark.")) {
    info.file = ConfFile::kSparkDefaults;
  } else if (StartsWith(name, "mapreduce.") || StartsWith(name, "yarn.app.mapreduce.")) {
    info.file = ConfFile::kMapredSite;
  } else if (StartsWith(name, "yarn.")) {
    info.file = ConfFile::kYarnSite;
  }
  info.property = name;
  return info;
}

PropertyInfo DescribeProperty(const Feature& feature) {
  PropertyInfo info = DescribeColumn(feature.parameter);
  if (!feature.category.empty()) {
    info.type = PropertyType::kEnum;
    auto it = KnownProperties().find(info.property);
    info.known = it != KnownProperties().end() && it->second.type == PropertyType::kEnum;
    return info;
  }
  if (info.scale != 1) {
    // BestConf Size./Time. column: whole KiB or ms; whole MiB when the range spans 64 MiB.
    if (info.type == PropertyType::kSize && feature.max - feature.min >= 64 * 1024) {
      info.quantum = 1024;
    }
    return info;
  }
  if (feature.unit == Unit::kBytes) {
    constexpr double kMiB = 1024.0 * 1024.0;
    info.type = PropertyType::kSize;
    info.quantum = feature.max - feature.min >= 64 * kMiB ? kMiB : 1024.0;
    return info;
  }
  if (feature.unit == Unit::kSeconds) {
    info.type = PropertyType::kDuration;
    info.quantum = 1e-3;
    return info;
  }
  auto it = KnownProperties().find(info.property);
  if (it != KnownProperties().end()) {
    info.known = true;
    info.type = it->second.type;
    info.levels = it->second.levels;
    // A size or duration written as a plain number keeps its number: its unit is Spark's
    // default for the property, which the data does not state.
    if (info.type == PropertyType::kSize || info.type == PropertyType::kDuration) {
      info.type = feature.integer ? PropertyType::kInteger : PropertyType::kNumber;
    }
    // An enumeration coded as numbers must be coded 0..levels-1; otherwise it stays a number.
    if (info.type == PropertyType::kEnum &&
        !(feature.integer && feature.min >= 0 &&
          feature.max <= static_cast<double>(info.levels.size()) - 1)) {
      info.type = feature.integer ? PropertyType::kInteger : PropertyType::kNumber;
      info.levels.clear();
      info.known = false;
    }
    if (info.type == PropertyType::kBoolean && !(feature.min >= 0 && feature.max <= 1)) {
      info.type = feature.integer ? PropertyType::kInteger : PropertyType::kNumber;
      info.known = false;
    }
  } else if (info.file == ConfFile::kMapredSite || info.file == ConfFile::kYarnSite) {
    info.type = feature.integer || !HadoopFractionName(info.property) ? PropertyType::kInteger
                                                                      : PropertyType::kNumber;
  } else {
    info.type = feature.integer ? PropertyType::kInteger : PropertyType::kNumber;
  }
  if (info.type == PropertyType::kInteger || info.type == PropertyType::kBoolean ||
      info.type == PropertyType::kEnum) {
    info.quantum = 1;
  }
  return info;
}

std::string PropertyValueText(const PropertyInfo& info, double value,
                              const std::string& category) {
  if (!category.empty()) return category;
  const double v = info.quantum > 0 ? std::round(value / info.quantum) * info.quantum : value;
  switch (info.type) {
    case PropertyType::kSize:
      return FormatSparkValue(v * info.scale, Unit::kBytes);
    case PropertyType::kDuration:
      return FormatSparkValue(v * info.scale, Unit::kSeconds);
    case PropertyType::kInteger:
      return FormatSparkValue(std::round(v), Unit::kNone);
    case PropertyType::kBoolean:
      return v >= 0.5 ? "true" : "false";
    case PropertyType::kEnum: {
      const double i = std::round(v);
      if (i >= 0 && i < static_cast<double>(info.levels.size())) {
        return info.levels[static_cast<std::size_t>(i)];
      }
      return FormatSparkValue(i, Unit::kNone);
    }
    case PropertyType::kNumber:
      break;
  }
  return FormatSparkValue(v, Unit::kNone);
}

std::vector<std::string> SparkDefaultsFragment(const std::vector<ConfEntry>& entries) {
  std::vector<std::string> lines;
  for (const ConfEntry& e : entries) lines.push_back(e.property + " " + e.value);
  return lines;
}

std::string HadoopSiteXml(const std::vector<ConfEntry>& entries) {
  std::string xml = "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const ConfEntry& e : entries) {
    xml += "  <property>\n    <name>" + XmlEscape(e.property) + "</name>\n    <value>" +
           XmlEscape(e.value) + "</value>\n  </property>\n";
  }
  xml += "</configuration>\n";
  return xml;
}

}  // namespace perfplan::tuning
