#include "protocol/json_reader.h"

#include <cmath>
#include <string>

namespace ddbd::json {
namespace {

constexpr const char* kStructureNotExpected = "Start of structure or map found where not expected";

// coral's name for a JSON scalar token, as used in "<TOKEN> cannot be converted to <Type>".
const char* TokenName(const Value& value) {
  if (value.IsTrue()) return "TRUE_VALUE";
  if (value.IsFalse()) return "FALSE_VALUE";
  if (value.IsString()) return "STRING_VALUE";
  if (value.IsInt64() || value.IsUint64()) return "NUMBER_VALUE";
  return "DECIMAL_VALUE";
}

Error CannotConvert(const Value& value, const char* java_type) {
  return Error::Serialization(std::string(TokenName(value)) + " cannot be converted to " +
                              java_type);
}

Error UnrecognizedCollection(std::string_view java_class) {
  return Error::Serialization("Unrecognized collection type class " + std::string(java_class));
}

// Shared by the number readers: coral converts any JSON number and refuses the rest.
Result<std::optional<int64_t>> AsNumber(const Value* value, const char* java_type) {
  if (value == nullptr) return std::optional<int64_t>();
  if (value->IsObject()) return Error::Serialization(kStructureNotExpected);
  if (value->IsArray()) return UnrecognizedCollection(std::string("java.lang.") + java_type);
  if (!value->IsNumber()) return CannotConvert(*value, java_type);
  if (value->IsInt64()) return std::optional<int64_t>(value->GetInt64());
  if (value->IsUint64()) return std::optional<int64_t>(INT64_MAX);  // beyond any bound we check
  // A fraction or a huge integer (1E38) arrives as a double: clamped, as converting a double
  // beyond int64's range is undefined (found by request_fuzzer).
  const double number = value->GetDouble();
  if (number >= 9.2e18) return std::optional<int64_t>(INT64_MAX);
  if (number <= -9.2e18) return std::optional<int64_t>(INT64_MIN);
  return std::optional<int64_t>(static_cast<int64_t>(number));
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

Result<std::optional<int64_t>> AsLong(const Value* value) { return AsNumber(value, "Long"); }

Result<std::optional<int64_t>> AsInteger(const Value* value) { return AsNumber(value, "Integer"); }

Result<std::optional<int64_t>> AsEpochMs(const Value* value) {
  if (value == nullptr) return std::optional<int64_t>();
  // Beyond year 300000 either way is not a moment anyone restores to.
  if (!value->IsNumber() || std::fabs(value->GetDouble()) > 1e13) {
    return Error::Serialization("Unexpected token received from parser");
  }
  return std::optional<int64_t>(std::llround(value->GetDouble() * 1000));
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

Result<const Value*> AsStructure(const Value* value, std::string_view shape) {
  if (value == nullptr || value->IsObject()) return value;
  if (value->IsArray()) {
    return UnrecognizedCollection("com.amazonaws.dynamodb.v20120810." + std::string(shape));
  }
  return Error::Serialization("Unexpected field type");
}

Result<const Value*> AsListElementStructure(const Value* value, std::string_view shape) {
  if (value == nullptr || value->IsObject()) return value;
  if (value->IsArray()) {
    return UnrecognizedCollection("com.amazonaws.dynamodb.v20120810." + std::string(shape));
  }
  return Error::Serialization("Unexpected value type in payload");
}

}  // namespace ddbd::json
