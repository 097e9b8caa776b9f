#include <optional>
#include <string>
#include <vector>

#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"
#include "protocol/transaction_request.h"

namespace ddbd::operations {

Status TransactGetItems(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  TransactGetItemsArgs args;
  auto items = DecodeTransactItems(request, errors);
  if (!items.ok()) return items.error();
  auto capacity = DecodeReturnConsumedCapacity(request, errors);
  if (!capacity.ok()) return capacity.error();
  args.return_consumed_capacity = capacity.value();
  std::vector<const json::Value*> gets;
  const json::Value* list = items.value();
  if (list != nullptr && list->Size() <= kMaxTransactionActions) {
    for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
      auto element = json::AsListElementStructure(&(*list)[i], "TransactGetItem");
      if (!element.ok()) return element.error();
      const std::string path = TransactItemPath(i) + ".get";
      auto get = json::AsStructure(json::Member(*element.value(), "Get"), "Get");
      if (!get.ok()) return get.error();
      if (get.value() == nullptr) {
        errors.MustNotBeNull(path);
        continue;
      }
      GetRequest read;
      auto table_name = DecodeActionTableName(*get.value(), path, errors);
      if (!table_name.ok()) return table_name.error();
      read.table_name = std::move(table_name).value();
      const json::Value* key = json::Member(*get.value(), "Key");
      if (key == nullptr) errors.MustNotBeNull(path + ".key");
      read.key = decoder.DecodeItem(key);
      args.gets.push_back(std::move(read));
      gets.push_back(get.value());
    }
  }
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  std::vector<std::optional<std::vector<DocumentPath>>> projections;
  for (const json::Value* get : gets) {
    auto projection = DecodeProjection(*get);
    if (!projection.ok()) return projection.error();
    projections.push_back(std::move(projection).value());
  }
  for (size_t i = 0; i < projections.size(); ++i) {
    if (projections[i]) args.gets[i].projection = &*projections[i];
  }
  auto outcome = engine.TransactGetItems(args);
  if (!outcome.ok()) return outcome.error();
  response.StartObject();
  EncodeConsumedCapacityMember(response, outcome.value().consumed_capacity,
                               args.return_consumed_capacity);
  response.Key("Responses");
  response.StartArray();
  for (size_t i = 0; i < outcome.value().items.size(); ++i) {
    response.StartObject();
    if (const ReadItem& item = outcome.value().items[i]; item.found()) {
      response.Key("Item");
      EncodeReadItem(response, item);
    }
    response.EndObject();
  }
  response.EndArray();
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
