// Stored items (engine blobs) written as DynamoDB's JSON straight into an answer's buffer: the
// read path's writer, kept apart from the decoder of request values in attribute_value_json.cc.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/item_codec.h"
#include "protocol/attribute_value_json.h"
#include "protocol/base64.h"
#include "protocol/json_quote.h"

namespace ddbd {

namespace {

// {"S": and the like, the start of a value of each type, as one piece of text of at most 8 bytes
// ({"NULL":): written as one 8-byte store.
struct ValueStartText {
  char text[8] = {};
  size_t size = 0;
};
constexpr auto kLastType = static_cast<size_t>(AttributeType::kBS);
const std::array<ValueStartText, kLastType + 1> kValueStarts = [] {
  std::array<ValueStartText, kLastType + 1> starts;
  for (size_t t = static_cast<size_t>(AttributeType::kS); t <= kLastType; ++t) {
    const std::string text = "{\"" + std::string(TypeName(static_cast<AttributeType>(t))) + "\":";
    std::memcpy(starts[t].text, text.data(), text.size());
    starts[t].size = text.size();
  }
  return starts;
}();

// The most JSON one byte of a blob becomes: a NULL's type byte is ,{"NULL":true} (14 bytes); a
// byte of a name or string at most \u00XX (6) and its length's byte the quotes, a separator and
// a colon; every other byte of the format less (see EncodeItem).
constexpr size_t kJsonPerBlobByte = 16;

// Writes a stored blob's JSON at a cursor into room made for the whole item at once, as the
// writer would write it value by value: the writer's bookkeeping per value (its level stack, the
// separator logic, the escape scan of each type's name) cost ~1,400 instructions per ~200-byte
// item, a reservation per string ~40 more.
class BlobJsonWriter {
 public:
  explicit BlobJsonWriter(char* at) : o_(at) {}
  char* end() const { return o_; }

  void Name(std::string_view name) {
    Separator();
    o_ = json::QuoteInto(o_, name);
    *o_++ = ':';
  }
  void Scalar(AttributeType type, std::string_view bytes) {
    StartValue(type);
    o_ = json::QuoteInto(o_, type == AttributeType::kB ? Base64Encode(bytes) : bytes);
    *o_++ = '}';
  }
  void Bool(bool value) {
    StartValue(AttributeType::kBool);
    Raw(value ? "true}" : "false}");
  }
  void Null() {
    StartValue(AttributeType::kNull);
    Raw("true}");
  }
  void StartSet(AttributeType type, size_t count) {
    StartValue(type);
    *o_++ = '[';
    set_type_ = type;
    set_members_.clear();
    set_members_.reserve(count);
  }
  void SetMember(std::string_view bytes) { set_members_.push_back(bytes); }
  // In DynamoDB's order, which a set stored before it was kept in it may not be in.
  void EndSet() {
    const AttributeType type = set_type_;
    const auto less = [type](std::string_view a, std::string_view b) {
      return SetMemberLess(type, a, b);
    };
    if (!std::is_sorted(set_members_.begin(), set_members_.end(), less)) {
      std::sort(set_members_.begin(), set_members_.end(), less);
    }
    bool first = true;
    for (const std::string_view member : set_members_) {
      if (!first) *o_++ = ',';
      first = false;
      o_ = json::QuoteInto(o_, type == AttributeType::kBS ? Base64Encode(member) : member);
    }
    Raw("]}");
  }
  void StartList(size_t) {
    StartValue(AttributeType::kL);
    *o_++ = '[';
    Push(kList);
  }
  void EndList() {
    Raw("]}");
    Pop();
  }
  // The item itself is a bare object; a map inside it is {"M": {...}}.
  void StartMap(size_t) {
    if (!open_.empty()) StartValue(AttributeType::kM);
    *o_++ = '{';
    Push(kMap);
  }
  void EndMap() {
    Pop();
    *o_++ = '}';
    if (!open_.empty()) *o_++ = '}';
  }

 private:
  static constexpr char kMap = 'm';
  static constexpr char kList = 'l';

  void Raw(std::string_view text) {
    std::memcpy(o_, text.data(), text.size());
    o_ += text.size();
  }
  // A comma before every member of the open container but its first.
  void Separator() {
    if (!first_) *o_++ = ',';
    first_ = false;
  }
  // A value in a list is a member of it; in a map it follows its name. The type's start is
  // stored as one 8-byte piece, the cursor moved by its length.
  void StartValue(AttributeType type) {
    if (in_list_) Separator();
    const ValueStartText& start = kValueStarts[static_cast<size_t>(type)];
    std::memcpy(o_, start.text, sizeof start.text);
    o_ += start.size;
  }
  void Push(char container) {
    open_.push_back(container);
    in_list_ = container == kList;
    first_ = true;
  }
  // The container that held the one closing is not at its first member any more.
  void Pop() {
    open_.pop_back();
    in_list_ = !open_.empty() && open_.back() == kList;
    first_ = false;
  }

  char* o_;
  std::string open_;      // the containers open, innermost last (an item nests at most 33 deep)
  bool in_list_ = false;  // whether the innermost is a list
  bool first_ = true;
  AttributeType set_type_ = AttributeType::kSS;
  std::vector<std::string_view> set_members_;  // a set's, sorted as it ends
};

}  // namespace

void EncodeItemBlob(json::Writer& writer, std::string_view blob) {
  // The writer places the value (a separator before it, if it is not the first), the visitor
  // writes it.
  writer.RawValue("", 0, rapidjson::kObjectType);
  // Room for the whole item at once (a 400 KB item's 6.4 MB only reserved, its pages untouched
  // but for what is written), then given back but for what was written.
  json::Buffer& out = json::BufferOf(writer);
  const size_t room = blob.size() * kJsonPerBlobByte + json::QuotedRoom(0);
  out.Reserve(room);
  char* const begin = out.PushUnsafe(room);
  BlobJsonWriter visitor(begin);
  VisitItemBlob(blob, visitor);
  out.Pop(room - static_cast<size_t>(visitor.end() - begin));
}

void EncodeReadItem(json::Writer& writer, const ReadItem& read) {
  if (read.projected) {
    EncodeItem(writer, *read.projected);
  } else if (read.item) {
    EncodeItemBlob(writer, read.item->blob);
  }
}

}  // namespace ddbd
