#include "protocol/item_lines.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <vector>

#include "engine/model/item_codec.h"
#include "protocol/attribute_value_json.h"
#include "protocol/base64.h"
#include "protocol/ion_text.h"
#include "protocol/json_parse.h"
#include "protocol/json_writer.h"

namespace ddbd {
namespace {

// An Ion decimal for a DynamoDB number, as DynamoDB writes them: an integer's trailing zeros as
// an exponent (600 is 6d2, 103 is 103.), a fraction as it is (1.5), an exponent with d.
void AppendIonDecimal(std::string_view number, std::string& out) {
  if (number.find_first_of("eE") != std::string_view::npos) {
    for (const char c : number) out += (c == 'e' || c == 'E') ? 'd' : c;
    return;
  }
  if (number.find('.') != std::string_view::npos) {
    out.append(number);
    return;
  }
  size_t end = number.size();
  while (end > 1 && number[end - 1] == '0' && number[end - 2] != '-') --end;
  if (end == number.size() || number.substr(0, end) == "0" || number.substr(0, end) == "-0") {
    out.append(number);
    out += '.';
    return;
  }
  out.append(number.substr(0, end));
  out += 'd';
  out += std::to_string(number.size() - end);
}

void AppendIonString(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          out += "\\x";
          out += kHex[(c >> 4) & 15];
          out += kHex[c & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

bool IsIonIdentifier(std::string_view name) {
  if (name.empty() || name == "true" || name == "false" || name == "null" || name == "nan") {
    return false;
  }
  auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
  };
  if (!letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

// Ion text from a stored blob, without decoding it (item_codec.h's visitor).
class IonWriter {
 public:
  explicit IonWriter(std::string& out) : out_(out) {}

  void Name(std::string_view name) {
    Separate();
    if (IsIonIdentifier(name)) {
      out_.append(name);
    } else {
      AppendIonString(name, out_);
    }
    out_ += ':';
    fresh_ = true;  // the value follows the colon without a comma
  }
  void Scalar(AttributeType type, std::string_view bytes) {
    Separate();
    AppendScalar(type, bytes);
  }
  void Bool(bool value) {
    Separate();
    out_ += value ? "true" : "false";
  }
  void Null() {
    Separate();
    out_ += "null";
  }
  void StartSet(AttributeType type, size_t) {
    Separate();
    set_type_ = type;
    members_.clear();
  }
  void SetMember(std::string_view bytes) { members_.push_back(bytes); }
  void EndSet() {
    const AttributeType member = set_type_ == AttributeType::kSS   ? AttributeType::kS
                                 : set_type_ == AttributeType::kNS ? AttributeType::kN
                                                                   : AttributeType::kB;
    out_ += set_type_ == AttributeType::kSS   ? "$dynamodb_SS::["
            : set_type_ == AttributeType::kNS ? "$dynamodb_NS::["
                                              : "$dynamodb_BS::[";
    for (size_t i = 0; i < members_.size(); ++i) {
      if (i > 0) out_ += ',';
      AppendScalar(member, members_[i]);
    }
    out_ += ']';
  }
  void StartList(size_t) {
    Separate();
    out_ += '[';
    fresh_ = true;
  }
  void EndList() {
    out_ += ']';
    fresh_ = false;
  }
  void StartMap(size_t) {
    Separate();
    out_ += '{';
    fresh_ = true;
  }
  void EndMap() {
    out_ += '}';
    fresh_ = false;
  }

 private:
  void Separate() {
    if (!fresh_) out_ += ',';
    fresh_ = false;
  }
  void AppendScalar(AttributeType type, std::string_view bytes) {
    switch (type) {
      case AttributeType::kN:
        AppendIonDecimal(bytes, out_);
        return;
      case AttributeType::kB:
        out_ += "{{";
        out_ += Base64Encode(bytes);
        out_ += "}}";
        return;
      default:
        AppendIonString(bytes, out_);
    }
  }

  std::string& out_;
  bool fresh_ = true;
  AttributeType set_type_ = AttributeType::kSS;
  std::vector<std::string_view> members_;
};

class ExportItemLines final : public ItemLines {
 public:
  LineItem ItemOfLine(InputFormat format, std::string_view line) const override {
    if (format == InputFormat::kIon) {
      // Ion read as the DynamoDB JSON it stands for, then taken by the same rules.
      std::optional<std::string> json = IonToDynamoDbJson(line);
      return json ? ItemOfJson(*json) : LineItem{};
    }
    if (format != InputFormat::kDynamoDbJson) return LineItem{};
    return ItemOfJson(line);
  }

 private:
  static LineItem ItemOfJson(std::string_view line) {
    LineItem read;
    std::string text(line);
    rapidjson::Document document;
    if (!json::ParseInPlace(text, document)) return read;
    read.kind = LineItem::Kind::kNotAnItem;
    if (!document.IsObject()) return read;
    const auto found = document.FindMember("Item");
    if (found == document.MemberEnd() || !found->value.IsObject() || document.MemberCount() != 1) {
      return read;
    }
    // The current layer's value rules, as a PutItem's item is read.
    AttributeDecoder decoder(wire::ValueRules{.current_layer = true, .envelope = false});
    Item item = decoder.DecodeItem(&found->value);
    if (decoder.failed()) return read;
    read.kind = LineItem::Kind::kItem;
    read.item = std::move(item);
    return read;
  }

 public:
  void AppendItem(ExportFormat format, std::string_view blob, std::string& out) const override {
    if (format == ExportFormat::kIon) {
      out += "$ion_1_0 {Item:";
      AppendIonItem(blob, out);
      out += "}\n";
      return;
    }
    json::Buffer buffer;
    json::Writer writer(buffer);
    writer.StartObject();
    json::Key(writer, "\"Item\"");
    EncodeItemBlob(writer, blob);
    writer.EndObject();
    out.append(buffer.GetString(), buffer.GetSize());
    out += '\n';
  }

  void AppendChange(ExportFormat format, const ItemChange& change,
                    std::string& out) const override {
    const std::string micros = std::to_string(change.write_micros);
    if (format == ExportFormat::kIon) {
      out += "$ion_1_0 {Metadata:{WriteTimestampMicros:";
      AppendIonDecimal(micros, out);
      out += "},Keys:";
      AppendIonItem(change.keys, out);
      if (change.new_image) {
        out += ",NewImage:";
        AppendIonItem(*change.new_image, out);
      }
      if (change.old_image) {
        out += ",OldImage:";
        AppendIonItem(*change.old_image, out);
      }
      out += "}\n";
      return;
    }
    json::Buffer buffer;
    json::Writer writer(buffer);
    writer.StartObject();
    json::Key(writer, "\"Metadata\"");
    writer.StartObject();
    json::Key(writer, "\"WriteTimestampMicros\"");
    writer.StartObject();
    json::Key(writer, "\"N\"");
    json::String(writer, micros);
    writer.EndObject();
    writer.EndObject();
    json::Key(writer, "\"Keys\"");
    EncodeItemBlob(writer, change.keys);
    if (change.new_image) {
      json::Key(writer, "\"NewImage\"");
      EncodeItemBlob(writer, *change.new_image);
    }
    if (change.old_image) {
      json::Key(writer, "\"OldImage\"");
      EncodeItemBlob(writer, *change.old_image);
    }
    writer.EndObject();
    out.append(buffer.GetString(), buffer.GetSize());
    out += '\n';
  }

 private:
  static void AppendIonItem(std::string_view blob, std::string& out) {
    IonWriter writer(out);
    VisitItemBlob(blob, writer);
  }
};

}  // namespace

std::shared_ptr<const ItemLines> NewItemLines() { return std::make_shared<ExportItemLines>(); }

}  // namespace ddbd
