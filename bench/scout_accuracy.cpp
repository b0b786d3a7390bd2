// Prints the accuracy tables of docs/accuracy.md for a Scout folder:
//   build/bench/scout_accuracy ../shared/data/04-workload-runtime-traces/scout [seed
//   [hardware|references]]
// Exit 2 when the folder cannot be imported.
#include <cstdlib>
#include <iostream>

#include "planner/runtime/accuracy.h"
#include "planner/runtime/fit_eval.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: scout_accuracy SCOUT_DIR [SEED [hardware|references]]\n";
    return 2;
  }
  perfplan::Result<perfplan::planner::ImportScoutAnswer> runs =
      perfplan::planner::AnswerImportScout(argv[1]);
  if (!runs.ok()) {
    std::cerr << runs.status().message() << "\n";
    return 2;
  }
  perfplan::planner::AccuracyOptions options;
  if (argc > 2) options.evaluate.seed = std::strtoull(argv[2], nullptr, 10);
  if (argc > 3 && !perfplan::models::Parse(argv[3], &options.evaluate.heterogeneity)) {
    std::cerr << "heterogeneity must be hardware or references, got " << argv[3] << "\n";
    return 2;
  }
  auto report = perfplan::planner::StudyAccuracy(runs.value().runs, options);
  if (!report.ok()) {
    std::cerr << report.status().message() << "\n";
    return 1;
  }
  std::cout << report.value().Markdown();
  return 0;
}
