#ifndef COTBUILDER_IMPL_HOST_TILING_BUFFER_SCOPE_H
#define COTBUILDER_IMPL_HOST_TILING_BUFFER_SCOPE_H
// The raw tiling buffer of the TilingFunc running now (set around the call by whoever runs it: the aclnn layer, the
// kernel-UT trampoline). A TilingData pointed into it with SetDataPtr copies itself there without being told the
// capacity; the copy is cut at the buffer's end and the size it wanted is remembered, so an oversized tiling is the
// same host failure as one written with SaveToBuffer and SetDataSize, and never a write past the buffer.
#include <cstddef>
#include <cstdint>

namespace cbemu {
class TilingBufferScope {
public:
    TilingBufferScope(void* data, size_t capacity)
        : data_(static_cast<uint8_t*>(data)), capacity_(capacity), prev_(current()) {
        current() = this;
    }
    ~TilingBufferScope() { current() = prev_; }
    TilingBufferScope(const TilingBufferScope&) = delete;
    TilingBufferScope& operator=(const TilingBufferScope&) = delete;

    static TilingBufferScope*& current() {
        static thread_local TilingBufferScope* scope = nullptr;
        return scope;
    }
    // How many of the `n` bytes to copy to `to`: all of them outside this buffer, up to its end inside it.
    size_t room(const void* to, size_t n) {
        const uint8_t* p = static_cast<const uint8_t*>(to);
        if (p < data_ || p > data_ + capacity_) return n;
        size_t offset = static_cast<size_t>(p - data_);
        if (offset + n > wanted_) wanted_ = offset + n;
        return n < capacity_ - offset ? n : capacity_ - offset;
    }
    // The end of the largest copy asked for (0: none): more than the capacity is a host failure.
    size_t wanted() const { return wanted_; }

private:
    uint8_t* data_;
    size_t capacity_;
    TilingBufferScope* prev_;
    size_t wanted_ = 0;
};
}  // namespace cbemu
#endif
