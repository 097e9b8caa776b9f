// CreateBackup, DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup and
// RestoreTableToPointInTime: backups and restores (engine/backups/backups.h), in DynamoDB's shapes.
#include "protocol/generated/enums.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMinBackupArnLength = 37;
constexpr size_t kMaxBackupArnLength = 1024;

// A BackupArn member: nullopt when absent (reported as a constraint), its length bounds checked.
Result<std::string> DecodeBackupArn(const json::Value& request, std::string_view member,
                                    std::string_view path, bool required,
                                    ConstraintErrors& errors) {
  auto arn = json::AsString(json::Member(request, member));
  if (!arn.ok()) return arn.error();
  if (!arn.value()) {
    if (required) errors.MustNotBeNull(path);
    return std::string();
  }
  const std::string_view text = *arn.value();
  if (text.size() < kMinBackupArnLength) errors.MinLength(text, path, kMinBackupArnLength);
  if (text.size() > kMaxBackupArnLength) errors.MaxLength(text, path, kMaxBackupArnLength);
  return std::string(text);
}

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

// DescribeBackup and DeleteBackup take one BackupArn.
Result<std::string> DecodeOnlyBackupArn(const json::Value& request) {
  ConstraintErrors errors;
  auto arn = DecodeBackupArn(request, "BackupArn", "backupArn", true, errors);
  if (!arn.ok()) return arn.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape.error();
  return arn;
}

}  // namespace

Status CreateBackup(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  auto table = DecodeTableReference(request, engine, errors);
  if (!table.ok()) return table.error();
  auto name = json::AsString(json::Member(request, "BackupName"));
  if (!name.ok()) return name.error();
  CreateBackupArgs args;
  args.table_name = std::move(table).value();
  if (!name.value()) {
    errors.MustNotBeNull("backupName");
  } else {
    const std::string_view text = *name.value();
    if (!IsValidTableNameCharacters(text)) errors.Pattern(text, "backupName", kTableNamePattern);
    if (text.size() < 3) errors.MinLength(text, "backupName", 3);
    if (text.size() > 255) errors.MaxLength(text, "backupName", 255);
    args.backup_name = std::string(text);
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
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
  auto arn = DecodeOnlyBackupArn(request);
  if (!arn.ok()) return arn.error();
  auto backup = engine.DescribeBackup(arn.value());
  if (!backup.ok()) return backup.error();
  WriteBackupDescription(response, backup.value(), engine.options());
  return Ok{};
}

Status DeleteBackup(Engine& engine, const json::Value& request, json::Writer& response) {
  auto arn = DecodeOnlyBackupArn(request);
  if (!arn.ok()) return arn.error();
  auto backup = engine.DeleteBackup(arn.value());
  if (!backup.ok()) return backup.error();
  WriteBackupDescription(response, backup.value(), engine.options());
  return Ok{};
}

Status ListBackups(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  ListBackupsArgs args;
  if (json::Member(request, "TableName") != nullptr) {
    auto table = DecodeTableReference(request, engine, errors);
    if (!table.ok()) return table.error();
    args.table_name = std::move(table).value();
  }
  auto limit = json::AsInteger(json::Member(request, "Limit"));
  if (!limit.ok()) return limit.error();
  if (limit.value()) {
    if (*limit.value() < 1) errors.MinValue(*limit.value(), "limit", 1);
    if (*limit.value() > 100) errors.MaxValue(*limit.value(), "limit", 100);
    args.limit = *limit.value();
  }
  auto lower = json::AsEpochMs(json::Member(request, "TimeRangeLowerBound"));
  if (!lower.ok()) return lower.error();
  args.lower_ms = lower.value();
  auto upper = json::AsEpochMs(json::Member(request, "TimeRangeUpperBound"));
  if (!upper.ok()) return upper.error();
  args.upper_ms = upper.value();
  auto start =
      DecodeBackupArn(request, "ExclusiveStartBackupArn", "exclusiveStartBackupArn", false, errors);
  if (!start.ok()) return start.error();
  if (!start.value().empty()) args.exclusive_start_backup_arn = std::move(start).value();
  auto type = json::AsString(json::Member(request, "BackupType"));
  if (!type.ok()) return type.error();
  if (type.value()) {
    const std::string_view text = *type.value();
    if (text == "USER") {
      args.type = ListBackupsArgs::Type::kUser;
    } else if (text == "SYSTEM") {
      args.type = ListBackupsArgs::Type::kSystem;
    } else if (text == "AWS_BACKUP") {
      args.type = ListBackupsArgs::Type::kAwsBackup;
    } else if (text == "ALL") {
      args.type = ListBackupsArgs::Type::kAll;
    } else {
      errors.Enum(text, "backupType", wire::kBackupTypeFilter);
    }
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
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
  ConstraintErrors errors;
  RestoreTableFromBackupArgs args;
  auto target = DecodeNewTableName(request, errors, "TargetTableName", "targetTableName");
  if (!target.ok()) return target.error();
  if (!target.value()) errors.MustNotBeNull("targetTableName");
  args.target_table_name = target.value().value_or("");
  auto arn = DecodeBackupArn(request, "BackupArn", "backupArn", true, errors);
  if (!arn.ok()) return arn.error();
  args.backup_arn = std::move(arn).value();
  auto overrides = DecodeRestoreOverrides(request, errors);
  if (!overrides.ok()) return overrides.error();
  args.overrides = std::move(overrides).value();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto restored = engine.RestoreTableFromBackup(args);
  if (!restored.ok()) return restored.error();
  ticket = restored.value().ticket;
  EncodeTableDescriptionResponse(response, "TableDescription", restored.value(), engine.options());
  return Ok{};
}

Status RestoreTableToPointInTime(Engine& engine, const json::Value& request, json::Writer& response,
                                 Ticket& ticket) {
  ConstraintErrors errors;
  RestoreTableToPointInTimeArgs args;
  auto target = DecodeNewTableName(request, errors, "TargetTableName", "targetTableName");
  if (!target.ok()) return target.error();
  if (!target.value()) errors.MustNotBeNull("targetTableName");
  args.target_table_name = target.value().value_or("");
  auto source_name = DecodeNewTableName(request, errors, "SourceTableName", "sourceTableName");
  if (!source_name.ok()) return source_name.error();
  auto source_arn = json::AsString(json::Member(request, "SourceTableArn"));
  if (!source_arn.ok()) return source_arn.error();
  auto latest = json::AsBoolean(json::Member(request, "UseLatestRestorableTime"));
  if (!latest.ok()) return latest.error();
  auto moment = json::AsEpochMs(json::Member(request, "RestoreDateTime"));
  if (!moment.ok()) return moment.error();
  auto overrides = DecodeRestoreOverrides(request, errors);
  if (!overrides.ok()) return overrides.error();
  args.overrides = std::move(overrides).value();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  args.use_latest_restorable_time = latest.value().value_or(false);
  args.restore_date_time_ms = moment.value();
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
  if (source_name.value().has_value() == source_arn.value().has_value()) {
    return Error::Validation(source_name.value()
                                 ? "Must provide exactly one of: sourceTableArn, sourceTableName"
                                 : "The parameter 'TableName' is required but was not present in "
                                   "the request");
  }
  if (source_name.value()) {
    args.source_table_name = *source_name.value();
  } else {
    // One of our tables by ARN; another account's or region's names no table here.
    const std::string_view arn = *source_arn.value();
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
