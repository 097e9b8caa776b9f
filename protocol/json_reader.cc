#include "protocol/json_reader.h"

#include <string>

namespace ddbd::json {

const char* TokenName(const Value& value) {
  if (value.IsTrue()) return "TRUE_VALUE";
  if (value.IsFalse()) return "FALSE_VALUE";
  if (value.IsString()) return "STRING_VALUE";
  if (value.IsInt64() || value.IsUint64()) return "NUMBER_VALUE";
  return "DECIMAL_VALUE";
}

namespace {

constexpr const char* kStructureNotExpected = "Start of structure or map found where not expected";

Error CannotConvert(const Value& value, const char* java_type) {
  return Error::Serialization(std::string(TokenName(value)) + " cannot be converted to " +
                              java_type);
}

Error UnrecognizedCollection(std::string_view java_class) {
  return Error::Serialization("Unrecognized collection type class " + std::string(java_class));
}

}  // namespace

const Value* Member(const Value& object, std::string_view name) {
  auto it = object.FindMember(
      Value(rapidjson::StringRef(name.data(), static_cast<rapidjson::SizeType>(name.size()))));
  if (it == object.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

Result<std::optional<std::string_view>> AsString(const Value* value) {
  if (value == nullptr) return std::optional<std::string_view>();
  if (value->IsString()) {
    return std::optional<std::string_view>(
        std::string_view(value->GetString(), value->GetStringLength()));
  }
  if (value->IsObject()) return Error::Serialization(kStructureNotExpected);
  if (value->IsArray()) return UnrecognizedCollection("java.lang.String");
  return CannotConvert(*value, "String");
}

Result<std::optional<bool>> AsBoolean(const Value* value) {
  if (value == nullptr) return std::optional<bool>();
  if (value->IsBool()) return std::optional<bool>(value->GetBool());
  if (value->IsObject()) return Error::Serialization(kStructureNotExpected);
  if (value->IsArray()) return UnrecognizedCollection("java.lang.Boolean");
  if (value->IsString()) return Error::Serialization("Unexpected token received from parser");
  return CannotConvert(*value, "Boolean");
}

Result<const Value*> AsList(const Value* value) {
  if (value == nullptr || value->IsArray()) return value;
  if (value->IsObject()) return Error::Serialization(kStructureNotExpected);
  return Error::Serialization("Unexpected field type");
}

}  // namespace ddbd::json
