#include "engine/number.h"

#include <algorithm>

namespace ddbd {
namespace {

// 9.99...E+125 is 0.99...E+126; 1E-130 is 0.1E-129.
constexpr int32_t kMaxExponent = 126;
constexpr int32_t kMinExponent = -129;
constexpr int32_t kExponentBias = 129;  // maps [kMinExponent, kMaxExponent] onto [0, 255]

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Error NotNumeric(std::string_view text) {
  if (text.empty())
    return Error::Validation("The parameter cannot be converted to a numeric value");
  return Error::Validation("The parameter cannot be converted to a numeric value: " +
                           std::string(text));
}

}  // namespace

Result<Number> Number::Parse(std::string_view text) {
  size_t i = 0;
  Number number;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) number.negative_ = text[i++] == '-';
  std::string mantissa;
  int64_t point = -1;  // digits before the decimal point
  for (; i < text.size() && (IsDigit(text[i]) || text[i] == '.'); ++i) {
    if (text[i] == '.') {
      if (point >= 0) return NotNumeric(text);
      point = static_cast<int64_t>(mantissa.size());
    } else {
      mantissa.push_back(text[i]);
    }
  }
  if (mantissa.empty()) return NotNumeric(text);
  if (point < 0) point = static_cast<int64_t>(mantissa.size());
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent_negative = text[i++] == '-';
    if (i == text.size()) return NotNumeric(text);
    for (; i < text.size() && IsDigit(text[i]); ++i) {
      // Saturate: any exponent this large is out of range anyway.
      exponent = std::min<int64_t>(exponent * 10 + (text[i] - '0'), 1'000'000);
    }
    if (exponent_negative) exponent = -exponent;
  }
  if (i != text.size()) return NotNumeric(text);

  const size_t first = mantissa.find_first_not_of('0');
  if (first == std::string::npos) return Number();  // zero, whatever its sign or exponent
  const size_t last = mantissa.find_last_not_of('0');
  number.digits_ = mantissa.substr(first, last - first + 1);
  if (number.digits_.size() > kMaxSignificantDigits) {
    return Error::Validation("Attempting to store more than 38 significant digits in a Number");
  }
  const int64_t scaled = point - static_cast<int64_t>(first) + exponent;
  if (scaled > kMaxExponent) {
    return Error::Validation(
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  }
  if (scaled < kMinExponent) {
    return Error::Validation(
        "Number underflow. Attempting to store a number with magnitude smaller than supported "
        "range");
  }
  number.exponent_ = static_cast<int32_t>(scaled);
  return number;
}

std::string Number::ToString() const {
  if (IsZero()) return "0";
  std::string text = negative_ ? "-" : "";
  const auto size = static_cast<int32_t>(digits_.size());
  if (exponent_ <= 0) {
    text += "0.";
    text.append(static_cast<size_t>(-exponent_), '0');
    text += digits_;
  } else if (exponent_ >= size) {
    text += digits_;
    text.append(static_cast<size_t>(exponent_ - size), '0');
  } else {
    text.append(digits_, 0, static_cast<size_t>(exponent_));
    text += '.';
    text.append(digits_, static_cast<size_t>(exponent_), std::string::npos);
  }
  return text;
}

int Number::Compare(const Number& other) const {
  auto sign = [](const Number& n) { return n.IsZero() ? 0 : (n.negative_ ? -1 : 1); };
  const int a = sign(*this);
  const int b = sign(other);
  if (a != b) return a < b ? -1 : 1;
  if (a == 0) return 0;
  int magnitude = 0;
  if (exponent_ != other.exponent_) {
    magnitude = exponent_ < other.exponent_ ? -1 : 1;
  } else {
    const int c = digits_.compare(other.digits_);
    magnitude = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return a * magnitude;
}

void Number::AppendOrderedBytes(std::string& out) const {
  if (IsZero()) {
    out.push_back('\x02');
    return;
  }
  const auto biased = static_cast<uint8_t>(exponent_ + kExponentBias);
  if (!negative_) {
    // Larger exponent first decides; then digits; a shorter digit string (a prefix) is smaller,
    // so the terminator 0x00 sorts below every digit.
    out.push_back('\x03');
    out.push_back(static_cast<char>(biased));
    out.append(digits_);
    out.push_back('\x00');
    return;
  }
  // Negative numbers: everything inverted, and the terminator above every inverted digit.
  out.push_back('\x01');
  out.push_back(static_cast<char>(static_cast<uint8_t>(255 - biased)));
  for (char digit : digits_) out.push_back(static_cast<char>('9' - digit + '0'));
  out.push_back('\xFF');
}

}  // namespace ddbd
