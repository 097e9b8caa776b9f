#include "protocol/whole_numbers.h"

#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>

namespace ddbd {
namespace {

// The integer members of the newer front end's operations: i32 in its model.
struct IntegerMember {
  std::string_view operation;
  std::string_view member;
};
constexpr IntegerMember kIntegerMembers[] = {{"SearchVectors", "TopK"}};

// Walks the body, and stops at the first fractional number given as `member` of the top-level
// object, keeping it and where it begins.
class Finder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Finder> {
 public:
  Finder(std::string_view member, const rapidjson::StringStream& stream)
      : member_(member), stream_(stream) {}

  bool StartObject() { return Enter(); }
  bool EndObject(rapidjson::SizeType) { return Leave(); }
  bool StartArray() { return Enter(); }
  bool EndArray(rapidjson::SizeType) { return Leave(); }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    watching_ = depth_ == 1 && std::string_view(text, length) == member_;
    return true;
  }
  bool Double(double value) {
    if (watching_) {
      found_ = value;
      offset_ = stream_.Tell();
      return false;  // done: the reader stops here
    }
    return Default();
  }
  bool Default() {
    watching_ = false;
    return true;
  }

  std::optional<double> found() const { return found_; }
  size_t offset() const { return offset_; }

 private:
  bool Enter() {
    watching_ = false;
    ++depth_;
    return true;
  }
  bool Leave() {
    --depth_;
    return true;
  }

  std::string_view member_;
  const rapidjson::StringStream& stream_;
  int depth_ = 0;
  bool watching_ = false;
  std::optional<double> found_;
  size_t offset_ = 0;
};

}  // namespace

std::optional<std::string> FractionWhereIntegerGoes(std::string_view operation,
                                                    const std::string& body) {
  const auto* integer =
      std::find_if(std::begin(kIntegerMembers), std::end(kIntegerMembers),
                   [&](const IntegerMember& m) { return m.operation == operation; });
  if (integer == std::end(kIntegerMembers)) return std::nullopt;
  // StringStream reads up to the terminator a std::string has (a NUL inside the body ends the
  // text early; the body's own parse refuses it).
  const std::string& text = body;
  rapidjson::StringStream stream(text.c_str());
  Finder finder(integer->member, stream);
  rapidjson::Reader reader;
  reader.Parse<rapidjson::kParseIterativeFlag>(stream, finder);
  if (!finder.found()) return std::nullopt;
  // Where serde's reader stood: after the number (RapidJSON reports where the number began: it
  // reads numbers through a copy of the stream), as the line and the bytes read of it.
  size_t end = finder.offset();
  while (end < text.size() &&
         std::string_view("+-.0123456789eE").find(text[end]) != std::string_view::npos) {
    ++end;
  }
  const std::string_view read = std::string_view(text).substr(0, end);
  const size_t line = 1 + static_cast<size_t>(std::count(read.begin(), read.end(), '\n'));
  const size_t line_start = read.rfind('\n') == std::string_view::npos ? 0 : read.rfind('\n') + 1;
  // Rust prints an f64 in its shortest round-trip form, never with an exponent.
  char number[400];
  const auto printed =
      std::to_chars(number, number + sizeof number, *finder.found(), std::chars_format::fixed);
  return "invalid type: floating point `" + std::string(number, printed.ptr) + "`, expected i32" +
         " at line " + std::to_string(line) + " column " + std::to_string(read.size() - line_start);
}

}  // namespace ddbd
