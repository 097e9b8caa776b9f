#include "protocol/capacity_json.h"

#include "protocol/attribute_value_json.h"

namespace ddbd {

Result<ReturnConsumedCapacity> DecodeReturnConsumedCapacity(const json::Value& request,
                                                            ConstraintErrors& errors) {
  auto capacity = json::AsString(json::Member(request, "ReturnConsumedCapacity"));
  if (!capacity.ok()) return capacity.error();
  if (!capacity.value()) return ReturnConsumedCapacity::kNone;
  const std::string_view text = *capacity.value();
  if (text == "INDEXES") return ReturnConsumedCapacity::kIndexes;
  if (text == "TOTAL") return ReturnConsumedCapacity::kTotal;
  if (text != "NONE") errors.Enum(text, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  return ReturnConsumedCapacity::kNone;
}

Result<bool> DecodeReturnItemCollectionMetrics(const json::Value& request,
                                               ConstraintErrors& errors) {
  auto metrics = json::AsString(json::Member(request, "ReturnItemCollectionMetrics"));
  if (!metrics.ok()) return metrics.error();
  if (!metrics.value()) return false;
  if (*metrics.value() != "SIZE" && *metrics.value() != "NONE") {
    errors.Enum(*metrics.value(), "returnItemCollectionMetrics", {"SIZE", "NONE"});
  }
  return *metrics.value() == "SIZE";
}

namespace {

void EncodeIndexes(json::Writer& writer, const char* member,
                   const std::vector<std::pair<std::string, double>>& indexes) {
  if (indexes.empty()) return;
  writer.Key(member);
  writer.StartObject();
  for (const auto& [name, units] : indexes) {
    json::String(writer, name);
    writer.StartObject();
    writer.Key("CapacityUnits");
    writer.Double(units);
    writer.EndObject();
  }
  writer.EndObject();
}

}  // namespace

void EncodeConsumedCapacity(json::Writer& writer, const ConsumedCapacity& consumed,
                            ReturnConsumedCapacity mode) {
  writer.StartObject();
  writer.Key("TableName");
  json::String(writer, consumed.table_name);
  writer.Key("CapacityUnits");
  writer.Double(consumed.total());
  if (mode == ReturnConsumedCapacity::kIndexes) {
    writer.Key("Table");
    writer.StartObject();
    writer.Key("CapacityUnits");
    writer.Double(consumed.table_units);
    writer.EndObject();
    EncodeIndexes(writer, "LocalSecondaryIndexes", consumed.local_indexes);
    EncodeIndexes(writer, "GlobalSecondaryIndexes", consumed.global_indexes);
  }
  writer.EndObject();
}

void EncodeConsumedCapacityMember(json::Writer& writer,
                                  const std::optional<ConsumedCapacity>& consumed,
                                  ReturnConsumedCapacity mode) {
  if (!consumed || mode == ReturnConsumedCapacity::kNone) return;
  writer.Key("ConsumedCapacity");
  EncodeConsumedCapacity(writer, *consumed, mode);
}

void EncodeConsumedCapacityMember(json::Writer& writer,
                                  const std::vector<ConsumedCapacity>& per_table,
                                  ReturnConsumedCapacity mode) {
  if (mode == ReturnConsumedCapacity::kNone) return;
  writer.Key("ConsumedCapacity");
  writer.StartArray();
  for (const ConsumedCapacity& consumed : per_table) EncodeConsumedCapacity(writer, consumed, mode);
  writer.EndArray();
}

void EncodeItemCollectionMetrics(json::Writer& writer, const ItemCollectionMetrics& metrics) {
  writer.StartObject();
  writer.Key("ItemCollectionKey");
  EncodeItem(writer, metrics.item_collection_key);
  writer.Key("SizeEstimateRangeGB");
  writer.StartArray();
  writer.Double(metrics.size_estimate_lower_gb);
  writer.Double(metrics.size_estimate_upper_gb);
  writer.EndArray();
  writer.EndObject();
}

}  // namespace ddbd
