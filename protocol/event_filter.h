// Lambda's event filtering (FilterCriteria) for stream triggers (--stream-trigger ...,filter=):
// a pattern is a JSON object naming fields of the record's JSON (Lambda's DynamoDB event record:
// eventName, dynamodb.Keys, dynamodb.NewImage...); a record matches when every field the pattern
// names matches; a field's rule is an object (its members, a level down) or an array of matchers,
// any of which may match:
//   "x"  5  true  null          equals (a number numerically); "" is Empty; null is Null
//   {"prefix": "x"}             begins with          {"suffix": "x"}   ends with
//   {"equals-ignore-case": "x"} equals, ignoring ASCII case
//   {"anything-but": ["a", ...]} (or one value)  present and none of them (Not)
//   {"numeric": [">", 0, "<=", 5]} ("=", "<", "<=", ">", ">="; one or two comparisons)
//   {"exists": true|false}      present (a value, not an object) or absent
// A field holding an array matches when any element does. A trigger takes up to 5 patterns and a
// record passes when any matches (several filters are ORed, as Lambda's).
//
// Thread safety: a compiled filter is immutable; Matches may run on any thread.
#pragma once

#include <rapidjson/document.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ddbd {

class EventFilter {
 public:
  // Nested rules deeper than this are refused (Matches recurses over the pattern, never the
  // record).
  static constexpr int kMaxDepth = 16;
  static constexpr size_t kMaxFilters = 5;

  // The pattern's JSON text compiled, or null with the reason in `problem`.
  static std::unique_ptr<EventFilter> Compile(std::string_view pattern, std::string& problem);
  ~EventFilter();
  bool Matches(const rapidjson::Value& record) const;

  struct Rule;

 private:
  explicit EventFilter(std::unique_ptr<Rule> root);
  std::unique_ptr<Rule> root_;
};

}  // namespace ddbd
