// CreateBackup, DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup and
// RestoreTableToPointInTime: backups and restores (engine/backups/backups.h), in DynamoDB's shapes.
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

const char* StatusName(BackupStatus status) {
  switch (status) {
    case BackupStatus::kCreating:
      return "CREATING";
    case BackupStatus::kDeleted:
      return "DELETED";
    case BackupStatus::kAvailable:
      break;
  }
  return "AVAILABLE";
}

void WriteDetailsMembers(json::Writer& writer, const BackupDetails& details) {
  writer.Key("BackupArn");
  json::String(writer, details.backup_arn);
  writer.Key("BackupName");
  json::String(writer, details.backup_name);
  writer.Key("BackupSizeBytes");
  writer.Int64(details.backup_size_bytes);
  writer.Key("BackupStatus");
  writer.String(StatusName(details.backup_status));
  writer.Key("BackupType");
  writer.String(details.system ? "SYSTEM" : "USER");
  writer.Key("BackupCreationDateTime");
  json::EpochSeconds(writer, details.backup_creation_ms);
  if (details.system) {
    writer.Key("BackupExpiryDateTime");
    json::EpochSeconds(writer, details.backup_expiry_ms);
  }
}

void WriteThroughput(json::Writer& writer, const ProvisionedThroughput& throughput) {
  writer.Key("ProvisionedThroughput");
  writer.StartObject();
  writer.Key("ReadCapacityUnits");
  writer.Int64(throughput.read_capacity_units);
  writer.Key("WriteCapacityUnits");
  writer.Int64(throughput.write_capacity_units);
  writer.EndObject();
}

// SourceTableDetails and SourceTableFeatureDetails: what a backup recorded of its table.
void WriteSource(json::Writer& writer, const TableDescription& table, bool system,
                 const EngineOptions& options) {
  writer.Key("SourceTableDetails");
  writer.StartObject();
  writer.Key("TableName");
  json::String(writer, table.table_name);
  writer.Key("TableId");
  json::String(writer, table.table_id);
  writer.Key("TableArn");
  json::String(writer, table.table_arn);
  writer.Key("TableSizeBytes");
  writer.Int64(table.table_size_bytes);
  EncodeKeySchemaMember(writer, table.key_schema);
  writer.Key("TableCreationDateTime");
  json::EpochSeconds(writer, table.creation_date_time_ms);
  WriteThroughput(writer, table.provisioned_throughput);
  EncodeOnDemandThroughputMember(writer, table.on_demand_throughput);
  writer.Key("ItemCount");
  writer.Int64(table.item_count);
  writer.Key("BillingMode");
  writer.String(table.billing_mode == BillingMode::kPayPerRequest ? "PAY_PER_REQUEST"
                                                                  : "PROVISIONED");
  writer.EndObject();

  writer.Key("SourceTableFeatureDetails");
  writer.StartObject();
  // A SYSTEM backup describes none of the table's features.
  for (const bool global : {false, true}) {
    if (system) break;
    bool any = false;
    for (const IndexDescription& index : table.indexes) any |= index.is_global == global;
    if (!any) continue;
    writer.Key(global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
    writer.StartArray();
    for (const IndexDescription& index : table.indexes) {
      if (index.is_global != global) continue;
      writer.StartObject();
      writer.Key("IndexName");
      json::String(writer, index.definition.index_name);
      EncodeKeySchemaMember(writer, index.definition.key_schema);
      EncodeProjectionMember(writer, index.definition.projection);
      if (global) {
        WriteThroughput(writer,
                        index.definition.provisioned_throughput.value_or(ProvisionedThroughput{}));
        if (index.definition.on_demand_throughput) {
          EncodeOnDemandThroughputMember(writer, *index.definition.on_demand_throughput);
        }
      }
      writer.EndObject();
    }
    writer.EndArray();
  }
  if (table.stream_specification && !system) {
    EncodeStreamSpecificationMember(writer, "StreamDescription", *table.stream_specification);
  }
  if (!table.time_to_live_attribute.empty() && !system) {
    writer.Key("TimeToLiveDescription");
    writer.StartObject();
    writer.Key("TimeToLiveStatus");
    writer.String("ENABLED");
    writer.Key("AttributeName");
    json::String(writer, table.time_to_live_attribute);
    writer.EndObject();
  }
  if (!system) EncodeSseMember(writer, table, options);
  writer.EndObject();
}

void WriteBackupDescription(json::Writer& writer, const BackupDescription& backup,
                            const EngineOptions& options) {
  writer.StartObject();
  writer.Key("BackupDescription");
  writer.StartObject();
  writer.Key("BackupDetails");
  writer.StartObject();
  WriteDetailsMembers(writer, backup.details);
  writer.EndObject();
  WriteSource(writer, backup.source, backup.details.system, options);
  writer.EndObject();
  writer.EndObject();
}

}  // namespace

Status CreateBackup(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::CreateBackupInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  CreateBackupArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  args.backup_name = std::string(in.backup_name);
  auto details = engine.CreateBackup(args);
  if (!details.ok()) return details.error();
  response.StartObject();
  response.Key("BackupDetails");
  response.StartObject();
  WriteDetailsMembers(response, details.value());
  response.EndObject();
  response.EndObject();
  return Ok{};
}

Status DescribeBackup(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::DescribeBackupInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  auto backup = engine.DescribeBackup(std::string(in.backup_arn));
  if (!backup.ok()) return backup.error();
  WriteBackupDescription(response, backup.value(), engine.options());
  return Ok{};
}

Status DeleteBackup(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::DeleteBackupInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  auto backup = engine.DeleteBackup(std::string(in.backup_arn));
  if (!backup.ok()) return backup.error();
  WriteBackupDescription(response, backup.value(), engine.options());
  return Ok{};
}

Status ListBackups(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::ListBackupsInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  ListBackupsArgs args;
  if (in.table_name) args.table_name = TableNameOf(engine, *in.table_name);
  if (in.limit) args.limit = *in.limit;
  args.lower_ms = in.time_range_lower_bound;
  args.upper_ms = in.time_range_upper_bound;
  if (in.exclusive_start_backup_arn) {
    args.exclusive_start_backup_arn = std::string(*in.exclusive_start_backup_arn);
  }
  if (in.backup_type == "USER") args.type = ListBackupsArgs::Type::kUser;
  if (in.backup_type == "SYSTEM") args.type = ListBackupsArgs::Type::kSystem;
  if (in.backup_type == "AWS_BACKUP") args.type = ListBackupsArgs::Type::kAwsBackup;
  if (in.backup_type == "ALL") args.type = ListBackupsArgs::Type::kAll;
  auto listed = engine.ListBackups(args);
  if (!listed.ok()) return listed.error();
  response.StartObject();
  response.Key("BackupSummaries");
  response.StartArray();
  for (const BackupDescription& backup : listed.value().backups) {
    response.StartObject();
    response.Key("TableName");
    json::String(response, backup.source.table_name);
    response.Key("TableId");
    json::String(response, backup.source.table_id);
    response.Key("TableArn");
    json::String(response, backup.source.table_arn);
    WriteDetailsMembers(response, backup.details);
    response.EndObject();
  }
  response.EndArray();
  if (listed.value().last_evaluated_backup_arn) {
    response.Key("LastEvaluatedBackupArn");
    json::String(response, *listed.value().last_evaluated_backup_arn);
  }
  response.EndObject();
  return Ok{};
}

Status RestoreTableFromBackup(Engine& engine, const json::Value& request, json::Writer& response,
                              Ticket& ticket) {
  wire::RestoreTableFromBackupInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  RestoreTableFromBackupArgs args;
  args.target_table_name = std::string(in.target_table_name);
  args.backup_arn = std::string(in.backup_arn);
  auto overrides = RestoreOverridesOf(in);
  if (!overrides.ok()) return overrides.error();
  args.overrides = std::move(overrides).value();
  auto restored = engine.RestoreTableFromBackup(args);
  if (!restored.ok()) return restored.error();
  ticket = restored.value().ticket;
  EncodeTableDescriptionResponse(response, "TableDescription", restored.value(), engine.options());
  return Ok{};
}

Status RestoreTableToPointInTime(Engine& engine, const json::Value& request, json::Writer& response,
                                 Ticket& ticket) {
  wire::RestoreTableToPointInTimeInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  RestoreTableToPointInTimeArgs args;
  args.target_table_name = std::string(in.target_table_name);
  auto overrides = RestoreOverridesOf(in);
  if (!overrides.ok()) return overrides.error();
  args.overrides = std::move(overrides).value();
  const std::optional<std::string_view>& source_name = in.source_table_name;
  const std::optional<std::string_view>& source_arn = in.source_table_arn;
  args.use_latest_restorable_time = in.use_latest_restorable_time.value_or(false);
  args.restore_date_time_ms = in.restore_date_time;
  if (args.use_latest_restorable_time && args.restore_date_time_ms) {
    return Error::Validation(
        "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for "
        "point-in-time restore request. Please specify either RestoreDateTime time or "
        "UseLatestRestorableTime");
  }
  if (!args.use_latest_restorable_time && !args.restore_date_time_ms) {
    return Error::Validation(
        "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be "
        "specified, but not both");
  }
  if (source_name.has_value() == source_arn.has_value()) {
    return Error::Validation(source_name
                                 ? "Must provide exactly one of: sourceTableArn, sourceTableName"
                                 : "The parameter 'TableName' is required but was not present in "
                                   "the request");
  }
  if (source_name) {
    args.source_table_name = std::string(*source_name);
  } else {
    // One of our tables by ARN; another account's or region's names no table here.
    const std::string_view arn = *source_arn;
    const size_t table = arn.find(":table/");
    if (!arn.starts_with("arn:") || table == std::string_view::npos) {
      return Error::Validation("Invalid Request: sourceTableArn is not a valid ARN");
    }
    const std::string own = engine.TableArn("");
    args.source_table_name = std::string(arn.starts_with(own) ? arn.substr(own.size()) : arn);
  }
  auto restored = engine.RestoreTableToPointInTime(args);
  if (!restored.ok()) return restored.error();
  ticket = restored.value().ticket;
  EncodeTableDescriptionResponse(response, "TableDescription", restored.value(), engine.options());
  return Ok{};
}

}  // namespace ddbd::operations
