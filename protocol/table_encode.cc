#include "protocol/table_encode.h"

#include <string>

namespace ddbd {
namespace {

const char* Name(ScalarAttributeType type) {
  switch (type) {
    case ScalarAttributeType::kS:
      return "S";
    case ScalarAttributeType::kN:
      return "N";
    case ScalarAttributeType::kB:
      return "B";
  }
  return "S";
}

const char* Name(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return "CREATING";
    case TableStatus::kUpdating:
      return "UPDATING";
    case TableStatus::kDeleting:
      return "DELETING";
    case TableStatus::kActive:
      return "ACTIVE";
  }
  return "ACTIVE";
}

const char* Name(StreamViewType type) {
  switch (type) {
    case StreamViewType::kNewImage:
      return "NEW_IMAGE";
    case StreamViewType::kOldImage:
      return "OLD_IMAGE";
    case StreamViewType::kNewAndOldImages:
      return "NEW_AND_OLD_IMAGES";
    case StreamViewType::kKeysOnly:
      return "KEYS_ONLY";
  }
  return "NEW_IMAGE";
}

const char* Name(TableClass table_class) {
  return table_class == TableClass::kStandard ? "STANDARD" : "STANDARD_INFREQUENT_ACCESS";
}

void EncodeKeySchema(json::Writer& writer, const std::vector<KeySchemaElement>& key_schema) {
  writer.Key("KeySchema");
  writer.StartArray();
  for (const KeySchemaElement& element : key_schema) {
    writer.StartObject();
    writer.Key("AttributeName");
    json::String(writer, element.attribute_name);
    writer.Key("KeyType");
    writer.String(element.key_type == KeyType::kHash ? "HASH" : "RANGE");
    writer.EndObject();
  }
  writer.EndArray();
}

void EncodeAttributeDefinitions(json::Writer& writer, const TableDescription& table) {
  writer.Key("AttributeDefinitions");
  writer.StartArray();
  for (const AttributeDefinition& definition : table.attribute_definitions) {
    writer.StartObject();
    writer.Key("AttributeName");
    json::String(writer, definition.attribute_name);
    writer.Key("AttributeType");
    writer.String(Name(definition.attribute_type));
    writer.EndObject();
  }
  writer.EndArray();
}

const char* Name(ProjectionType type) {
  switch (type) {
    case ProjectionType::kAll:
      return "ALL";
    case ProjectionType::kKeysOnly:
      return "KEYS_ONLY";
    case ProjectionType::kInclude:
      return "INCLUDE";
  }
  return "ALL";
}

// Present only when a ceiling is set (or, in UpdateTable's answer, just removed: -1).
void EncodeOnDemandThroughput(json::Writer& writer, const OnDemandThroughput& throughput) {
  if (throughput.empty()) return;
  writer.Key("OnDemandThroughput");
  writer.StartObject();
  if (throughput.max_read_request_units) {
    writer.Key("MaxReadRequestUnits");
    writer.Int64(*throughput.max_read_request_units);
  }
  if (throughput.max_write_request_units) {
    writer.Key("MaxWriteRequestUnits");
    writer.Int64(*throughput.max_write_request_units);
  }
  writer.EndObject();
}

// DynamoDB describes it on every table and global index; a change takes no time here.
void EncodeWarmThroughput(json::Writer& writer, const WarmThroughput& warm) {
  writer.Key("WarmThroughput");
  writer.StartObject();
  writer.Key("ReadUnitsPerSecond");
  writer.Int64(warm.read_units_per_second);
  writer.Key("WriteUnitsPerSecond");
  writer.Int64(warm.write_units_per_second);
  writer.Key("Status");
  writer.String("ACTIVE");
  writer.EndObject();
}

void EncodeIndex(json::Writer& writer, const IndexDescription& index,
                 const TableDescription& table) {
  const IndexDefinition& definition = index.definition;
  writer.StartObject();
  writer.Key("IndexName");
  json::String(writer, definition.index_name);
  EncodeKeySchema(writer, definition.key_schema);
  EncodeProjectionMember(writer, definition.projection);
  if (index.is_global) {
    writer.Key("IndexStatus");
    writer.String(Name(index.index_status));
    if (index.backfilling) {
      writer.Key("Backfilling");
      writer.Bool(true);
    }
    const ProvisionedThroughput throughput =
        definition.provisioned_throughput.value_or(ProvisionedThroughput{});
    writer.Key("ProvisionedThroughput");
    writer.StartObject();
    writer.Key("NumberOfDecreasesToday");
    writer.Int64(0);
    writer.Key("ReadCapacityUnits");
    writer.Int64(throughput.read_capacity_units);
    writer.Key("WriteCapacityUnits");
    writer.Int64(throughput.write_capacity_units);
    writer.EndObject();
    if (definition.on_demand_throughput) {
      EncodeOnDemandThroughput(writer, *definition.on_demand_throughput);
    }
    EncodeWarmThroughput(writer, IndexWarmThroughput(table.billing_mode, index));
  }
  writer.Key("IndexSizeBytes");
  writer.Int64(index.index_size_bytes);
  writer.Key("ItemCount");
  writer.Int64(index.item_count);
  writer.Key("IndexArn");
  json::String(writer, table.table_arn + "/index/" + definition.index_name);
  writer.EndObject();
}

void EncodeIndexes(json::Writer& writer, const TableDescription& table) {
  for (const bool global : {false, true}) {
    bool any = false;
    for (const IndexDescription& index : table.indexes) any |= index.is_global == global;
    if (!any) continue;
    writer.Key(global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
    writer.StartArray();
    for (const IndexDescription& index : table.indexes) {
      if (index.is_global == global) EncodeIndex(writer, index, table);
    }
    writer.EndArray();
  }
}

void EncodeThroughput(json::Writer& writer, const TableDescription& table) {
  writer.Key("ProvisionedThroughput");
  writer.StartObject();
  if (table.last_increase_date_time_ms > 0) {
    writer.Key("LastIncreaseDateTime");
    json::EpochSeconds(writer, table.last_increase_date_time_ms);
  }
  if (table.last_decrease_date_time_ms > 0) {
    writer.Key("LastDecreaseDateTime");
    json::EpochSeconds(writer, table.last_decrease_date_time_ms);
  }
  writer.Key("NumberOfDecreasesToday");
  writer.Int64(table.number_of_decreases_today);
  writer.Key("ReadCapacityUnits");
  writer.Int64(table.provisioned_throughput.read_capacity_units);
  writer.Key("WriteCapacityUnits");
  writer.Int64(table.provisioned_throughput.write_capacity_units);
  writer.EndObject();
}

void EncodeBillingMode(json::Writer& writer, const TableDescription& table) {
  if (!table.billing_mode_described) return;
  writer.Key("BillingModeSummary");
  writer.StartObject();
  writer.Key("BillingMode");
  writer.String(table.billing_mode == BillingMode::kPayPerRequest ? "PAY_PER_REQUEST"
                                                                  : "PROVISIONED");
  if (table.last_update_to_pay_per_request_ms > 0) {
    writer.Key("LastUpdateToPayPerRequestDateTime");
    json::EpochSeconds(writer, table.last_update_to_pay_per_request_ms);
  }
  writer.EndObject();
}

void EncodeStream(json::Writer& writer, const TableDescription& table) {
  if (table.stream_specification) {
    EncodeStreamSpecificationMember(writer, "StreamSpecification", *table.stream_specification);
  }
  if (!table.latest_stream_label.empty()) {
    writer.Key("LatestStreamLabel");
    json::String(writer, table.latest_stream_label);
    writer.Key("LatestStreamArn");
    json::String(writer, table.table_arn + "/stream/" + table.latest_stream_label);
  }
}

void EncodeSse(json::Writer& writer, const TableDescription& table, const EngineOptions& options) {
  if (!table.sse_description) return;
  // Without a key of the caller's, DynamoDB uses the account's AWS managed key for DynamoDB.
  std::string key =
      table.sse_description->kms_master_key_id.value_or("00000000-0000-4000-8000-000000000000");
  if (!key.starts_with("arn:")) {
    key = "arn:aws:kms:" + options.region + ":" + options.account_id + ":key/" + key;
  }
  writer.Key("SSEDescription");
  writer.StartObject();
  writer.Key("Status");
  writer.String("ENABLED");
  writer.Key("SSEType");
  writer.String("KMS");
  writer.Key("KMSMasterKeyArn");
  json::String(writer, key);
  writer.EndObject();
}

// A restored table's origin: described while it is CREATING, and in the restore's own answer.
void EncodeRestoreSummary(json::Writer& writer, const TableDescription& table) {
  if (!table.restore_summary) return;
  const RestoreSummary& restore = *table.restore_summary;
  writer.Key("RestoreSummary");
  writer.StartObject();
  if (!restore.source_backup_arn.empty()) {
    writer.Key("SourceBackupArn");
    json::String(writer, restore.source_backup_arn);
  }
  writer.Key("SourceTableArn");
  json::String(writer, restore.source_table_arn);
  writer.Key("RestoreDateTime");
  json::EpochSeconds(writer, restore.restore_date_time_ms);
  writer.Key("RestoreInProgress");
  writer.Bool(table.table_status == TableStatus::kCreating);
  writer.EndObject();
}

void EncodeTableClass(json::Writer& writer, const TableDescription& table) {
  if (!table.table_class) return;
  writer.Key("TableClassSummary");
  writer.StartObject();
  writer.Key("TableClass");
  writer.String(Name(*table.table_class));
  writer.Key("LastUpdateDateTime");
  json::EpochSeconds(writer, table.table_class_last_update_ms);
  writer.EndObject();
}

}  // namespace

namespace {

// `whole`: DescribeTable's shape; otherwise DeleteTable's, which has no AttributeDefinitions,
// KeySchema, CreationDateTime or index lists.
void EncodeDescription(json::Writer& writer, const TableDescription& table,
                       const EngineOptions& options, bool whole) {
  writer.StartObject();
  if (whole) EncodeAttributeDefinitions(writer, table);
  writer.Key("TableName");
  json::String(writer, table.table_name);
  if (whole) EncodeKeySchema(writer, table.key_schema);
  writer.Key("TableStatus");
  writer.String(Name(table.table_status));
  if (whole) {
    writer.Key("CreationDateTime");
    json::EpochSeconds(writer, table.creation_date_time_ms);
  }
  EncodeThroughput(writer, table);
  writer.Key("TableSizeBytes");
  writer.Int64(table.table_size_bytes);
  writer.Key("ItemCount");
  writer.Int64(table.item_count);
  writer.Key("TableArn");
  json::String(writer, table.table_arn);
  writer.Key("TableId");
  json::String(writer, table.table_id);
  EncodeBillingMode(writer, table);
  if (whole) EncodeIndexes(writer, table);
  EncodeStream(writer, table);
  EncodeSse(writer, table, options);
  EncodeTableClass(writer, table);
  EncodeRestoreSummary(writer, table);
  writer.Key("DeletionProtectionEnabled");
  writer.Bool(table.deletion_protection_enabled);
  EncodeOnDemandThroughput(writer, table.on_demand_throughput);
  EncodeWarmThroughput(writer, CurrentWarmThroughput(table));
  writer.EndObject();
}

}  // namespace

void EncodeTableDescription(json::Writer& writer, const TableDescription& table,
                            const EngineOptions& options) {
  EncodeDescription(writer, table, options, true);
}

void EncodeDeletedTableResponse(json::Writer& writer, const TableDescription& table,
                                const EngineOptions& options) {
  writer.StartObject();
  writer.Key("TableDescription");
  EncodeDescription(writer, table, options, false);
  writer.EndObject();
}

void EncodeTableDescriptionResponse(json::Writer& writer, const char* key,
                                    const TableDescription& table, const EngineOptions& options) {
  writer.StartObject();
  writer.Key(key);
  EncodeTableDescription(writer, table, options);
  writer.EndObject();
}

void EncodeKeySchemaMember(json::Writer& writer, const std::vector<KeySchemaElement>& key_schema) {
  EncodeKeySchema(writer, key_schema);
}

void EncodeStreamSpecificationMember(json::Writer& writer, const char* key,
                                     const StreamSpecification& stream) {
  writer.Key(key);
  writer.StartObject();
  writer.Key("StreamEnabled");
  writer.Bool(true);
  writer.Key("StreamViewType");
  writer.String(Name(stream.stream_view_type.value_or(StreamViewType::kNewAndOldImages)));
  writer.EndObject();
}

void EncodeProjectionMember(json::Writer& writer, const Projection& projection) {
  writer.Key("Projection");
  writer.StartObject();
  writer.Key("ProjectionType");
  writer.String(Name(projection.projection_type));
  if (!projection.non_key_attributes.empty()) {
    writer.Key("NonKeyAttributes");
    writer.StartArray();
    for (const std::string& name : projection.non_key_attributes) json::String(writer, name);
    writer.EndArray();
  }
  writer.EndObject();
}

void EncodeSseMember(json::Writer& writer, const TableDescription& table,
                     const EngineOptions& options) {
  EncodeSse(writer, table, options);
}

void EncodeOnDemandThroughputMember(json::Writer& writer, const OnDemandThroughput& throughput) {
  EncodeOnDemandThroughput(writer, throughput);
}

const char* StreamViewTypeName(StreamViewType type) { return Name(type); }

}  // namespace ddbd
