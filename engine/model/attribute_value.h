// DynamoDB's ten value types as a plain tree, used while a request is decoded and answered.
// Stored items are not kept in this form: see engine/item_codec.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddbd {

enum class AttributeType : uint8_t { kS = 1, kN, kB, kBool, kNull, kM, kL, kSS, kNS, kBS };

// "S", "N", ... as DynamoDB names the types in messages.
std::string_view TypeName(AttributeType type);

struct AttributeValue;
// Attribute name -> value, in the order the client sent them.
using AttributeMap = std::vector<std::pair<std::string, AttributeValue>>;
using Item = AttributeMap;

struct AttributeValue {
  // Defined out of line, where AttributeValue is complete: the type contains containers of
  // itself, which some standard libraries (clang with libstdc++) only accept that way.
  AttributeValue();
  ~AttributeValue();
  AttributeValue(const AttributeValue& other);
  AttributeValue(AttributeValue&& other) noexcept;
  AttributeValue& operator=(const AttributeValue& other);
  AttributeValue& operator=(AttributeValue&& other) noexcept;

  AttributeType type = AttributeType::kNull;
  // S: UTF-8 text; B: raw bytes; N: canonical number text (see engine/number.h).
  std::string scalar;
  bool boolean = false;              // BOOL
  std::vector<std::string> members;  // SS, NS (canonical text), BS (raw bytes)
  std::vector<AttributeValue> list;  // L
  AttributeMap map;                  // M

  static AttributeValue String(std::string text);
  static AttributeValue Number(std::string canonical_text);
  static AttributeValue Binary(std::string bytes);
  static AttributeValue Boolean(bool value);
  static AttributeValue Null();

  bool operator==(const AttributeValue& other) const;
};

// The value of `name` in `item`, or null.
const AttributeValue* FindAttribute(const Item& item, std::string_view name);

// The order DynamoDB returns a set's members in, whatever order they were written or added in:
// SS and BS by their unsigned bytes, NS by value (../shared/behaviours-to-match.md F1). Every set
// a request or an update makes is kept in it (SortSetMembers), so stored items and their answers
// are in it; the JSON encoders check it as they write, for sets stored before it was kept.
bool SetMemberLess(AttributeType type, std::string_view a, std::string_view b);
void SortSetMembers(AttributeValue& set);

// DynamoDB's size of a value and of an item (attribute names + values; numbers by significant
// digits; 3 bytes per list or map plus 1 per element), as used for the 400 KB limit and capacity.
size_t ValueSize(const AttributeValue& value);
size_t ItemSize(const Item& item);

// DynamoDB's maximum item size: 400 KB.
inline constexpr size_t kMaxItemSizeBytes = 400 * 1024;

// An item's levels: its attributes are the first, so a map or list may stand at the 31st, its
// members at the 32nd; a map or list at the 32nd is refused (recorded against AWS:
// ../shared/behaviours-to-match.md B5). Requests are judged as they are read; an update's
// finished item here, as paths can set a value deeper than the request held it.
inline constexpr int kMaxContainerLevel = 31;
bool NestsTooDeep(const Item& item);
// DynamoDB's refusal of a value nested deeper, wherever it is met (requests, PartiQL, updates).
inline constexpr std::string_view kNestingTooDeep =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
    "beyond supported limit";

}  // namespace ddbd
