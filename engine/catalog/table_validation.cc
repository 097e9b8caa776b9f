#include "engine/catalog/table_validation.h"

#include <algorithm>
#include <map>
#include <string>

#include "engine/catalog/identifiers.h"
#include "engine/catalog/index_validation.h"
#include "engine/catalog/parameter_checks.h"
#include "engine/catalog/vector_index_validation.h"

namespace ddbd {
namespace {

Status CheckCreateBilling(const CreateTableArgs& args) {
  if (args.provisioned_throughput) {
    if (Status bounds = CheckCapacityBounds(*args.provisioned_throughput); !bounds.ok()) {
      return bounds;
    }
  }
  const BillingMode mode = args.billing_mode.value_or(BillingMode::kProvisioned);
  if (mode == BillingMode::kPayPerRequest && args.provisioned_throughput) {
    return InvalidParameter(
        "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is "
        "PAY_PER_REQUEST");
  }
  if (mode == BillingMode::kProvisioned && !args.provisioned_throughput) {
    return InvalidParameter(
        "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is "
        "PROVISIONED");
  }
  if (args.on_demand_throughput) {
    return CheckOnDemandThroughput(*args.on_demand_throughput, mode, false, "table");
  }
  return Ok{};
}

// DynamoDB pairs each key element with a definition, consuming it: a key that names the same
// attribute twice therefore lacks a definition (pinned by test_tables_boto3.py
// test_create_table_same_key_twice).
Status CheckKeySchema(const CreateTableArgs& args) {
  std::map<std::string, int> unused;
  for (const AttributeDefinition& definition : args.attribute_definitions) {
    if (!unused.emplace(definition.attribute_name, 1).second) {
      return Error::Validation("Attribute Name is duplicated: " + definition.attribute_name);
    }
  }
  for (const KeySchemaElement& element : args.key_schema) {
    auto it = unused.find(element.attribute_name);
    if (it == unused.end()) {
      return Error::Validation("Invalid KeySchema: Some index key attribute have no definition");
    }
    unused.erase(it);
  }
  if (!unused.empty()) {
    return InvalidParameter(
        "Number of attributes in KeySchema does not exactly match number of attributes defined "
        "in AttributeDefinitions");
  }
  return CheckKeyTypes(args.key_schema);
}

Status CheckCreateStream(const CreateTableArgs& args) {
  if (!args.stream_specification) return Ok{};
  const StreamSpecification& stream = *args.stream_specification;
  if (stream.stream_enabled && !stream.stream_view_type) {
    return InvalidParameter(
        "Table is being created with a stream enabled, UpdateViewType is required");
  }
  if (!stream.stream_enabled && stream.stream_view_type) {
    return InvalidParameter(
        "Table is being created with a stream disabled, UpdateViewType should not be specified");
  }
  return Ok{};
}

// DynamoDB's initial throughput of an on-demand table, the least WarmThroughput it takes.
constexpr WarmThroughput kInitialOnDemandThroughput{12'000, 4'000};
constexpr const char* kInitialThroughputPage =
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "on-demand-capacity-mode.html#on-demand-capacity-mode-initial";

// What a table is warm for before any WarmThroughput is set.
WarmThroughput ImplicitWarmThroughput(BillingMode billing, const ProvisionedThroughput& capacity) {
  if (billing == BillingMode::kPayPerRequest) return kInitialOnDemandThroughput;
  return {capacity.read_capacity_units, capacity.write_capacity_units};
}

// The members of `requested` applied to `current`, each no lower than its floor: at creation, the
// table's implicit warm throughput (DynamoDB words the two billing modes apart); on update, the
// current value (warm throughput never decreases).
}  // namespace

Result<WarmThroughput> ApplyWarmThroughput(const WarmThroughputRequest& requested,
                                           const WarmThroughput& current, bool creating,
                                           BillingMode billing, const std::string& subject) {
  WarmThroughput merged = current;
  for (const bool read : {true, false}) {
    const std::optional<int64_t>& value =
        read ? requested.read_units_per_second : requested.write_units_per_second;
    if (!value) continue;
    const int64_t floor = read ? current.read_units_per_second : current.write_units_per_second;
    if (*value < floor) {
      const std::string member = read ? "ReadUnitsPerSecond" : "WriteUnitsPerSecond";
      const std::string reason =
          !creating ? "current WarmThroughput, decreasing WarmThroughput is not supported"
          : billing == BillingMode::kPayPerRequest
              ? std::string("initial throughput for OnDemand. See: ") + kInitialThroughputPage
              : std::string(read ? "Read" : "Write") + "CapacityUnits of ProvisionedThroughput";
      return InvalidParameter("Requested " + member + " for WarmThroughput for " + subject +
                              " is lower than " + reason);
    }
    (read ? merged.read_units_per_second : merged.write_units_per_second) = *value;
  }
  return merged;
}

namespace {

Status CheckCreateWarmThroughput(const CreateTableArgs& args) {
  if (!args.warm_throughput) return Ok{};
  const BillingMode billing = args.billing_mode.value_or(BillingMode::kProvisioned);
  const WarmThroughput implicit = ImplicitWarmThroughput(
      billing, args.provisioned_throughput.value_or(ProvisionedThroughput{}));
  auto applied = ApplyWarmThroughput(*args.warm_throughput, implicit, true, billing, "table");
  if (!applied.ok()) return applied.error();
  return Ok{};
}

int CountRequestedChanges(const UpdateTableArgs& args) {
  return args.billing_mode.has_value() + args.provisioned_throughput.has_value() +
         args.stream_specification.has_value() + args.sse_specification.has_value() +
         args.table_class.has_value() + args.deletion_protection_enabled.has_value() +
         args.on_demand_throughput.has_value() + args.warm_throughput.has_value() +
         !args.global_secondary_index_updates.empty() + !args.vector_index_updates.empty();
}

// Settings DynamoDB insists on changing alone, one UpdateTable call each.
Status CheckExclusiveChanges(const UpdateTableArgs& args) {
  if (CountRequestedChanges(args) == 1) return Ok{};
  if (args.sse_specification) {
    return InvalidParameter(
        "Server-Side Encryption modification must be the only operation in the request");
  }
  if (args.table_class) {
    return InvalidParameter("TableClass modification must be the only operation in the request");
  }
  if (args.deletion_protection_enabled) {
    return InvalidParameter(
        "DeletionProtection modification must be the only operation in the request");
  }
  if (args.stream_specification && args.provisioned_throughput) {
    return InvalidParameter("You cannot modify stream status while updating table IOPS");
  }
  return Ok{};
}

std::string UnchangedThroughputMessage(const ProvisionedThroughput& current,
                                       const ProvisionedThroughput& requested) {
  return "The provisioned throughput for the table will not change. The requested value equals "
         "the current value. Current ReadCapacityUnits provisioned for the table: " +
         std::to_string(current.read_capacity_units) +
         ". Requested ReadCapacityUnits: " + std::to_string(requested.read_capacity_units) +
         ". Current WriteCapacityUnits provisioned for the table: " +
         std::to_string(current.write_capacity_units) +
         ". Requested WriteCapacityUnits: " + std::to_string(requested.write_capacity_units) +
         ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request "
         "higher limits.";
}

Status ApplyBilling(const UpdateTableArgs& args, int64_t now_ms, TableDescription& table) {
  const BillingMode target = args.billing_mode.value_or(table.billing_mode);
  const auto& requested = args.provisioned_throughput;
  if (requested) {
    if (Status bounds = CheckCapacityBounds(*requested); !bounds.ok()) return bounds;
  }
  if (target == BillingMode::kProvisioned && !table.vector_indexes.empty()) {
    return InvalidParameter(
        "Vector indexes are supported only on tables that use on-demand capacity mode "
        "(BillingMode PAY_PER_REQUEST)");
  }
  if (target == BillingMode::kPayPerRequest) {
    if (requested && args.billing_mode) {
      return InvalidParameter(
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is "
          "PAY_PER_REQUEST");
    }
    if (requested) {
      return InvalidParameter(
          "ProvisionedThroughput cannot be specified when BillingMode is PAY_PER_REQUEST");
    }
    if (table.billing_mode != BillingMode::kPayPerRequest) {
      table.last_update_to_pay_per_request_ms = now_ms;
    }
    table.billing_mode = BillingMode::kPayPerRequest;
    table.billing_mode_described = true;
    table.provisioned_throughput = {};
    return Ok{};
  }
  if (!requested) {
    if (table.billing_mode == BillingMode::kPayPerRequest) {
      return InvalidParameter(
          "ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
    }
    table.billing_mode_described = true;  // PROVISIONED restated: nothing else changes
    return Ok{};
  }
  const ProvisionedThroughput current = table.provisioned_throughput;
  if (table.billing_mode == BillingMode::kProvisioned &&
      current.read_capacity_units == requested->read_capacity_units &&
      current.write_capacity_units == requested->write_capacity_units) {
    return Error::Validation(UnchangedThroughputMessage(current, *requested));
  }
  if (table.billing_mode == BillingMode::kProvisioned) {
    const bool increase = requested->read_capacity_units > current.read_capacity_units ||
                          requested->write_capacity_units > current.write_capacity_units;
    const bool decrease = requested->read_capacity_units < current.read_capacity_units ||
                          requested->write_capacity_units < current.write_capacity_units;
    if (increase) table.last_increase_date_time_ms = now_ms;
    if (decrease) {
      table.last_decrease_date_time_ms = now_ms;
      ++table.number_of_decreases_today;
    }
  }
  if (args.billing_mode) table.billing_mode_described = true;
  table.billing_mode = BillingMode::kProvisioned;
  table.provisioned_throughput = *requested;
  table.on_demand_throughput = {};  // on-demand ceilings end with on-demand billing
  return Ok{};
}

Status ApplyStream(const StreamSpecification& stream, int64_t now_ms, TableDescription& table) {
  const bool enabled_now = table.stream_specification.has_value();
  if (stream.stream_enabled) {
    if (enabled_now) {
      return Error::Validation("Table already has an enabled stream: TableName: " +
                               table.table_name);
    }
    if (!stream.stream_view_type) {
      return InvalidParameter("If stream is being enabled then UpdateViewType is required");
    }
    table.stream_specification = stream;
    table.latest_stream_label = StreamLabel(now_ms);
    return Ok{};
  }
  if (stream.stream_view_type) {
    return InvalidParameter(
        "If stream is being disabled, then UpdateViewType must not be specified");
  }
  if (!enabled_now) {
    return Error::Validation("Table has no stream to disable: TableName: " + table.table_name);
  }
  // Replication reads the stream (AWS-recorded, DDB-TABLE-227).
  if (!table.replicas.empty()) {
    return Error::Validation("Disabling Stream is not allowed for a Global Table replica.");
  }
  table.stream_specification.reset();
  return Ok{};
}

Status ApplySse(const SseSpecification& sse, TableDescription& table) {
  if (sse.enabled.value_or(false)) {
    table.sse_description = sse;
    return Ok{};
  }
  if (!table.sse_description) return InvalidParameter("Table is already encrypted by default");
  table.sse_description.reset();
  return Ok{};
}

// `args` without the definitions only search schemas use (vector indexes declare their schema
// attributes in AttributeDefinitions too), for the checks that pair definitions with key schemas.
CreateTableArgs WithoutSearchSchemaDefinitions(const CreateTableArgs& args) {
  CreateTableArgs keys_only = args;
  auto in_key = [&](const std::string& name) {
    auto names = [&](const std::vector<KeySchemaElement>& schema) {
      return std::any_of(schema.begin(), schema.end(),
                         [&](const KeySchemaElement& e) { return e.attribute_name == name; });
    };
    if (names(args.key_schema)) return true;
    for (const auto* indexes : {&args.local_secondary_indexes, &args.global_secondary_indexes}) {
      for (const IndexDefinition& index : *indexes) {
        if (names(index.key_schema)) return true;
      }
    }
    return false;
  };
  std::erase_if(keys_only.attribute_definitions, [&](const AttributeDefinition& definition) {
    return UsedBySearchSchema(args.vector_indexes, definition.attribute_name) &&
           !in_key(definition.attribute_name);
  });
  return keys_only;
}

Status ValidateKeysAndSettings(const CreateTableArgs& args) {
  if (Status billing = CheckCreateBilling(args); !billing.ok()) return billing;
  const bool has_indexes =
      !args.local_secondary_indexes.empty() || !args.global_secondary_indexes.empty();
  // With indexes, DynamoDB words attribute-definition problems differently (ValidateIndexes).
  if (Status keys = has_indexes ? ValidateIndexes(args) : CheckKeySchema(args); !keys.ok()) {
    return keys;
  }
  if (has_indexes) {
    if (Status types = CheckKeyTypes(args.key_schema); !types.ok()) return types;
  }
  if (Status stream = CheckCreateStream(args); !stream.ok()) return stream;
  if (Status warm = CheckCreateWarmThroughput(args); !warm.ok()) return warm;
  return Ok{};
}

}  // namespace

Status ValidateCreateTable(const CreateTableArgs& args) {
  if (args.vector_indexes.empty()) return ValidateKeysAndSettings(args);
  if (Status keys = ValidateKeysAndSettings(WithoutSearchSchemaDefinitions(args)); !keys.ok()) {
    return keys;
  }
  std::vector<std::string> index_names;
  for (const auto* indexes : {&args.local_secondary_indexes, &args.global_secondary_indexes}) {
    for (const IndexDefinition& index : *indexes) index_names.push_back(index.index_name);
  }
  return ValidateVectorIndexes(args.vector_indexes,
                               args.billing_mode.value_or(BillingMode::kProvisioned),
                               args.attribute_definitions, index_names);
}

WarmThroughput CurrentWarmThroughput(const TableDescription& table) {
  return table.warm_throughput.value_or(
      ImplicitWarmThroughput(table.billing_mode, table.provisioned_throughput));
}

WarmThroughput IndexWarmThroughput(BillingMode billing, const IndexDescription& index) {
  return index.warm_throughput.value_or(ImplicitWarmThroughput(
      billing, index.definition.provisioned_throughput.value_or(ProvisionedThroughput{})));
}

Result<std::optional<WarmThroughput>> CreatedIndexWarmThroughput(BillingMode billing,
                                                                 const IndexDefinition& index) {
  if (!index.warm_throughput) return std::optional<WarmThroughput>();
  const WarmThroughput implicit = ImplicitWarmThroughput(
      billing, index.provisioned_throughput.value_or(ProvisionedThroughput{}));
  auto applied = ApplyWarmThroughput(*index.warm_throughput, implicit, true, billing,
                                     "index " + index.index_name);
  if (!applied.ok()) return applied.error();
  return std::optional<WarmThroughput>(applied.value());
}

WarmThroughput CreatedWarmThroughput(const CreateTableArgs& args) {
  const BillingMode billing = args.billing_mode.value_or(BillingMode::kProvisioned);
  const WarmThroughput implicit = ImplicitWarmThroughput(
      billing, args.provisioned_throughput.value_or(ProvisionedThroughput{}));
  auto applied = ApplyWarmThroughput(*args.warm_throughput, implicit, true, billing, "table");
  return applied.ok() ? applied.value() : implicit;  // checked by ValidateCreateTable
}

Status ApplyTableUpdate(const UpdateTableArgs& args, int64_t now_ms, TableDescription& table) {
  if (CountRequestedChanges(args) == 0) {
    return Error::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, "
        "ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, "
        "OnDemandThroughput, WarmThroughput or TableClass is required");
  }
  if (Status exclusive = CheckExclusiveChanges(args); !exclusive.ok()) return exclusive;
  if (args.settings_replication_mode) {
    // Kept for a table of one region (a multi-account table's source is ENABLED, whatever it
    // says); a global table's is fixed by how it was made (ddbd's text; DynamoDB's not recorded).
    if (table.replicas.empty()) {
      table.settings_replication_mode = args.settings_replication_mode;
    } else if (args.settings_replication_mode != SettingsReplicationModeOf(table)) {
      return InvalidParameter(
          "GlobalTableSettingsReplicationMode cannot be changed on a global table");
    }
  }
  if (args.billing_mode || args.provisioned_throughput) {
    // Warm throughput never drops: a lower capacity or a switch of billing mode keeps it.
    const WarmThroughput before = table.warm_throughput.value_or(
        ImplicitWarmThroughput(table.billing_mode, table.provisioned_throughput));
    if (Status billing = ApplyBilling(args, now_ms, table); !billing.ok()) return billing;
    const WarmThroughput after =
        ImplicitWarmThroughput(table.billing_mode, table.provisioned_throughput);
    table.warm_throughput =
        WarmThroughput{std::max(before.read_units_per_second, after.read_units_per_second),
                       std::max(before.write_units_per_second, after.write_units_per_second)};
  }
  if (args.on_demand_throughput) {
    // Checked against the billing mode this update leaves (a switch to PAY_PER_REQUEST may
    // set ceilings in the same call).
    if (Status checked =
            CheckOnDemandThroughput(*args.on_demand_throughput, table.billing_mode, true, "table");
        !checked.ok()) {
      return checked;
    }
    MergeOnDemandThroughput(*args.on_demand_throughput, table.on_demand_throughput);
  }
  if (args.stream_specification) {
    if (Status stream = ApplyStream(*args.stream_specification, now_ms, table); !stream.ok()) {
      return stream;
    }
  }
  if (args.sse_specification) {
    if (Status sse = ApplySse(*args.sse_specification, table); !sse.ok()) return sse;
  }
  if (args.table_class) {
    table.table_class = args.table_class;
    table.table_class_last_update_ms = now_ms;
  }
  if (args.deletion_protection_enabled) {
    table.deletion_protection_enabled = *args.deletion_protection_enabled;
  }
  if (args.warm_throughput) {
    const WarmThroughput current = table.warm_throughput.value_or(
        ImplicitWarmThroughput(table.billing_mode, table.provisioned_throughput));
    auto applied =
        ApplyWarmThroughput(*args.warm_throughput, current, false, table.billing_mode, "table");
    if (!applied.ok()) return applied.error();
    table.warm_throughput = applied.value();
  }
  return Ok{};
}

}  // namespace ddbd
