#include "protocol/transaction_request.h"

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

}  // namespace ddbd
