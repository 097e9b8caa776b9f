#include "engine/vector/distance.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

// On x86-64 each kernel is built for AVX-512, AVX2 and the baseline, and the loader picks the
// widest the machine has (GCC's and Clang's target_clones); elsewhere the baseline alone.
#if defined(__x86_64__) && defined(__GNUC__)
#define DDBD_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DDBD_VECTOR_CLONES
#endif

namespace ddbd::vector {
namespace {

using Floats4 = float __attribute__((vector_size(16)));
using Doubles4 = double __attribute__((vector_size(32)));

// Four elements widened to f64. The vectors go by reference: a 32-byte vector passed by value
// has another ABI with AVX than without, which the compilers refuse to mix across clones.
[[gnu::always_inline]] inline void Widen(const float* p, Doubles4& out) {
  Floats4 floats;
  std::memcpy(&floats, p, sizeof floats);
  out = __builtin_convertvector(floats, Doubles4);
}

[[gnu::always_inline]] inline void AddProducts(const float* a, const float* b, Doubles4& sum) {
  Doubles4 x, y;
  Widen(a, x);
  Widen(b, y);
  sum += x * y;
}

[[gnu::always_inline]] inline void AddSquaredDifferences(const float* a, const float* b,
                                                         Doubles4& sum) {
  Doubles4 x, y;
  Widen(a, x);
  Widen(b, y);
  const Doubles4 d = x - y;
  sum += d * d;
}

// The sum of 16 lanes, in one fixed order.
[[gnu::always_inline]] inline double Total(const Doubles4& s0, const Doubles4& s1,
                                           const Doubles4& s2, const Doubles4& s3) {
  const Doubles4 s = (s0 + s1) + (s2 + s3);
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// Sixteen partial sums (four accumulators of four lanes), so that the units' latency is hidden
// and every machine adds the same numbers in the same order.
DDBD_VECTOR_CLONES double DotKernel(const float* a, const float* b, size_t n) {
  Doubles4 s0 = {}, s1 = {}, s2 = {}, s3 = {};
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    AddProducts(a + i, b + i, s0);
    AddProducts(a + i + 4, b + i + 4, s1);
    AddProducts(a + i + 8, b + i + 8, s2);
    AddProducts(a + i + 12, b + i + 12, s3);
  }
  for (; i + 4 <= n; i += 4) AddProducts(a + i, b + i, s0);
  double tail = 0;
  for (; i < n; ++i) tail += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  return Total(s0, s1, s2, s3) + tail;
}

DDBD_VECTOR_CLONES double SquaredDistanceKernel(const float* a, const float* b, size_t n) {
  Doubles4 s0 = {}, s1 = {}, s2 = {}, s3 = {};
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    AddSquaredDifferences(a + i, b + i, s0);
    AddSquaredDifferences(a + i + 4, b + i + 4, s1);
    AddSquaredDifferences(a + i + 8, b + i + 8, s2);
    AddSquaredDifferences(a + i + 12, b + i + 12, s3);
  }
  for (; i + 4 <= n; i += 4) AddSquaredDifferences(a + i, b + i, s0);
  double tail = 0;
  for (; i < n; ++i) {
    const double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    tail += d * d;
  }
  return Total(s0, s1, s2, s3) + tail;
}

double Saturated(double score) { return std::clamp(score, -double{FLT_MAX}, double{FLT_MAX}); }

}  // namespace

double Dot(const float* a, const float* b, size_t n) { return DotKernel(a, b, n); }

double SquaredDistance(const float* a, const float* b, size_t n) {
  return SquaredDistanceKernel(a, b, n);
}

double SquaredNorm(std::span<const float> v) { return Dot(v.data(), v.data(), v.size()); }

double Score(DistanceFunction function, std::span<const float> query, double query_norm,
             std::span<const float> candidate, double candidate_norm) {
  const size_t n = std::min(query.size(), candidate.size());
  switch (function) {
    case DistanceFunction::kDotProduct:
      return Saturated(Dot(query.data(), candidate.data(), n));
    case DistanceFunction::kEuclidean:
      return Saturated(std::sqrt(SquaredDistance(query.data(), candidate.data(), n)));
    case DistanceFunction::kCosine:
      break;
  }
  // A zero vector has no direction: DynamoDB scores it 1.0, as if orthogonal.
  if (query_norm == 0 || candidate_norm == 0) return 1.0;
  const double cosine =
      Dot(query.data(), candidate.data(), n) / (std::sqrt(query_norm) * std::sqrt(candidate_norm));
  return std::clamp(1.0 - cosine, 0.0, 2.0);
}

const char* KernelName() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "avx512f";
  if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
  return "default";
}

}  // namespace ddbd::vector
