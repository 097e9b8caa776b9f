// Decodes the table-definition members shared by CreateTable and UpdateTable into engine types.
// Wrong JSON types return a SerializationException at once; constraint failures (nulls, lengths,
// enums, bounds) are added to `errors` so the caller can report them all together.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/tables.h"
#include "engine/engine.h"
#include "protocol/json_reader.h"
#include "protocol/validation_messages.h"

namespace ddbd {

// CreateTable's TableName: [a-zA-Z0-9_.-]+, 3 to 255 characters. Nullopt when absent: the caller
// reports that only after every member was type-checked, as DynamoDB does.
Result<std::optional<std::string>> DecodeNewTableName(const json::Value& request,
                                                      ConstraintErrors& errors,
                                                      std::string_view member = "TableName",
                                                      std::string_view path = "tableName");
// The TableName of an operation on an existing table: a name or the table's ARN, resolved to
// the name. Null or too long values are constraint failures.
Result<std::string> DecodeTableReference(const json::Value& request, const Engine& engine,
                                         ConstraintErrors& errors);

// The table a checked TableName (a name or an ARN) names: one of our tables' ARN is its name.
std::string TableNameOf(const Engine& engine, std::string_view name_or_arn);

// `path` names the key schema in constraint messages ("keySchema",
// "globalSecondaryIndexes.1.member.keySchema").
Result<std::vector<KeySchemaElement>> DecodeKeySchema(const json::Value* value,
                                                      ConstraintErrors& errors,
                                                      const std::string& path = "keySchema",
                                                      bool global_index = false);
// An index's IndexName (the table-name pattern, 3 to 255 characters); empty when null.
Result<std::string> DecodeIndexName(const json::Value& index, const std::string& path,
                                    ConstraintErrors& errors);
// One index definition; `path` names it in constraint messages
// ("globalSecondaryIndexes.1.member"). Throughput is read only for a global index.
Result<IndexDefinition> DecodeIndexDefinition(const json::Value& index, const std::string& path,
                                              bool global, ConstraintErrors& errors);
// LocalSecondaryIndexes or GlobalSecondaryIndexes of CreateTable.
Result<std::vector<IndexDefinition>> DecodeIndexes(const json::Value* value, bool global,
                                                   ConstraintErrors& errors);
Result<std::vector<AttributeDefinition>> DecodeAttributeDefinitions(const json::Value* value,
                                                                    ConstraintErrors& errors);
// BillingMode, ProvisionedThroughput, StreamSpecification, SSESpecification, TableClass and
// DeletionProtectionEnabled, shared by CreateTable and UpdateTable.
Status DecodeTableSettings(const json::Value& request, ConstraintErrors& errors,
                           TableSettings& settings);

// OnDemandThroughput: MaxReadRequestUnits and MaxWriteRequestUnits, both optional (range checks
// are the engine's: their messages are semantic, not coral constraints).
Result<std::optional<OnDemandThroughput>> DecodeOnDemandThroughput(const json::Value* value);
// WarmThroughput (a table's or a global index's): ReadUnitsPerSecond and WriteUnitsPerSecond, both
// optional (their floors are the engine's: the messages are semantic).
Result<std::optional<WarmThroughputRequest>> DecodeWarmThroughput(const json::Value* value);
Result<std::optional<ProvisionedThroughput>> DecodeProvisionedThroughput(const json::Value* value,
                                                                         ConstraintErrors& errors);
Result<std::optional<BillingMode>> DecodeBillingMode(const json::Value* value,
                                                     ConstraintErrors& errors);
Result<std::optional<TableClass>> DecodeTableClass(const json::Value* value,
                                                   ConstraintErrors& errors);
Result<std::optional<StreamSpecification>> DecodeStreamSpecification(const json::Value* value,
                                                                     ConstraintErrors& errors);
Result<std::optional<SseSpecification>> DecodeSseSpecification(const json::Value* value,
                                                               ConstraintErrors& errors);
// ResourceArn (tags, resource policies): nullopt when absent; its length bounds (1 to 1283) as
// constraint errors.
Result<std::optional<std::string>> DecodeResourceArn(const json::Value& request,
                                                     ConstraintErrors& errors);

// The overrides of RestoreTableFromBackup and RestoreTableToPointInTime: BillingModeOverride,
// Global/LocalSecondaryIndexOverride (present, even empty, they replace the source's indexes),
// ProvisionedThroughputOverride, OnDemandThroughputOverride and SSESpecificationOverride.
Result<RestoreOverrides> DecodeRestoreOverrides(const json::Value& request,
                                                ConstraintErrors& errors);
Result<std::vector<Tag>> DecodeTags(const json::Value* value, ConstraintErrors& errors);

}  // namespace ddbd
