// AnswerFit over a runs table already read (the service's inline runs CSV, a plan that read the
// file once): the same answer AnswerFit(request) gives for a file holding that table, with
// request.runs_file only naming the table in messages. Declared apart from fit_eval.h so that
// its includers do not recompile; defined in fit_eval.cpp.
#pragma once

#include "planner/runtime/fit_eval.h"
#include "profiles/runtime/runs_csv.h"

namespace perfplan::planner {

Result<FitAnswer> AnswerFit(const FitRequest& request, const profiles::RunsTable& table);

}  // namespace perfplan::planner
