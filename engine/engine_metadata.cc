// The catalog as the features that keep state in a table's description see it (TableMetadata),
// and the Engine's calls of those features, which only delegate: tags (engine/tags/) and
// resource-based policies (engine/policies/).
#include <mutex>
#include <shared_mutex>

#include "engine/engine.h"
#include "engine/engine_state.h"
#include "engine/policies/resource_policies.h"
#include "engine/tags/tags.h"

namespace ddbd {

std::string Engine::State::TableArn(std::string_view table_name) const {
  return "arn:aws:dynamodb:" + options.region + ":" + options.account_id + ":table/" +
         std::string(table_name);
}

std::optional<TableDescription> Engine::State::Describe(std::string_view table_name) const {
  const int64_t now_ms = clock.NowMs();
  std::shared_lock lock(mutex);
  const TableEntry* entry = FindLocked(table_name, now_ms);
  if (entry == nullptr) return std::nullopt;
  return Snapshot(*entry, now_ms);
}

Result<Ticket> Engine::State::ChangeMetadata(
    const std::string& table_name, const std::function<Status(TableDescription&)>& change) {
  const int64_t now_ms = clock.NowMs();
  std::unique_lock lock(mutex);
  const TableEntry* entry = FindLocked(table_name, now_ms);
  if (entry == nullptr) {
    return Error::ResourceNotFound("Requested resource not found: Table: " + table_name +
                                   " not found");
  }
  CatalogChange changed;
  changed.kind = CatalogChange::Kind::kTableMetadata;
  changed.table_name = table_name;
  CopyTableMetadata(entry->description, changed.description);
  changed.now_ms = now_ms;
  if (Status made = change(changed.description); !made.ok()) return made.error();
  return Ticket{CommitCatalogLocked(std::move(changed))};
}

Result<Ticket> Engine::ChangeTableMetadata(const std::string& table_name,
                                           const std::function<Status(TableDescription&)>& change) {
  return state_->ChangeMetadata(table_name, change);
}

std::string Engine::TableArn(std::string_view table_name) const {
  return state_->TableArn(table_name);
}

Result<Ticket> Engine::TagResource(const TagResourceArgs& args) {
  return ddbd::TagResource(*state_, args);
}

Result<Ticket> Engine::UntagResource(const UntagResourceArgs& args) {
  return ddbd::UntagResource(*state_, args);
}

Result<ListTagsOfResourceResult> Engine::ListTagsOfResource(
    const ListTagsOfResourceArgs& args) const {
  return ddbd::ListTagsOfResource(*state_, args);
}

Result<PolicyOutcome> Engine::PutResourcePolicy(const PutResourcePolicyArgs& args) {
  return ddbd::PutResourcePolicy(*state_, clock_, args);
}

Result<ResourcePolicy> Engine::GetResourcePolicy(const std::string& resource_arn) const {
  return ddbd::GetResourcePolicy(*state_, resource_arn);
}

Result<PolicyOutcome> Engine::DeleteResourcePolicy(const DeleteResourcePolicyArgs& args) {
  return ddbd::DeleteResourcePolicy(*state_, args);
}

}  // namespace ddbd
