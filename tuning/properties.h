// What a tuned column is as a configuration property: its real name, the file it is set in
// (spark-defaults.conf, mapred-site.xml, yarn-site.xml), its type (integer, size, duration,
// boolean, enumeration, plain number) and how a value is written there.
//
// Names: BestConf's column conventions are undone. "Size.X" columns hold KiB and "Time.X" columns
// milliseconds of property X; Hadoop data sets glue the file to the name ("mapredmapreduce.job.maps"
// is mapreduce.job.maps of mapred-site.xml, "yarnyarn.nodemanager.resource.cpu-vcores" is of
// yarn-site.xml, "mapredyarn.app.mapreduce.am.resource.mb" of mapred-site.xml).
// Types: a table of well-known Spark, Hadoop MapReduce and YARN properties (their documented
// types in spark's config package and mapred-default.xml / yarn-default.xml); for other names,
// Hadoop properties are integers unless the name says fraction/percent/ratio/threshold (Hadoop
// reads nearly all of its knobs with getInt/getLong), Spark properties are integers when every
// measured value is. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tuning/dataset.h"

namespace perfplan::tuning {

enum class ConfFile { kSparkDefaults, kMapredSite, kYarnSite, kNone };
// "spark-defaults.conf", "mapred-site.xml", "yarn-site.xml", "" (not a known property family).
std::string_view ToString(ConfFile file);

enum class PropertyType { kNumber, kInteger, kSize, kDuration, kBoolean, kEnum };
// "number", "integer", "size", "duration", "boolean", "enum".
std::string_view ToString(PropertyType type);

struct PropertyInfo {
  std::string column;    // the data set's column name
  std::string property;  // the real property name
  ConfFile file = ConfFile::kNone;
  PropertyType type = PropertyType::kNumber;
  bool known = false;  // the type comes from the table of known properties, not from inference
  // Column value × scale = the property's value in its unit (bytes for sizes, seconds for
  // durations): 1024 for BestConf "Size." (KiB), 0.001 for "Time." (ms), else 1.
  double scale = 1;
  // The step a value is written in, in column units: 1 for integers, booleans, enumeration
  // indexes and BestConf KiB/ms columns (1024 KiB for a Size. column spanning 64 MiB); 1 MiB for
  // sizes (1 KiB when the range is under 64 MiB),
  // 1 ms for durations; 0 for continuous values.
  double quantum = 0;
  std::vector<std::string> levels;  // enumeration values (table), index = numeric code
};

// Describes a numeric or categorical feature's parameter (Feature::parameter, unit, integrality).
PropertyInfo DescribeProperty(const Feature& feature);
// The property name and file of a column name alone (no type).
PropertyInfo DescribeColumn(const std::string& column);

// A value (column units; for a categorical parameter pass the category as `category`) as written
// in the property's file: "4g", "30s", "15", "true", "lz4", "0.6".
std::string PropertyValueText(const PropertyInfo& info, double value,
                              const std::string& category = "");

struct ConfEntry {
  std::string property;
  std::string value;
};
// A spark-defaults.conf fragment: one "name value" line per entry.
std::vector<std::string> SparkDefaultsFragment(const std::vector<ConfEntry>& entries);
// A Hadoop *-site.xml document with one <property> per entry (names and values XML-escaped).
std::string HadoopSiteXml(const std::vector<ConfEntry>& entries);

}  // namespace perfplan::tuning
