#include "protocol/capacity_json.h"

#include <algorithm>
#include <string>

#include "protocol/attribute_value_json.h"

namespace ddbd {

ReturnConsumedCapacity ReturnConsumedCapacityOf(std::optional<std::string_view> text) {
  if (text == "INDEXES") return ReturnConsumedCapacity::kIndexes;
  if (text == "TOTAL") return ReturnConsumedCapacity::kTotal;
  return ReturnConsumedCapacity::kNone;
}

bool ReturnItemCollectionMetricsOf(std::optional<std::string_view> text) { return text == "SIZE"; }

namespace {

// Capacity units are multiples of 0.5: written as "1.0" or "2.5", as DynamoDB writes them.
void AppendUnits(std::string& text, double units) {
  const double halves = units * 2;
  if (units < 0 || units >= 1e15 || halves != static_cast<double>(static_cast<int64_t>(halves))) {
    text += std::to_string(units);  // never for figures ddbd computes
    return;
  }
  text += std::to_string(static_cast<int64_t>(halves) / 2);
  text += static_cast<int64_t>(halves) % 2 == 0 ? ".0" : ".5";
}

// A name as a JSON string. Table and index names (and ARNs) hold nothing JSON escapes; anything
// else is escaped all the same.
void AppendName(std::string& text, std::string_view name) {
  text += '"';
  for (const char c : name) {
    if (c == '"' || c == '\\') {
      text += '\\';
      text += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      text += "\\u00";
      text += kHex[(c >> 4) & 0xF];
      text += kHex[c & 0xF];
    } else {
      text += c;
    }
  }
  text += '"';
}

// `"CapacityUnits":N` and, for transactions, the same figure as read or write units.
void AppendPart(std::string& text, double units, ConsumedCapacity::Kind kind) {
  text += "\"CapacityUnits\":";
  AppendUnits(text, units);
  if (kind == ConsumedCapacity::Kind::kUnsplit) return;
  text += kind == ConsumedCapacity::Kind::kRead ? ",\"ReadCapacityUnits\":"
                                                : ",\"WriteCapacityUnits\":";
  AppendUnits(text, units);
}

void AppendIndexes(std::string& text, const char* member,
                   const std::vector<std::pair<std::string, double>>& indexes,
                   ConsumedCapacity::Kind kind) {
  if (indexes.empty()) return;
  text += ",\"";
  text += member;
  text += "\":{";
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (i > 0) text += ',';
    AppendName(text, indexes[i].first);
    text += ":{";
    AppendPart(text, indexes[i].second, kind);
    text += '}';
  }
  text += '}';
}

}  // namespace

void EncodeConsumedCapacity(json::Writer& writer, const ConsumedCapacity& consumed,
                            ReturnConsumedCapacity mode) {
  // Written as one piece of text: units in DynamoDB's form ("1.0"), names escaped as JSON wants.
  std::string text;
  text.reserve(96);
  text += "{\"TableName\":";
  AppendName(text, consumed.table_name);
  text += ',';
  AppendPart(text, consumed.total(), consumed.kind);
  if (mode == ReturnConsumedCapacity::kIndexes) {
    text += ",\"Table\":{";
    AppendPart(text, consumed.table_units, consumed.kind);
    text += '}';
    AppendIndexes(text, "LocalSecondaryIndexes", consumed.local_indexes, consumed.kind);
    AppendIndexes(text, "GlobalSecondaryIndexes", consumed.global_indexes, consumed.kind);
  }
  text += '}';
  writer.RawValue(text.data(), text.size(), rapidjson::kObjectType);
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

void EncodeItemCollectionMetricsMember(
    json::Writer& writer,
    const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& per_table) {
  if (per_table.empty()) return;
  writer.Key("ItemCollectionMetrics");
  writer.StartObject();
  for (const auto& [table_name, per_item] : per_table) {
    json::String(writer, table_name);
    writer.StartArray();
    for (const ItemCollectionMetrics& item : per_item) EncodeItemCollectionMetrics(writer, item);
    writer.EndArray();
  }
  writer.EndObject();
}

}  // namespace ddbd
