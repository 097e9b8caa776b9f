#include "protocol/table_decode.h"

#include <algorithm>

#include "protocol/generated/enums.h"

namespace ddbd {
namespace {

constexpr size_t kMaxTableNameLength = 255;
constexpr size_t kMaxTableArnLength = 1024;
constexpr size_t kMaxAttributeNameLength = 255;

std::string MemberPath(std::string_view list_path, size_t index, std::string_view member) {
  return std::string(list_path) + "." + std::to_string(index + 1) + ".member." +
         std::string(member);
}

// Java's toString of a list of KeySchemaElement, as DynamoDB quotes it in messages.
std::string RenderKeySchema(const json::Value& list) {
  std::string text = "[";
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    auto text_of = [&](const char* name) -> std::string {
      const json::Value* member = list[i].IsObject() ? json::Member(list[i], name) : nullptr;
      return member != nullptr && member->IsString() ? member->GetString() : "null";
    };
    if (i > 0) text += ", ";
    text += "KeySchemaElement(attributeName=" + text_of("AttributeName") +
            ", keyType=" + text_of("KeyType") + ")";
  }
  return text + "]";
}

// Reads a required string member with DynamoDB's length bounds on attribute names.
Result<std::string> DecodeAttributeName(const json::Value& element, const std::string& path,
                                        ConstraintErrors& errors) {
  auto name = json::AsString(json::Member(element, "AttributeName"));
  if (!name.ok()) return name.error();
  if (!name.value()) {
    errors.MustNotBeNull(path);
    return std::string();
  }
  std::string_view text = *name.value();
  if (text.empty()) errors.MinLength(text, path, 1);
  if (text.size() > kMaxAttributeNameLength) errors.MaxLength(text, path, kMaxAttributeNameLength);
  return std::string(text);
}

// Reads an optional enum member; `values` maps wire text to engine value, `names` lists them as
// DynamoDB's messages do (protocol/generated/enums.h).
template <typename T>
Result<std::optional<T>> DecodeEnum(const json::Value* value, const std::string& path,
                                    ConstraintErrors& errors,
                                    std::initializer_list<std::pair<std::string_view, T>> values,
                                    std::span<const std::string_view> names) {
  auto text = json::AsString(value);
  if (!text.ok()) return text.error();
  if (!text.value()) return std::optional<T>();
  for (const auto& [name, engine_value] : values) {
    if (name == *text.value()) return std::optional<T>(engine_value);
  }
  errors.Enum(*text.value(), path, names);
  return std::optional<T>(values.begin()->second);
}

}  // namespace

Result<std::optional<std::string>> DecodeNewTableName(const json::Value& request,
                                                      ConstraintErrors& errors,
                                                      std::string_view member,
                                                      std::string_view path) {
  auto name = json::AsString(json::Member(request, member));
  if (!name.ok()) return name.error();
  if (!name.value()) return std::optional<std::string>();
  std::string_view text = *name.value();
  if (!IsValidTableNameCharacters(text)) errors.Pattern(text, path, kTableNamePattern);
  if (text.size() < 3) errors.MinLength(text, path, 3);
  if (text.size() > kMaxTableNameLength) errors.MaxLength(text, path, kMaxTableNameLength);
  return std::optional<std::string>(text);
}

Result<RestoreOverrides> DecodeRestoreOverrides(const json::Value& request,
                                                ConstraintErrors& errors) {
  RestoreOverrides overrides;
  auto billing = DecodeBillingMode(json::Member(request, "BillingModeOverride"), errors);
  if (!billing.ok()) return billing.error();
  overrides.billing_mode = billing.value();
  for (const bool global : {true, false}) {
    const json::Value* list = json::Member(
        request, global ? "GlobalSecondaryIndexOverride" : "LocalSecondaryIndexOverride");
    if (list == nullptr) continue;
    auto indexes = DecodeIndexes(list, global, errors);
    if (!indexes.ok()) return indexes.error();
    (global ? overrides.global_secondary_indexes : overrides.local_secondary_indexes) =
        std::move(indexes).value();
  }
  auto throughput =
      DecodeProvisionedThroughput(json::Member(request, "ProvisionedThroughputOverride"), errors);
  if (!throughput.ok()) return throughput.error();
  overrides.provisioned_throughput = throughput.value();
  auto on_demand = DecodeOnDemandThroughput(json::Member(request, "OnDemandThroughputOverride"));
  if (!on_demand.ok()) return on_demand.error();
  overrides.on_demand_throughput = on_demand.value();
  auto sse = DecodeSseSpecification(json::Member(request, "SSESpecificationOverride"), errors);
  if (!sse.ok()) return sse.error();
  overrides.sse_specification = sse.value();
  return overrides;
}

Result<std::string> DecodeTableReference(const json::Value& request, const Engine& engine,
                                         ConstraintErrors& errors) {
  auto name = json::AsString(json::Member(request, "TableName"));
  if (!name.ok()) return name.error();
  if (!name.value()) {
    errors.MustNotBeNull("tableName");
    return std::string();
  }
  std::string_view text = *name.value();
  if (text.empty()) {
    errors.MinLength(text, "tableName", 1);
    return std::string();
  }
  // An ARN of one of our tables names it; any other ARN names no table we have.
  const std::string own_prefix = engine.TableArn("");
  if (text.starts_with("arn:")) {
    if (text.size() > kMaxTableArnLength) errors.MaxLength(text, "tableName", kMaxTableArnLength);
    if (text.starts_with(own_prefix)) return std::string(text.substr(own_prefix.size()));
    return std::string(text);
  }
  // The model allows 1-1024 characters for an ARN; a plain name is still 3-255 (measured: 'ab'
  // is the length error for every operation, not ResourceNotFoundException).
  if (!IsValidTableNameCharacters(text)) errors.Pattern(text, "tableName", kTableNamePattern);
  if (text.size() < 3) errors.MinLength(text, "tableName", 3);
  if (text.size() > kMaxTableNameLength) errors.MaxLength(text, "tableName", kMaxTableNameLength);
  return std::string(text);
}

std::string TableNameOf(const Engine& engine, std::string_view name_or_arn) {
  // An ARN of one of our tables names it; any other ARN names no table we have.
  const std::string own_prefix = engine.TableArn("");
  if (name_or_arn.starts_with(own_prefix))
    return std::string(name_or_arn.substr(own_prefix.size()));
  return std::string(name_or_arn);
}

Result<std::vector<KeySchemaElement>> DecodeKeySchema(const json::Value* value,
                                                      ConstraintErrors& errors,
                                                      const std::string& path, bool global_index) {
  auto list = json::AsList(value);
  if (!list.ok()) return list.error();
  std::vector<KeySchemaElement> key_schema;
  if (list.value() == nullptr) {
    errors.MustNotBeNull(path);
    return key_schema;
  }
  const json::Value& elements = *list.value();
  for (rapidjson::SizeType i = 0; i < elements.Size(); ++i) {
    auto element = json::AsListElementStructure(&elements[i], "KeySchemaElement");
    if (!element.ok()) return element.error();
    KeySchemaElement decoded{"", KeyType::kHash};
    if (element.value() != nullptr) {
      auto name =
          DecodeAttributeName(*element.value(), MemberPath(path, i, "attributeName"), errors);
      if (!name.ok()) return name.error();
      decoded.attribute_name = std::move(name).value();
      const std::string type_path = MemberPath(path, i, "keyType");
      const json::Value* type_value = json::Member(*element.value(), "KeyType");
      auto type = DecodeEnum<KeyType>(type_value, type_path, errors,
                                      {{"HASH", KeyType::kHash}, {"RANGE", KeyType::kRange}},
                                      wire::kKeyType);
      if (!type.ok()) return type.error();
      if (!type.value()) errors.MustNotBeNull(type_path);
      decoded.key_type = type.value().value_or(KeyType::kHash);
    }
    key_schema.push_back(std::move(decoded));
  }
  if (elements.Size() < 1)
    errors.Add("'[]'", path, "Member must have length greater than or equal to 1");
  // A global index's key may have several attributes a part; the engine checks how many.
  if (elements.Size() > 2 && !global_index) {
    errors.Add("'" + RenderKeySchema(elements) + "'", path,
               "Member must have length less than or equal to 2");
  }
  return key_schema;
}

Result<std::vector<AttributeDefinition>> DecodeAttributeDefinitions(const json::Value* value,
                                                                    ConstraintErrors& errors) {
  auto list = json::AsList(value);
  if (!list.ok()) return list.error();
  std::vector<AttributeDefinition> definitions;
  if (list.value() == nullptr) {
    errors.MustNotBeNull("attributeDefinitions");
    return definitions;
  }
  const json::Value& elements = *list.value();
  for (rapidjson::SizeType i = 0; i < elements.Size(); ++i) {
    auto element = json::AsListElementStructure(&elements[i], "AttributeDefinition");
    if (!element.ok()) return element.error();
    AttributeDefinition decoded{"", ScalarAttributeType::kS};
    if (element.value() != nullptr) {
      auto name = DecodeAttributeName(
          *element.value(), MemberPath("attributeDefinitions", i, "attributeName"), errors);
      if (!name.ok()) return name.error();
      decoded.attribute_name = std::move(name).value();
      const std::string type_path = MemberPath("attributeDefinitions", i, "attributeType");
      auto type = DecodeEnum<ScalarAttributeType>(json::Member(*element.value(), "AttributeType"),
                                                  type_path, errors,
                                                  {{"S", ScalarAttributeType::kS},
                                                   {"N", ScalarAttributeType::kN},
                                                   {"B", ScalarAttributeType::kB}},
                                                  wire::kScalarAttributeType);
      if (!type.ok()) return type.error();
      if (!type.value()) errors.MustNotBeNull(type_path);
      decoded.attribute_type = type.value().value_or(ScalarAttributeType::kS);
    }
    definitions.push_back(std::move(decoded));
  }
  return definitions;
}

Result<std::optional<ProvisionedThroughput>> DecodeProvisionedThroughput(const json::Value* value,
                                                                         ConstraintErrors& errors) {
  auto structure = json::AsStructure(value, "ProvisionedThroughput");
  if (!structure.ok()) return structure.error();
  if (structure.value() == nullptr) return std::optional<ProvisionedThroughput>();
  ProvisionedThroughput throughput;
  struct Field {
    const char* member;
    const char* path;
    int64_t* target;
  };
  for (const Field& field : {Field{"ReadCapacityUnits", "provisionedThroughput.readCapacityUnits",
                                   &throughput.read_capacity_units},
                             Field{"WriteCapacityUnits", "provisionedThroughput.writeCapacityUnits",
                                   &throughput.write_capacity_units}}) {
    auto units = json::AsLong(json::Member(*structure.value(), field.member));
    if (!units.ok()) return units.error();
    if (!units.value()) {
      errors.MustNotBeNull(field.path);
      continue;
    }
    if (*units.value() < 1) errors.MinValue(*units.value(), field.path, 1);
    *field.target = *units.value();
  }
  return std::optional<ProvisionedThroughput>(throughput);
}

Result<std::optional<WarmThroughputRequest>> DecodeWarmThroughput(const json::Value* value) {
  auto warm = json::AsStructure(value, "WarmThroughput");
  if (!warm.ok()) return warm.error();
  if (warm.value() == nullptr) return std::optional<WarmThroughputRequest>();
  WarmThroughputRequest requested;
  auto read = json::AsLong(json::Member(*warm.value(), "ReadUnitsPerSecond"));
  if (!read.ok()) return read.error();
  auto write = json::AsLong(json::Member(*warm.value(), "WriteUnitsPerSecond"));
  if (!write.ok()) return write.error();
  requested.read_units_per_second = read.value();
  requested.write_units_per_second = write.value();
  return std::optional<WarmThroughputRequest>(requested);
}

Result<std::optional<OnDemandThroughput>> DecodeOnDemandThroughput(const json::Value* value) {
  auto structure = json::AsStructure(value, "OnDemandThroughput");
  if (!structure.ok()) return structure.error();
  if (structure.value() == nullptr) return std::optional<OnDemandThroughput>();
  OnDemandThroughput throughput;
  auto read = json::AsLong(json::Member(*structure.value(), "MaxReadRequestUnits"));
  if (!read.ok()) return read.error();
  throughput.max_read_request_units = read.value();
  auto write = json::AsLong(json::Member(*structure.value(), "MaxWriteRequestUnits"));
  if (!write.ok()) return write.error();
  throughput.max_write_request_units = write.value();
  return std::optional<OnDemandThroughput>(throughput);
}

Result<std::optional<BillingMode>> DecodeBillingMode(const json::Value* value,
                                                     ConstraintErrors& errors) {
  return DecodeEnum<BillingMode>(value, "billingMode", errors,
                                 {{"PROVISIONED", BillingMode::kProvisioned},
                                  {"PAY_PER_REQUEST", BillingMode::kPayPerRequest}},
                                 wire::kBillingMode);
}

Result<std::optional<TableClass>> DecodeTableClass(const json::Value* value,
                                                   ConstraintErrors& errors) {
  return DecodeEnum<TableClass>(
      value, "tableClass", errors,
      {{"STANDARD", TableClass::kStandard},
       {"STANDARD_INFREQUENT_ACCESS", TableClass::kStandardInfrequentAccess}},
      wire::kTableClass);
}

Result<std::optional<StreamSpecification>> DecodeStreamSpecification(const json::Value* value,
                                                                     ConstraintErrors& errors) {
  auto structure = json::AsStructure(value, "StreamSpecification");
  if (!structure.ok()) return structure.error();
  if (structure.value() == nullptr) return std::optional<StreamSpecification>();
  StreamSpecification stream;
  auto enabled = json::AsBoolean(json::Member(*structure.value(), "StreamEnabled"));
  if (!enabled.ok()) return enabled.error();
  if (!enabled.value()) errors.MustNotBeNull("streamSpecification.streamEnabled");
  stream.stream_enabled = enabled.value().value_or(false);
  auto view = DecodeEnum<StreamViewType>(json::Member(*structure.value(), "StreamViewType"),
                                         "streamSpecification.streamViewType", errors,
                                         {{"NEW_IMAGE", StreamViewType::kNewImage},
                                          {"OLD_IMAGE", StreamViewType::kOldImage},
                                          {"NEW_AND_OLD_IMAGES", StreamViewType::kNewAndOldImages},
                                          {"KEYS_ONLY", StreamViewType::kKeysOnly}},
                                         wire::kStreamViewType);
  if (!view.ok()) return view.error();
  stream.stream_view_type = view.value();
  return std::optional<StreamSpecification>(stream);
}

Result<std::optional<SseSpecification>> DecodeSseSpecification(const json::Value* value,
                                                               ConstraintErrors& errors) {
  auto structure = json::AsStructure(value, "SSESpecification");
  if (!structure.ok()) return structure.error();
  if (structure.value() == nullptr) return std::optional<SseSpecification>();
  SseSpecification sse;
  auto enabled = json::AsBoolean(json::Member(*structure.value(), "Enabled"));
  if (!enabled.ok()) return enabled.error();
  sse.enabled = enabled.value();
  auto type = DecodeEnum<SseType>(
      json::Member(*structure.value(), "SSEType"), "sSESpecification.sSEType", errors,
      {{"AES256", SseType::kAes256}, {"KMS", SseType::kKms}}, wire::kSSEType);
  if (!type.ok()) return type.error();
  sse.sse_type = type.value();
  auto key = json::AsString(json::Member(*structure.value(), "KMSMasterKeyId"));
  if (!key.ok()) return key.error();
  if (key.value()) sse.kms_master_key_id = std::string(*key.value());
  return std::optional<SseSpecification>(sse);
}

Status DecodeTableSettings(const json::Value& request, ConstraintErrors& errors,
                           TableSettings& settings) {
  auto billing_mode = DecodeBillingMode(json::Member(request, "BillingMode"), errors);
  if (!billing_mode.ok()) return billing_mode.error();
  settings.billing_mode = billing_mode.value();
  auto throughput =
      DecodeProvisionedThroughput(json::Member(request, "ProvisionedThroughput"), errors);
  if (!throughput.ok()) return throughput.error();
  settings.provisioned_throughput = throughput.value();
  auto on_demand = DecodeOnDemandThroughput(json::Member(request, "OnDemandThroughput"));
  if (!on_demand.ok()) return on_demand.error();
  settings.on_demand_throughput = on_demand.value();
  auto stream = DecodeStreamSpecification(json::Member(request, "StreamSpecification"), errors);
  if (!stream.ok()) return stream.error();
  settings.stream_specification = stream.value();
  auto sse = DecodeSseSpecification(json::Member(request, "SSESpecification"), errors);
  if (!sse.ok()) return sse.error();
  settings.sse_specification = sse.value();
  auto table_class = DecodeTableClass(json::Member(request, "TableClass"), errors);
  if (!table_class.ok()) return table_class.error();
  settings.table_class = table_class.value();
  auto protection = json::AsBoolean(json::Member(request, "DeletionProtectionEnabled"));
  if (!protection.ok()) return protection.error();
  settings.deletion_protection_enabled = protection.value();
  auto warm = DecodeWarmThroughput(json::Member(request, "WarmThroughput"));
  if (!warm.ok()) return warm.error();
  settings.warm_throughput = warm.value();
  return Ok{};
}

Result<std::string> DecodeIndexName(const json::Value& index, const std::string& path,
                                    ConstraintErrors& errors) {
  const std::string name_path = path + ".indexName";
  auto name = json::AsString(json::Member(index, "IndexName"));
  if (!name.ok()) return name.error();
  if (!name.value()) {
    errors.MustNotBeNull(name_path);
    return std::string();
  }
  const std::string_view text = *name.value();
  if (!IsValidTableNameCharacters(text)) errors.Pattern(text, name_path, kTableNamePattern);
  if (text.size() < 3) errors.MinLength(text, name_path, 3);
  if (text.size() > 255) errors.MaxLength(text, name_path, 255);
  return std::string(text);
}

Result<IndexDefinition> DecodeIndexDefinition(const json::Value& index, const std::string& path,
                                              bool global, ConstraintErrors& errors) {
  IndexDefinition definition;
  auto name = DecodeIndexName(index, path, errors);
  if (!name.ok()) return name.error();
  definition.index_name = std::move(name).value();
  auto key_schema =
      DecodeKeySchema(json::Member(index, "KeySchema"), errors, path + ".keySchema", global);
  if (!key_schema.ok()) return key_schema.error();
  definition.key_schema = std::move(key_schema).value();
  auto projection = json::AsStructure(json::Member(index, "Projection"), "Projection");
  if (!projection.ok()) return projection.error();
  if (projection.value() == nullptr) {
    errors.MustNotBeNull(path + ".projection");
  } else {
    auto type = DecodeEnum<ProjectionType>(json::Member(*projection.value(), "ProjectionType"),
                                           path + ".projection.projectionType", errors,
                                           {{"ALL", ProjectionType::kAll},
                                            {"KEYS_ONLY", ProjectionType::kKeysOnly},
                                            {"INCLUDE", ProjectionType::kInclude}},
                                           wire::kProjectionType);
    if (!type.ok()) return type.error();
    if (!type.value()) {
      return Error::Validation(
          "One or more parameter values were invalid: Unknown ProjectionType: null");
    }
    definition.projection.projection_type = *type.value();
    auto attributes = json::AsList(json::Member(*projection.value(), "NonKeyAttributes"));
    if (!attributes.ok()) return attributes.error();
    if (attributes.value() != nullptr) {
      auto& included = definition.projection.non_key_attributes;
      for (const auto& attribute : attributes.value()->GetArray()) {
        auto text = json::AsString(&attribute);
        if (!text.ok()) return text.error();
        included.emplace_back(text.value().value_or(""));
      }
      // Each name is 1-255 characters; coral prints a list member's whole constraint set.
      if (std::any_of(included.begin(), included.end(), [](const std::string& attribute) {
            return attribute.empty() || attribute.size() > 255;
          })) {
        errors.Add("'" + JavaList(included) + "'", path + ".projection.nonKeyAttributes",
                   "Member must satisfy constraint: [Member must have length less than or equal "
                   "to 255, Member must have length greater than or equal to 1]");
      }
    }
  }
  if (global) {
    auto throughput =
        DecodeProvisionedThroughput(json::Member(index, "ProvisionedThroughput"), errors);
    if (!throughput.ok()) return throughput.error();
    definition.provisioned_throughput = throughput.value();
    auto on_demand = DecodeOnDemandThroughput(json::Member(index, "OnDemandThroughput"));
    if (!on_demand.ok()) return on_demand.error();
    definition.on_demand_throughput = on_demand.value();
    auto warm = DecodeWarmThroughput(json::Member(index, "WarmThroughput"));
    if (!warm.ok()) return warm.error();
    definition.warm_throughput = warm.value();
  }
  return definition;
}

Result<std::vector<IndexDefinition>> DecodeIndexes(const json::Value* value, bool global,
                                                   ConstraintErrors& errors) {
  const std::string list_path = global ? "globalSecondaryIndexes" : "localSecondaryIndexes";
  auto list = json::AsList(value);
  if (!list.ok()) return list.error();
  std::vector<IndexDefinition> indexes;
  if (list.value() == nullptr) return indexes;
  const char* shape = global ? "GlobalSecondaryIndex" : "LocalSecondaryIndex";
  for (rapidjson::SizeType i = 0; i < list.value()->Size(); ++i) {
    auto element = json::AsListElementStructure(&(*list.value())[i], shape);
    if (!element.ok()) return element.error();
    std::string path = list_path + "." + std::to_string(i + 1) + ".member";
    auto definition = DecodeIndexDefinition(*element.value(), path, global, errors);
    if (!definition.ok()) return definition.error();
    indexes.push_back(std::move(definition).value());
  }
  if (!global && indexes.size() > 5) {
    errors.Add("'[...]'", list_path, "Member must have length less than or equal to 5");
  }
  return indexes;
}

Result<std::optional<std::string>> DecodeResourceArn(const json::Value& request,
                                                     ConstraintErrors& errors) {
  constexpr size_t kMaxArnLength = 1283;
  auto arn = json::AsString(json::Member(request, "ResourceArn"));
  if (!arn.ok()) return arn.error();
  if (!arn.value()) return std::optional<std::string>();
  const std::string_view text = *arn.value();
  if (text.empty()) errors.MinLength(text, "resourceArn", 1);
  if (text.size() > kMaxArnLength) errors.MaxLength(text, "resourceArn", kMaxArnLength);
  return std::optional<std::string>(std::string(text));
}

Result<std::vector<Tag>> DecodeTags(const json::Value* value, ConstraintErrors& errors) {
  auto list = json::AsList(value);
  if (!list.ok()) return list.error();
  std::vector<Tag> tags;
  if (list.value() == nullptr) return tags;
  const json::Value& elements = *list.value();
  for (rapidjson::SizeType i = 0; i < elements.Size(); ++i) {
    auto element = json::AsListElementStructure(&elements[i], "Tag");
    if (!element.ok()) return element.error();
    if (element.value() == nullptr) continue;
    Tag tag;
    auto key = json::AsString(json::Member(*element.value(), "Key"));
    if (!key.ok()) return key.error();
    auto tag_value = json::AsString(json::Member(*element.value(), "Value"));
    if (!tag_value.ok()) return tag_value.error();
    const std::string key_path = MemberPath("tags", i, "key");
    const std::string value_path = MemberPath("tags", i, "value");
    if (!key.value()) errors.MustNotBeNull(key_path);
    if (!tag_value.value()) errors.MustNotBeNull(value_path);
    tag.key = std::string(key.value().value_or(""));
    tag.value = std::string(tag_value.value().value_or(""));
    if (key.value() && tag.key.empty()) errors.MinLength(tag.key, key_path, 1);
    if (tag.key.size() > 128) errors.MaxLength(tag.key, key_path, 128);
    if (tag.value.size() > 256) errors.MaxLength(tag.value, value_path, 256);
    tags.push_back(std::move(tag));
  }
  return tags;
}

}  // namespace ddbd
