#include "profiles/ganglia/task_type_hints.h"

namespace perfplan::profiles {

const Migrations& TaskTypeMigrations() {
  static const Migrations kMigrations = {
      "task_types",
      {"CREATE TABLE task_type_hints(app_id TEXT PRIMARY KEY, type TEXT NOT NULL CHECK(type IN "
       "('io', 'compute')))"}};
  return kMigrations;
}

Status SaveTaskTypeHint(Store& store, const std::string& app_id, models::TaskType type) {
  if (type == models::TaskType::kUnknown) {
    return Status::InvalidArgument("label " + app_id + ": the type must be io or compute");
  }
  auto st = store.Prepare(
      "INSERT INTO task_type_hints(app_id, type) VALUES(?1, ?2) ON CONFLICT(app_id) DO UPDATE "
      "SET type = excluded.type");
  if (!st.ok()) return st.status();
  st.value().Bind(1, app_id).Bind(2, std::string(models::ToString(type)));
  return st.value().Run();
}

Result<std::map<std::string, models::TaskType>> LoadTaskTypeHints(Store& store) {
  auto st = store.Prepare("SELECT app_id, type FROM task_type_hints");
  if (!st.ok()) return st.status();
  std::map<std::string, models::TaskType> out;
  while (st.value().Step()) {
    if (auto t = models::TaskTypeFromString(st.value().ColumnText(1))) {
      out[st.value().ColumnText(0)] = *t;
    }
  }
  if (!st.value().Error().ok()) return st.value().Error();
  return out;
}

}  // namespace perfplan::profiles
