#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/runtime/json_output.h"
#include "planner/runtime/runtime.h"

namespace perfplan::cli {
namespace {
struct ValidateFlags {
  std::vector<std::string> files;
  bool json = false;
};
}  // namespace

void AddValidateCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<ValidateFlags>();
  cmd.footer("Example:\n  perfplan validate examples/profiles/*.yaml examples/topology.yaml");
  cmd.add_option("files", flags->files, "Profile or topology files (YAML or JSON)")->required();
  AddJsonFlag(cmd, flags->json);
  cmd.callback([flags, &ctx] {
    planner::ValidateAnswer answer = planner::AnswerValidate(flags->files);
    ctx.exit_code = answer.ProblemCount() ? 2 : 0;
    if (flags->json) {
      *ctx.out << planner::ToJson(answer);
      return;
    }
    for (const profiles::FileValidation& f : answer.files) {
      if (f.problems.empty()) *ctx.out << f.file << ": ok (" << profiles::ToString(f.kind) << ")\n";
      for (const profiles::Problem& p : f.problems) *ctx.out << profiles::FormatProblem(p) << "\n";
    }
    if (answer.ProblemCount()) {
      *ctx.err << "perfplan validate: " << answer.ProblemCount() << " problem(s) found\n";
    }
  });
}

}  // namespace perfplan::cli
