// The Engine's import calls, which only delegate to engine/exports/import_jobs.h.
#include "engine/calls/engine_state.h"
#include "engine/engine.h"

namespace ddbd {

Result<ImportTableDescription> Engine::ImportTable(const ImportTableArgs& args) {
  return state_->imports.Start(args);
}

Result<ImportTableDescription> Engine::DescribeImport(const std::string& import_arn) const {
  return state_->imports.Describe(import_arn);
}

Result<ListImportsResult> Engine::ListImports(const ListImportsArgs& args) const {
  return state_->imports.List(args);
}

void Engine::WaitForImports() const { state_->imports.WaitIdle(); }

}  // namespace ddbd
