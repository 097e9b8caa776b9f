// The Engine's export calls, which only delegate to engine/exports/.
#include "engine/calls/engine_state.h"
#include "engine/engine.h"

namespace ddbd {

Result<ExportDescription> Engine::ExportTableToPointInTime(const ExportTableArgs& args) {
  return state_->exports.Start(args);
}

Result<ExportDescription> Engine::DescribeExport(const std::string& export_arn) const {
  return state_->exports.Describe(export_arn);
}

Result<ListExportsResult> Engine::ListExports(const ListExportsArgs& args) const {
  return state_->exports.List(args);
}

void Engine::UseItemLines(std::shared_ptr<const ItemLines> lines) {
  state_->exports.UseItemLines(lines);
  state_->imports.UseItemLines(std::move(lines));
}

void Engine::WaitForExports() const { state_->exports.WaitIdle(); }

}  // namespace ddbd
