#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "run/spill_file.h"

namespace qs::run {

// A sequence of plain values in fixed-size chunks (like ChunkedVector:
// growing never moves what is there) whose old chunks can leave RAM: after
// spillTo(), only the newest full chunks stay in memory, older ones are
// written to the SpillFile and read back, a chunk at a time, through a small
// cache when asked for. This is how a long live run keeps its memory flat
// (docs/run.md, "A flat live run").
//
// Most lists are only appended to. A column of per-message values is also
// changed in place (set()): a spilled chunk then comes back into RAM and
// stays while it is among the kWarmChunks old chunks changed most recently,
// then is written back over its copy in the file (the file does not grow).
//
// Elements are read by value (operator[]): a spilled chunk's cache slot may
// be reused by the next read, so there is no reference to hand out. The
// first element of every chunk stays in RAM (chunkFront) for searches.
//
// Threading: none, not even for const reads (they fill the cache); that of
// its owner, the Run.
template <typename T, std::size_t ChunkSize>
class SpillingChunks {
    static_assert(std::is_trivially_copyable_v<T>);
    static_assert(ChunkSize > 0 && (ChunkSize & (ChunkSize - 1)) == 0);

public:
    static constexpr std::size_t kCachedChunks = 4;
    // Spilled chunks that set() brought back and that stay in RAM.
    static constexpr std::size_t kWarmChunks = 8;

    void push_back(const T& value) {
        const std::size_t at = size_ % ChunkSize;
        if (at == 0) {
            chunks_.push_back({std::make_unique_for_overwrite<T[]>(ChunkSize), 0});
            fronts_.push_back(value);
            spillOld();
        }
        chunks_.back().data[at] = value;
        ++size_;
    }

    // Appends `values` (in bulk within a chunk: a text's bytes, say).
    void append(std::span<const T> values) {
        while (!values.empty()) {
            if (size_ % ChunkSize == 0) {  // a new chunk (and maybe a spill)
                push_back(values.front());
                values = values.subspan(1);
                continue;
            }
            const std::size_t n = std::min(values.size(), ChunkSize - size_ % ChunkSize);
            std::copy_n(values.data(), n, chunks_.back().data.get() + size_ % ChunkSize);
            size_ += n;
            values = values.subspan(n);
        }
    }

    // Grows to `count` elements, the new ones `value` (never shrinks).
    void growTo(std::size_t count, const T& value) {
        while (size_ < count) {
            if (size_ % ChunkSize == 0) {
                push_back(value);
                continue;
            }
            const std::size_t n = std::min(count - size_, ChunkSize - size_ % ChunkSize);
            std::fill_n(chunks_.back().data.get() + size_ % ChunkSize, n, value);
            size_ += n;
        }
    }

    // Changes element `index` (< size()).
    void set(std::size_t index, const T& value) {
        const std::size_t k = index / ChunkSize;
        T* data = chunks_[k].data.get();
        if (data == nullptr)
            data = bringBack(k);
        else if (k < spilled_)
            noteWarmUse(k);
        data[index % ChunkSize] = value;
        if (index % ChunkSize == 0)
            fronts_[k] = value;
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T operator[](std::size_t index) const {
        const std::size_t k = index / ChunkSize;
        if (const T* inRam = chunks_[k].data.get()) {
            return inRam[index % ChunkSize];
        }
        return readBack(k)[index % ChunkSize];
    }
    T back() const { return (*this)[size_ - 1]; }

    static constexpr std::size_t chunkSize() { return ChunkSize; }
    // The elements of chunk k, contiguous; valid until the next read or change.
    std::span<const T> chunk(std::size_t k) const {
        const std::size_t count = std::min(ChunkSize, size_ - k * ChunkSize);
        const T* inRam = chunks_[k].data.get();
        return {inRam != nullptr ? inRam : readBack(k), count};
    }
    std::size_t chunkCount() const { return chunks_.size(); }
    const T& chunkFront(std::size_t k) const { return fronts_[k]; }

    // From now on keeps the newest `chunksInRam` full chunks (and the one
    // being filled) in RAM and writes older ones to `file`. When a write
    // fails, spilling stops (spillError() says why) and nothing is lost: the
    // chunks stay in RAM.
    void spillTo(std::shared_ptr<SpillFile> file, std::size_t chunksInRam) {
        if (spilled_ == 0)  // chunks spilled already stay in the first file
            file_ = std::move(file);
        spilling_ = file_ != nullptr;
        chunksInRam_ = chunksInRam;
        spillOld();
    }
    std::size_t spilledChunks() const { return spilled_; }
    // Also writes the chunks before chunk k to the file now (never the one
    // being filled), for an owner that knows which are old (TextLog).
    void spillBefore(std::size_t k) {
        k = std::min(k, chunks_.empty() ? 0 : chunks_.size() - 1);
        while (spilling_ && spilled_ < k)
            spillOldest();
    }

    // Appends every element to `out`, chunk by chunk.
    void appendTo(std::vector<T>& out) const {
        out.reserve(out.size() + size_);
        for (std::size_t k = 0; k < chunks_.size(); ++k) {
            const std::span<const T> c = chunk(k);
            out.insert(out.end(), c.begin(), c.end());
        }
    }
    const std::string& spillError() const { return spillError_; }

    // RAM: the chunks held, the cache's buffers and the tables.
    std::size_t memoryBytes() const {
        std::size_t cacheBuffers = 0;
        for (const CacheSlot& slot : cache_)
            cacheBuffers += slot.data ? 1 : 0;
        const std::size_t inRam = chunks_.size() - spilled_ + warm_.size() + keptAfterFailure_;
        return (inRam + cacheBuffers) * ChunkSize * sizeof(T) +
               chunks_.capacity() * sizeof(Chunk) + fronts_.capacity() * sizeof(T);
    }
    std::uint64_t spilledBytes() const {
        return static_cast<std::uint64_t>(spilled_) * ChunkSize * sizeof(T);
    }

private:
    static constexpr std::size_t kNoChunk = std::numeric_limits<std::size_t>::max();
    struct Chunk {
        std::unique_ptr<T[]> data;  // null once spilled
        std::uint64_t offset;       // in the spill file, once spilled
    };
    struct CacheSlot {
        std::size_t chunk = kNoChunk;
        std::uint64_t lastUse = 0;
        std::unique_ptr<T[]> data;
    };

    // Spilled chunks are always the oldest: [0, spilled_).
    void spillOld() {
        while (spilling_ && chunks_.size() - spilled_ > chunksInRam_ + 1)
            spillOldest();
    }

    void spillOldest() {
        Chunk& oldest = chunks_[spilled_];
        const auto offset = file_->append(oldest.data.get(), ChunkSize * sizeof(T), &spillError_);
        if (!offset) {
            spilling_ = false;  // the file keeps what it has; the rest stays in RAM
            return;
        }
        oldest = {nullptr, *offset};
        ++spilled_;
    }

    // Brings spilled chunk k back into RAM to be changed (from the cache if
    // it is there); the least recently changed warm chunk goes back out.
    T* bringBack(std::size_t k) {
        auto data = std::make_unique_for_overwrite<T[]>(ChunkSize);
        const T* copy = readBack(k);
        std::copy(copy, copy + ChunkSize, data.get());
        for (CacheSlot& slot : cache_)  // RAM holds it now: no second copy to go stale
            if (slot.chunk == k)
                slot.chunk = kNoChunk;
        chunks_[k].data = std::move(data);
        warm_.push_back(k);
        if (warm_.size() > kWarmChunks) {
            const std::size_t coldest = warm_.front();
            warm_.erase(warm_.begin());
            writeBack(coldest);
        }
        return chunks_[k].data.get();
    }

    void noteWarmUse(std::size_t k) {
        if (!warm_.empty() && warm_.back() == k)
            return;
        const auto it = std::find(warm_.begin(), warm_.end(), k);
        if (it != warm_.end())  // else it stayed in RAM for good (a failed write)
            std::rotate(it, it + 1, warm_.end());
    }

    // Writes chunk k over its copy in the file and frees it. If the write
    // fails, spilling stops and the chunk stays in RAM: nothing is lost.
    void writeBack(std::size_t k) {
        Chunk& chunk = chunks_[k];
        if (spilling_ && file_->overwrite(chunk.offset, chunk.data.get(), ChunkSize * sizeof(T),
                                          &spillError_)) {
            chunk.data.reset();
            return;
        }
        spilling_ = false;
        ++keptAfterFailure_;
    }

    const T* readBack(std::size_t k) const {
        ++clock_;
        CacheSlot* victim = &cache_[0];
        for (CacheSlot& slot : cache_) {
            if (slot.chunk == k) {
                slot.lastUse = clock_;
                return slot.data.get();
            }
            if (slot.lastUse < victim->lastUse)
                victim = &slot;
        }
        if (!victim->data)
            victim->data = std::make_unique_for_overwrite<T[]>(ChunkSize);
        victim->chunk = kNoChunk;  // until the read succeeds
        file_->read(chunks_[k].offset, victim->data.get(), ChunkSize * sizeof(T));
        victim->chunk = k;
        victim->lastUse = clock_;
        return victim->data.get();
    }

    std::vector<Chunk> chunks_;
    std::vector<T> fronts_;  // chunk k's first element
    std::size_t size_ = 0;
    std::size_t spilled_ = 0;  // chunks [0, spilled_) have a copy in the file
    // Of those, the ones set() brought back into RAM, least recently changed first.
    std::vector<std::size_t> warm_;
    std::size_t keptAfterFailure_ = 0;  // brought back, and in RAM for good
    std::size_t chunksInRam_ = 0;
    std::shared_ptr<SpillFile> file_;  // holds chunks [0, spilled_)
    bool spilling_ = false;            // older chunks go on leaving RAM
    std::string spillError_;
    mutable std::array<CacheSlot, kCachedChunks> cache_;
    mutable std::uint64_t clock_ = 0;
};

}  // namespace qs::run
