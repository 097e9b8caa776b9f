#include "protocol/attribute_value_json.h"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>
#include <string>

#include "engine/model/item_codec.h"
#include "protocol/base64.h"

namespace ddbd {
namespace {

// Decodes `json` as an item and encodes it back; returns the JSON or the error message.
std::string RoundTrip(const std::string& json) {
  rapidjson::Document document;
  document.Parse(json.c_str());
  AttributeDecoder decoder;
  Item item = decoder.DecodeItem(&document);
  if (!decoder.status().ok()) return "error: " + decoder.status().error().message();
  json::Buffer buffer;
  json::Writer writer(buffer);
  EncodeItem(writer, item);
  return buffer.GetString();
}

TEST_CASE("Every type survives JSON decoding and encoding") {
  const std::string item =
      R"({"s":{"S":"x"},"n":{"N":"1.5"},"b":{"B":"AAH/"},"t":{"BOOL":true},"z":{"NULL":true},)"
      R"("l":{"L":[{"S":"a"},{"L":[]},{"M":{}}]},"m":{"M":{"k":{"NS":["1","2"]}}},)"
      R"("ss":{"SS":["a","b"]},"bs":{"BS":["YQ==","Yg=="]}})";
  CHECK(RoundTrip(item) == item);
  CHECK(RoundTrip(R"({"n":{"N":"0100.50"}})") == R"({"n":{"N":"100.5"}})");
}

// Query pages encode stored blobs directly; the JSON must be what encoding the decoded item gives.
TEST_CASE("A stored blob encodes to the same JSON as its decoded item") {
  const std::string json =
      R"({"s":{"S":"x\"y"},"n":{"N":"-15000000.25"},"b":{"B":"AAH/"},"t":{"BOOL":true},)"
      R"("f":{"BOOL":false},"z":{"NULL":true},)"
      R"("l":{"L":[{"S":"a"},{"L":[]},{"M":{}},{"M":{"deep":{"L":[{"N":"1"}]}}}]},)"
      R"("m":{"M":{"k":{"NS":["1","2"]},"inner":{"M":{"bs":{"BS":["YQ=="]}}}}},)"
      R"("ss":{"SS":["a","b"]},"bs":{"BS":["YQ==","Yg=="]},"e":{"M":{}}})";
  rapidjson::Document document;
  document.Parse(json.c_str());
  AttributeDecoder decoder;
  const Item item = decoder.DecodeItem(&document);
  REQUIRE(decoder.status().ok());
  json::Buffer from_blob;
  json::Writer writer(from_blob);
  EncodeItemBlob(writer, EncodeItem(item));
  CHECK(std::string(from_blob.GetString()) == json);
  json::Buffer empty;
  json::Writer empty_writer(empty);
  EncodeItemBlob(empty_writer, EncodeItem(Item()));
  CHECK(std::string(empty.GetString()) == "{}");
}

// Every control character goes out escaped, at every offset from the 16-byte blocks the SSE2
// scan reads (RapidJSON 1.1.0's own scan let U+001A-U+001F through raw: issue 15).
// ../shared/behaviours-to-match.md F1, recorded against AWS.
TEST_CASE("Sets come back in DynamoDB's order: bytes for SS and BS, value for NS") {
  CHECK(RoundTrip(R"({"s":{"SS":["m","z","b","\u00e9",""]}})") ==
        "{\"s\":{\"SS\":[\"\",\"b\",\"m\",\"z\",\"\xc3\xa9\"]}}");
  CHECK(
      RoundTrip(
          R"({"n":{"NS":["10","2","-1","1.5","-10.25","0","0.05","-0.5","1e-130","-1.25","99"]}})") ==
      R"({"n":{"NS":["-10.25","-1.25","-1","-0.5","0",")" + ("0." + std::string(129, '0') + "1") +
          R"(","0.05","1.5","2","10","99"]}})");
  CHECK(RoundTrip(R"({"b":{"BS":["/w==","AA==","YQ=="]}})") ==
        R"({"b":{"BS":["AA==","YQ==","/w=="]}})");
  CHECK(RoundTrip(R"({"l":{"L":[{"M":{"s":{"SS":["b","a"]}}}]}})") ==
        R"({"l":{"L":[{"M":{"s":{"SS":["a","b"]}}}]}})");

  // An item stored before sets were kept in order comes back in order all the same, from its
  // blob and from its decoded form.
  Item unsorted = {{"s", AttributeValue::String("x")}};
  AttributeValue set;
  set.type = AttributeType::kNS;
  set.members = {"10", "2", "-1"};
  unsorted.emplace_back("n", set);
  json::Buffer from_blob;
  json::Writer blob_writer(from_blob);
  EncodeItemBlob(blob_writer, EncodeItem(unsorted));
  CHECK(std::string(from_blob.GetString()) == R"({"s":{"S":"x"},"n":{"NS":["-1","2","10"]}})");
  json::Buffer from_item;
  json::Writer item_writer(from_item);
  EncodeItem(item_writer, unsorted);
  CHECK(std::string(from_item.GetString()) == R"({"s":{"S":"x"},"n":{"NS":["-1","2","10"]}})");
}

// EncodeItemBlob makes room for a whole item at once, 16 bytes per byte of its blob: the densest
// shapes of the format (a NULL's one byte is ,{"NULL":true}; a control byte is \u00XX) stay
// within it. Each item is written into a fresh buffer, whose capacity is then that room exactly,
// so AddressSanitizer sees any write past it.
TEST_CASE("An item's JSON fits the room made for it, the densest shapes too") {
  const auto list_of = [](size_t count, const AttributeValue& element) {
    AttributeValue list;
    list.type = AttributeType::kL;
    list.list.assign(count, element);
    return list;
  };
  AttributeValue null_value;
  null_value.type = AttributeType::kNull;
  AttributeValue empty_map;
  empty_map.type = AttributeType::kM;
  AttributeValue bytes_set;
  bytes_set.type = AttributeType::kBS;
  for (int i = 0; i < 200; ++i) bytes_set.members.push_back(std::string(1, static_cast<char>(i)));
  AttributeValue flag;
  flag.type = AttributeType::kBool;
  std::vector<Item> items = {
      {{"n", list_of(1000, null_value)}},
      {{"m", list_of(1000, empty_map)}},
      {{"e", list_of(1000, AttributeValue::String(""))}},
      {{"f", list_of(1000, flag)}},
      {{"b", bytes_set}},
      {{std::string(500, '\x01'), AttributeValue::String(std::string(500, '\x1f'))}},
      {{"x", null_value}},
  };
  for (size_t i = 0; i < 300; ++i)
    items.back().emplace_back(std::string(1, static_cast<char>('a' + i % 26)), null_value);
  for (const Item& item : items) {
    const std::string blob = EncodeItem(item);
    json::Buffer buffer;
    json::Writer writer(buffer);
    EncodeItemBlob(writer, blob);
    CHECK(buffer.GetSize() <= blob.size() * 16);
    rapidjson::Document parsed;
    parsed.Parse(buffer.GetString(), buffer.GetSize());
    CHECK(!parsed.HasParseError());
  }
}

TEST_CASE("Control characters are escaped in names and values") {
  for (size_t offset = 0; offset < 40; offset += 7) {
    std::string text(offset, 'a');
    for (char c = 0; c < 0x20; ++c) text += std::string(9, 'x') + c + "\"\\\xc3\xa9";
    Item item;
    item.emplace_back(text, AttributeValue::String(text));
    json::Buffer buffer;
    json::Writer writer(buffer);
    EncodeItemBlob(writer, EncodeItem(item));
    const std::string out(buffer.GetString(), buffer.GetSize());
    for (char c : out) CHECK(static_cast<unsigned char>(c) >= 0x20);
    rapidjson::Document parsed;
    parsed.Parse(out.c_str(), out.size());
    REQUIRE(!parsed.HasParseError());
    const auto& member = parsed.MemberBegin();
    CHECK(std::string(member->name.GetString(), member->name.GetStringLength()) == text);
    CHECK(std::string(member->value["S"].GetString(), member->value["S"].GetStringLength()) ==
          text);
  }
}

TEST_CASE("Wrong JSON types are SerializationExceptions, reported before invalid values") {
  CHECK(RoundTrip(R"({"a":{"S":5}})") == "error: NUMBER_VALUE cannot be converted to String");
  CHECK(RoundTrip(R"({"a":"x"})") == "error: Unexpected value type in payload");
  CHECK(RoundTrip(R"({"a":{"BOOL":"yes"}})") == "error: Unexpected token received from parser");
  CHECK(RoundTrip(R"({"a":{"B":5}})") ==
        "error: only base-64-encoded strings are convertible to bytes");
  CHECK(RoundTrip(R"({"a":{"B":"abcde"}})") ==
        "error: Base64 encoded length is expected a multiple of 4 bytes but found: 5");
  CHECK(RoundTrip(R"({"a":{"L":"x"}})") == "error: Unexpected field type");
  CHECK(RoundTrip(R"({"a":{"M":[]}})") ==
        "error: Unrecognized collection type java.util.Map<java.lang.String, "
        "com.amazonaws.dynamodb.v20120810.AttributeValue>");
  // The invalid number comes first in the body, the type error wins all the same.
  CHECK(RoundTrip(R"({"a":{"N":"x"},"b":{"S":true}})") ==
        "error: TRUE_VALUE cannot be converted to String");
  // Numbers are checked before the two-types rule.
  CHECK(RoundTrip(R"({"a":{"S":"a","N":"b"}})") ==
        "error: The parameter cannot be converted to a numeric value: b");
}

TEST_CASE("Base64 decodes strictly and encodes with padding") {
  CHECK(Base64Encode("") == "");
  CHECK(Base64Encode("a") == "YQ==");
  CHECK(Base64Encode("ab") == "YWI=");
  CHECK(Base64Encode("abc") == "YWJj");
  CHECK(Base64Decode("YWJj").value() == "abc");
  CHECK(Base64Decode("YQ==").value() == "a");
  CHECK(Base64Decode("").value().empty());
  CHECK(Base64Decode("=+/=").error().message() ==
        "Invalid last non-pad Base64 character dectected");
  CHECK(Base64Decode("+/+=").error().message() ==
        "Invalid last non-pad Base64 character dectected");
  CHECK(Base64Decode("ab!c").error().message() == "Invalid Base64 character: '!'");
  CHECK(Base64Decode("YR==").error().message() ==
        "Invalid last non-pad Base64 character dectected");
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

// The decoder reads an attribute value's members in one pass; these pin what the lookup of each
// type name by FindMember gave: a name's first member counts, a null one counts as absent, other
// names are ignored, and two type names are one too many.
TEST_CASE("An attribute value's type members: first of a name, nulls absent, one type") {
  CHECK(RoundTrip(R"({"a":{"S":"x","S":"y"}})") == R"({"a":{"S":"x"}})");
  CHECK(RoundTrip(R"({"a":{"x":1,"NS":["2","1"],"q":null}})") == R"({"a":{"NS":["1","2"]}})");
  CHECK(RoundTrip(R"({"a":{"S":null,"N":"5"}})") == R"({"a":{"N":"5"}})");
  CHECK(RoundTrip(R"({"a":{"S":null,"S":"x"}})")
            .starts_with("error: Supplied AttributeValue is empty"));
  CHECK(RoundTrip(R"({"a":{"s":"x","BOO":true,"NULLS":true}})")
            .starts_with("error: Supplied AttributeValue is empty"));
  CHECK(RoundTrip(R"({"a":{"S":"x","BOOL":true}})")
            .starts_with("error: Supplied AttributeValue has more than one datatypes set"));
  CHECK(RoundTrip(R"({"a":{"M":{},"N":"1"}})")
            .starts_with("error: Supplied AttributeValue has more than one datatypes set"));
  for (const char* type : {"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"}) {
    INFO(type);
    CHECK(RoundTrip(std::string(R"({"a":{")") + type + R"(":null}})")
              .starts_with("error: Supplied AttributeValue is empty"));
  }
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

// Stored items are written into the answer's buffer without the writer (EncodeItemBlob); the
// text must be what the writer gives for the same item (EncodeItem), byte for byte, wherever
// the item stands: every byte value in names, strings and set members, at every offset from
// the 16-byte blocks of the SIMD scan, nesting of every kind, and items as array members and
// object members next to the writer's own values.
TEST_CASE("A stored blob's JSON, written without the writer, is the writer's text") {
  std::string every;
  for (int c = 0; c < 256; ++c) every += static_cast<char>(c);
  Item item;
  for (size_t offset = 0; offset < 20; offset += 3) {
    const std::string text = std::string(offset, 'q') + every + std::string(offset, 'r');
    item.emplace_back("s" + text, AttributeValue::String(text));
  }
  AttributeValue set;
  set.type = AttributeType::kSS;
  set.members = {"\x01", "\"quoted\"", every};
  std::sort(set.members.begin(), set.members.end());
  item.emplace_back("set", set);
  AttributeValue bytes;
  bytes.type = AttributeType::kB;
  bytes.scalar = every;
  item.emplace_back("bytes", bytes);
  AttributeValue inner = AttributeValue::String("in");
  for (int depth = 0; depth < 20; ++depth) {
    AttributeValue wrapper;
    if (depth % 2 == 0) {
      wrapper.type = AttributeType::kL;
      wrapper.list = {inner, AttributeValue::String("x"), AttributeValue()};
      wrapper.list.back().type = AttributeType::kNull;
      wrapper.list.back().boolean = true;
    } else {
      wrapper.type = AttributeType::kM;
      wrapper.map = {{"a\n", inner}, {"b", AttributeValue::String("\t")}};
    }
    inner = wrapper;
  }
  item.emplace_back("nested", inner);
  AttributeValue empty_list;
  empty_list.type = AttributeType::kL;
  item.emplace_back("el", empty_list);
  AttributeValue flag;
  flag.type = AttributeType::kBool;
  flag.boolean = false;
  item.emplace_back("f", flag);
  const std::string blob = EncodeItem(item);

  const auto both = [&](auto write) {
    json::Buffer by_blob, by_writer;
    json::Writer blob_writer(by_blob), item_writer(by_writer);
    write(blob_writer, [&](json::Writer& w) { EncodeItemBlob(w, blob); });
    write(item_writer, [&](json::Writer& w) { EncodeItem(w, DecodeItem(blob)); });
    CHECK(std::string(by_blob.GetString(), by_blob.GetSize()) ==
          std::string(by_writer.GetString(), by_writer.GetSize()));
  };
  both([](json::Writer& w, auto encode) { encode(w); });
  both([](json::Writer& w, auto encode) {
    w.StartArray();
    encode(w);
    w.String("between");
    encode(w);
    encode(w);
    w.EndArray();
  });
  both([](json::Writer& w, auto encode) {
    w.StartObject();
    w.Key("Keys");
    encode(w);
    w.Key("n");
    w.Int(1);
    w.Key("NewImage");
    encode(w);
    w.EndObject();
  });
}

}  // namespace
}  // namespace ddbd
