#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

Result<CreateTableArgs> DecodeCreateTable(const wire::CreateTableInput& in) {
  CreateTableArgs args;
  args.table_name = std::string(in.table_name);
  args.attribute_definitions = AttributeDefinitionsOf(in.attribute_definitions);
  args.key_schema = KeySchemaOf(in.key_schema);
  auto local = IndexesOf(in.local_secondary_indexes, false);
  if (!local.ok()) return local.error();
  args.local_secondary_indexes = std::move(local).value();
  auto global = IndexesOf(in.global_secondary_indexes, true);
  if (!global.ok()) return global.error();
  args.global_secondary_indexes = std::move(global).value();
  auto vectors = VectorIndexesOf(in.vector_indexes);
  if (!vectors.ok()) return vectors.error();
  args.vector_indexes = std::move(vectors).value();
  TableSettingsOf(in, args);
  args.tags = TagsOf(in.tags);
  if (Status characters = CheckTagCharacters(args.tags); !characters.ok())
    return characters.error();
  if (in.resource_policy) args.resource_policy = std::string(*in.resource_policy);
  if (in.global_table_source_arn) {
    args.global_table_source_arn = std::string(*in.global_table_source_arn);
  }
  return args;
}

}  // namespace

Status CreateTable(Engine& engine, const wire::CreateTableInput& in, json::Writer& response,
                   Ticket& ticket) {
  auto args = DecodeCreateTable(in);
  if (!args.ok()) return args.error();
  auto created = engine.CreateTable(args.value());
  if (!created.ok()) return created.error();
  ticket = created.value().ticket;
  wire::Write<wire::out::CreateTableOutput>(response, [&](auto& out) {
    out.TableDescription([&](wire::out::TableDescription& table) {
      EncodeTableDescription(table, created.value(), engine.options());
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
