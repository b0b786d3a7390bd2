#include "profiles/runtime/scout_import.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "models/instance_types.h"
#include "profiles/detail/yaml_fields.h"

namespace perfplan::profiles {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A JSON value that is a number or a string holding one (Scout writes both).
bool NumberField(const json& doc, const char* key, double* out, std::string* why) {
  if (!doc.contains(key)) {
    *why = "missing";
    return false;
  }
  const json& v = doc[key];
  if (v.is_number()) {
    *out = v.get<double>();
    return std::isfinite(*out);
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    if (ec == std::errc() && ptr == s.data() + s.size() && std::isfinite(*out)) return true;
    *why = "expected a number, got \"" + s + "\"";
    return false;
  }
  *why = "expected a number or a numeric string, got " + std::string(v.type_name());
  return false;
}

// Line (1-based) of a key in the text, for problem reports; 0 when not found.
int LineOf(const std::string& text, const std::string& key) {
  const std::size_t at = text.find("\"" + key + "\"");
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

}  // namespace

Loaded<std::vector<models::MeasuredRun>> ImportScout(
    const std::string& dir, const std::map<std::string, double>& given_sizes) {
  Loaded<std::vector<models::MeasuredRun>> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    out.problems.push_back({dir, 0, "",
                            "not a folder (expected the Scout osr_multiple_nodes "
                            "folder or a parent of it)"});
    return out;
  }
  // Folders may be links (a user's folder of links to the shared copy); a link back to a folder
  // already being walked is not entered again.
  std::vector<fs::path> files;
  std::set<fs::path> walked;
  const auto options = fs::directory_options::follow_directory_symlink |
                       fs::directory_options::skip_permission_denied;
  walked.insert(fs::canonical(dir, ec));
  for (auto it = fs::recursive_directory_iterator(dir, options, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      if (!walked.insert(fs::canonical(it->path(), type_ec)).second) it.disable_recursion_pending();
    } else if (it->is_regular_file(type_ec) && it->path().filename() == "report.json") {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    out.problems.push_back({dir, 0, "", "no report.json below this folder"});
    return out;
  }
  std::vector<std::size_t> needs_size;  // censored runs without input_size
  for (const fs::path& path : files) {
    const std::string file = path.string();
    const std::string folder = path.parent_path().filename().string();
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= folder.size(); ++i) {
      if (i == folder.size() || folder[i] == '_') {
        parts.push_back(folder.substr(start, i - start));
        start = i + 1;
      }
    }
    int nodes = 0;
    if (parts.size() < 4 ||
        std::from_chars(parts[0].data(), parts[0].data() + parts[0].size(), nodes).ptr !=
            parts[0].data() + parts[0].size() ||
        nodes <= 0) {
      out.problems.push_back({file, 0, "",
                              "folder name '" + folder +
                                  "' is not <nodes>_<instance type>_<workload>_"
                                  "<framework>_..."});
      continue;
    }
    const std::string type = parts[1];
    const std::optional<models::InstanceType> hw = models::FindInstanceType(type);
    if (!hw) {
      out.problems.push_back({file, 0, "",
                              "unknown instance type '" + type +
                                  "' in the folder name; the table in "
                                  "models/instance_types.h knows the nine Scout types"});
      continue;
    }
    std::optional<std::string> text = detail::ReadWholeFile(file, &out.problems);
    if (!text) continue;
    json doc;
    try {
      doc = json::parse(*text);
    } catch (const json::parse_error& e) {
      out.problems.push_back({file, 0, "", std::string("not JSON: ") + e.what()});
      continue;
    }
    if (!doc.is_object()) {
      out.problems.push_back({file, 1, "", "expected a JSON object"});
      continue;
    }
    models::MeasuredRun run;
    run.instance_type = type;
    run.compute_nodes = run.storage_nodes = nodes;
    run.bandwidth_bytes_per_second = hw->network_bytes_per_second;
    run.vcpus = hw->vcpus;
    run.memory_bytes = hw->memory_bytes;
    bool ok = true;
    if (!doc.contains("completed") || !doc["completed"].is_boolean()) {
      out.problems.push_back(
          {file, LineOf(*text, "completed"), "completed", "expected true or false"});
      ok = false;
    } else {
      run.completed = doc["completed"].get<bool>();
    }
    std::string workload = parts[2], framework = parts[3];
    for (auto [key, value] : {std::pair{"workload", &workload}, {"framework", &framework}}) {
      if (doc.contains(key) && doc[key].is_string() && !doc[key].get<std::string>().empty()) {
        *value = doc[key].get<std::string>();
      }
    }
    run.workload = workload + "_" + framework;
    std::string why;
    if (!NumberField(doc, "elapsed_time", &run.runtime_seconds, &why) || run.runtime_seconds <= 0) {
      out.problems.push_back(
          {file, LineOf(*text, "elapsed_time"), "elapsed_time", why.empty() ? "must be > 0" : why});
      ok = false;
    }
    double size = -1;
    if (!NumberField(doc, "input_size", &size, &why)) {
      out.problems.push_back({file, LineOf(*text, "input_size"), "input_size", why});
      ok = false;
    }
    if (!ok) continue;
    if (size > 0) {
      run.dataset_bytes = size;
    } else {
      needs_size.push_back(out.value.size());
    }
    out.value.push_back(run);
  }
  // Runs without a size (censored runs; completed runs of workloads that record none, such as
  // Spark 1.5's HiBench runs) take the size the user gave for the workload, else the median of its
  // runs that record one. A workload with neither is one problem (field input_size, line 0, the
  // folder as the file), its message starting "workload NAME ".
  std::map<std::string, std::vector<double>> sizes;
  for (const models::MeasuredRun& r : out.value) {
    if (r.dataset_bytes > 0) sizes[r.workload].push_back(r.dataset_bytes);
  }
  for (auto& [workload, v] : sizes) std::sort(v.begin(), v.end());
  std::map<std::string, std::size_t> unsized;  // workload -> runs left without a size
  for (std::size_t i : needs_size) {
    models::MeasuredRun& run = out.value[i];
    if (auto given = given_sizes.find(run.workload); given != given_sizes.end()) {
      run.dataset_bytes = given->second;
    } else if (auto known = sizes.find(run.workload); known != sizes.end()) {
      run.dataset_bytes = known->second[known->second.size() / 2];
    } else {
      ++unsized[run.workload];
    }
  }
  for (const auto& [workload, count] : unsized) {
    out.problems.push_back(
        {dir, 0, "input_size",
         "workload " + workload + " records no input size (input_size <= 0 in all " +
             std::to_string(count) + " of its runs) and none was given for it"});
  }
  return out;
}

}  // namespace perfplan::profiles
