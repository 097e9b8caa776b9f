#include "protocol/json_parse.h"

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

bool Parses(std::string text) {
  rapidjson::Document document;
  return json::ParseInPlace(text, document);
}

std::string ParsedString(std::string text) {
  rapidjson::Document document;
  REQUIRE(json::ParseInPlace(text, document));
  return std::string(document["s"].GetString(), document["s"].GetStringLength());
}

TEST_CASE("JSON text: ASCII bodies read as the checked parse reads them") {
  // Long enough for the SIMD scan of a string's plain run (16 bytes at a time).
  const std::string plain(40, 'x');
  CHECK(ParsedString("{\"s\":\"" + plain + "\"}") == plain);
  CHECK(ParsedString("{\n\t\"s\" :\r\n \"a\\\"b\\\\c\\u0041\\n\"}") == "a\"b\\cA\n");
  CHECK(ParsedString(R"({"s":"\ud83d\ude00"})") == "\xF0\x9F\x98\x80");
  // A raw control byte inside a string is refused, at any place in a long run: 0x1A-0x1F are
  // the ones RapidJSON's SIMD scan would let through.
  for (int control : {0x01, 0x09, 0x0A, 0x19, 0x1A, 0x1B, 0x1F}) {
    for (size_t at : {size_t{0}, size_t{7}, size_t{20}, size_t{39}}) {
      std::string value = plain;
      value[at] = static_cast<char>(control);
      INFO("byte " << control << " at " << at);
      CHECK_FALSE(Parses("{\"s\":\"" + value + "\"}"));
    }
  }
  CHECK_FALSE(Parses(R"({"s":"\udc00"})"));  // a lone low surrogate
  CHECK_FALSE(Parses(R"({"s":"x")"));
  CHECK_FALSE(Parses(R"({"s":"x"} x)"));
}

TEST_CASE("JSON text: other bytes must be UTF-8") {
  CHECK(ParsedString("{\"s\":\"caf\xC3\xA9 " + std::string(30, 'y') + "\"}") ==
        "caf\xC3\xA9 " + std::string(30, 'y'));
  CHECK_FALSE(Parses("{\"s\":\"\xC3\x28" + std::string(30, 'y') + "\"}"));  // bad continuation
  CHECK_FALSE(Parses("{\"s\":\"\xFF\"}"));
  CHECK_FALSE(Parses("{\"s\":\"\xED\xA0\x80\"}"));  // an encoded surrogate
  CHECK_FALSE(Parses("{\"s\":\"x\"}\xE2"));         // a lead byte at the very end
  // A non-ASCII body still refuses 0x1A-0x1F.
  CHECK_FALSE(Parses("{\"s\":\"\xC3\xA9" + std::string(20, 'y') + "\x1C\"}"));
}

// Texts of at most 64 objects and arrays are parsed with recursion, the others without: the
// same documents either way, and nesting far past any stack's depth parses (a recursive parse of
// it would overflow the stack). Openers inside strings count, so they only ever send a text to
// the parse without recursion.
TEST_CASE("JSON text: shallow and deep nesting parse alike, the deepest without recursion") {
  const auto nested = [](size_t depth, std::string_view open, std::string_view close) {
    std::string text;
    for (size_t i = 0; i < depth; ++i) text += open;
    text += "1";
    for (size_t i = 0; i < depth; ++i) text += close;
    return text;
  };
  for (size_t depth : {1u, 7u, 63u, 64u, 65u, 200u, 100000u}) {
    INFO("depth " << depth);
    for (const auto& [open, close] : {std::pair<std::string_view, std::string_view>{"[", "]"},
                                      {"{\"a\":", "}"},
                                      {"{\"\u00e9[{\":[", "]}"}}) {
      std::string text = nested(depth, open, close);
      rapidjson::Document document;
      REQUIRE(json::ParseInPlace(text, document));
      const rapidjson::Value* value = &document;
      for (size_t i = 0; i < depth; ++i) {
        value = value->IsArray() ? &(*value)[0] : &value->MemberBegin()->value;
        if (value->IsArray() && value->Size() == 1 && open.size() > 5) value = &(*value)[0];
      }
      CHECK(value->IsInt());
      std::string broken = nested(depth, open, close);
      broken.pop_back();
      CHECK_FALSE(Parses(broken));
    }
  }
  // A request's body: the same members, parsed with recursion.
  CHECK(ParsedString(R"({"TableName":"t","Item":{"k":{"S":"v"}},"s":"[{[{"})") == "[{[{");
}

}  // namespace
}  // namespace ddbd
