// The catalog as the features that keep state in a table's description see it (TableMetadata),
// and the Engine's calls of those features, which only delegate: tags (engine/tags/) and
// resource-based policies (engine/policies/), Kinesis streaming destinations (engine/kinesis/),
// Contributor Insights (engine/insights/).
#include <mutex>
#include <shared_mutex>

#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/insights/insight_reports.h"
#include "engine/insights/insight_settings.h"
#include "engine/kinesis/streaming_destinations.h"
#include "engine/policies/resource_policies.h"
#include "engine/tags/tag_operations.h"

namespace ddbd {

std::string Engine::TableArn(std::string_view table_name) const {
  return state_->catalog.TableArn(table_name);
}

Result<Ticket> Engine::TagResource(const TagResourceArgs& args) {
  return ddbd::TagResource(state_->catalog, args);
}

Result<Ticket> Engine::UntagResource(const UntagResourceArgs& args) {
  return ddbd::UntagResource(state_->catalog, args);
}

Result<ListTagsOfResourceResult> Engine::ListTagsOfResource(
    const ListTagsOfResourceArgs& args) const {
  return ddbd::ListTagsOfResource(state_->catalog, args);
}

Result<PolicyOutcome> Engine::PutResourcePolicy(const PutResourcePolicyArgs& args) {
  return ddbd::PutResourcePolicy(state_->catalog, clock_, args);
}

Result<ResourcePolicy> Engine::GetResourcePolicy(const std::string& resource_arn) const {
  return ddbd::GetResourcePolicy(state_->catalog, resource_arn);
}

Result<PolicyOutcome> Engine::DeleteResourcePolicy(const DeleteResourcePolicyArgs& args) {
  return ddbd::DeleteResourcePolicy(state_->catalog, args);
}

Result<KinesisDestinationOutcome> Engine::EnableKinesisStreamingDestination(
    const KinesisDestinationArgs& args) {
  return EnableKinesisDestination({state_->catalog, clock_, state_->catalog.options.table_delay_ms},
                                  args);
}

Result<KinesisDestinationOutcome> Engine::DisableKinesisStreamingDestination(
    const KinesisDestinationArgs& args) {
  return DisableKinesisDestination(
      {state_->catalog, clock_, state_->catalog.options.table_delay_ms}, args);
}

Result<KinesisDestinationOutcome> Engine::UpdateKinesisStreamingDestination(
    const KinesisDestinationArgs& args) {
  return UpdateKinesisDestination({state_->catalog, clock_, state_->catalog.options.table_delay_ms},
                                  args);
}

Result<KinesisDestinations> Engine::DescribeKinesisStreamingDestination(
    const std::string& table_name) const {
  return DescribeKinesisDestinations(state_->catalog, clock_.NowMs(),
                                     state_->catalog.options.table_delay_ms,
                                     state_->catalog.options.kinesis != nullptr, table_name);
}

Result<ContributorInsightsOutcome> Engine::UpdateContributorInsights(
    const UpdateContributorInsightsArgs& args) {
  return ddbd::UpdateContributorInsights(
      {state_->catalog, clock_, state_->catalog.options.table_delay_ms}, args);
}

Result<ContributorInsightsDescription> Engine::DescribeContributorInsights(
    const std::string& table_name, const std::string& index_name) const {
  return ddbd::DescribeContributorInsights(
      {state_->catalog, clock_, state_->catalog.options.table_delay_ms}, table_name, index_name);
}

Result<std::vector<ContributorInsightsReport>> Engine::ContributorInsightsReports(
    const std::string& table_name, size_t top) const {
  const int64_t now_ms = clock_.NowMs();
  std::optional<TableDescription> described;
  std::shared_ptr<const ContributorTraffic> traffic;
  {
    std::shared_lock lock(state_->catalog.mutex);
    const TableEntry* entry = state_->catalog.FindLocked(table_name, now_ms);
    if (entry == nullptr) {
      return Error::TableResourceNotFound(table_name);
    }
    traffic = entry->insights;
    if (traffic) described = entry->description;  // the rules' names
  }
  if (!traffic) return std::vector<ContributorInsightsReport>{};
  return ReportTraffic(*described, *traffic, now_ms, top);
}

Result<ContributorInsightsList> Engine::ListContributorInsights(
    const ListContributorInsightsArgs& args) const {
  return ddbd::ListContributorInsights(
      {state_->catalog, clock_, state_->catalog.options.table_delay_ms}, args);
}

}  // namespace ddbd
