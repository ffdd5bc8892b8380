#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace qs::run {

// A fixed-size array of trivial values allocated zeroed by the system
// (calloc): a large hash table's pages are touched only as it fills, so an
// empty or small table costs no resident memory. Throws std::bad_alloc.
// Threading: none (that of its owner).
template <typename T>
class ZeroedArray {
    static_assert(std::is_trivial_v<T>);

public:
    ZeroedArray() = default;
    explicit ZeroedArray(std::size_t count)
        : values_(static_cast<T*>(std::calloc(count, sizeof(T)))), count_(count) {
        if (!values_)
            throw std::bad_alloc();
    }

    std::size_t size() const { return count_; }
    T& operator[](std::size_t i) { return values_.get()[i]; }
    const T& operator[](std::size_t i) const { return values_.get()[i]; }
    T* data() { return values_.get(); }

private:
    struct Free {
        void operator()(T* values) const { std::free(values); }
    };
    std::unique_ptr<T[], Free> values_;
    std::size_t count_ = 0;
};

}  // namespace qs::run
