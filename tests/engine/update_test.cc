#include "engine/expression/update.h"

#include <catch2/catch.hpp>

namespace ddbd {
namespace {

Operand Path(std::initializer_list<PathElement> elements) {
  Operand operand;
  operand.path = elements;
  return operand;
}

UpdateValue Literal(AttributeValue value) {
  UpdateValue result;
  result.operand.kind = Operand::Kind::kValue;
  result.operand.value = std::move(value);
  return result;
}

UpdateAction UpdateSet(DocumentPath path, UpdateValue value) {
  UpdateAction action;
  action.path = std::move(path);
  action.value = std::move(value);
  return action;
}

AttributeValue Numbers(std::vector<std::string> members) {
  AttributeValue value;
  value.type = AttributeType::kNS;
  value.members = std::move(members);
  return value;
}

TEST_CASE("SET arithmetic is exact and reads the item as it was") {
  Item item = {{"a", AttributeValue::Number("1")}, {"b", AttributeValue::Number("0.5")}};
  UpdateValue sum;
  sum.kind = UpdateValue::Kind::kPlus;
  sum.args = {UpdateValue{UpdateValue::Kind::kOperand, Path({{"a", -1}}), {}},
              UpdateValue{UpdateValue::Kind::kOperand, Path({{"b", -1}}), {}}};
  std::vector<UpdateAction> actions = {
      UpdateSet({{"b", -1}}, sum),
      UpdateSet({{"a", -1}}, UpdateValue{UpdateValue::Kind::kOperand, Path({{"b", -1}}), {}})};
  REQUIRE(ApplyUpdate(actions, item).ok());
  CHECK(*FindAttribute(item, "b") == AttributeValue::Number("1.5"));
  CHECK(*FindAttribute(item, "a") == AttributeValue::Number("0.5"));  // the old b
}

TEST_CASE("ADD and DELETE on number sets compare members by value") {
  Item item = {{"s", Numbers({"1", "2"})}, {"n", AttributeValue::Number("5")}};
  UpdateAction add;
  add.kind = UpdateAction::Kind::kAdd;
  add.path = {{"s", -1}};
  add.operand = Numbers({"2.0", "3"});
  UpdateAction remove;
  remove.kind = UpdateAction::Kind::kDelete;
  remove.path = {{"s", -1}};
  remove.operand = Numbers({"1.00"});
  REQUIRE(ApplyUpdate({add}, item).ok());
  CHECK(FindAttribute(item, "s")->members == std::vector<std::string>{"1", "2", "3"});
  REQUIRE(ApplyUpdate({remove}, item).ok());
  CHECK(FindAttribute(item, "s")->members == std::vector<std::string>{"2", "3"});
  UpdateAction wrong = add;
  wrong.path = {{"n", -1}};
  CHECK(ApplyUpdate({wrong}, item).error().message() ==
        "An operand in the update expression has an incorrect data type");
}

TEST_CASE("Nested SET needs existing parents, list indexes past the end append") {
  AttributeValue list;
  list.type = AttributeType::kL;
  list.list = {AttributeValue::String("a")};
  Item item = {{"l", list}};
  REQUIRE(ApplyUpdate({UpdateSet({{"l", -1}, {"", 7}}, Literal(AttributeValue::String("b")))}, item)
              .ok());
  CHECK(FindAttribute(item, "l")->list.size() == 2);
  CHECK(ApplyUpdate({UpdateSet({{"m", -1}, {"x", -1}}, Literal(AttributeValue::Null()))}, item)
            .error()
            .message() ==
        "The document path provided in the update expression is invalid for update");
  UpdateAction remove;
  remove.kind = UpdateAction::Kind::kRemove;
  remove.path = {{"l", -1}, {"", 9}};
  CHECK(ApplyUpdate({remove}, item).ok());  // removing past the end changes nothing
  CHECK(FindAttribute(item, "l")->list.size() == 2);
}

TEST_CASE("A SET from a missing attribute is refused") {
  Item item;
  CHECK(ApplyUpdate({UpdateSet({{"a", -1}},
                               UpdateValue{UpdateValue::Kind::kOperand, Path({{"b", -1}}), {}})},
                    item)
            .error()
            .message() ==
        "The provided expression refers to an attribute that does not exist in the item");
}

}  // namespace
}  // namespace ddbd
