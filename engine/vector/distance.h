// Vector search's scores (issue 41; ../shared/aws-semantics.md section 11): a vector's elements
// are f32, products and sums accumulate in f64, and a score saturates at +-FLT_MAX. COSINE is
// a distance in [0, 2] (a zero vector on either side scores 1.0), EUCLIDEAN the distance, both
// best when smallest; DOT_PRODUCT the product, best when largest.
//
// The kernels run with the widest vector unit the machine offers (chosen when the program
// starts), and give the same bits whichever they use: every lane of the sums is the same f64
// arithmetic in the same order, and an f32 product is exact in f64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace ddbd::vector {

enum class DistanceFunction : uint8_t { kCosine, kEuclidean, kDotProduct };

// A vector's own figure a score needs again and again: its squared norm, for COSINE.
double SquaredNorm(std::span<const float> v);

// The score of `candidate` against `query` (of one length), with `candidate_norm` its
// SquaredNorm and `query_norm` the query's (used by COSINE only).
double Score(DistanceFunction function, std::span<const float> query, double query_norm,
             std::span<const float> candidate, double candidate_norm);

// Whether a larger score is the better match (DOT_PRODUCT) or a smaller (the distances).
inline bool LargerIsBetter(DistanceFunction function) {
  return function == DistanceFunction::kDotProduct;
}

// The sums the scores are made of, exposed for tests and the benchmark.
double Dot(const float* a, const float* b, size_t n);
double SquaredDistance(const float* a, const float* b, size_t n);

// Which vector unit the kernels use here ("avx2", "avx512f" or "default").
const char* KernelName();

}  // namespace ddbd::vector
