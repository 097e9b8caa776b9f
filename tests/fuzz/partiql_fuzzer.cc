// Fuzzes the PartiQL front end: the input is a statement, parsed with three fixed parameters;
// whatever parses is planned against a table keyed by pk and sk (a SELECT as a Query or Scan, a
// write as its key and condition), its WHERE evaluated and its SET/REMOVE applied to a fixed
// item. Any crash, sanitizer report or hang is a bug: every input must end in a statement or a
// ValidationException.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "protocol/partiql/parser.h"
#include "protocol/partiql/plan.h"

namespace {

ddbd::Item FixedItem() {
  ddbd::Item item;
  item.emplace_back("pk", ddbd::AttributeValue::String("a"));
  item.emplace_back("sk", ddbd::AttributeValue::Number("1"));
  ddbd::AttributeValue list;
  list.type = ddbd::AttributeType::kL;
  list.list.push_back(ddbd::AttributeValue::Number("2"));
  item.emplace_back("l", list);
  ddbd::AttributeValue map;
  map.type = ddbd::AttributeType::kM;
  map.map.emplace_back("k", ddbd::AttributeValue::String("v"));
  item.emplace_back("m", map);
  return item;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<ddbd::AttributeValue> parameters = {ddbd::AttributeValue::String("a"),
                                                        ddbd::AttributeValue::Number("1"),
                                                        ddbd::AttributeValue::Boolean(true)};
  auto statement = ddbd::partiql::Parse(text, parameters);
  if (!statement.ok()) {
    (void)ddbd::partiql::Parse(text, {parameters[0]});  // other parameter counts take other paths
    return 0;
  }
  const ddbd::partiql::KeyNames keys{{"pk"}, {"sk"}, false};
  ddbd::Item item = FixedItem();
  if (statement.value().where) (void)ddbd::Evaluate(*statement.value().where, item);
  if (statement.value().reads()) {
    ddbd::partiql::ReadPlan plan;
    (void)ddbd::partiql::PlanSelect(statement.value(), keys, false, plan);
    return 0;
  }
  (void)ddbd::ApplyUpdate(statement.value().actions, item);
  (void)ddbd::partiql::PlanWrite(std::move(statement).value(), keys);
  return 0;
}
