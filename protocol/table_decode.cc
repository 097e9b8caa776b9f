#include "protocol/table_decode.h"

#include <algorithm>

#include "protocol/wire/reader.h"

namespace ddbd {
namespace {

KeyType KeyTypeOf(std::string_view text) {
  return text == "RANGE" ? KeyType::kRange : KeyType::kHash;
}

ScalarAttributeType ScalarTypeOf(std::string_view text) {
  if (text == "N") return ScalarAttributeType::kN;
  if (text == "B") return ScalarAttributeType::kB;
  return ScalarAttributeType::kS;
}

ProjectionType ProjectionTypeOf(std::string_view text) {
  if (text == "KEYS_ONLY") return ProjectionType::kKeysOnly;
  if (text == "INCLUDE") return ProjectionType::kInclude;
  return ProjectionType::kAll;
}

std::optional<StreamSpecification> StreamSpecificationOf(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  wire::StreamSpecification in;
  wire::View(*value, in);
  StreamSpecification stream;
  stream.stream_enabled = in.stream_enabled;
  if (in.stream_view_type) {
    const std::string_view type = *in.stream_view_type;
    stream.stream_view_type = type == "NEW_IMAGE"   ? StreamViewType::kNewImage
                              : type == "OLD_IMAGE" ? StreamViewType::kOldImage
                              : type == "KEYS_ONLY" ? StreamViewType::kKeysOnly
                                                    : StreamViewType::kNewAndOldImages;
  }
  return stream;
}

template <typename Input>
void SharedSettingsOf(const Input& in, TableSettings& settings) {
  settings.billing_mode = BillingModeOf(in.billing_mode);
  settings.provisioned_throughput = ProvisionedThroughputOf(in.provisioned_throughput);
  settings.on_demand_throughput = OnDemandThroughputOf(in.on_demand_throughput);
  settings.stream_specification = StreamSpecificationOf(in.stream_specification);
  settings.sse_specification = SseSpecificationOf(in.sse_specification);
  settings.table_class = TableClassOf(in.table_class);
  settings.deletion_protection_enabled = in.deletion_protection_enabled;
  settings.warm_throughput = WarmThroughputOf(in.warm_throughput);
  if (in.global_table_settings_replication_mode) {
    const std::string_view mode = *in.global_table_settings_replication_mode;
    settings.settings_replication_mode = mode == "ENABLED" ? SettingsReplicationMode::kEnabled
                                         : mode == "DISABLED"
                                             ? SettingsReplicationMode::kDisabled
                                             : SettingsReplicationMode::kEnabledWithOverrides;
  }
}

}  // namespace

std::string TableNameOf(const Engine& engine, std::string_view name_or_arn) {
  // An ARN of one of our tables names it; any other ARN names no table we have. (A plain name,
  // nearly every request's, costs no ARN built.)
  if (!name_or_arn.starts_with("arn:")) return std::string(name_or_arn);
  const std::string own_prefix = engine.TableArn("");
  if (name_or_arn.starts_with(own_prefix))
    return std::string(name_or_arn.substr(own_prefix.size()));
  return std::string(name_or_arn);
}

std::vector<KeySchemaElement> KeySchemaOf(const json::Value* key_schema) {
  std::vector<KeySchemaElement> elements;
  if (key_schema == nullptr) return elements;
  for (const json::Value& element : key_schema->GetArray()) {
    wire::KeySchemaElement in;
    wire::View(element, in);
    elements.push_back({std::string(in.attribute_name), KeyTypeOf(in.key_type)});
  }
  return elements;
}

std::vector<AttributeDefinition> AttributeDefinitionsOf(const json::Value* definitions) {
  std::vector<AttributeDefinition> decoded;
  if (definitions == nullptr) return decoded;
  for (const json::Value& element : definitions->GetArray()) {
    wire::AttributeDefinition in;
    wire::View(element, in);
    decoded.push_back({std::string(in.attribute_name), ScalarTypeOf(in.attribute_type)});
  }
  return decoded;
}

Result<Projection> ProjectionOf(const json::Value& value) {
  wire::Projection in;
  wire::View(value, in);
  if (!in.projection_type) {
    return Error::Validation(
        "One or more parameter values were invalid: Unknown ProjectionType: null");
  }
  Projection projection;
  projection.projection_type = ProjectionTypeOf(*in.projection_type);
  if (in.non_key_attributes != nullptr) {
    for (const json::Value& attribute : in.non_key_attributes->GetArray()) {
      projection.non_key_attributes.emplace_back(wire::String(&attribute).value_or(""));
    }
  }
  return projection;
}

Result<IndexDefinition> IndexDefinitionOf(const json::Value& index, bool global) {
  // The three index shapes share these members' names (GlobalSecondaryIndex's are a superset).
  wire::GlobalSecondaryIndex in;
  wire::View(index, in);
  IndexDefinition definition;
  definition.index_name = std::string(in.index_name);
  definition.key_schema = KeySchemaOf(in.key_schema);
  auto projection = ProjectionOf(*in.projection);
  if (!projection.ok()) return projection.error();
  definition.projection = std::move(projection).value();
  if (global) {
    definition.provisioned_throughput = ProvisionedThroughputOf(in.provisioned_throughput);
    definition.on_demand_throughput = OnDemandThroughputOf(in.on_demand_throughput);
    definition.warm_throughput = WarmThroughputOf(in.warm_throughput);
  }
  return definition;
}

Result<std::vector<IndexDefinition>> IndexesOf(const json::Value* list, bool global) {
  std::vector<IndexDefinition> indexes;
  if (list == nullptr) return indexes;
  for (const json::Value& element : list->GetArray()) {
    auto definition = IndexDefinitionOf(element, global);
    if (!definition.ok()) return definition.error();
    indexes.push_back(std::move(definition).value());
  }
  return indexes;
}

Result<VectorIndexDefinition> VectorIndexOf(const json::Value& index) {
  // CreateTable's VectorIndex and UpdateTable's CreateVectorIndexAction share their members.
  wire::VectorIndex in;
  wire::View(index, in);
  VectorIndexDefinition definition;
  definition.index_name = std::string(in.index_name);
  wire::VectorAttributeDefinition attribute;
  wire::View(*in.vector_attribute, attribute);
  definition.vector_attribute = std::string(attribute.attribute_name);
  definition.dimensions = in.dimensions;
  definition.distance_function =
      in.distance_function == "EUCLIDEAN"     ? VectorDistanceFunction::kEuclidean
      : in.distance_function == "DOT_PRODUCT" ? VectorDistanceFunction::kDotProduct
                                              : VectorDistanceFunction::kCosine;
  if (in.search_schema != nullptr) {
    for (const json::Value& element : in.search_schema->GetArray()) {
      wire::SearchSchemaElement schema;
      wire::View(element, schema);
      definition.search_schema.push_back(
          {std::string(schema.attribute_name), schema.search_schema_element_type == "HASH"
                                                   ? SearchSchemaElement::Type::kHash
                                                   : SearchSchemaElement::Type::kInlineFilter});
    }
  }
  auto projection = ProjectionOf(*in.projection);
  if (!projection.ok()) return projection.error();
  definition.projection = std::move(projection).value();
  return definition;
}

Result<std::vector<VectorIndexDefinition>> VectorIndexesOf(const json::Value* list) {
  std::vector<VectorIndexDefinition> indexes;
  if (list == nullptr) return indexes;
  for (const json::Value& element : list->GetArray()) {
    auto definition = VectorIndexOf(element);
    if (!definition.ok()) return definition.error();
    indexes.push_back(std::move(definition).value());
  }
  return indexes;
}

std::optional<ProvisionedThroughput> ProvisionedThroughputOf(const json::Value* throughput) {
  if (throughput == nullptr) return std::nullopt;
  wire::ProvisionedThroughput in;
  wire::View(*throughput, in);
  return ProvisionedThroughput{in.read_capacity_units, in.write_capacity_units};
}

std::optional<OnDemandThroughput> OnDemandThroughputOf(const json::Value* throughput) {
  if (throughput == nullptr) return std::nullopt;
  wire::OnDemandThroughput in;
  wire::View(*throughput, in);
  return OnDemandThroughput{in.max_read_request_units, in.max_write_request_units};
}

std::optional<WarmThroughputRequest> WarmThroughputOf(const json::Value* warm) {
  if (warm == nullptr) return std::nullopt;
  wire::WarmThroughput in;
  wire::View(*warm, in);
  return WarmThroughputRequest{in.read_units_per_second, in.write_units_per_second};
}

std::optional<BillingMode> BillingModeOf(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  return *text == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
}

std::optional<SseSpecification> SseSpecificationOf(const json::Value* sse) {
  if (sse == nullptr) return std::nullopt;
  wire::SSESpecification in;
  wire::View(*sse, in);
  SseSpecification decoded;
  decoded.enabled = in.enabled;
  if (in.sse_type) decoded.sse_type = *in.sse_type == "KMS" ? SseType::kKms : SseType::kAes256;
  if (in.kms_master_key_id) decoded.kms_master_key_id = std::string(*in.kms_master_key_id);
  return decoded;
}

std::vector<Tag> TagsOf(const json::Value* tags) {
  std::vector<Tag> decoded;
  if (tags == nullptr) return decoded;
  for (const json::Value& element : tags->GetArray()) {
    if (element.IsNull()) continue;
    wire::Tag in;
    wire::View(element, in);
    decoded.push_back({std::string(in.key), std::string(in.value)});
  }
  return decoded;
}

namespace {

bool TagCharacter(unsigned char c) {
  return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == ' ' || (c >= '\t' && c <= '\r') ||
         std::string_view("+-=._:/").find(static_cast<char>(c)) != std::string_view::npos;
}

bool TagText(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return TagCharacter(static_cast<unsigned char>(c)); });
}

}  // namespace

Status CheckTagCharacters(const std::vector<Tag>& tags) {
  for (size_t i = 0; i < tags.size(); ++i) {
    for (const bool key : {true, false}) {
      const std::string& text = key ? tags[i].key : tags[i].value;
      if (TagText(text)) continue;
      return Error::Validation("1 validation error detected: Value '" + text + "' at 'tags." +
                               std::to_string(i + 1) + ".member." + (key ? "key" : "value") +
                               "' failed to satisfy constraint: Member must satisfy regular "
                               "expression pattern: [\\p{L}\\p{Z}\\p{N}_.:/=+\\-]*");
    }
  }
  return Ok{};
}

void TableSettingsOf(const wire::CreateTableInput& in, TableSettings& settings) {
  SharedSettingsOf(in, settings);
}

void TableSettingsOf(const wire::UpdateTableInput& in, TableSettings& settings) {
  SharedSettingsOf(in, settings);
}

std::optional<TableClass> TableClassOf(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  return *text == "STANDARD_INFREQUENT_ACCESS" ? TableClass::kStandardInfrequentAccess
                                               : TableClass::kStandard;
}

AutoScalingUpdate AutoScalingUpdateOf(const json::Value& element) {
  wire::AutoScalingSettingsUpdate in;
  wire::View(element, in);
  AutoScalingUpdate update;
  update.minimum_units = in.minimum_units;
  update.maximum_units = in.maximum_units;
  update.disabled = in.auto_scaling_disabled;
  if (in.auto_scaling_role_arn) update.role_arn = std::string(*in.auto_scaling_role_arn);
  if (in.scaling_policy_update != nullptr) {
    wire::AutoScalingPolicyUpdate policy_in;
    wire::View(*in.scaling_policy_update, policy_in);
    wire::AutoScalingTargetTrackingScalingPolicyConfigurationUpdate target;
    wire::View(*policy_in.target_tracking_scaling_policy_configuration, target);
    AutoScalingPolicy& policy = update.policy.emplace();
    if (policy_in.policy_name) policy.policy_name = std::string(*policy_in.policy_name);
    policy.disable_scale_in = target.disable_scale_in;
    policy.scale_in_cooldown = target.scale_in_cooldown;
    policy.scale_out_cooldown = target.scale_out_cooldown;
    policy.target_value = target.target_value;
  }
  return update;
}

}  // namespace ddbd
