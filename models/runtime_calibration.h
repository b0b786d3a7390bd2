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
// Transfer under one training type (docs/accuracy.md, held-out protocol step 7): when every
// completed training run is of one instance type, a pooled form's hardware ratio v is 1 on every
// training run whichever hardware figure it is the ratio of, so the form fitted with v from
// vCPUs, from memory or from network bandwidth is one and the same fit on the training rows (same
// coefficients, same CV residuals). UnidentifiedScalings() refits the chosen form under the
// figures other than vCPUs; a row of another type is given the CV+ interval over the union of the
// calibration sets (each centred at its own fold models), so the interval spans what the data
// cannot decide.
//
// Pure functions over plain structs; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/conformal.h"
#include "models/runtime_forms.h"

namespace perfplan::models {

// The cross-validation folds ChooseRuntimeForm() scores on: one per distinct compute-node count of
// the completed runs (leave-one-node-count-out) when there are at least 3, otherwise one per
// completed run (leave-one-out). Over 20 such groups, 20 folds instead, the groups dealt into them
// round-robin (the sorted node counts, or the completed runs in order): scheme "20-fold, node
// counts interleaved" or "20-fold". held_out lists indices into `runs`, completed runs only, in
// order.
struct RuntimeFolds {
  std::string scheme;
  std::vector<std::vector<std::size_t>> held_out;
};
RuntimeFolds MakeRuntimeFolds(const std::vector<MeasuredRun>& runs);
// The runs of `runs` not in `held` (one fold's held_out): the fold's training runs, in order.
std::vector<MeasuredRun> FoldTraining(const std::vector<MeasuredRun>& runs,
                                      const std::vector<std::size_t>& held);

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

// The chosen form refitted (same folds) with v from another hardware figure, with its own
// calibration difficulty (CalibrationDifficulty on the same runs).
struct ScalingAlternative {
  HardwareScaling scaling = HardwareScaling::kMemory;
  ModelChoice choice;
  std::vector<double> difficulty;
};

// The alternatives to `choice` (made on `train` with `options`) that the training runs cannot
// tell apart from it: memory and network bandwidth, when every completed run of `train` is of one
// instance type, options.scaling is kVcpus, the chosen form is pooled and every run has the
// figure. Empty otherwise (several training types identify the scaling; freeride-g, ernest and
// average are not refitted). A figure whose refit fails is left out.
std::vector<ScalingAlternative> UnidentifiedScalings(const ModelChoice& choice,
                                                     const std::vector<MeasuredRun>& train,
                                                     const std::vector<std::string>& target_types,
                                                     const ChoiceOptions& options);

// The runtime of a reference workload (`reference`: its runs) on `type` at `nodes` compute nodes:
// log runtime interpolated linearly in log nodes between its completed runs of that type (their
// geometric mean where several share a node count), held at the nearest measured node count
// beyond them. nullopt when it has no completed run of the type. Used by EvaluateWorkload under
// one training type (docs/accuracy.md, held-out protocol step 8): "the workload changes between
// instance types as this reference does" is one more hypothesis the training runs cannot reject.
std::optional<double> ReferenceRuntime(const std::vector<MeasuredRun>& reference,
                                       const std::string& type, double nodes);

}  // namespace perfplan::models
