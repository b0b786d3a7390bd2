#include "tuning/classification.h"

namespace perfplan::tuning {

Result<ClassificationReport> ClassifyScores(const std::vector<double>& measured,
                                            const std::vector<double>& predicted,
                                            double threshold) {
  if (measured.empty() || measured.size() != predicted.size()) {
    return Status::InvalidArgument(
        "classification needs equally many measured and predicted scores (> 0)");
  }
  ClassificationReport r;
  r.threshold = threshold;
  r.runs = static_cast<int>(measured.size());
  int tp[2] = {0, 0}, correct = 0;
  r.classes = {ClassMetrics{}, ClassMetrics{}};
  r.classes[1].label = 1;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const int truth = measured[i] >= threshold ? 0 : 1;
    const int guess = predicted[i] >= threshold ? 0 : 1;
    ++r.classes[truth].support;
    ++r.classes[guess].predicted;
    if (truth == guess) {
      ++tp[truth];
      ++correct;
    }
  }
  for (int c = 0; c < 2; ++c) {
    ClassMetrics& m = r.classes[c];
    m.precision = m.predicted ? static_cast<double>(tp[c]) / m.predicted : 0.0;
    m.recall = m.support ? static_cast<double>(tp[c]) / m.support : 0.0;
    m.f1 = m.precision + m.recall > 0 ? 2 * m.precision * m.recall / (m.precision + m.recall) : 0;
  }
  r.accuracy = static_cast<double>(correct) / r.runs;
  return r;
}

}  // namespace perfplan::tuning
