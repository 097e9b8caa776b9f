#include "protocol/transaction_request.h"

#include "engine/transactions/transactions.h"

namespace ddbd {

Result<const json::Value*> DecodeTransactItems(const json::Value& request,
                                               ConstraintErrors& errors) {
  auto items = json::AsList(json::Member(request, "TransactItems"));
  if (!items.ok()) return items.error();
  if (items.value() == nullptr) {
    errors.MustNotBeNull("transactItems");
    return items.value();
  }
  const size_t count = items.value()->Size();
  // The value is coral's rendering of the list; only its length is checked by clients (the
  // element renderings are not reproduced: UNCONFIRMED beyond "transactItems" and the bound).
  if (count < 1) {
    errors.Add("'[]'", "transactItems", "Member must have length greater than or equal to 1");
  } else if (count > kMaxTransactionActions) {
    errors.Add(
        "'[" + std::to_string(count) + " items]'", "transactItems",
        "Member must have length less than or equal to " + std::to_string(kMaxTransactionActions));
  }
  return items.value();
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
