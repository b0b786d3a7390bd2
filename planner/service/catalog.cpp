#include "planner/service/catalog.h"

#include <algorithm>
#include <filesystem>

namespace perfplan::planner {

Result<Catalog> Catalog::Load(const std::vector<std::string>& profile_paths,
                              const std::string& topology_file) {
  std::vector<std::string> files;
  std::vector<profiles::Problem> problems;
  for (const std::string& path : profile_paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> in_folder;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
        in_folder.push_back(entry.path().string());
      }
    }
    if (ec) problems.push_back({path, 0, "", "cannot list the folder: " + ec.message()});
    std::sort(in_folder.begin(), in_folder.end());
    files.insert(files.end(), in_folder.begin(), in_folder.end());
  }

  Catalog catalog;
  for (const std::string& file : files) {
    profiles::Loaded<profiles::ProfileDocument> doc = profiles::LoadProfile(file);
    problems.insert(problems.end(), doc.problems.begin(), doc.problems.end());
    if (!doc.ok()) continue;
    const std::string name = doc.value.profile.application;
    auto [it, inserted] = catalog.profiles_.emplace(name, std::move(doc.value));
    if (!inserted) {
      problems.push_back(
          {file, 0, "application", "\"" + name + "\" is already defined by " + it->second.file});
    }
  }
  if (!topology_file.empty()) {
    profiles::Loaded<profiles::Topology> t = profiles::LoadTopology(topology_file);
    problems.insert(problems.end(), t.problems.begin(), t.problems.end());
    if (t.ok()) catalog.topology_ = std::move(t.value);
  }
  if (!problems.empty()) return profiles::ToStatus(problems);
  return catalog;
}

const profiles::ProfileDocument* Catalog::FindProfile(const std::string& application) const {
  auto it = profiles_.find(application);
  return it == profiles_.end() ? nullptr : &it->second;
}

std::vector<std::string> Catalog::Applications() const {
  std::vector<std::string> names;
  for (const auto& [name, doc] : profiles_) names.push_back(name);
  return names;
}

}  // namespace perfplan::planner
