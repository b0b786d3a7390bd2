// Normalised (locally weighted) CV+ calibration of the runtime model choice (issue 15).
//
// ChooseRuntimeForm() keeps, per held-out training run i, its |log residual| r_i. That residual
// already contains the extrapolation of i's own fold (a 4-node run predicted from 6 and 8 nodes).
// The conformity score is therefore r_i / σ_i, σ_i = WideningFactor(the fold's training runs, i)
// (models/runtime_evaluate.h), and a target x with difficulty σ(x) gets the CV+ points
// (centre_i, σ(x) · r_i / σ_i): locally weighted conformal (Lei et al., JASA 2018, §5.2), valid
// when the normalised scores are exchangeable. docs/accuracy.md (held-out protocol, step 6) says
// how the rule was fixed.
//
// Pure functions over plain structs; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "models/conformal.h"
#include "models/runtime_forms.h"

namespace perfplan::models {

// The cross-validation folds ChooseRuntimeForm() scores on: one per distinct compute-node count of
// the completed runs (leave-one-node-count-out) when there are at least 3, otherwise one per
// completed run (leave-one-out). held_out lists indices into `runs`, completed runs only, in order.
struct RuntimeFolds {
  std::string scheme;
  std::vector<std::vector<std::size_t>> held_out;
};
RuntimeFolds MakeRuntimeFolds(const std::vector<MeasuredRun>& runs);

// σ_i of every calibration point of `choice`, in the order of CalibrationPoints(): the widening
// factor of the held-out run against the runs its fold was trained on. `train` are the runs the
// choice was made on; when they do not match the choice's calibration set, every σ_i is 1.
std::vector<double> CalibrationDifficulty(const ModelChoice& choice,
                                          const std::vector<MeasuredRun>& train);

// CalibrationPoints() with each radius normalised: r_i · target_widening / difficulty[i]
// (difficulty from CalibrationDifficulty; a missing or non-positive entry counts as 1).
std::vector<ConformalPoint> NormalisedCalibrationPoints(const ModelChoice& choice,
                                                        const std::vector<double>& difficulty,
                                                        const MeasuredRun& target,
                                                        double predicted_seconds,
                                                        double target_widening);

}  // namespace perfplan::models
