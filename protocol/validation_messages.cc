#include "protocol/validation_messages.h"

namespace ddbd {

std::string JavaList(const std::vector<std::string>& items) {
  std::string text = "[";
  for (const std::string& item : items) {
    if (text.size() > 1) text += ", ";
    text += item;
  }
  return text + "]";
}

// A value quoted back in a message, its first kMaxQuotedValueBytes only: a constraint check
// must not send back megabytes of what the client sent (issue 34).
std::string Quoted(std::string_view value) {
  if (value.size() <= kMaxQuotedValueBytes) return "'" + std::string(value) + "'";
  size_t end = kMaxQuotedValueBytes;
  while (end > 0 && (static_cast<unsigned char>(value[end]) & 0xC0) == 0x80) --end;
  return "'" + std::string(value.substr(0, end)) + "...'";
}

void ConstraintErrors::Add(std::string_view rendered_value, std::string_view path,
                           std::string_view constraint) {
  // An empty rendering gives "Value at '...'", as DynamoDB words Query's Limit check.
  std::string failure = "Value ";
  if (!rendered_value.empty()) {
    failure += rendered_value;
    failure += " ";
  }
  failure += "at '";
  failure += path;
  failure += "' failed to satisfy constraint: ";
  failure += constraint;
  failures_.push_back(std::move(failure));
}

Status ConstraintErrors::ToStatus() const {
  if (failures_.empty()) return Ok{};
  std::string message =
      std::to_string(failures_.size()) +
      (failures_.size() == 1 ? " validation error detected: " : " validation errors detected: ");
  for (size_t i = 0; i < failures_.size(); ++i) {
    if (i > 0) message += "; ";
    message += failures_[i];
  }
  return Error::Validation(std::move(message));
}

Error RequiredParameterMissing(std::string_view parameter) {
  return Error::Validation("The parameter '" + std::string(parameter) +
                           "' is required but was not present in the request");
}

bool IsValidTableNameCharacters(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace ddbd
