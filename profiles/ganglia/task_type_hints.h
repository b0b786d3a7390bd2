// User hints of an application's task type (`perfplan label APP io|compute`), the labels k-means
// clusters are named by (DESIGN §3.5). The "task_types" schema component and its SQL live here.
// Not thread-safe beyond the Store's rules.
#pragma once

#include <map>
#include <string>

#include "models/status.h"
#include "models/task_clustering.h"
#include "profiles/store.h"

namespace perfplan::profiles {

// The "task_types" component: table task_type_hints(app_id, type).
const Migrations& TaskTypeMigrations();

// Records (or replaces) the hint for `app_id`. InvalidArgument for TaskType::kUnknown; Failed on an
// SQLite error. The caller checks that the application exists.
Status SaveTaskTypeHint(Store& store, const std::string& app_id, models::TaskType type);

// Every hint by application id; a stored type that no longer parses is left out.
Result<std::map<std::string, models::TaskType>> LoadTaskTypeHints(Store& store);

}  // namespace perfplan::profiles
