// The runs-CSV path of `perfplan plan` over a runs table already read (the service's inline
// "runs_csv", planner/service/): the same answer AnswerPlan(request) gives when
// request.runs_file names a file holding that table; request.runs_file only names the table in
// the answer and its messages. Declared apart from plan.h so that its includers do not
// recompile.
#pragma once

#include "planner/plan/plan.h"
#include "profiles/runtime/runs_csv.h"

namespace perfplan::planner {

// `prices` may be null. InvalidArgument for a request that is not of the runs path.
Result<PlanAnswer> AnswerPlan(const profiles::RunsTable& runs, const profiles::PriceFile* prices,
                              const PlanRequest& request);

}  // namespace perfplan::planner
