// Table definitions of a request the generated layer has read and checked
// (protocol/generated/requests.h) into engine types: key schemas, attribute definitions, indexes,
// throughput, streams, encryption, tags and restore overrides, shared by CreateTable,
// UpdateTable, the restores and the tag operations. Their shapes, enums and bounds are
// DynamoDB's already; what is left here are DynamoDB's own rules on them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/auto_scaling.h"
#include "engine/api/backups.h"
#include "engine/api/tables.h"
#include "engine/engine.h"
#include "protocol/generated/requests.h"
#include "protocol/json_reader.h"

namespace ddbd {

// The table a checked TableName (a name or an ARN) names: one of our tables' ARN is its name.
std::string TableNameOf(const Engine& engine, std::string_view name_or_arn);

// A KeySchema list, each element a KeySchemaElement.
std::vector<KeySchemaElement> KeySchemaOf(const json::Value* key_schema);
// An AttributeDefinitions list.
std::vector<AttributeDefinition> AttributeDefinitionsOf(const json::Value* definitions);
// One index (a GlobalSecondaryIndex, LocalSecondaryIndex or CreateGlobalSecondaryIndexAction);
// throughput is read for a global index only. A Projection without its ProjectionType is
// DynamoDB's "Unknown ProjectionType: null".
Result<IndexDefinition> IndexDefinitionOf(const json::Value& index, bool global);
// LocalSecondaryIndexes or GlobalSecondaryIndexes (or a restore's overrides of them).
Result<std::vector<IndexDefinition>> IndexesOf(const json::Value* list, bool global);
// A checked Projection member (ProjectionType null is refused as DynamoDB words it).
Result<Projection> ProjectionOf(const json::Value& projection);
// CreateTable's VectorIndexes, or one CreateVectorIndexAction (the same members).
Result<VectorIndexDefinition> VectorIndexOf(const json::Value& index);
Result<std::vector<VectorIndexDefinition>> VectorIndexesOf(const json::Value* list);

std::optional<ProvisionedThroughput> ProvisionedThroughputOf(const json::Value* throughput);
std::optional<OnDemandThroughput> OnDemandThroughputOf(const json::Value* throughput);
std::optional<WarmThroughputRequest> WarmThroughputOf(const json::Value* warm);
std::optional<BillingMode> BillingModeOf(std::optional<std::string_view> text);
std::optional<TableClass> TableClassOf(std::optional<std::string_view> text);
// An AutoScalingSettingsUpdate (UpdateTableReplicaAutoScaling, UpdateGlobalTableSettings).
AutoScalingUpdate AutoScalingUpdateOf(const json::Value& element);
std::optional<SseSpecification> SseSpecificationOf(const json::Value* sse);
std::vector<Tag> TagsOf(const json::Value* tags);
// Tag keys and values hold only letters, digits, white space and + - = . _ : / (DynamoDB's
// Developer Guide; refused with ValidationException as recorded: behaviours-to-match F4, the text
// inferred). Any character beyond ASCII is taken as a letter.
Status CheckTagCharacters(const std::vector<Tag>& tags);

// BillingMode, ProvisionedThroughput, OnDemandThroughput, StreamSpecification,
// SSESpecification, TableClass, DeletionProtectionEnabled and WarmThroughput: what CreateTable
// and UpdateTable share.
void TableSettingsOf(const wire::CreateTableInput& in, TableSettings& settings);
void TableSettingsOf(const wire::UpdateTableInput& in, TableSettings& settings);

// The overrides of RestoreTableFromBackup and RestoreTableToPointInTime: BillingModeOverride,
// Global/LocalSecondaryIndexOverride (present, even empty, they replace the source's indexes),
// ProvisionedThroughputOverride, OnDemandThroughputOverride and SSESpecificationOverride.
template <typename Input>
Result<RestoreOverrides> RestoreOverridesOf(const Input& in) {
  RestoreOverrides overrides;
  overrides.billing_mode = BillingModeOf(in.billing_mode_override);
  for (const bool global : {true, false}) {
    const json::Value* list =
        global ? in.global_secondary_index_override : in.local_secondary_index_override;
    if (list == nullptr) continue;
    auto indexes = IndexesOf(list, global);
    if (!indexes.ok()) return indexes.error();
    (global ? overrides.global_secondary_indexes : overrides.local_secondary_indexes) =
        std::move(indexes).value();
  }
  overrides.provisioned_throughput = ProvisionedThroughputOf(in.provisioned_throughput_override);
  overrides.on_demand_throughput = OnDemandThroughputOf(in.on_demand_throughput_override);
  overrides.sse_specification = SseSpecificationOf(in.sse_specification_override);
  if (in.vector_index_override != nullptr) {
    auto vectors = VectorIndexesOf(in.vector_index_override);
    if (!vectors.ok()) return vectors.error();
    overrides.vector_indexes = std::move(vectors).value();
  }
  return overrides;
}

}  // namespace ddbd
