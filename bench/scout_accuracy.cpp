// Prints the accuracy tables of docs/accuracy.md for a Scout folder:
//   build/bench/scout_accuracy ../shared/data/04-workload-runtime-traces/scout
//   [hardware|references [own-errors|no-span|no-references|reference-errors|no-pooling]]
// own-errors: intervals calibrated on the workload's own out-of-sample errors only (the default);
// no-span: transfer intervals under one training type without the spanned scalings
// (EvaluateOptions::span_unidentified_scalings = false, docs/accuracy.md step 7); no-references:
// the spanned scalings without the reference workloads' type-to-type ratios
// (EvaluateOptions::span_reference_workloads = false, step 8); reference-errors: the defaults plus
// the reference workloads' out-of-sample errors under the same training design
// (EvaluateOptions::interval_noise_from_references = true); no-pooling: the defaults with the
// chosen serial-floor fully pooled (EvaluateOptions::partial_pooling = false, session 14).
// Exit 2 when the folder cannot be imported.
#include <iostream>
#include <string>

#include "planner/runtime/accuracy.h"
#include "planner/runtime/fit_eval.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: scout_accuracy SCOUT_DIR "
                 "[hardware|references "
                 "[own-errors|no-span|no-references|reference-errors|no-pooling]]\n";
    return 2;
  }
  perfplan::Result<perfplan::planner::ImportScoutAnswer> runs =
      perfplan::planner::AnswerImportScout(argv[1]);
  if (!runs.ok()) {
    std::cerr << runs.status().message() << "\n";
    return 2;
  }
  perfplan::planner::AccuracyOptions options;
  if (argc > 2 && !perfplan::models::Parse(argv[2], &options.evaluate.heterogeneity)) {
    std::cerr << "heterogeneity must be hardware or references, got " << argv[2] << "\n";
    return 2;
  }
  if (argc > 3) {
    const std::string third = argv[3];
    if (third != "own-errors" && third != "no-span" && third != "no-references" &&
        third != "reference-errors" && third != "no-pooling") {
      std::cerr << "the third argument can only be own-errors, no-span, no-references, "
                   "reference-errors or no-pooling, got "
                << third << "\n";
      return 2;
    }
    options.evaluate.interval_noise_from_references = third == "reference-errors";
    options.evaluate.span_unidentified_scalings = third != "no-span";
    options.evaluate.span_reference_workloads =
        third == "own-errors" || third == "reference-errors" || third == "no-pooling";
    options.evaluate.partial_pooling = third != "no-pooling";
  }
  auto report = perfplan::planner::StudyAccuracy(runs.value().runs, options);
  if (!report.ok()) {
    std::cerr << report.status().message() << "\n";
    return 1;
  }
  std::cout << report.value().Markdown();
  return 0;
}
