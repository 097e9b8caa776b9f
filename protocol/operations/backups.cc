// CreateBackup, DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup and
// RestoreTableToPointInTime: backups and restores (engine/backups/on_demand_backups.h), in
// DynamoDB's shapes.
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

wire::BackupStatus StatusOf(BackupStatus status) {
  switch (status) {
    case BackupStatus::kCreating:
      return wire::BackupStatus::kCreating;
    case BackupStatus::kDeleted:
      return wire::BackupStatus::kDeleted;
    case BackupStatus::kAvailable:
      break;
  }
  return wire::BackupStatus::kAvailable;
}

// BackupDetails' members, which a BackupSummary has too (`Out`: either).
template <class Out>
void WriteDetailsMembers(Out& out, const BackupDetails& details) {
  out.BackupArn(details.backup_arn);
  out.BackupName(details.backup_name);
  out.BackupSizeBytes(details.backup_size_bytes);
  out.BackupStatus(StatusOf(details.backup_status));
  out.BackupType(details.system ? wire::BackupType::kSystem : wire::BackupType::kUser);
  out.BackupCreationDateTime(details.backup_creation_ms);
  if (details.system) out.BackupExpiryDateTime(details.backup_expiry_ms);
}

template <class Out>
void WriteThroughput(Out& out, const ProvisionedThroughput& throughput) {
  out.ProvisionedThroughput([&](wire::out::ProvisionedThroughput& described) {
    described.ReadCapacityUnits(throughput.read_capacity_units);
    described.WriteCapacityUnits(throughput.write_capacity_units);
  });
}

template <class Out>
void WriteOnDemandThroughput(Out& out, const OnDemandThroughput& throughput) {
  if (throughput.empty()) return;
  out.OnDemandThroughput([&](wire::out::OnDemandThroughput& ceilings) {
    EncodeOnDemandThroughput(ceilings, throughput);
  });
}

// SourceTableDetails: what a backup recorded of its table.
void WriteSourceTable(wire::out::SourceTableDetails& out, const TableDescription& table) {
  out.TableName(table.table_name);
  out.TableId(table.table_id);
  out.TableArn(table.table_arn);
  out.TableSizeBytes(table.table_size_bytes);
  out.KeySchema([&](wire::out::KeySchema& list) { EncodeKeySchema(list, table.key_schema); });
  out.TableCreationDateTime(table.creation_date_time_ms);
  WriteThroughput(out, table.provisioned_throughput);
  WriteOnDemandThroughput(out, table.on_demand_throughput);
  out.ItemCount(table.item_count);
  out.BillingMode(BillingModeOf(table.billing_mode));
}

// The members both kinds of index a backup records have.
template <class Out>
void WriteIndexHead(Out& out, const IndexDefinition& definition) {
  out.IndexName(definition.index_name);
  out.KeySchema([&](wire::out::KeySchema& list) { EncodeKeySchema(list, definition.key_schema); });
  out.Projection([&](wire::out::Projection& projection) {
    EncodeProjection(projection, definition.projection);
  });
}

// SourceTableFeatureDetails: the table's indexes, stream, Time to Live and encryption. A SYSTEM
// backup describes none of them.
void WriteSourceFeatures(wire::out::SourceTableFeatureDetails& out, const TableDescription& table,
                         bool system, const EngineOptions& options) {
  if (system) return;
  bool local = false;
  bool global = false;
  for (const IndexDescription& index : table.indexes) (index.is_global ? global : local) = true;
  if (local) {
    out.LocalSecondaryIndexes([&](wire::out::LocalSecondaryIndexes& list) {
      for (const IndexDescription& index : table.indexes) {
        if (index.is_global) continue;
        list.Add([&](wire::out::LocalSecondaryIndexInfo& info) {
          WriteIndexHead(info, index.definition);
        });
      }
    });
  }
  if (global) {
    out.GlobalSecondaryIndexes([&](wire::out::GlobalSecondaryIndexes& list) {
      for (const IndexDescription& index : table.indexes) {
        if (!index.is_global) continue;
        list.Add([&](wire::out::GlobalSecondaryIndexInfo& info) {
          WriteIndexHead(info, index.definition);
          WriteThroughput(
              info, index.definition.provisioned_throughput.value_or(ProvisionedThroughput{}));
          if (index.definition.on_demand_throughput) {
            WriteOnDemandThroughput(info, *index.definition.on_demand_throughput);
          }
        });
      }
    });
  }
  if (!table.vector_indexes.empty()) {
    out.VectorIndexes([&](wire::out::VectorIndexInfoList& list) {
      for (const VectorIndexDescription& index : table.vector_indexes) {
        list.Add([&](wire::out::VectorIndexInfo& info) {
          EncodeVectorIndexDefinition(info, index.definition);
        });
      }
    });
  }
  if (table.stream_specification) {
    out.StreamDescription([&](wire::out::StreamSpecification& stream) {
      EncodeStreamSpecification(stream, *table.stream_specification);
    });
  }
  if (!table.time_to_live_attribute.empty()) {
    out.TimeToLiveDescription([&](wire::out::TimeToLiveDescription& ttl) {
      ttl.TimeToLiveStatus(wire::TimeToLiveStatus::kEnabled);
      ttl.AttributeName(table.time_to_live_attribute);
    });
  }
  if (table.sse_description) {
    out.SSEDescription(
        [&](wire::out::SSEDescription& sse) { EncodeSseDescription(sse, table, options); });
  }
}

// DescribeBackup's and DeleteBackup's answer (`Output`: either).
template <class Output>
void WriteBackupDescription(json::Writer& writer, const BackupDescription& backup,
                            const EngineOptions& options) {
  wire::Write<Output>(writer, [&](Output& out) {
    out.BackupDescription([&](wire::out::BackupDescription& description) {
      description.BackupDetails(
          [&](wire::out::BackupDetails& details) { WriteDetailsMembers(details, backup.details); });
      description.SourceTableDetails(
          [&](wire::out::SourceTableDetails& source) { WriteSourceTable(source, backup.source); });
      description.SourceTableFeatureDetails([&](wire::out::SourceTableFeatureDetails& features) {
        WriteSourceFeatures(features, backup.source, backup.details.system, options);
      });
    });
  });
}

// The restores' answer: the new table's description.
template <class Output>
void WriteRestoredTable(json::Writer& writer, const TableDescription& table,
                        const EngineOptions& options) {
  wire::Write<Output>(writer, [&](Output& out) {
    out.TableDescription([&](wire::out::TableDescription& described) {
      EncodeTableDescription(described, table, options);
    });
  });
}

}  // namespace

Status CreateBackup(Engine& engine, const wire::CreateBackupInput& in, json::Writer& response) {
  CreateBackupArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  args.backup_name = std::string(in.backup_name);
  auto details = engine.CreateBackup(args);
  if (!details.ok()) return details.error();
  wire::Write<wire::out::CreateBackupOutput>(response, [&](auto& out) {
    out.BackupDetails([&](wire::out::BackupDetails& described) {
      WriteDetailsMembers(described, details.value());
    });
  });
  return Ok{};
}

Status DescribeBackup(Engine& engine, const wire::DescribeBackupInput& in, json::Writer& response) {
  auto backup = engine.DescribeBackup(std::string(in.backup_arn));
  if (!backup.ok()) return backup.error();
  WriteBackupDescription<wire::out::DescribeBackupOutput>(response, backup.value(),
                                                          engine.options());
  return Ok{};
}

Status DeleteBackup(Engine& engine, const wire::DeleteBackupInput& in, json::Writer& response) {
  auto backup = engine.DeleteBackup(std::string(in.backup_arn));
  if (!backup.ok()) return backup.error();
  WriteBackupDescription<wire::out::DeleteBackupOutput>(response, backup.value(), engine.options());
  return Ok{};
}

Status ListBackups(Engine& engine, const wire::ListBackupsInput& in, json::Writer& response) {
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
  wire::Write<wire::out::ListBackupsOutput>(response, [&](auto& out) {
    out.BackupSummaries([&](wire::out::BackupSummaries& list) {
      for (const BackupDescription& backup : listed.value().backups) {
        list.Add([&](wire::out::BackupSummary& summary) {
          summary.TableName(backup.source.table_name);
          summary.TableId(backup.source.table_id);
          summary.TableArn(backup.source.table_arn);
          WriteDetailsMembers(summary, backup.details);
        });
      }
    });
    if (listed.value().last_evaluated_backup_arn) {
      out.LastEvaluatedBackupArn(*listed.value().last_evaluated_backup_arn);
    }
  });
  return Ok{};
}

Status RestoreTableFromBackup(Engine& engine, const wire::RestoreTableFromBackupInput& in,
                              json::Writer& response, Ticket& ticket) {
  RestoreTableFromBackupArgs args;
  args.target_table_name = std::string(in.target_table_name);
  args.backup_arn = std::string(in.backup_arn);
  auto overrides = RestoreOverridesOf(in);
  if (!overrides.ok()) return overrides.error();
  args.overrides = std::move(overrides).value();
  auto restored = engine.RestoreTableFromBackup(args);
  if (!restored.ok()) return restored.error();
  ticket = restored.value().ticket;
  WriteRestoredTable<wire::out::RestoreTableFromBackupOutput>(response, restored.value(),
                                                              engine.options());
  return Ok{};
}

Status RestoreTableToPointInTime(Engine& engine, const wire::RestoreTableToPointInTimeInput& in,
                                 json::Writer& response, Ticket& ticket) {
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
  WriteRestoredTable<wire::out::RestoreTableToPointInTimeOutput>(response, restored.value(),
                                                                 engine.options());
  return Ok{};
}

}  // namespace ddbd::operations
