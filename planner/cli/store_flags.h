// The flags of a question asked of the profile store (apps, jobs, label, score, whatif, ingest,
// collect, …): --store and --json with options.h's wording. Header-only.
#pragma once

#include <memory>
#include <string>

#include "planner/cli/options.h"

namespace perfplan::cli {

// --store (default perfplan.db) and --json. A command's flags struct derives from it.
struct StoreFlags {
  std::string store = "perfplan.db";
  bool json = false;
};

// --store and --json (AddStoreOption, then AddJsonFlag) into `flags`; returns --store's option.
inline CLI::Option* AddStoreFlags(CLI::App& cmd, StoreFlags& flags) {
  CLI::Option* store = AddStoreOption(cmd, flags.store);
  AddJsonFlag(cmd, flags.json);
  return store;
}

// A command whose one question is ask(store) of the store --store names, opened by open(path):
// --store and --json, and a handler writing the answer (WriteAnswer: print, or to_json with
// --json). `apps`, `jobs` and `classify`.
template <typename Open, typename Ask, typename Print, typename Json>
void AddStoreQuestion(CLI::App& cmd, CliContext& ctx, const std::string& name, Open open, Ask ask,
                      Print print, Json to_json) {
  auto flags = std::make_shared<StoreFlags>();
  AddStoreFlags(cmd, *flags);
  cmd.callback([flags, &ctx, name, open, ask, print, to_json] {
    WriteAnswer(ctx, name, flags->json, AskStore(open(flags->store), ask), print, to_json);
  });
}

// The same written as JSON by the answer's own ToJson.
template <typename Open, typename Ask, typename Print>
void AddStoreQuestion(CLI::App& cmd, CliContext& ctx, const std::string& name, Open open, Ask ask,
                      Print print) {
  AddStoreQuestion(cmd, ctx, name, open, ask, print,
                   [](const auto& answer) { return ToJson(answer); });
}

}  // namespace perfplan::cli
