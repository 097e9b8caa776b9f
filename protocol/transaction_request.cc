#include "protocol/transaction_request.h"

#include "engine/api/transactions.h"

namespace ddbd {

Result<const json::Value*> DecodeBoundedList(const json::Value& request, const char* member,
                                             const std::string& path, size_t max,
                                             ConstraintErrors& errors) {
  auto list = json::AsList(json::Member(request, member));
  if (!list.ok()) return list.error();
  if (list.value() == nullptr) {
    errors.MustNotBeNull(path);
    return list.value();
  }
  const size_t count = list.value()->Size();
  // The value is coral's rendering of the list; only its length is checked by clients (the
  // element renderings are not reproduced: UNCONFIRMED beyond the path and the bound).
  if (count < 1) {
    errors.Add("'[]'", path, "Member must have length greater than or equal to 1");
  } else if (count > max) {
    errors.Add("'[" + std::to_string(count) + " items]'", path,
               "Member must have length less than or equal to " + std::to_string(max));
  }
  return list.value();
}

Result<const json::Value*> DecodeTransactItems(const json::Value& request,
                                               ConstraintErrors& errors) {
  return DecodeBoundedList(request, "TransactItems", "transactItems", kMaxTransactionActions,
                           errors);
}

Result<std::string> DecodeActionTableName(const json::Value& action, const std::string& path,
                                          ConstraintErrors& errors) {
  auto name = json::AsString(json::Member(action, "TableName"));
  if (!name.ok()) return name.error();
  if (!name.value()) {
    errors.MustNotBeNull(path + ".tableName");
    return std::string();
  }
  const std::string_view text = *name.value();
  if (!IsValidTableNameCharacters(text)) {
    errors.Pattern(text, path + ".tableName", kTableNamePattern);
  }
  if (text.size() < 3) errors.MinLength(text, path + ".tableName", 3);
  if (text.size() > 255) errors.MaxLength(text, path + ".tableName", 255);
  return std::string(text);
}

std::string TransactItemPath(size_t index) {
  return "transactItems." + std::to_string(index + 1) + ".member";
}

}  // namespace ddbd
