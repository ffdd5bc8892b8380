#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace qs::run {

// An append-only sequence in fixed-size chunks: growing never moves or
// copies what is there (no reallocation spike on the thread that appends,
// no twice-the-size moment), and a reference stays valid. ChunkSize is a
// power of two, so indexing is a shift and a mask.
// Threading: none (that of its owner).
template <typename T, std::size_t ChunkSize>
class ChunkedVector {
    static_assert(ChunkSize > 0 && (ChunkSize & (ChunkSize - 1)) == 0);

public:
    void push_back(const T& value) {
        if (size_ % ChunkSize == 0) {
            chunks_.emplace_back();
            chunks_.back().reserve(ChunkSize);
        }
        chunks_.back().push_back(value);
        ++size_;
    }

    // Grows to `count` elements, the new ones `value` (never shrinks).
    void growTo(std::size_t count, const T& value) {
        while (size_ < count)
            push_back(value);
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const T& operator[](std::size_t index) const {
        return chunks_[index / ChunkSize][index % ChunkSize];
    }
    T& operator[](std::size_t index) { return chunks_[index / ChunkSize][index % ChunkSize]; }
    const T& back() const { return chunks_.back().back(); }

    // Elements [k * ChunkSize, min((k + 1) * ChunkSize, size())), contiguous.
    static constexpr std::size_t chunkSize() { return ChunkSize; }
    std::size_t chunkCount() const { return chunks_.size(); }
    std::span<const T> chunk(std::size_t k) const { return chunks_[k]; }

    // Appends every element to `out` (a copy of the whole sequence, chunk by chunk).
    void appendTo(std::vector<T>& out) const {
        out.reserve(out.size() + size_);
        for (const std::vector<T>& c : chunks_)
            out.insert(out.end(), c.begin(), c.end());
    }

    // Reserved chunks plus the chunk table (not any heap memory a T owns).
    std::size_t memoryBytes() const {
        return chunks_.size() * ChunkSize * sizeof(T) + chunks_.capacity() * sizeof(std::vector<T>);
    }

private:
    std::vector<std::vector<T>> chunks_;
    std::size_t size_ = 0;
};

}  // namespace qs::run
