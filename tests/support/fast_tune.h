// The flags that keep a CLI test's `tune` run quick. Header only.
#pragma once

#include <string>

namespace perfplan::testing {

// 4 folds, two cheap model kinds, a 30 s budget, and JSON out; appended to a `tune` command.
inline const std::string kFastTune = " --folds 4 --kinds ridge,mean --budget-seconds 30 --json";

}  // namespace perfplan::testing
