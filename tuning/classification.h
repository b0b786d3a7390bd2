// Classification check of DESIGN §3.6: runs with a heuristic score >= 60 are class 0 ("as good as
// the baseline or better"), the rest class 1; compares the classes of measured scores with those
// of predicted (e.g. cross-validated) scores and reports precision, recall and F1 per class.
// Pure function; thread-safe.
#pragma once

#include <vector>

#include "models/status.h"

namespace perfplan::tuning {

struct ClassMetrics {
  int label = 0;         // 0: score >= threshold, 1: below
  double precision = 0;  // TP / (TP + FP); 0 when nothing was predicted in the class
  double recall = 0;     // TP / (TP + FN); 0 when the class has no measured member
  double f1 = 0;         // harmonic mean of precision and recall; 0 when both are 0
  int support = 0;       // measured members of the class
  int predicted = 0;     // runs predicted in the class
};

struct ClassificationReport {
  double threshold = 60;
  std::vector<ClassMetrics> classes;  // class 0, then class 1
  double accuracy = 0;
  int runs = 0;
};

// InvalidArgument when the vectors differ in size or are empty.
Result<ClassificationReport> ClassifyScores(const std::vector<double>& measured,
                                            const std::vector<double>& predicted,
                                            double threshold = 60.0);

}  // namespace perfplan::tuning
