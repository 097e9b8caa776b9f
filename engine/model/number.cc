#include "engine/model/number.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ddbd {
namespace {

// 9.99...E+125 is 0.99...E+126; 1E-130 is 0.1E-129.
constexpr int32_t kMaxExponent = 126;
constexpr int32_t kMinExponent = -129;
constexpr int32_t kExponentBias = 129;  // maps [kMinExponent, kMaxExponent] onto [0, 255]

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Error NotNumeric(std::string_view text, Number::Layer layer) {
  if (text.empty() && layer == Number::Layer::kOlder)
    return Error::Validation("The parameter cannot be converted to a numeric value");
  return Error::Validation("The parameter cannot be converted to a numeric value: " +
                           std::string(text));
}

constexpr int64_t kInt32Min = -2'147'483'648LL;
constexpr int64_t kInt32Max = 2'147'483'647LL;

// A number's ordered key bytes (AppendOrderedBytes) from its parts: value = (negative ? -1 : 1)
// * 0.DIGITS * 10^exponent, no digits for zero. Written at once: a push_back a byte cost as much
// as the rest.
void AppendOrdered(std::string& out, bool negative, int32_t exponent, std::string_view digits) {
  if (digits.empty()) {
    out.push_back('\x02');
    return;
  }
  const auto biased = static_cast<uint8_t>(exponent + kExponentBias);
  char bytes[Number::kMaxSignificantDigits + 3];
  // Larger exponent first decides; then digits; a shorter digit string (a prefix) is smaller, so
  // the terminator 0x00 sorts below every digit. Negative numbers: everything inverted, and the
  // terminator above every inverted digit.
  bytes[0] = negative ? '\x01' : '\x03';
  bytes[1] = static_cast<char>(negative ? static_cast<uint8_t>(255 - biased) : biased);
  for (size_t i = 0; i < digits.size(); ++i) {
    bytes[2 + i] = negative ? static_cast<char>('9' - digits[i] + '0') : digits[i];
  }
  bytes[2 + digits.size()] = negative ? '\xFF' : '\x00';
  out.append(bytes, digits.size() + 3);
}

}  // namespace

Result<Number> Number::Parse(std::string_view text, Layer layer) {
  size_t i = 0;
  Number number;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) number.negative_ = text[i++] == '-';
  std::string mantissa;
  int64_t point = -1;  // digits before the decimal point
  for (; i < text.size() && (IsDigit(text[i]) || text[i] == '.'); ++i) {
    if (text[i] == '.') {
      if (point >= 0) return NotNumeric(text, layer);
      point = static_cast<int64_t>(mantissa.size());
    } else {
      mantissa.push_back(text[i]);
    }
  }
  if (mantissa.empty()) return NotNumeric(text, layer);
  if (point < 0) point = static_cast<int64_t>(mantissa.size());
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent_negative = text[i++] == '-';
    if (i == text.size()) return NotNumeric(text, layer);
    for (; i < text.size() && IsDigit(text[i]); ++i) {
      exponent = exponent * 10 + (text[i] - '0');
      // A written exponent beyond 32 bits is no number to Java's BigDecimal.
      if (exponent > kInt32Max + 1) return NotNumeric(text, layer);
    }
    if (exponent_negative) exponent = -exponent;
    if (exponent > kInt32Max) return NotNumeric(text, layer);
  }
  if (i != text.size()) return NotNumeric(text, layer);
  // BigDecimal's scale (digits after the point, less the exponent) must fit 32 bits as well.
  const int64_t scale = static_cast<int64_t>(mantissa.size()) - point - exponent;
  if (scale < kInt32Min || scale > kInt32Max) return NotNumeric(text, layer);

  const size_t first = mantissa.find_first_not_of('0');
  const bool zero = first == std::string::npos;
  if (!zero) {
    const size_t last = mantissa.find_last_not_of('0');
    number.digits_ = mantissa.substr(first, last - first + 1);
    if (number.digits_.size() > kMaxSignificantDigits) {
      return Error::Validation("Attempting to store more than 38 significant digits in a Number");
    }
  }
  // The magnitude, as BigDecimal's precision less its scale (a zero's precision is 1): 1E125 is
  // 126, the largest taken; 1E-130 is -129, the smallest.
  const int64_t precision = zero ? 1 : static_cast<int64_t>(mantissa.size() - first);
  int64_t magnitude = precision - scale;
  if (layer == Layer::kOlder) {  // computed in 32 bits there: wraps round
    magnitude = static_cast<int32_t>(static_cast<uint32_t>(magnitude));
  }
  if (magnitude > kMaxExponent) {
    return Error::Validation(
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  }
  if (magnitude < kMinExponent) {
    return Error::Validation(
        "Number underflow. Attempting to store a number with magnitude smaller than supported "
        "range");
  }
  if (zero) return Number();  // whatever its sign or exponent
  number.exponent_ = static_cast<int32_t>(magnitude);
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

namespace {

// |a| + |b| or |a| - |b| (|a| >= |b|) on digit strings aligned to the same scale.
std::string AddMagnitudes(const std::string& a, const std::string& b) {
  std::string sum(std::max(a.size(), b.size()) + 1, '0');
  int carry = 0;
  for (size_t i = 0; i < sum.size(); ++i) {
    const int x = i < a.size() ? a[a.size() - 1 - i] - '0' : 0;
    const int y = i < b.size() ? b[b.size() - 1 - i] - '0' : 0;
    const int digit = x + y + carry;
    sum[sum.size() - 1 - i] = static_cast<char>('0' + digit % 10);
    carry = digit / 10;
  }
  return sum;
}

std::string SubtractMagnitudes(const std::string& a, const std::string& b) {
  std::string difference(a.size(), '0');
  int borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int digit =
        (a[a.size() - 1 - i] - '0') - (i < b.size() ? b[b.size() - 1 - i] - '0' : 0) - borrow;
    borrow = digit < 0;
    if (digit < 0) digit += 10;
    difference[difference.size() - 1 - i] = static_cast<char>('0' + digit);
  }
  return difference;
}

}  // namespace

Result<Number> Number::Add(const Number& other) const {
  if (other.IsZero()) return *this;
  if (IsZero()) return other;
  // Write both as integers scaled by 10^-scale, where scale is the smallest exponent of a digit.
  auto lowest = [](const Number& n) {
    return n.exponent_ - static_cast<int32_t>(n.digits_.size());
  };
  const int32_t scale = std::min(lowest(*this), lowest(other));
  auto integer = [scale](const Number& n) {
    return n.digits_ +
           std::string(
               static_cast<size_t>(n.exponent_ - static_cast<int32_t>(n.digits_.size()) - scale),
               '0');
  };
  std::string a = integer(*this);
  std::string b = integer(other);
  bool negative = negative_;
  std::string magnitude;
  if (negative_ == other.negative_) {
    magnitude = AddMagnitudes(a, b);
  } else {
    const bool a_larger = a.size() != b.size() ? a.size() > b.size() : a >= b;
    magnitude = a_larger ? SubtractMagnitudes(a, b) : SubtractMagnitudes(b, a);
    negative = a_larger ? negative_ : other.negative_;
  }
  // A result that needs more than 38 significant digits is, in DynamoDB's words for arithmetic,
  // an overflow (1E50 - 1), not the "more than 38 significant digits" of a stored literal.
  const size_t first = magnitude.find_first_not_of('0');
  if (first != std::string::npos &&
      magnitude.find_last_not_of('0') - first + 1 > kMaxSignificantDigits) {
    return Error::Validation(
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  }
  return Parse((negative ? "-" : "") + magnitude + "E" + std::to_string(scale));
}

Result<Number> Number::Subtract(const Number& other) const {
  Number negated = other;
  if (!negated.IsZero()) negated.negative_ = !negated.negative_;
  return Add(negated);
}

void Number::AppendOrderedBytes(std::string& out) const {
  AppendOrdered(out, negative_, exponent_, digits_);
}

bool Number::AppendOrderedBytesOfText(std::string& out, std::string_view canonical) {
  if (canonical == "0") {
    out.push_back('\x02');
    return true;
  }
  const bool negative = !canonical.empty() && canonical[0] == '-';
  const std::string_view text = canonical.substr(negative ? 1 : 0);
  // value = 0.DIGITS * 10^exponent: "0.00ddd" has -2, "ddd.dd" and "ddd00" the integer digits'
  // count.
  char digits[kMaxSignificantDigits];
  size_t count = 0;
  int64_t exponent = 0;
  size_t at = 0;
  if (text.starts_with("0.")) {
    at = 2;
    while (at < text.size() && text[at] == '0') ++at;
    exponent = -static_cast<int64_t>(at - 2);
  } else if (text.empty() || !IsDigit(text[0]) || text[0] == '0') {
    return false;
  }
  bool point = at > 0;
  for (; at < text.size(); ++at) {
    if (text[at] == '.' && !point) {
      point = true;
      exponent = static_cast<int64_t>(count);
      continue;
    }
    if (!IsDigit(text[at])) return false;
    // Trailing zeros of an integer count in its exponent, not its digits.
    if (count == kMaxSignificantDigits && text[at] != '0') return false;
    if (count < kMaxSignificantDigits) digits[count] = text[at];
    ++count;
  }
  if (!point) exponent = static_cast<int64_t>(count);
  count = std::min(count, kMaxSignificantDigits);
  while (count > 0 && digits[count - 1] == '0') --count;
  if (count == 0 || exponent > kMaxExponent || exponent < kMinExponent) return false;
  AppendOrdered(out, negative, static_cast<int32_t>(exponent), std::string_view(digits, count));
  return true;
}

std::optional<float> NumberAsF32(std::string_view text) {
  float value = 0;
  const char* end = text.data() + text.size();
  auto [at, problem] = std::from_chars(text.data(), end, value);
  if (problem != std::errc() || at != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace ddbd
