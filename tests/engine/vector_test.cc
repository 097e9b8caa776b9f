// Vector search's scoring (issue 41): each distance function against a reference, zero vectors,
// saturation at +-FLT_MAX, the same bits on every vector unit, and the k best kept exactly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/vector/distance.h"
#include "engine/vector/top_k.h"

namespace ddbd::vector {
namespace {

std::vector<float> Random(std::mt19937& random, size_t n, float scale = 1.0f) {
  std::uniform_real_distribution<float> element(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = element(random);
  return v;
}

// The kernels' own order of additions, lane by lane, written plainly: 16 partial sums over
// blocks of 16, the next blocks of 4 into the first 4, the rest on their own.
template <typename Term>
double InKernelOrder(const std::vector<float>& a, const std::vector<float>& b, Term term) {
  double lanes[16] = {};
  size_t i = 0;
  for (; i + 16 <= a.size(); i += 16) {
    for (size_t j = 0; j < 16; ++j) lanes[j] += term(a[i + j], b[i + j]);
  }
  for (; i + 4 <= a.size(); i += 4) {
    for (size_t j = 0; j < 4; ++j) lanes[j] += term(a[i + j], b[i + j]);
  }
  double tail = 0;
  for (; i < a.size(); ++i) tail += term(a[i], b[i]);
  double s[4];
  for (size_t j = 0; j < 4; ++j) s[j] = (lanes[j] + lanes[4 + j]) + (lanes[8 + j] + lanes[12 + j]);
  return ((s[0] + s[1]) + (s[2] + s[3])) + tail;
}

double Product(float a, float b) { return static_cast<double>(a) * static_cast<double>(b); }
double SquaredDifference(float a, float b) {
  const double d = static_cast<double>(a) - static_cast<double>(b);
  return d * d;
}

TEST_CASE("Sums are f64 over f32 elements, the same bits on every vector unit") {
  INFO("kernel: " << KernelName());
  std::mt19937 random(41);
  for (size_t n : {1u, 3u, 4u, 5u, 15u, 16u, 17u, 31u, 33u, 100u, 768u, 4096u}) {
    const auto a = Random(random, n, 100.0f);
    const auto b = Random(random, n, 100.0f);
    CHECK(Dot(a.data(), b.data(), n) == InKernelOrder(a, b, Product));
    CHECK(SquaredDistance(a.data(), b.data(), n) == InKernelOrder(a, b, SquaredDifference));
    // Wherever the vectors lie in memory.
    std::vector<float> shifted(n + 1);
    std::memcpy(shifted.data() + 1, a.data(), n * sizeof(float));
    CHECK(Dot(shifted.data() + 1, b.data(), n) == Dot(a.data(), b.data(), n));
    // And near a reference in long double.
    long double dot = 0;
    for (size_t i = 0; i < n; ++i) dot += static_cast<long double>(a[i]) * b[i];
    CHECK(Dot(a.data(), b.data(), n) == Approx(static_cast<double>(dot)).epsilon(1e-12));
  }
}

TEST_CASE("Each distance function scores as DynamoDB does") {
  auto score = [](DistanceFunction f, std::vector<float> q, std::vector<float> c) {
    return Score(f, q, SquaredNorm(q), c, SquaredNorm(c));
  };
  using F = DistanceFunction;
  CHECK(score(F::kCosine, {1, 2, 3}, {2, 4, 6}) == Approx(0.0).margin(1e-15));
  CHECK(score(F::kCosine, {1, 0}, {0, 5}) == Approx(1.0));
  CHECK(score(F::kCosine, {1, 2}, {-1, -2}) == Approx(2.0));
  CHECK(score(F::kCosine, {1, 1}, {1, 0}) == Approx(1.0 - std::sqrt(0.5)));
  // A zero vector on either side scores 1.0.
  CHECK(score(F::kCosine, {0, 0, 0}, {1, 2, 3}) == 1.0);
  CHECK(score(F::kCosine, {1, 2, 3}, {0, 0, 0}) == 1.0);
  CHECK(score(F::kCosine, {0, 0}, {0, 0}) == 1.0);
  CHECK(score(F::kEuclidean, {0, 0}, {3, 4}) == 5.0);
  CHECK(score(F::kEuclidean, {1.5f, -2}, {1.5f, -2}) == 0.0);
  CHECK(score(F::kDotProduct, {1, 2, 3}, {4, -5, 6}) == 12.0);
  CHECK(LargerIsBetter(F::kDotProduct));
  CHECK_FALSE(LargerIsBetter(F::kCosine));
  CHECK_FALSE(LargerIsBetter(F::kEuclidean));
}

TEST_CASE("Scores saturate at +-FLT_MAX") {
  auto score = [](DistanceFunction f, std::vector<float> q, std::vector<float> c) {
    return Score(f, q, SquaredNorm(q), c, SquaredNorm(c));
  };
  using F = DistanceFunction;
  const float big = FLT_MAX;
  CHECK(score(F::kDotProduct, {big, big}, {big, big}) == FLT_MAX);
  CHECK(score(F::kDotProduct, {big, big}, {-big, -big}) == -FLT_MAX);
  CHECK(score(F::kEuclidean, {big}, {-big}) == FLT_MAX);
  // Large but finite products are exact in f64, so COSINE stays in range.
  CHECK(score(F::kCosine, {big, big}, {big, big}) == Approx(0.0).margin(1e-12));
  CHECK(score(F::kCosine, {big, 0}, {-big, 0}) == Approx(2.0));
}

TEST_CASE("The k best are kept, ties in key order, then ordinal") {
  std::mt19937 random(7);
  for (const bool larger : {false, true}) {
    for (size_t k : {1u, 3u, 10u, 100u}) {
      std::vector<Match> all;
      TopK top(k, larger);
      std::uniform_int_distribution<int> coarse(0, 20);  // many ties
      // Keys run against the ordinals (and a few repeat), so ties go by key, then ordinal.
      std::vector<std::string> keys(500);
      for (uint32_t i = 0; i < 500; ++i) keys[i] = std::to_string(1000 - i / 2);
      for (uint32_t i = 0; i < 500; ++i) {
        const Match m{coarse(random) / 4.0, i, keys[i]};
        all.push_back(m);
        top.Offer(m);
      }
      std::sort(all.begin(), all.end(), [&](const Match& a, const Match& b) {
        if (a.score != b.score) return larger ? a.score > b.score : a.score < b.score;
        if (a.key != b.key) return a.key < b.key;
        return a.ordinal < b.ordinal;
      });
      all.resize(std::min(k, all.size()));
      const std::vector<Match> kept = top.Take();
      REQUIRE(kept.size() == all.size());
      for (size_t i = 0; i < kept.size(); ++i) {
        CHECK(kept[i].score == all[i].score);
        CHECK(kept[i].ordinal == all[i].ordinal);
      }
    }
  }
  TopK none(0, true);
  none.Offer({1.0, 0, ""});
  CHECK(none.Take().empty());
}

}  // namespace
}  // namespace ddbd::vector
